/*
 * cma_floor: what a 1 MiB allgather at 2 ranks of one node must cost at
 * least, beside the MPI library's own (issue #20's target was 0.6 of it).
 *
 * Each rank must end with 2 MiB in its receive buffer: its own block
 * (one memcpy) and its peer's, which no path gets there with fewer than
 * one copy (cross-memory attach, process_vm_readv, as the MPI libraries'
 * shared-memory transports and mpicoll's shm:cma=1 do). Timed in the same
 * launch, interleaved round by round (medians, in us):
 *
 *   MPI_Allgather  the MPI library's own
 *   memcpy         the own block alone (its buffers stay in cache)
 *   cma_read       the peer's block alone, both ranks at once (the same)
 *   memcpy+cma     the two in sequence with a barrier after each: the
 *                  single copy's plan (mpicoll's shm:cma=1)
 *   two_memcpy     the floor: two memcpys of the block in one process,
 *                  from the send buffer and from a local 1 MiB standing
 *                  for the peer's, into the 2 MiB receive buffer: the same
 *                  4 MiB a rank touches, no system call, no barrier
 *
 *   mpicc -O2 scripts/cma_floor.c -o /tmp/cma_floor
 *   mpirun -n 2 /tmp/cma_floor [bytes per block, default 1 MiB]
 */
#define _GNU_SOURCE     /* process_vm_readv */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define ROUNDS 5
#define ITERS 100

enum { NATIVE, MEMCPY, CMA, BOTH, FLOOR, NCASES };
static const char *const names[NCASES] = { "MPI_Allgather", "memcpy", "cma_read",
                                           "memcpy+cma", "two_memcpy" };

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cma_read(int64_t pid, const char *from, char *to, size_t n)
{
    struct iovec l = { to, n }, r = { (void *)from, n };
    return process_vm_readv((pid_t)pid, &l, 1, &r, 1, 0) == (ssize_t)n ? 0 : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p, rc = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : (size_t)1 << 20;
    char *send = malloc(n), *recv = malloc(2 * n), *spare = malloc(n);
    double *t = malloc(sizeof *t * NCASES * ROUNDS * ITERS);
    if (p != 2 || !send || !recv || !spare || !t) {
        if (rank == 0)
            fprintf(stderr, "cma_floor: runs on 2 ranks (and needs %zu bytes)\n", 4 * n);
        goto out;
    }
    memset(send, rank + 1, n);
    memset(recv, 0, 2 * n);
    memset(spare, 2 - rank, n);
    struct { int64_t pid; uint64_t addr; } me = { getpid(), (uint64_t)(uintptr_t)send }, peer;
    MPI_Sendrecv(&me, sizeof me, MPI_BYTE, 1 - rank, 0, &peer, sizeof peer, MPI_BYTE, 1 - rank,
                 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const char *theirs = (const char *)(uintptr_t)peer.addr;
    char *mine = recv + (size_t)rank * n, *other = recv + (size_t)(1 - rank) * n;
    int bad = 0;
    for (int r = 0; r < ROUNDS; r++)
        for (int c = 0; c < NCASES; c++)
            for (int i = 0; i < ITERS; i++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                if (c == NATIVE)
                    MPI_Allgather(send, (int)n, MPI_BYTE, recv, (int)n, MPI_BYTE,
                                  MPI_COMM_WORLD);
                if (c == MEMCPY || c == BOTH || c == FLOOR)
                    memcpy(mine, send, n);
                if (c == FLOOR)
                    memcpy(other, spare, n);
                if (c == BOTH)
                    MPI_Barrier(MPI_COMM_WORLD);
                if (c == CMA || c == BOTH)
                    bad |= cma_read(peer.pid, theirs, other, n);
                if (c == BOTH)
                    MPI_Barrier(MPI_COMM_WORLD);
                t[(size_t)c * ROUNDS * ITERS + (size_t)r * ITERS + (size_t)i] = MPI_Wtime() - t0;
            }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        if (rank == 0)
            fprintf(stderr, "cma_floor: process_vm_readv refused (ptrace scope?)\n");
        goto out;
    }
    if (rank == 0) {
        printf("bytes %zu, medians in us:", n);
        for (int c = 0; c < NCASES; c++) {
            double *tc = t + (size_t)c * ROUNDS * ITERS;
            qsort(tc, ROUNDS * ITERS, sizeof *tc, by_value);
            printf(" %s %.1f", names[c], tc[ROUNDS * ITERS / 2] * 1e6);
        }
        printf("\n");
    }
    rc = 0;
out:
    free(send);
    free(recv);
    free(spare);
    free(t);
    MPI_Finalize();
    return rc;
}
