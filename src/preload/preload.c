/*
 * libmpicoll_preload.so: mpicoll under unmodified MPI programs.
 *
 *   mpirun -x LD_PRELOAD=/path/libmpicoll_preload.so -n 4 ./app      (Open MPI)
 *   mpiexec -genv LD_PRELOAD /path/libmpicoll_preload.so -n 4 ./app  (MPICH)
 *
 * Defines the MPI_ entry points of the collectives mpicoll implements and
 * calls mpicoll, which calls only PMPI_ entry points, so the two never
 * recurse into each other. What mpicoll does not handle goes to the MPI
 * library's own collective (PMPI_, through native_run: src/core/native.c,
 * the path of the algorithm native too), and MPICOLL_VERBOSE says so:
 * intercommunicators, datatypes the vector collectives refuse, and the
 * predefined operations on types that mpicoll leaves to the library
 * (op_for_library: src/core/errors.c).
 * MPICOLL_DISABLE=1 sends every call to the MPI library's own.
 *
 * The ranks must agree on it: the first call that mpicoll would take on a
 * communicator creates mpicoll's state there, collectively, and checks that
 * every rank has the same settings; a rank under MPICOLL_DISABLE makes the
 * same check at the same call (comm_settings_native), so that a setting on
 * some ranks only fails every rank with MPI_ERR_ARG and a message instead
 * of hanging them.
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

enum { NATIVE, OURS, FAILED };

/* OURS when mpicoll takes the call; NATIVE when the MPI library's own
 * collective runs (with MPICOLL_VERBOSE, rank 0 of comm says why, unless
 * MPICOLL_DISABLE); FAILED when the settings differ between the ranks
 * (raised on comm, *rc set). */
static int route(const char *coll, MPI_Comm comm, int type_ok, int *rc)
{
    pthread_once(&once, read_env);
    int inter = 0;
    if (comm == MPI_COMM_NULL)
        return disabled || !type_ok ? NATIVE : OURS;     /* MPI or mpicoll reports it */
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return NATIVE;   /* an invalid communicator: MPI reports it */
    if (!inter && type_ok) {
        /* where the other ranks would create mpicoll's state */
        if (disabled && (*rc = comm_settings_native(comm)) != MPI_SUCCESS) {
            mpicoll_raise(comm, *rc);
            return FAILED;
        }
        return disabled ? NATIVE : OURS;
    }
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    if (select_verbose() && rank == 0 && !disabled)
        fprintf(stderr, "mpicoll: %s native MPI collective (%s)\n", coll,
                inter ? "intercommunicator" : "datatype or operation left to the MPI library");
    return NATIVE;
}

/* The MPI library's own collective, with the program's arguments. */
static int native(const char *coll, native_args a)
{
    a.coll = coll_find(coll);
    return native_run(&a, NULL);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route("allgather", comm, 1, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native("allgather", (native_args){ .sbuf = sendbuf, .scount = sendcount,
                                                  .stype = sendtype, .rbuf = recvbuf,
                                                  .rcount = recvcount, .rtype = recvtype,
                                                  .comm = comm });
    return mpicoll_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route("alltoall", comm, 1, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native("alltoall", (native_args){ .sbuf = sendbuf, .scount = sendcount,
                                                 .stype = sendtype, .rbuf = recvbuf,
                                                 .rcount = recvcount, .rtype = recvtype,
                                                 .comm = comm });
    return mpicoll_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route("allreduce", comm, veccoll_type_supported(datatype, op, 1), &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native("allreduce", (native_args){ .sbuf = sendbuf, .rbuf = recvbuf,
                                                  .rcount = count, .rtype = datatype, .op = op,
                                                  .comm = comm });
    return mpicoll_allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route("reduce", comm, veccoll_type_supported(datatype, op, 1), &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native("reduce", (native_args){ .sbuf = sendbuf, .rbuf = recvbuf, .rcount = count,
                                               .rtype = datatype, .op = op, .root = root,
                                               .comm = comm });
    return mpicoll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route("bcast", comm, veccoll_type_supported(datatype, MPI_OP_NULL, 0), &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native("bcast", (native_args){ .rbuf = buffer, .rcount = count, .rtype = datatype,
                                              .root = root, .comm = comm });
    return mpicoll_bcast(buffer, count, datatype, root, comm);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route("reduce_scatter_block", comm, veccoll_type_supported(datatype, op, 1), &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native("reduce_scatter_block", (native_args){ .sbuf = sendbuf, .rbuf = recvbuf,
                                                             .rcount = recvcount,
                                                             .rtype = datatype, .op = op,
                                                             .comm = comm });
    return mpicoll_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
}
