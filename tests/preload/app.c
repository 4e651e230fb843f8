/*
 * A plain MPI program, built without any mpicoll header or library: the
 * preload test runs it with and without libmpicoll_preload.so and compares
 * what it prints. Several collectives, in place and not, a derived
 * datatype, a barrier, MPI_COMM_WORLD and a split communicator, and a point-to-point
 * receive (MPI_ANY_SOURCE, MPI_ANY_TAG) posted before the collectives and
 * matched after them. Values are integers (doubles too), so every
 * algorithm gives the same bits.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    MPI_Allgather(si, n, MPI_INT, ri, n, MPI_INT, comm);
    report("allgather", hash(ri, sizeof(int) * (size_t)n * size, 1), comm, color);
    memcpy(ri + (size_t)rank * n, si, sizeof(int) * (size_t)n);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ri, n, MPI_INT, comm);
    report("allgather in place", hash(ri, sizeof(int) * (size_t)n * size, 2), comm, color);
    MPI_Alltoall(si, n, MPI_INT, ri, n, MPI_INT, comm);
    report("alltoall", hash(ri, sizeof(int) * (size_t)n * size, 3), comm, color);
    MPI_Allreduce(sd, rd, n, MPI_DOUBLE, MPI_SUM, comm);
    report("allreduce double", hash(rd, sizeof(double) * (size_t)n, 4), comm, color);
    memcpy(ri, si, sizeof(int) * (size_t)n);
    MPI_Allreduce(MPI_IN_PLACE, ri, n, MPI_INT, MPI_MAX, comm);
    report("allreduce in place", hash(ri, sizeof(int) * (size_t)n, 5), comm, color);
    /* a strided type (every other int): Open MPI defines MPI_SUM & co. on
     * predefined types only, so the strided type goes to a broadcast */
    MPI_Datatype strided;
    MPI_Type_vector(n / 2, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    memcpy(ri, si, sizeof(int) * (size_t)n);
    MPI_Bcast(ri, 1, strided, size - 1, comm);
    report("bcast strided", hash(ri, sizeof(int) * (size_t)n, 6), comm, color);
    MPI_Type_free(&strided);
    memset(rd, 0, sizeof(double) * (size_t)n);
    MPI_Reduce(sd, rd, n, MPI_DOUBLE, MPI_SUM, size - 1, comm);
    report("reduce", rank == size - 1 ? hash(rd, sizeof(double) * (size_t)n, 9) : 0, comm, color);
    memcpy(ri, si, sizeof(int) * (size_t)n);
    MPI_Bcast(ri, n, MPI_INT, size / 2, comm);
    report("bcast", hash(ri, sizeof(int) * (size_t)n, 7), comm, color);
    MPI_Reduce_scatter_block(si, ri, n, MPI_INT, MPI_SUM, comm);
    report("reduce_scatter_block", hash(ri, sizeof(int) * (size_t)n, 8), comm, color);
    /* rank r's block r % 3 + 1 ints, the blocks in reverse rank order */
    int *counts = malloc(2 * sizeof(int) * (size_t)size), *displs = counts + size, off = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = r % 3 + 1;
        displs[r] = off;
        off += counts[r];
    }
    MPI_Allgatherv(si, counts[rank], MPI_INT, ri, counts, displs, MPI_INT, comm);
    report("allgatherv", hash(ri, sizeof(int) * (size_t)off, 10), comm, color);
    /* the same counts: rank r's block of the sum */
    MPI_Reduce_scatter(si, ri, counts, MPI_INT, MPI_SUM, comm);
    report("reduce_scatter", hash(ri, sizeof(int) * (size_t)counts[rank], 11), comm, color);
    /* the same counts and places at a root (significant there only) */
    memset(ri, 0, sizeof(int) * (size_t)off);
    MPI_Gatherv(si, counts[rank], MPI_INT, ri, counts, displs, MPI_INT, size / 2, comm);
    report("gatherv", rank == size / 2 ? hash(ri, sizeof(int) * (size_t)off, 18) : 0, comm,
           color);
    MPI_Scatterv(si, counts, displs, MPI_INT, ri, counts[rank], MPI_INT, size - 1, comm);
    report("scatterv", hash(ri, sizeof(int) * (size_t)counts[rank], 19), comm, color);
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
    MPI_Alltoallv(si, v, v + size, MPI_INT, ri, v + 2 * size, v + 3 * size, MPI_INT, comm);
    report("alltoallv", hash(ri, sizeof(int) * (size_t)roff, 20), comm, color);
    free(v);
    /* prefix reductions; exscan leaves rank 0's receive buffer undefined */
    MPI_Scan(sd, rd, n, MPI_DOUBLE, MPI_SUM, comm);
    report("scan", hash(rd, sizeof(double) * (size_t)n, 12), comm, color);
    memcpy(ri, si, sizeof(int) * (size_t)n);
    MPI_Exscan(MPI_IN_PLACE, ri, n, MPI_INT, MPI_SUM, comm);
    report("exscan in place", rank > 0 ? hash(ri, sizeof(int) * (size_t)n, 13) : 0, comm, color);
    const size_t all = sizeof(int) * (size_t)n * size;
    memset(ri, 0, all);
    MPI_Gather(si, n, MPI_INT, ri, n, MPI_INT, size - 1, comm);
    report("gather", rank == size - 1 ? hash(ri, all, 14) : 0, comm, color);
    memset(ri, 0, all);
    if (rank == size / 2)
        memcpy(ri + (size_t)rank * n, si, sizeof(int) * (size_t)n);
    MPI_Gather(rank == size / 2 ? MPI_IN_PLACE : si, n, MPI_INT, ri, n, MPI_INT, size / 2, comm);
    report("gather in place", rank == size / 2 ? hash(ri, all, 15) : 0, comm, color);
    MPI_Scatter(si, n, MPI_INT, ri, n, MPI_INT, size / 2, comm);
    report("scatter", hash(ri, sizeof(int) * (size_t)n, 16), comm, color);
    memset(ri, 0, sizeof(int) * (size_t)n);
    MPI_Scatter(si, n, MPI_INT, rank == size - 1 ? MPI_IN_PLACE : ri, n, MPI_INT, size - 1, comm);
    report("scatter in place", rank == size - 1 ? 0 : hash(ri, sizeof(int) * (size_t)n, 17),
           comm, color);
    report("barrier", (unsigned long)MPI_Barrier(comm), comm, color);
    free(si);
    free(ri);
    free(sd);
    free(rd);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
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
        MPI_Allreduce(&mine, &other, 1, MPI_INT, MPI_SUM, inter);
        report("allreduce intercomm", (unsigned long)other, inter, 1 + rank % 2);
        /* the even half's first rank gathers the odd half's values (MPI_ROOT
         * there, MPI_PROC_NULL beside it; the senders name remote rank 0) */
        int hrank, nremote, root, *from;
        MPI_Comm_rank(half, &hrank);
        MPI_Comm_remote_size(inter, &nremote);
        from = calloc((size_t)nremote, sizeof *from);
        root = rank % 2 ? 0 : hrank == 0 ? MPI_ROOT : MPI_PROC_NULL;
        MPI_Gather(&mine, 1, MPI_INT, from, 1, MPI_INT, root, inter);
        report("gather intercomm", root == MPI_ROOT ? hash(from, sizeof(int) * (size_t)nremote, 14)
                                                    : 0, inter, 1 + rank % 2);
        free(from);
        report("barrier intercomm", (unsigned long)MPI_Barrier(inter), inter, 1 + rank % 2);
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
