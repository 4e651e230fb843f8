/*
 * The cost of a short-lived communicator, in a plain MPI program (run it
 * with and without libmpicoll_preload.so):
 *
 *   commcost [LOOPS]
 *
 * LOOPS times (default 200, after 10 not timed): MPI_Comm_dup of
 * MPI_COMM_WORLD (every other time MPI_Comm_split), four collectives of
 * one int on it (allreduce, bcast, allgather, alltoall), MPI_Comm_free.
 * Prints the mean microseconds of one iteration on the slowest rank.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void once(int i, int rank, int size, int *buf)
{
    MPI_Comm c;
    if (i % 2)
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c);
    else
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int x = rank + i, y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
    MPI_Bcast(&y, 1, MPI_INT, 0, c);
    MPI_Allgather(&x, 1, MPI_INT, buf, 1, MPI_INT, c);
    MPI_Alltoall(buf, 1, MPI_INT, buf + size, 1, MPI_INT, c);
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int loops = argc > 1 ? atoi(argv[1]) : 200;
    int *buf = malloc(2 * (size_t)size * sizeof *buf);
    for (int i = 0; i < 10; i++)
        once(i, rank, size, buf);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < loops; i++)
        once(i, rank, size, buf);
    t = MPI_Wtime() - t, t = t / loops * 1e6;
    double worst;
    MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("commcost: %d ranks, %d iterations: %.1f us per iteration\n", size, loops, worst);
    free(buf);
    MPI_Finalize();
    return 0;
}
