/*
 * A test-only fault for the bench's validation path. The program
 * mpicoll_fault is the mpicoll program linked with
 * -Wl,--wrap=mpicoll_allgather_with, so its bench calls this wrapper: it
 * runs the library's call, then, when the algorithm is the one that
 * MPICOLL_TEST_FAULT names, flips a bit of the result on the last rank.
 * None of it is in the library or in the installed program.
 */
#include <mpicoll.h>

#include <stdlib.h>
#include <string.h>

int __real_mpicoll_allgather_with(const char *algorithm, const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm);
int __wrap_mpicoll_allgather_with(const char *algorithm, const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm);

int __wrap_mpicoll_allgather_with(const char *algorithm, const void *sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fault = getenv("MPICOLL_TEST_FAULT");
    int rc = __real_mpicoll_allgather_with(algorithm, sendbuf, sendcount, sendtype, recvbuf,
                                           recvcount, recvtype, comm);
    int rank, size;

    if (rc != MPI_SUCCESS || fault == NULL || algorithm == NULL || strcmp(algorithm, fault) != 0
        || recvcount == 0)
        return rc;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == size - 1)
        ((unsigned char *)recvbuf)[0] ^= 1; /* rank 0's first byte, as MPI_BYTE */
    return rc;
}
