/*
 * A plain MPI program, built without any mpicoll header or library: the
 * preload test runs it with and without libmpicoll_preload.so, the
 * component test (tests/component) with Open MPI's coll component
 * disabled and enabled, and each compares what it prints. Every
 * collective, in place and not, derived datatypes, every root, a barrier,
 * MPI_COMM_WORLD and a split communicator, and a point-to-point receive
 * (MPI_ANY_SOURCE, MPI_ANY_TAG) posted before the collectives and matched
 * after them. Values are integers (doubles too), so every algorithm gives
 * the same bits.
 *
 *   app [blocking|nb|persistent]
 *
 * nb: each call as MPI_I<name> and MPI_Wait; persistent: MPI-4's
 * MPI_<Name>_init (Open MPI 4.1: MPIX_<Name>_init, its pcollreq
 * extension), MPI_Start, MPI_Wait, MPI_Request_free. Where the MPI has no
 * persistent collectives, persistent fails with a message.
 */
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION >= 4
#define PERSISTENT_INIT(Name) MPI_##Name##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define PERSISTENT_INIT(Name) MPIX_##Name##_init
#endif

static enum { BLOCKING, NB, PERSISTENT } mode;

/* MPI_<Name>(args) in the program's mode (name: the lower-case name of
 * MPI_I<name>), made twice, as a program's loop makes it: the second
 * time the same call again, which mpicoll's communicator keeps (a
 * persistent one started twice; MPICH 4.0's persistent scatter once: its
 * binomial schedule fails when started again, pmodels/mpich#7550). */
#ifdef MPICH_NUMVERSION
#define STARTS(Name) (strcmp(#Name, "Scatter") == 0 ? 1 : 2)
#else
#define STARTS(Name) 2
#endif
#ifdef PERSISTENT_INIT
#define START_PERSISTENT(Name, q, ...) PERSISTENT_INIT(Name)(__VA_ARGS__, MPI_INFO_NULL, q)
#else
#define START_PERSISTENT(Name, q, ...) MPI_ERR_OTHER
#endif
#define COLL(Name, name, ...)                                                    \
    do {                                                                         \
        MPI_Request q_ = MPI_REQUEST_NULL;                                       \
        if (mode == BLOCKING) {                                                  \
            MPI_##Name(__VA_ARGS__);                                             \
            MPI_##Name(__VA_ARGS__);                                             \
        } else if (mode == NB) {                                                 \
            for (int t_ = 0; t_ < 2; t_++) {                                     \
                MPI_I##name(__VA_ARGS__, &q_);                                   \
                MPI_Wait(&q_, MPI_STATUS_IGNORE);                                \
            }                                                                    \
        } else if (START_PERSISTENT(Name, &q_, __VA_ARGS__) == MPI_SUCCESS) {    \
            for (int t_ = 0; t_ < STARTS(Name); t_++) {                          \
                MPI_Start(&q_);                                                  \
                MPI_Wait(&q_, MPI_STATUS_IGNORE);                                \
            }                                                                    \
            MPI_Request_free(&q_);                                               \
        } else {                                                                 \
            fprintf(stderr, "app: no persistent MPI_%s\n", #Name);              \
            MPI_Abort(MPI_COMM_WORLD, 2);                                        \
        }                                                                        \
    } while (0)

static unsigned long hash(const void *p, size_t n, unsigned long h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = h * 1099511628211UL ^ b[i];
    return h;
}

/* Every rank's result hash and communicator, printed by rank 0 of
 * MPI_COMM_WORLD in rank order (one writer: launchers may interleave the
 * output of several). Both halves of the split call it together. */
static void report(const char *what, unsigned long h, MPI_Comm comm, int color)
{
    (void)comm;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned long mine[2] = { (unsigned long)color, h }, *all = malloc(2 * (size_t)size * sizeof *all);
    MPI_Gather(mine, 2, MPI_UNSIGNED_LONG, all, 2, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("%-24s", what);
        for (int i = 0; i < size; i++)
            printf(" %lu:%016lx", all[2 * i], all[2 * i + 1]);
        printf("\n");
    }
    free(all);
}

/* The larger sum of each pair: an operation of the program's own. */
static void pair_max_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++, a += 2, b += 2)
        if (a[0] + a[1] > b[0] + b[1]) {
            b[0] = a[0];
            b[1] = a[1];
        }
}

/* The rooted collectives at every root of comm: round k at root k % size,
 * as many rounds as MPI_COMM_WORLD has ranks, so that the halves of a
 * split report together. */
static void rooted(MPI_Comm comm, int color, int *si, int *ri, double *sd, double *rd, int n)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const size_t all = sizeof(int) * (size_t)n * size;
    /* rank r's block r % 3 + 1 ints, the blocks in reverse rank order */
    int *counts = malloc(2 * sizeof(int) * (size_t)size), *displs = counts + size, off = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = r % 3 + 1;
        displs[r] = off;
        off += counts[r];
    }
    /* a strided type (every other int): Open MPI defines MPI_SUM & co. on
     * predefined types only, so the strided type goes to a broadcast */
    MPI_Datatype strided;
    MPI_Type_vector(n / 2, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    char what[64];
    int rounds;
    MPI_Comm_size(MPI_COMM_WORLD, &rounds);
    for (int k = 0; k < rounds; k++) {
        const int root = k % size;
        memcpy(ri, si, sizeof(int) * (size_t)n);
        COLL(Bcast, bcast, ri, 1, strided, root, comm);
        snprintf(what, sizeof what, "bcast strided round %d", k);
        report(what, hash(ri, sizeof(int) * (size_t)n, 6), comm, color);
        memcpy(ri, si, sizeof(int) * (size_t)n);
        COLL(Bcast, bcast, ri, n, MPI_INT, root, comm);
        snprintf(what, sizeof what, "bcast round %d", k);
        report(what, hash(ri, sizeof(int) * (size_t)n, 7), comm, color);
        memset(rd, 0, sizeof(double) * (size_t)n);
        COLL(Reduce, reduce, sd, rd, n, MPI_DOUBLE, MPI_SUM, root, comm);
        snprintf(what, sizeof what, "reduce round %d", k);
        report(what, rank == root ? hash(rd, sizeof(double) * (size_t)n, 9) : 0, comm, color);
        memcpy(ri, si, sizeof(int) * (size_t)n);
        COLL(Reduce, reduce, rank == root ? MPI_IN_PLACE : si, ri, n, MPI_INT, MPI_MAX, root,
             comm);
        snprintf(what, sizeof what, "reduce in place round %d", k);
        report(what, rank == root ? hash(ri, sizeof(int) * (size_t)n, 21) : 0, comm, color);
        /* the counts and places significant at the root only */
        memset(ri, 0, sizeof(int) * (size_t)off);
        COLL(Gatherv, gatherv, si, counts[rank], MPI_INT, ri, counts, displs, MPI_INT, root,
             comm);
        snprintf(what, sizeof what, "gatherv round %d", k);
        report(what, rank == root ? hash(ri, sizeof(int) * (size_t)off, 18) : 0, comm, color);
        COLL(Scatterv, scatterv, si, counts, displs, MPI_INT, ri, counts[rank], MPI_INT, root,
             comm);
        snprintf(what, sizeof what, "scatterv round %d", k);
        report(what, hash(ri, sizeof(int) * (size_t)counts[rank], 19), comm, color);
        memset(ri, 0, all);
        COLL(Gather, gather, si, n, MPI_INT, ri, n, MPI_INT, root, comm);
        snprintf(what, sizeof what, "gather round %d", k);
        report(what, rank == root ? hash(ri, all, 14) : 0, comm, color);
        memset(ri, 0, all);
        if (rank == root)
            memcpy(ri + (size_t)rank * n, si, sizeof(int) * (size_t)n);
        COLL(Gather, gather, rank == root ? MPI_IN_PLACE : si, n, MPI_INT, ri, n, MPI_INT, root,
             comm);
        snprintf(what, sizeof what, "gather in place round %d", k);
        report(what, rank == root ? hash(ri, all, 15) : 0, comm, color);
        COLL(Scatter, scatter, si, n, MPI_INT, ri, n, MPI_INT, root, comm);
        snprintf(what, sizeof what, "scatter round %d", k);
        report(what, hash(ri, sizeof(int) * (size_t)n, 16), comm, color);
        memset(ri, 0, sizeof(int) * (size_t)n);
        COLL(Scatter, scatter, si, n, MPI_INT, rank == root ? MPI_IN_PLACE : ri, n, MPI_INT, root,
             comm);
        snprintf(what, sizeof what, "scatter in place round %d", k);
        report(what, rank == root ? 0 : hash(ri, sizeof(int) * (size_t)n, 17), comm, color);
    }
    MPI_Type_free(&strided);
    free(counts);
}

static void run(MPI_Comm comm, int color)
{
    int rank, size, n = 37;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *si = malloc(sizeof(int) * (size_t)n * size), *ri = malloc(sizeof(int) * (size_t)n * size);
    double *sd = malloc(sizeof(double) * (size_t)n * size), *rd = malloc(sizeof(double) * (size_t)n * size);
    for (int i = 0; i < n * size; i++) {
        si[i] = rank * 100000 + i;
        sd[i] = (double)(rank + 1) * (i % 11);
    }
    COLL(Allgather, allgather, si, n, MPI_INT, ri, n, MPI_INT, comm);
    report("allgather", hash(ri, sizeof(int) * (size_t)n * size, 1), comm, color);
    memcpy(ri + (size_t)rank * n, si, sizeof(int) * (size_t)n);
    COLL(Allgather, allgather, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ri, n, MPI_INT, comm);
    report("allgather in place", hash(ri, sizeof(int) * (size_t)n * size, 2), comm, color);
    /* a block of n ints as one element of a derived type on the send side */
    MPI_Datatype block;
    MPI_Type_contiguous(n, MPI_INT, &block);
    MPI_Type_commit(&block);
    COLL(Allgather, allgather, si, 1, block, ri, n, MPI_INT, comm);
    report("allgather derived", hash(ri, sizeof(int) * (size_t)n * size, 22), comm, color);
    MPI_Type_free(&block);
    COLL(Alltoall, alltoall, si, n, MPI_INT, ri, n, MPI_INT, comm);
    report("alltoall", hash(ri, sizeof(int) * (size_t)n * size, 3), comm, color);
    COLL(Allreduce, allreduce, sd, rd, n, MPI_DOUBLE, MPI_SUM, comm);
    report("allreduce double", hash(rd, sizeof(double) * (size_t)n, 4), comm, color);
    memcpy(ri, si, sizeof(int) * (size_t)n);
    COLL(Allreduce, allreduce, MPI_IN_PLACE, ri, n, MPI_INT, MPI_MAX, comm);
    report("allreduce in place", hash(ri, sizeof(int) * (size_t)n, 5), comm, color);
    /* pairs of ints, a derived type, under an operation of the program's
     * (the libraries define MPI_SUM & co. on predefined types only) */
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op pair_max;
    MPI_Op_create(pair_max_fn, 1, &pair_max);
    COLL(Allreduce, allreduce, si, ri, n / 2, pair, pair_max, comm);
    report("allreduce pairs", hash(ri, sizeof(int) * (size_t)(n / 2 * 2), 23), comm, color);
    MPI_Op_free(&pair_max);
    MPI_Type_free(&pair);
    rooted(comm, color, si, ri, sd, rd, n);
    COLL(Reduce_scatter_block, reduce_scatter_block, si, ri, n, MPI_INT, MPI_SUM, comm);
    report("reduce_scatter_block", hash(ri, sizeof(int) * (size_t)n, 8), comm, color);
    /* rank r's block r % 3 + 1 ints, the blocks in reverse rank order */
    int *counts = malloc(2 * sizeof(int) * (size_t)size), *displs = counts + size, off = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = r % 3 + 1;
        displs[r] = off;
        off += counts[r];
    }
    COLL(Allgatherv, allgatherv, si, counts[rank], MPI_INT, ri, counts, displs, MPI_INT, comm);
    report("allgatherv", hash(ri, sizeof(int) * (size_t)off, 10), comm, color);
    /* blocks of 8 bytes in rank order: Open MPI's coll/base allgatherv
     * (coll/tuned's at 4 ranks) makes a gatherv and a bcast of a datatype
     * of its own, which must stay the library's */
    int *bytes = malloc(2 * sizeof(int) * (size_t)size);
    for (int r = 0; r < size; r++) {
        bytes[r] = 8;
        bytes[size + r] = 8 * r;
    }
    COLL(Allgatherv, allgatherv, si, 8, MPI_BYTE, ri, bytes, bytes + size, MPI_BYTE, comm);
    report("allgatherv bytes", hash(ri, 8 * (size_t)size, 24), comm, color);
    free(bytes);
    /* the same counts: rank r's block of the sum */
    COLL(Reduce_scatter, reduce_scatter, si, ri, counts, MPI_INT, MPI_SUM, comm);
    report("reduce_scatter", hash(ri, sizeof(int) * (size_t)counts[rank], 11), comm, color);
    free(counts);
    /* (s + 2d) % 3 ints from rank s to rank d (zeros included); sent in
     * rank order, received in reverse rank order */
    int *v = malloc(4 * sizeof(int) * (size_t)size), soff = 0, roff = 0;
    for (int q = 0; q < size; q++) {
        v[q] = (rank + 2 * q) % 3;
        v[size + q] = soff;
        soff += v[q];
    }
    for (int q = size - 1; q >= 0; q--) {
        v[2 * size + q] = (q + 2 * rank) % 3;
        v[3 * size + q] = roff;
        roff += v[2 * size + q];
    }
    memset(ri, 0, sizeof(int) * (size_t)n * size);
    COLL(Alltoallv, alltoallv, si, v, v + size, MPI_INT, ri, v + 2 * size, v + 3 * size, MPI_INT,
         comm);
    report("alltoallv", hash(ri, sizeof(int) * (size_t)roff, 20), comm, color);
    free(v);
    /* prefix reductions; exscan leaves rank 0's receive buffer undefined */
    COLL(Scan, scan, sd, rd, n, MPI_DOUBLE, MPI_SUM, comm);
    report("scan", hash(rd, sizeof(double) * (size_t)n, 12), comm, color);
    memcpy(ri, si, sizeof(int) * (size_t)n);
    COLL(Exscan, exscan, MPI_IN_PLACE, ri, n, MPI_INT, MPI_SUM, comm);
    report("exscan in place", rank > 0 ? hash(ri, sizeof(int) * (size_t)n, 13) : 0, comm, color);
    COLL(Barrier, barrier, comm);
    report("barrier", 0, comm, color);
    free(si);
    free(ri);
    free(sd);
    free(rd);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "nb") == 0)
        mode = NB;
    else if (argc > 1 && strcmp(argv[1], "persistent") == 0)
        mode = PERSISTENT;
    else if (argc > 1 && strcmp(argv[1], "blocking") != 0) {
        fprintf(stderr, "usage: app [blocking|nb|persistent]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank, size, got = -1, sent;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* the application's own message, posted before the collectives. Not
     * on one rank: there MPICH 4.0.2's own MPI_Alltoall hangs while an
     * MPI_ANY_SOURCE receive is pending (seen with mpiexec.mpich -n 1). */
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st = { 0 };
    if (size > 1)
        MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    run(MPI_COMM_WORLD, 0);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    run(half, 1 + rank % 2);
    sent = 1000 + rank;
    int ok = 1, all;
    if (size > 1) {
        MPI_Send(&sent, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD);
        MPI_Wait(&req, &st);
        ok = got == 1000 + (rank + size - 1) % size && st.MPI_TAG == 7;
    }
    if (size >= 4) {
        /* an intercommunicator between the halves: each side gets the sum of
         * the other's values (mpicoll leaves these to the MPI library). The
         * leaders meet on a duplicate of MPI_COMM_WORLD: on MPI_COMM_WORLD
         * itself, a leader that is done with the point-to-point check could
         * send its leader message to a rank whose MPI_ANY_TAG receive is
         * still pending, and that receive would take it.
         * Both halves of 2 ranks or more: Open MPI 4.1.4's own MPI_Allreduce
         * fails with MPI_ERR_COMM when one side has a single rank. */
        MPI_Comm peer, inter;
        MPI_Comm_dup(MPI_COMM_WORLD, &peer);
        int remote = (rank % 2 == 0) ? (size - 1) - ((size - 1) % 2 == 0) : size - 1 - (size - 1) % 2;
        MPI_Intercomm_create(half, 0, peer, remote, 99, &inter);
        int mine = rank + 1, other = 0;
        COLL(Allreduce, allreduce, &mine, &other, 1, MPI_INT, MPI_SUM, inter);
        report("allreduce intercomm", (unsigned long)other, inter, 1 + rank % 2);
        /* the even half's first rank gathers the odd half's values (MPI_ROOT
         * there, MPI_PROC_NULL beside it; the senders name remote rank 0) */
        int hrank, nremote, root, *from;
        MPI_Comm_rank(half, &hrank);
        MPI_Comm_remote_size(inter, &nremote);
        from = calloc((size_t)nremote, sizeof *from);
        root = rank % 2 ? 0 : hrank == 0 ? MPI_ROOT : MPI_PROC_NULL;
        COLL(Gather, gather, &mine, 1, MPI_INT, from, 1, MPI_INT, root, inter);
        report("gather intercomm", root == MPI_ROOT ? hash(from, sizeof(int) * (size_t)nremote, 14)
                                                    : 0, inter, 1 + rank % 2);
        free(from);
        COLL(Barrier, barrier, inter);
        report("barrier intercomm", 0, inter, 1 + rank % 2);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&peer);
    }

    MPI_Comm_free(&half);
    MPI_Reduce(&ok, &all, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("point-to-point during collectives: %s\n", all ? "ok" : "WRONG");
    MPI_Finalize();
    return 0;
}
