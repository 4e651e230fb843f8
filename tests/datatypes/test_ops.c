/*
 * test_ops: every predefined operation (MPI_REPLACE and MPI_NO_OP too) on
 * every predefined type, through mpicoll (allreduce with every algorithm,
 * reduce at both ends, reduce_scatter_block, and their non-blocking
 * forms), against the MPI library's own result (PMPI_Allreduce & co.) on
 * the same inputs, byte for byte, on communicators of every size 1..np.
 *
 *   test_ops api         mpicoll_<coll>_with(algorithm, ...) and
 *                        mpicoll_i<coll> against PMPI_
 *   test_ops_plain preload
 *                        MPI_<Coll> (run under libmpicoll_preload.so, so
 *                        mpicoll's) against PMPI_; built without mpicoll
 *                        (TEST_OPS_PLAIN), as an unmodified program is
 *
 * What the library accepts is decided at run time, by its own collective
 * (the non-blocking form, completed by yield_wait: MPICH's blocking
 * collectives spin, which costs seconds with 4 ranks on 2 cores):
 * where it computes a result, mpicoll must compute the same bytes
 * (MPI_CHAR included: the library's own result is the reference, even
 * where a sum wraps); where it refuses a combination, mpicoll must refuse
 * it with the same error class. Inputs are small integers (0 or 1 for
 * logical types), so floating-point results do not depend on the order
 * of the additions. The exit code is 1 if any rank failed any case.
 */
#include <mpi.h>
#ifndef TEST_OPS_PLAIN
#include <mpicoll.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yield_wait.h"

#define N 5                 /* elements per rank and block */

enum kind { K_INT, K_BOOL, K_FLOAT, K_DOUBLE, K_LDOUBLE, K_CFLOAT, K_CDOUBLE, K_CLDOUBLE,
            K_FLOAT_INT, K_DOUBLE_INT, K_LONG_INT, K_2INT, K_SHORT_INT, K_LDOUBLE_INT,
            K_2FLOAT, K_2DOUBLE };

typedef struct tdesc {
    MPI_Datatype t;
    const char *name;
    enum kind kind;
} tdesc;

#define T(type, kind) { type, #type, kind }
static const tdesc types[] = {
    T(MPI_CHAR, K_INT), T(MPI_SIGNED_CHAR, K_INT), T(MPI_UNSIGNED_CHAR, K_INT),
    T(MPI_BYTE, K_INT), T(MPI_WCHAR, K_INT), T(MPI_SHORT, K_INT),
    T(MPI_UNSIGNED_SHORT, K_INT), T(MPI_INT, K_INT), T(MPI_UNSIGNED, K_INT),
    T(MPI_LONG, K_INT), T(MPI_UNSIGNED_LONG, K_INT), T(MPI_LONG_LONG_INT, K_INT),
    T(MPI_UNSIGNED_LONG_LONG, K_INT), T(MPI_INT8_T, K_INT), T(MPI_INT16_T, K_INT),
    T(MPI_INT32_T, K_INT), T(MPI_INT64_T, K_INT), T(MPI_UINT8_T, K_INT),
    T(MPI_UINT16_T, K_INT), T(MPI_UINT32_T, K_INT), T(MPI_UINT64_T, K_INT),
    T(MPI_AINT, K_INT), T(MPI_OFFSET, K_INT), T(MPI_COUNT, K_INT), T(MPI_C_BOOL, K_BOOL),
    T(MPI_FLOAT, K_FLOAT), T(MPI_DOUBLE, K_DOUBLE), T(MPI_LONG_DOUBLE, K_LDOUBLE),
    T(MPI_C_FLOAT_COMPLEX, K_CFLOAT), T(MPI_C_DOUBLE_COMPLEX, K_CDOUBLE),
    T(MPI_C_LONG_DOUBLE_COMPLEX, K_CLDOUBLE), T(MPI_FLOAT_INT, K_FLOAT_INT),
    T(MPI_DOUBLE_INT, K_DOUBLE_INT), T(MPI_LONG_INT, K_LONG_INT), T(MPI_2INT, K_2INT),
    T(MPI_SHORT_INT, K_SHORT_INT), T(MPI_LONG_DOUBLE_INT, K_LDOUBLE_INT),
    T(MPI_INTEGER, K_INT), T(MPI_REAL, K_FLOAT), T(MPI_DOUBLE_PRECISION, K_DOUBLE),
    T(MPI_LOGICAL, K_BOOL), T(MPI_COMPLEX, K_CFLOAT), T(MPI_DOUBLE_COMPLEX, K_CDOUBLE),
    T(MPI_2REAL, K_2FLOAT), T(MPI_2DOUBLE_PRECISION, K_2DOUBLE), T(MPI_2INTEGER, K_2INT),
    T(MPI_PACKED, K_INT),
    /* optional in MPI (MPI_DATATYPE_NULL, or not defined, where missing) */
#ifdef MPI_INTEGER1
    T(MPI_INTEGER1, K_INT),
#endif
#ifdef MPI_INTEGER2
    T(MPI_INTEGER2, K_INT),
#endif
#ifdef MPI_INTEGER4
    T(MPI_INTEGER4, K_INT),
#endif
#ifdef MPI_INTEGER8
    T(MPI_INTEGER8, K_INT),
#endif
#ifdef MPI_REAL4
    T(MPI_REAL4, K_FLOAT),
#endif
#ifdef MPI_REAL8
    T(MPI_REAL8, K_DOUBLE),
#endif
#ifdef MPI_REAL16
    T(MPI_REAL16, K_LDOUBLE),
#endif
#ifdef MPI_COMPLEX8
    T(MPI_COMPLEX8, K_CFLOAT),
#endif
#ifdef MPI_COMPLEX16
    T(MPI_COMPLEX16, K_CDOUBLE),
#endif
#ifdef MPI_COMPLEX32
    T(MPI_COMPLEX32, K_CLDOUBLE),
#endif
#ifdef MPI_CXX_BOOL
    T(MPI_CXX_BOOL, K_BOOL),
#endif
#ifdef MPI_CXX_FLOAT_COMPLEX
    T(MPI_CXX_FLOAT_COMPLEX, K_CFLOAT), T(MPI_CXX_DOUBLE_COMPLEX, K_CDOUBLE),
    T(MPI_CXX_LONG_DOUBLE_COMPLEX, K_CLDOUBLE),
#endif
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static const struct {
    MPI_Op op;
    const char *name;
} ops[] = {
    { MPI_MAX, "MPI_MAX" },   { MPI_MIN, "MPI_MIN" },   { MPI_SUM, "MPI_SUM" },
    { MPI_PROD, "MPI_PROD" }, { MPI_LAND, "MPI_LAND" }, { MPI_BAND, "MPI_BAND" },
    { MPI_LOR, "MPI_LOR" },   { MPI_BOR, "MPI_BOR" },   { MPI_LXOR, "MPI_LXOR" },
    { MPI_BXOR, "MPI_BXOR" }, { MPI_MAXLOC, "MPI_MAXLOC" }, { MPI_MINLOC, "MPI_MINLOC" },
    /* for one-sided accumulates; a library may take them in collectives */
    { MPI_REPLACE, "MPI_REPLACE" }, { MPI_NO_OP, "MPI_NO_OP" },
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

/* Element j of rank r: v small (0 or 1 for logical types), the index of a
 * *LOC pair r * 10 + j. Every byte of the element is written (padding
 * zero), so results compare byte for byte. */
static void put(const tdesc *d, int size, char *at, int r, int j)
{
    const int v = (r + 1) * (j + 2) % 7, idx = r * 10 + j;
    memset(at, 0, (size_t)size);
#define PAIR(vt, it) do { struct { vt a; it b; } e; memset(&e, 0, sizeof e); e.a = (vt)v; \
                          e.b = (it)idx; memcpy(at, &e, sizeof e < (size_t)size ? sizeof e : (size_t)size); } while (0)
    switch (d->kind) {
    case K_INT: { int64_t x = v; memcpy(at, &x, (size_t)size < sizeof x ? (size_t)size : sizeof x); break; }
    case K_BOOL: { int64_t x = v & 1; memcpy(at, &x, (size_t)size < sizeof x ? (size_t)size : sizeof x); break; }
    case K_FLOAT: { float x = (float)v; memcpy(at, &x, sizeof x); break; }
    case K_DOUBLE: { double x = v; memcpy(at, &x, sizeof x); break; }
    case K_LDOUBLE: { long double x = v; memcpy(at, &x, 10); break; }
    case K_CFLOAT: PAIR(float, float); break;
    case K_CDOUBLE: PAIR(double, double); break;
    case K_CLDOUBLE: { long double x[2] = { v, idx }; memcpy(at, &x[0], 10);
                       memcpy(at + size / 2, &x[1], 10); break; }
    case K_FLOAT_INT: PAIR(float, int); break;
    case K_DOUBLE_INT: PAIR(double, int); break;
    case K_LONG_INT: PAIR(long, int); break;
    case K_2INT: PAIR(int, int); break;
    case K_SHORT_INT: PAIR(short, int); break;
    case K_LDOUBLE_INT: { long double x = v; int i = idx; memcpy(at, &x, 10);
                          memcpy(at + sizeof(long double), &i, sizeof i); break; }
    case K_2FLOAT: PAIR(float, float); break;
    case K_2DOUBLE: PAIR(double, double); break;
    }
#undef PAIR
}

/* MPICH 4.0 takes the logical operations on floating point, but: MPI_LAND
 * and MPI_LOR on C types abort in the reduction (an assertion in
 * opland.c), in its own collectives as in MPI_Reduce_local, so with more
 * than one rank the library cannot be the reference there (on one rank
 * nothing is reduced, and both must complete); on Fortran reals all three
 * leave the buffer as it was, so the library's result is whichever rank's
 * data its algorithm kept (MPI_Allreduce and MPI_Iallreduce differ, and
 * the ranks of one MPI_Iallreduce too): there mpicoll must complete, and
 * its bytes are not compared. mpicoll leaves all of these to the library. */
static int library_aborts(const tdesc *d, int o, int p)
{
#ifdef MPICH
    const MPI_Op op = ops[o].op;
    return p > 1 && (op == MPI_LAND || op == MPI_LOR) &&
           (d->t == MPI_FLOAT || d->t == MPI_DOUBLE || d->t == MPI_LONG_DOUBLE);
#else
    (void)d;
    (void)o;
    (void)p;
    return 0;
#endif
}

static int library_result_undefined(const tdesc *d, int o)
{
#ifdef MPICH
    const MPI_Op op = ops[o].op;
    return (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) && d->kind >= K_FLOAT &&
           d->kind <= K_LDOUBLE && d->t != MPI_FLOAT && d->t != MPI_DOUBLE &&
           d->t != MPI_LONG_DOUBLE;
#else
    (void)d;
    (void)o;
    return 0;
#endif
}

static int world_rank, comm_size, failures, compared, refused, undefined;

static void fail(const char *coll, const char *algo, const tdesc *d, int o, const char *what)
{
    if (++failures <= 40)
        printf("FAIL %s algorithm=%s type=%s op=%s np=%d rank=%d: %s\n", coll, algo, d->name,
               ops[o].name, comm_size, world_rank, what);
}

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

enum { ALLREDUCE, REDUCE, RSB };

/* The call under test: mpicoll's entry point with the algorithm named
 * (nb: its non-blocking form, waited for), or (algo NULL, and always in
 * the plain build) the MPI_ entry point. */
#ifdef TEST_OPS_PLAIN
#define VIA(api, nbapi, plain) (plain)
#else
#define VIA(api, nbapi, plain) (!algo ? (plain) : nb ? waited((nbapi), &req) : (api))

static int waited(int rc, mpicoll_request *req)
{
    return rc == MPI_SUCCESS ? mpicoll_wait(req) : rc;
}
#endif
static const char *const coll_names[] = { "allreduce", "reduce", "reduce_scatter_block" };

/* One call through mpicoll (algo NULL: MPI_<Coll>, the preload library's)
 * and through PMPI_, compared. */
static void one(MPI_Comm comm, int which, const char *algo, int nb, int root, const tdesc *d,
                int o, int size)
{
#ifdef TEST_OPS_PLAIN
    (void)nb;
#else
    mpicoll_request req;
#endif
    int p, me;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &me);
    const int nsend = which == RSB ? N * p : N, nrecv = N;
    const size_t sbytes = (size_t)nsend * (size_t)size, rbytes = (size_t)nrecv * (size_t)size;
    char *s = calloc(1, sbytes), *want = calloc(1, rbytes), *got = calloc(1, rbytes);
    if (!s || !want || !got)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int j = 0; j < nsend; j++)
        put(d, size, s + (size_t)j * (size_t)size, me, j);
    int rw, rg;
    MPI_Request lreq;
    const MPI_Op op = ops[o].op;
    switch (which) {
    case ALLREDUCE:
        rw = yield_wait(PMPI_Iallreduce(s, want, N, d->t, op, comm, &lreq), &lreq);
        rg = VIA(mpicoll_allreduce_with(algo, s, got, N, d->t, op, comm),
                 mpicoll_iallreduce(s, got, N, d->t, op, comm, &req),
                 MPI_Allreduce(s, got, N, d->t, op, comm));
        break;
    case REDUCE:
        rw = yield_wait(PMPI_Ireduce(s, want, N, d->t, op, root, comm, &lreq), &lreq);
        rg = VIA(mpicoll_reduce_with(algo, s, got, N, d->t, op, root, comm),
                 mpicoll_ireduce(s, got, N, d->t, op, root, comm, &req),
                 MPI_Reduce(s, got, N, d->t, op, root, comm));
        break;
    default:
        rw = yield_wait(PMPI_Ireduce_scatter_block(s, want, N, d->t, op, comm, &lreq), &lreq);
        rg = VIA(mpicoll_reduce_scatter_block_with(algo, s, got, N, d->t, op, comm),
                 mpicoll_ireduce_scatter_block(s, got, N, d->t, op, comm, &req),
                 MPI_Reduce_scatter_block(s, got, N, d->t, op, comm));
    }
    const char *name = coll_names[which], *an = !algo ? "(MPI_ entry)" : nb ? "(non-blocking)"
                                                                            : algo;
    char msg[160];
    if (rw != MPI_SUCCESS) {
        refused++;
        if (error_class(rg) != error_class(rw)) {
            snprintf(msg, sizeof msg, "the MPI library refused with class %d, mpicoll gave %d",
                     error_class(rw), error_class(rg));
            fail(name, an, d, o, msg);
        }
    } else if (rg != MPI_SUCCESS) {
        snprintf(msg, sizeof msg, "error class %d where the MPI library succeeded",
                 error_class(rg));
        fail(name, an, d, o, msg);
    } else if (library_result_undefined(d, o)) {
        undefined++;
    } else if ((which != REDUCE || me == root) && memcmp(want, got, rbytes)) {
        size_t i = 0;
        while (want[i] == got[i])
            i++;
        snprintf(msg, sizeof msg, "byte %zu (element %zu) is 0x%02x, the MPI library's 0x%02x",
                 i, i / (size_t)size, (unsigned char)got[i], (unsigned char)want[i]);
        fail(name, an, d, o, msg);
    } else {
        compared++;
    }
    free(s);
    free(want);
    free(got);
}

/* Whether types[k] is the first of its kind: every allreduce algorithm
 * runs on those (the algorithms reduce through the library's
 * MPI_Reduce_local, so what they could get wrong is the layout of an
 * element, not the pair; and MPICH's collectives take ~0.3 ms each on 4
 * ranks of 2 busy cores). */
#ifndef TEST_OPS_PLAIN
static int first_of_kind(int k)
{
    for (int i = 0; i < k; i++)
        if (types[i].kind == types[k].kind)
            return 0;
    return 1;
}
#endif

/* Every operation on every type on comm; every allreduce algorithm when
 * `every`, on a type of each kind. */
static void sweep(MPI_Comm comm, int preload, int every)
{
    int p;
    MPI_Comm_size(comm, &p);
    comm_size = p;
    for (int k = 0; k < NTYPES; k++) {
        int size;
        if (types[k].t == MPI_DATATYPE_NULL || MPI_Type_size(types[k].t, &size) != MPI_SUCCESS)
            continue;   /* a type this library does not have */
        MPI_Aint lb, ext;
        MPI_Type_get_extent(types[k].t, &lb, &ext);
        size = (int)ext;
        for (int o = 0; o < NOPS; o++) {
            if (library_aborts(&types[k], o, p))
                continue;
            if (preload) {
                one(comm, ALLREDUCE, NULL, 0, 0, &types[k], o, size);
                one(comm, REDUCE, NULL, 0, p - 1, &types[k], o, size);
                one(comm, RSB, NULL, 0, 0, &types[k], o, size);
                continue;
            }
#ifndef TEST_OPS_PLAIN
            const int nalgo = every && first_of_kind(k) ? mpicoll_algorithm_count("allreduce")
                                                        : 0;
            for (int a = -1; a < nalgo; a++)
                one(comm, ALLREDUCE, a < 0 ? "auto" : mpicoll_algorithm_name("allreduce", a), 0,
                    0, &types[k], o, size);
            for (int root = 0; root < p; root += p > 1 ? p - 1 : 1)
                one(comm, REDUCE, "auto", 0, root, &types[k], o, size);
            one(comm, RSB, "auto", 0, 0, &types[k], o, size);
            for (int which = ALLREDUCE; which <= RSB; which++)
                one(comm, which, "auto", 1, p - 1, &types[k], o, size);
#else
            (void)every;
#endif
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const int preload = argc > 1 && !strcmp(argv[1], "preload");
#ifdef TEST_OPS_PLAIN
    if (argc != 2 || !preload) {
        fprintf(stderr, "usage: test_ops_plain preload\n");
#else
    if (argc != 2 || (!preload && strcmp(argv[1], "api"))) {
        fprintf(stderr, "usage: test_ops api|preload\n");
#endif
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    /* errors return everywhere: a refused combination is a result here */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int np;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    /* communicators of every size np..1 in one launch (they inherit the
     * world's error handler); every allreduce algorithm on the largest */
    for (int q = np; q >= 1; q--) {
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, world_rank < q ? 0 : MPI_UNDEFINED, world_rank, &comm);
        if (comm != MPI_COMM_NULL) {
            sweep(comm, preload, q == np);
            MPI_Comm_free(&comm);
        }
        /* the ranks left out wait here without spinning (MPICH's blocking
         * calls would, on the cores the others need) */
        MPI_Request bar;
        yield_wait(MPI_Ibarrier(MPI_COMM_WORLD, &bar), &bar);
    }
    int totals[4], mine[4] = { failures, compared, refused, undefined };
    MPI_Allreduce(mine, totals, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (world_rank == 0)
        printf("test_ops %s: communicators of 1..%d ranks, %d calls compared, %d refused by "
               "the MPI library (and by mpicoll with the same class), %d completed where the "
               "library's result is undefined, %d failures\n",
               argv[1], np, totals[1], totals[2], totals[3], totals[0]);
    MPI_Finalize();
    return totals[0] ? 1 : 0;
}
