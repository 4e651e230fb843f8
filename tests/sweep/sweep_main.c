/*
 * coll_sweep: one collective's whole correctness matrix, every algorithm,
 * every communicator size, in one launch (Gloo's and MPICH's test style).
 *
 *   mpirun -n 8 coll_sweep <collective> [--quick] [--algorithms a,b,...]
 *   coll_sweep <collective> --list [--np N]
 *
 * The world is split in turn into the layouts of sweep_layouts.c (sizes 1
 * to n, reverse and strided rank orders); on each communicator every
 * variant of sweep_algos.c (auto, each algorithm by name through
 * mpicoll_<coll>_with, the selector MPICOLL_<COLL> uses; shared-memory ones
 * also with 64 KiB segments; each by its Open MPI id) runs the matrix of
 * tests/mpi: block_check.c for allgather, alltoall, gather and scatter,
 * vec_check.c for the
 * others (datatype cases x counts 0, 1, odd, not a multiple of p, large x
 * in place or not x roots, distinct values per element). A forced
 * algorithm that applies must be the one that ran (mpicoll_last_choice).
 *
 * The mode (blocking, nb, persistent) is MPICOLL_MODE's and the node
 * layout MPICOLL_RANKS_PER_NODE's (then only the algorithms that use nodes
 * run), both read once per process: one launch each. --quick: counts up to
 * p + 1 only and no segment variants (the sanitizer runs). --list prints
 * the coverage without running anything.
 *
 * Every failure prints one FAIL line (collective, algorithm and
 * parameters, mode, layout, p, count, type, root, rank, first wrong
 * element); the sweep goes on, then rank 0 prints one FAIL summary line per
 * failing (algorithm, p) and the exit code is 1 if any rank failed.
 */
#include "sweep.h"
#include "barrier_check.h"
#include "block_check.h"
#include "vec_cases.h"
#include "vec_check.h"

#include <mpicoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
    const char *coll, *only, *mode;
    int quick, list, np, rpn, block, barrier;
};

static int calls[SWEEP_MAX_VARIANTS][SWEEP_MAX_NP + 1];
/* barrier: a duplicate and a split of the layout's communicator, made
 * once for all its variants */
static MPI_Comm bar_dup = MPI_COMM_NULL, bar_half = MPI_COMM_NULL;
static int fails[SWEEP_MAX_VARIANTS][SWEEP_MAX_NP + 1];

static int usage(const char *prog)
{
#define NAME_(name, Name, family) "|" #name
    static const char colls[] = MPICOLL_COLLECTIVES(NAME_);
#undef NAME_
    fprintf(stderr, "usage: %s %s [--quick] [--algorithms a,b,...] [--list [--np N]]\n", prog,
            colls + 1);
    return 2;
}

/* 1 if coll is a collective of the family `fam` (include/mpicoll.h), else
 * 0. */
static int in_family(const char *coll, const char *fam)
{
#define FAMILY_(name, Name, family)          \
    if (strcmp(coll, #name) == 0)            \
        return strcmp(#family, fam) == 0;
    MPICOLL_COLLECTIVES(FAMILY_)
#undef FAMILY_
    return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
    const char *v;
    memset(o, 0, sizeof *o);
    o->np = 8;
    if (argc < 2)
        return -1;
    o->coll = argv[1];
    /* the block families: block_check.c tests them */
    o->block = in_family(o->coll, "block") || in_family(o->coll, "vblock") ||
               in_family(o->coll, "rooted_block") || in_family(o->coll, "rooted_vblock") ||
               in_family(o->coll, "vscatter") || in_family(o->coll, "vexchange");
    o->barrier = in_family(o->coll, "barrier");
    if (o->block ? bc_coll_from_name(o->coll) < 0
                 : !o->barrier && vc_coll_from_name(o->coll) < 0)
        return -1;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            o->quick = 1;
        else if (strcmp(argv[i], "--list") == 0)
            o->list = 1;
        else if (strcmp(argv[i], "--algorithms") == 0 && i + 1 < argc)
            o->only = argv[++i];
        else if (strcmp(argv[i], "--np") == 0 && i + 1 < argc)
            o->np = atoi(argv[++i]);
        else
            return -1;
    }
#ifdef SWEEP_VIA_MPI
    v = getenv("SWEEP_VIA_MODE");   /* the MPI_ entry points' form (sweep_via.c) */
#else
    v = getenv("MPICOLL_MODE");
#endif
    o->mode = v && *v ? v : "blocking";
    v = getenv("MPICOLL_RANKS_PER_NODE");
    o->rpn = v && *v ? atoi(v) : 0;
    return o->np >= 1 && o->np <= SWEEP_MAX_NP ? 0 : -1;
}

/* The algorithm that must run: the forced one when it applies here. */
static const char *expected(const struct opts *o, const struct variant *v, int p)
{
    if (!v->name[0] || mpicoll_algorithm_applicable(o->coll, v->spec, p) != 1)
        return NULL;
    if (v->one_node && o->rpn > 0 && p > o->rpn)
        return NULL;
    return v->name;
}

/* The size of the communicator of world rank r in layout l. */
static int comm_size_of(const struct layout *l, int n, int r)
{
    int p = 0;
    for (int s = 0; s < n; s++)
        p += l->color[s] == l->color[r];
    return p;
}

/* Whether world rank r's communicator in layout li runs the full matrix:
 * only the first communicator of each size does (in layout order, then
 * by lowest world rank); the later ones of that size run counts up to
 * p + 1 only, which is all their different rank order adds. */
static int full_matrix(const struct layout *ls, int li, int n, int r)
{
    int p = comm_size_of(&ls[li], n, r);
    for (int lj = 0; lj <= li; lj++)
        for (int s = 0; s < n; s++) {
            if (lj == li && ls[li].color[s] == ls[li].color[r])
                return 1;   /* reached r's own communicator first */
            if (comm_size_of(&ls[lj], n, s) == p)
                return 0;
        }
    return 1;
}

/* This rank's communicator of layout l (the world itself for "world"). */
static MPI_Comm layout_comm(const struct layout *l, int rank)
{
    MPI_Comm c;
    if (strcmp(l->label, "world") == 0)
        return MPI_COMM_WORLD;
    MPI_Comm_split(MPI_COMM_WORLD, l->color[rank], l->key[rank], &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
#ifdef SWEEP_VIA_MPI
    /* through Open MPI's component, a communicator's non-blocking calls
     * are mpicoll's once a blocking call has made its state */
    MPI_Barrier(c);
#endif
    return c;
}

/* One variant's matrix on comm; counts into calls/fails[vi][p]. */
static void run_variant(const struct opts *o, const struct variant *v, int vi, MPI_Comm comm,
                        const char *comm_label, int full)
{
    int p, rank, n = 0, failed;
    const char *spec = v->spec[0] ? v->spec : NULL;
    const int quick = o->quick || v->quick_only || !full;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &rank);
    if (o->barrier) {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "mode=%.16s%s%.0d", o->mode, o->rpn ? " rpn=" : "", o->rpn);
        struct bar_call base = { .spec = spec, .algo_label = v->label, .comm = comm,
                                 .comm_label = comm_label, .expect_algo = expected(o, v, p),
                                 .context = ctx, .dup = bar_dup, .half = bar_half };
        failed = bar_run_comm(&base, quick, &n);
        if (rank != 0)
            n = 0;
    } else if (o->block) {
        struct bc_call base = {
            .coll = (enum bc_coll)bc_coll_from_name(o->coll),
            .spec = spec, .algo_label = v->label, .comm = comm, .comm_label = comm_label,
            .expect_algo = expected(o, v, p),
        };
        failed = bc_run_comm(&base, quick, &n);
        if (rank != 0)
            n = 0;
    } else {
        struct vc_call base = {
            .coll = (enum vc_coll)vc_coll_from_name(o->coll), .spec = spec,
            .algo_label = v->label, .expect_algo = expected(o, v, p),
            .expect_commutative = v->commutative, .comm = comm, .comm_label = comm_label,
            .root = -1,
        };
        failed = vc_run_comm(&base, 1, quick, &n);
    }
    calls[vi][p] += n;
    fails[vi][p] += failed;
}

/* --list: what a launch covers, one line per variant. */
static void list(const struct opts *o, const struct variant *vs, int nv)
{
    struct layout ls[SWEEP_MAX_LAYOUTS];
    int nl = sweep_layouts(o->np, ls, SWEEP_MAX_LAYOUTS);
    char sizes[2][256];
    for (int vi = 0; vi < nv; vi++) {
        int seen[2][SWEEP_MAX_NP + 1] = { { 0 } };
        size_t at[2] = { 0, 0 };
        const int quick = vs[vi].quick_only || o->quick;
        sizes[0][0] = sizes[1][0] = '\0';
        for (int li = 0; li < nl; li++)
            for (int r = 0; r < o->np; r++)
                seen[!quick && full_matrix(ls, li, o->np, r)][comm_size_of(&ls[li], o->np, r)] = 1;
        for (int f = 0; f < 2; f++)
            for (int p = 1; p <= o->np; p++)
                if (seen[f][p] && at[f] < sizeof sizes[f] - 8)
                    at[f] += (size_t)snprintf(sizes[f] + at[f], sizeof sizes[f] - at[f], "%s%d",
                                              at[f] ? "," : "", p);
        printf("%s mode=%s rpn=%d algorithm=%s p=%s quick_p=%s\n", o->coll, o->mode, o->rpn,
               vs[vi].label, at[1] ? sizes[1] : "-", at[0] ? sizes[0] : "-");
    }
    printf("%s: p = full matrix on communicators of p ranks, quick_p = counts up to p + 1"
           " only\n", o->coll);
    if (o->barrier) {
        printf("%s per (algorithm, communicator): one barrier with each rank late in turn"
               " (quick: the last), then barriers on it, a duplicate and a split among bcast and"
               " allreduce, and non-blocking barriers\n", o->coll);
    } else if (o->block) {
        printf("%s matrix per (algorithm, communicator): types", o->coll);
        for (int d = 0; d < bc_ncases; d++)
            printf(" %s", bc_cases[d].name);
        printf("; counts 0 1 7 1000 100003B; inplace 0 1%s\n",
               bc_coll_from_name(o->coll) >= BC_GATHER &&
               bc_coll_from_name(o->coll) != BC_ALLTOALLV ? "; roots p/2 0 p-1 (counts 0 1 7), p/2 (the larger)" : "");
    } else {
        printf("%s matrix per (algorithm, communicator): cases", o->coll);
        for (int c = 0; c < vc_ncases; c++)
            printf(" %s(%s)", vc_cases[c].name, vc_cases[c].l->name);
        printf("; counts 0 1 3 p-1 p+1 1000 100003 (the first cases; the others p+1);"
               " roots 0 p-1 p/2; inplace 0 1\n");
    }
}

int main(int argc, char **argv)
{
    struct opts o;
    struct variant vs[SWEEP_MAX_VARIANTS];
    struct layout ls[SWEEP_MAX_LAYOUTS];
    int nv, nl, rank, n, bad = 0, total[2] = { 0, 0 };
    char ctx[160];
    double t0;

    if (parse(argc, argv, &o) != 0)
        return usage(argv[0]);
    nv = sweep_variants(o.coll, o.rpn, o.quick, o.only, vs, SWEEP_MAX_VARIANTS);
    if (nv < 0)
        return 2;
    if (o.list) {
        list(&o, vs, nv);
        return 0;
    }

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
#ifdef SWEEP_VIA_MPI
    MPI_Barrier(MPI_COMM_WORLD);    /* as layout_comm's */
#endif
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    t0 = MPI_Wtime();
    bc_set_max_lines(200);
#ifdef MPICOLL_SWEEP_FAULT
    if (sweep_fault_install() != 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
#endif
    bad = o.barrier ? 0 : o.block ? bc_types_create()
                                  : vc_setup((enum vc_coll)vc_coll_from_name(o.coll));
    nl = sweep_layouts(n, ls, SWEEP_MAX_LAYOUTS);
    if (nl == 0) {
        if (rank == 0)
            printf("FAIL %s: the sweep runs on 1 to %d ranks, not %d\n", o.coll, SWEEP_MAX_NP, n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    for (int li = 0; li < nl; li++) {
        double tl = MPI_Wtime();
        MPI_Comm comm = layout_comm(&ls[li], rank);
        snprintf(ctx, sizeof ctx, "mode=%.16s%s%.0d", o.mode, o.rpn ? " rpn=" : "", o.rpn);
        bc_set_context(ctx);
        const int full = full_matrix(ls, li, n, rank);
        if (o.barrier)
            bar_comms_make(comm, &bar_dup, &bar_half);
        for (int vi = 0; vi < nv; vi++)
            run_variant(&o, &vs[vi], vi, comm, ls[li].label, full);
        if (o.barrier)
            bar_comms_free(&bar_dup, &bar_half);
        sweep_idle_barrier();
        if (comm != MPI_COMM_WORLD)
            MPI_Comm_free(&comm);
        if (rank == 0)
            printf("sweep %s mode=%s: layout %s done (%.1f s)\n", o.coll, o.mode,
                   ls[li].label, MPI_Wtime() - tl);
        fflush(stdout);
    }

    /* The verdict goes through the native MPI, not the library under test. */
    MPI_Allreduce(MPI_IN_PLACE, calls, (int)(sizeof calls / sizeof(int)), MPI_INT, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, fails, (int)(sizeof fails / sizeof(int)), MPI_INT, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    for (int vi = 0; vi < nv; vi++)
        for (int p = 1; p <= n; p++) {
            total[0] += calls[vi][p];
            total[1] += fails[vi][p];
            if (rank == 0 && fails[vi][p])
                printf("FAIL %s: summary: algorithm=%s mode=%s%s%.0d p=%d: %d failed checks"
                       " in %d calls\n", o.coll, vs[vi].label, o.mode, o.rpn ? " rpn=" : "",
                       o.rpn, p, fails[vi][p], calls[vi][p]);
        }
    if (rank == 0)
        printf("sweep %s mode=%s%s%.0d np=%d: %d variants x %d layouts, %d calls, %d failures%s"
               " (%.1f s)\n", o.coll, o.mode, o.rpn ? " rpn=" : "", o.rpn, n, nv, nl, total[0],
               total[1], bad ? ", FAIL in the test set-up" : "", MPI_Wtime() - t0);
    if (o.block)
        bc_types_free();
    else if (!o.barrier)
        vc_teardown();
    MPI_Finalize();
    return total[1] || bad ? 1 : 0;
}
