/*
 * Errors: the argument checks of the entry points, and raising an error
 * through the communicator's error handler.
 *
 * The checks are local (no communication), so a call that fails them
 * fails before any message moves; arguments that are wrong on some ranks
 * only hang the others, as they do in MPI. Which class each check gives,
 * and what cannot be detected portably, is in docs/robustness.md.
 */
#include "errors.h"
#include "dtype.h"
#include "native.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

int mpicoll_raise(MPI_Comm comm, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    PMPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, code);
    return code;
}

int check_comm(MPI_Comm comm)
{
    int inter = 0;
    /* MPI_Comm_free sets the user's handle to MPI_COMM_NULL; a stale copy
     * of a freed handle cannot be told from a live one portably */
    if (comm == MPI_COMM_NULL)
        return MPI_ERR_COMM;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return MPI_ERR_COMM;
    return MPI_SUCCESS;
}

/* MPI-3.1 has no call that says whether a datatype is committed. Packing
 * zero elements asks it in passing: Open MPI and MPICH both refuse an
 * uncommitted type there (on a private MPI_COMM_SELF that returns errors,
 * so that no error handler of the user's runs). */
static int check_committed(MPI_Datatype t)
{
    int pos = 0;
    char in = 0, out = 0;
    dt_view v;
    if (dt_view_get(t, &v) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if (v.named)
        return MPI_SUCCESS;     /* predefined types are always committed */
    MPI_Comm self;
    int rc = comm_self(&self);
    if (rc != MPI_SUCCESS)
        return rc;
    return PMPI_Pack(&in, 0, t, &out, 1, &pos, self) == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_TYPE;
}

int check_count_type(int count, MPI_Datatype t)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (t == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    return check_committed(t);
}

/* The bytes [lo, hi) that n elements of t at buf span, and whether their
 * data fill that span. */
static int span(const void *buf, size_t n, MPI_Datatype t, uintptr_t *lo, uintptr_t *hi,
                int *contig)
{
    dt_view v;
    if (dt_view_get(t, &v) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    *lo = (uintptr_t)buf + (uintptr_t)v.true_lb;
    *hi = *lo + (uintptr_t)((n - 1) * (size_t)v.extent + (size_t)v.true_extent);
    *contig = v.contig && v.size > 0;
    return v.size > 0 ? MPI_SUCCESS : -1;
}

int check_buffer(const void *buf, size_t n, MPI_Datatype t)
{
    uintptr_t lo, hi;
    int contig;
    if (buf || n == 0)
        return MPI_SUCCESS;
    /* NULL is also MPI_BOTTOM: data at absolute addresses are fine, data
     * at address 0 are not */
    int rc = span(buf, n, t, &lo, &hi, &contig);
    if (rc < 0)
        return MPI_SUCCESS;     /* no data */
    return rc != MPI_SUCCESS ? rc : lo == 0 ? MPI_ERR_BUFFER : MPI_SUCCESS;
}

int check_disjoint(const void *a, size_t na, MPI_Datatype ta, const void *b, size_t nb,
                   MPI_Datatype tb)
{
    uintptr_t alo, ahi, blo, bhi;
    int ac, bc;
    if (!a || !b || na == 0 || nb == 0 || span(a, na, ta, &alo, &ahi, &ac) ||
        span(b, nb, tb, &blo, &bhi, &bc))
        return MPI_SUCCESS;     /* no data, or MPI_BOTTOM: nothing to compare */
    /* the same first byte; or, for data without gaps, any common byte
     * (types with gaps may interleave legally) */
    if (alo == blo || (ac && bc && alo < bhi && blo < ahi))
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

/* The predefined operations, in the order of the verdict cache below. */
#define NOPS 14

static int op_index(MPI_Op op)
{
    static const MPI_Op ops[NOPS] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
                                      MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC,
                                      MPI_MINLOC, MPI_REPLACE, MPI_NO_OP };
    for (int i = 0; i < NOPS; i++)
        if (op == ops[i])
            return i;
    return -1;
}

int op_is_predefined(MPI_Op op)
{
    return op_index(op) >= 0;
}

static MPI_Datatype base_type(MPI_Datatype t, int depth)
{
    int ni, na, nd, combiner;
    dt_view v;
    if (depth > 16 || dt_view_get(t, &v) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    if (v.named)
        return t;
    if (PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    int ints[ni > 0 ? ni : 1];
    MPI_Aint addrs[na > 0 ? na : 1];
    MPI_Datatype types[nd > 0 ? nd : 1], base = MPI_DATATYPE_NULL;
    if (PMPI_Type_get_contents(t, ni, na, nd, ints, addrs, types) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    int mixed = 0;
    for (int i = 0; i < nd; i++) {
        MPI_Datatype b = base_type(types[i], depth + 1);
        if (b == MPI_DATATYPE_NULL || (base != MPI_DATATYPE_NULL && b != base))
            mixed = 1;
        base = b;
        int tni, tna, tnd, tc;
        PMPI_Type_get_envelope(types[i], &tni, &tna, &tnd, &tc);
        if (tc != MPI_COMBINER_NAMED)
            PMPI_Type_free(&types[i]);
    }
    return mixed ? MPI_DATATYPE_NULL : base;
}

MPI_Datatype dt_base_type(MPI_Datatype t)
{
    return base_type(t, 0);
}

/* Which predefined operation on which predefined type: the MPI library's
 * word, not a table of mpicoll's. MPI-3.1 (5.9.2) defines each operation
 * on groups of types, but the libraries compute more (Open MPI and MPICH:
 * the logical operations on MPI_AINT, MPI_OFFSET, MPI_COUNT; Open MPI
 * every integer operation on MPI_BYTE and the logical ones on
 * MPI_INTEGER1/2/8; MPICH the logical ones on Fortran integers and on
 * floating point), and mpicoll never refuses a call the
 * library beneath it completes. mpicoll's reductions are the library's
 * (MPI_Reduce_local, src/runtime/exec.c), so it computes whatever the library
 * does. Each (operation, type) pair is asked once, on the first call that
 * uses it, and the answer cached per predefined type (dt_named_slot):
 *
 *   OURS     the library reduces it: mpicoll's algorithms take the call;
 *   REFUSED  the library refuses it: MPI_ERR_OP, on every rank before any
 *            message moves (the library's class, tests/datatypes/test_ops.c);
 *   LIBRARY  mpicoll will not compute it: the call goes to the library's
 *            own collective (native), and MPICOLL_VERBOSE says so.
 *
 * The question is a one-element MPI_Reduce on mpicoll's private
 * MPI_COMM_SELF, whose errors return: the library checks the pair as its
 * collectives do, and no error handler of the program's runs (an
 * MPI_Reduce_local that fails calls MPI_COMM_WORLD's). On one rank nothing
 * is reduced, so a pair whose reduction would crash is asked safely too.
 * LIBRARY pairs (lib_only): MPI_REPLACE and MPI_NO_OP, where a library
 * takes them in a collective (Open MPI 4.1 and MPICH 4.0 do not), whose
 * result would depend on the order of reduction; and MPICH's logical
 * operations on floating point. There the call does what it does without
 * mpicoll. */
enum { V_UNKNOWN, V_OURS, V_REFUSED, V_LIBRARY };

/* MPICH (4.0.2) takes MPI_LAND, MPI_LOR and MPI_LXOR on floating point,
 * but its reductions of them are not ones mpicoll could match: MPI_LAND
 * and MPI_LOR on C types assert (opland.c, oplor.c), in MPI_Reduce_local
 * and in MPICH's own collectives alike, and on Fortran reals all three
 * leave the buffer as it was (MPI_REAL16: other bytes), so the result is
 * whichever rank's data the algorithm kept. Those calls get MPICH's own. */
static int lib_only(MPI_Op op, MPI_Datatype t)
{
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return 1;
#ifdef MPICH
    static const MPI_Datatype reals[] = {
        MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION,
#ifdef MPI_REAL2
        MPI_REAL2,
#endif
        MPI_REAL4, MPI_REAL8, MPI_REAL16,
    };
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
            if (t == reals[i] && t != MPI_DATATYPE_NULL)
                return 1;
#else
    (void)t;
#endif
    return 0;
}

static int ask_library(MPI_Op op, MPI_Datatype t)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    _Alignas(64) unsigned char in[256] = { 0 }, out[256] = { 0 };
    dt_view v;
    MPI_Comm self;
    if (dt_view_get(t, &v) != MPI_SUCCESS || comm_self(&self) != MPI_SUCCESS)
        return V_LIBRARY;
    if (v.true_lb < 0 || (size_t)(v.true_lb + v.true_extent) > sizeof in)
        return V_LIBRARY;   /* no predefined type is that large: let the library judge */
    /* one collective at a time on the private communicator */
    pthread_mutex_lock(&lock);
    int rc = PMPI_Reduce(in, out, 1, t, op, 0, self);
    pthread_mutex_unlock(&lock);
    if (rc != MPI_SUCCESS)
        return V_REFUSED;
    return lib_only(op, t) ? V_LIBRARY : V_OURS;
}

/* The verdict on a predefined operation and a predefined type. */
static int verdict(int o, MPI_Op op, MPI_Datatype t)
{
    static _Atomic unsigned char cache[DT_NAMED_MAX][NOPS];
    const int s = dt_named_slot(t);
    if (s < 0)
        return ask_library(op, t);   /* the cache is full: ask each time */
    int v = atomic_load_explicit(&cache[s][o], memory_order_relaxed);
    if (v == V_UNKNOWN) {
        v = ask_library(op, t);      /* the same answer on every thread */
        atomic_store_explicit(&cache[s][o], (unsigned char)v, memory_order_relaxed);
    }
    return v;
}

int check_op(MPI_Op op, MPI_Datatype t)
{
    if (op == MPI_OP_NULL)
        return MPI_ERR_OP;
    const int o = op_index(op);
    if (o < 0)
        return MPI_SUCCESS;     /* user operations are the user's to match */
    MPI_Datatype base = dt_base_type(t);
    if (base == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;    /* a type mixing predefined types */
    return verdict(o, op, base) == V_REFUSED ? MPI_ERR_OP : MPI_SUCCESS;
}

int op_for_library(MPI_Op op, MPI_Datatype base)
{
    const int o = op_index(op);
    return o >= 0 && verdict(o, op, base) == V_LIBRARY;
}

int check_signatures(int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype)
{
    dt_view sv, rv, sbv, rbv;
    if (dt_view_get(stype, &sv) != MPI_SUCCESS || dt_view_get(rtype, &rv) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if ((long long)sv.size * scount != (long long)rv.size * rcount)
        return MPI_ERR_TRUNCATE;
    if ((long long)sv.size * scount == 0)
        return MPI_SUCCESS;
    /* Equal sizes, but elements of different sizes (2 MPI_INT against one
     * MPI_DOUBLE) cannot have one signature. MPI_BYTE and MPI_PACKED are
     * left alone: programs use them for any data. */
    MPI_Datatype sb = dt_base_type(stype), rb = dt_base_type(rtype);
    if (sb == MPI_DATATYPE_NULL || rb == MPI_DATATYPE_NULL || sb == MPI_BYTE ||
        rb == MPI_BYTE || sb == MPI_PACKED || rb == MPI_PACKED ||
        dt_view_get(sb, &sbv) != MPI_SUCCESS || dt_view_get(rb, &rbv) != MPI_SUCCESS)
        return MPI_SUCCESS;
    return sbv.size == rbv.size ? MPI_SUCCESS : MPI_ERR_TYPE;
}
