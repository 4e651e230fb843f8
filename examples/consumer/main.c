/* A program that uses an installed mpicoll: an allreduce and an allgather,
 * checked. Build with CMake (find_package(mpicoll)) or with pkg-config. */
#include <mpicoll.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, sum = 0, ok;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int all[64];
    mpicoll_allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mpicoll_allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    ok = sum == size * (size - 1) / 2 && size <= 64;
    for (int i = 0; ok && i < size; i++)
        ok = all[i] == i;
    if (rank == 0)
        printf("consumer: mpicoll %s on %d ranks: %s\n", MPICOLL_VERSION, size, ok ? "ok" : "WRONG");
    MPI_Finalize();
    return ok ? 0 : 1;
}
