/*
 * libmpicoll_preload.so: mpicoll under unmodified MPI programs.
 *
 *   mpirun -x LD_PRELOAD=/path/libmpicoll_preload.so -n 4 ./app      (Open MPI)
 *   mpiexec -genv LD_PRELOAD /path/libmpicoll_preload.so -n 4 ./app  (MPICH)
 *
 * Defines the MPI_ entry points of the collectives mpicoll implements and
 * calls mpicoll, which calls only PMPI_ entry points, so the two never
 * recurse into each other. What mpicoll does not handle goes to the MPI
 * library's own collective (PMPI_), and MPICOLL_VERBOSE says so:
 * intercommunicators, and datatypes the vector collectives refuse.
 * MPICOLL_DISABLE=1 sends every call to the MPI library's own.
 */
#include "../../include/mpicoll.h"
#include "../core/runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int disabled;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    const char *v = getenv("MPICOLL_DISABLE");
    disabled = v && *v && strcmp(v, "0") != 0;
}

/* 1 when mpicoll takes the call; else, with MPICOLL_VERBOSE, rank 0 of
 * comm says why the MPI library's own collective runs instead. */
static int ours(const char *coll, MPI_Comm comm, int type_ok)
{
    pthread_once(&once, read_env);
    if (disabled)
        return 0;
    int inter = 0;
    if (comm != MPI_COMM_NULL && PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 0;   /* an invalid communicator: MPI reports it */
    if (!inter && type_ok)
        return 1;
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    if (select_verbose() && rank == 0)
        fprintf(stderr, "mpicoll: %s native MPI collective (%s)\n", coll,
                inter ? "intercommunicator" : "datatype not supported by mpicoll");
    return 0;
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (!ours("allgather", comm, 1))
        return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return mpicoll_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (!ours("alltoall", comm, 1))
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return mpicoll_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    if (!ours("allreduce", comm, veccoll_type_supported(datatype, op, 1)))
        return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    return mpicoll_allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    if (!ours("reduce", comm, veccoll_type_supported(datatype, op, 1)))
        return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    return mpicoll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    if (!ours("bcast", comm, veccoll_type_supported(datatype, MPI_OP_NULL, 0)))
        return PMPI_Bcast(buffer, count, datatype, root, comm);
    return mpicoll_bcast(buffer, count, datatype, root, comm);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (!ours("reduce_scatter_block", comm, veccoll_type_supported(datatype, op, 1)))
        return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
    return mpicoll_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
}
