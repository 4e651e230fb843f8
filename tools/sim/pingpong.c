/*
 * sim-pingpong: the one-way time of a message between ranks 0 and 1, for
 * the α and β of a simulated platform (tools/sim/sim.py calibrate).
 *
 * Rank 0 sends n bytes to rank 1, which sends them back, REPS times; the
 * one-way time is the round trip over 2. Simulated time is deterministic,
 * so a few repetitions suffice; the first round trip is not timed. Other
 * ranks, if any, only take part in MPI_Init and MPI_Finalize.
 *
 *   smpirun -np 2 ... sim-pingpong [SIZE ...]     (default 1 B .. 4 MiB)
 *
 * Prints "bytes,oneway_us" then one line per size.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 4
#define DEFAULT_MAX (4L << 20)

static double oneway(char *buf, long n, int rank)
{
    double t0 = 0;
    for (int i = 0; i <= REPS; i++) {
        if (i == 1)
            t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * REPS);
}

int main(int argc, char **argv)
{
    long sizes[64];
    int nsizes = 0, rank, nranks, rc = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    for (int i = 1; i < argc && nsizes < 64; i++) {
        char *end;
        sizes[nsizes] = strtol(argv[i], &end, 10);
        if (*end || sizes[nsizes] < 1 || sizes[nsizes] > DEFAULT_MAX * 256)
            rc = 2;
        nsizes++;
    }
    for (long n = 1; argc < 2 && n <= DEFAULT_MAX && nsizes < 64; n *= 4)
        sizes[nsizes++] = n;
    long max = 1;
    for (int i = 0; i < nsizes; i++)
        max = sizes[i] > max ? sizes[i] : max;
    char *buf = malloc((size_t)max);
    if (nranks < 2 || !buf || rc) {
        if (rank == 0)
            fprintf(stderr, "usage: smpirun -np 2 ... sim-pingpong [SIZE ...]%s\n",
                    buf ? "" : " (out of memory)");
        free(buf);
        MPI_Finalize();
        return 2;
    }
    memset(buf, 1, (size_t)max);
    if (rank == 0)
        printf("bytes,oneway_us\n");
    for (int i = 0; i < nsizes; i++) {
        double t = rank < 2 ? oneway(buf, sizes[i], rank) : 0;
        if (rank == 0)
            printf("%ld,%.6f\n", sizes[i], t * 1e6);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
