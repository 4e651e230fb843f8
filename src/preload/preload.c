/*
 * libmpicoll_preload.so: mpicoll under unmodified MPI programs.
 *
 *   mpirun -x LD_PRELOAD=/path/libmpicoll_preload.so -n 4 ./app      (Open MPI)
 *   mpiexec -genv LD_PRELOAD /path/libmpicoll_preload.so -n 4 ./app  (MPICH)
 *
 * Defines the MPI_ entry points of the collectives mpicoll implements and
 * calls mpicoll, which calls only PMPI_ entry points, so the two never
 * recurse into each other. What mpicoll does not handle goes to the MPI
 * library's own collective (PMPI_, through native_run: src/runtime/native.c,
 * the path of the algorithm native too), and MPICOLL_VERBOSE says so:
 * intercommunicators, datatypes the vector collectives refuse, and the
 * predefined operations on types that mpicoll leaves to the library
 * (op_for_library: src/runtime/errors.c).
 * MPICOLL_DISABLE=1 sends every call to the MPI library's own.
 *
 * The ranks must agree on it: the first call that mpicoll would take on a
 * communicator creates mpicoll's state there, collectively, and checks that
 * every rank has the same settings; a rank under MPICOLL_DISABLE makes the
 * same check at the same call (comm_settings_native), so that a setting on
 * some ranks only fails every rank with MPI_ERR_ARG and a message instead
 * of hanging them.
 */
#include "../api/api.h"

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

/* A block collective (allgather, alltoall; gather and scatter with a
 * root, -1 for the others): mpicoll's, or the MPI library's own with the
 * program's arguments. */
static int preload_block(const coll_desc *c, const void *sbuf, int scount, MPI_Datatype stype,
                         void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route(c->name, comm, 1, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(&(native_args){ .coll = c, .sbuf = sbuf, .scount = scount,
                                          .stype = stype, .rbuf = rbuf, .rcount = rcount,
                                          .rtype = rtype, .root = root, .comm = comm }, NULL);
    return api_block(c, NULL, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, NULL,
                     API_BLOCKING);
}

/* A vector collective (bcast: sbuf MPI_IN_PLACE, rbuf the buffer): the
 * same, unless mpicoll refuses the datatype or leaves the operation to the
 * library. */
static int preload_vector(const coll_desc *c, const void *sbuf, void *rbuf, int count,
                          MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    int how = route(c->name, comm, veccoll_type_supported(type, op, c->reduction), &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(&(native_args){ .coll = c, .sbuf = sbuf, .rbuf = rbuf, .rcount = count,
                                          .rtype = type, .op = op, .root = root,
                                          .comm = comm }, NULL);
    return api_vector(c, NULL, sbuf, rbuf, count, type, op, root, comm, NULL, API_BLOCKING);
}

/* A reduction with counts per rank (reduce_scatter): as a vector one. */
static int preload_vreduction(const coll_desc *c, const void *sbuf, void *rbuf,
                              const int *counts, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    int how = route(c->name, comm, veccoll_type_supported(type, op, c->reduction), &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(&(native_args){ .coll = c, .sbuf = sbuf, .rbuf = rbuf, .rtype = type,
                                          .op = op, .root = -1, .comm = comm,
                                          .rcounts = counts }, NULL);
    return api_vreduction(c, NULL, sbuf, rbuf, counts, type, op, comm, NULL, API_BLOCKING);
}

/* A collective with counts per rank (allgatherv): the same as a block one. */
static int preload_vblock(const coll_desc *c, const void *sbuf, int scount, MPI_Datatype stype,
                          void *rbuf, const int *rcounts, const int *displs, MPI_Datatype rtype,
                          MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route(c->name, comm, 1, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(&(native_args){ .coll = c, .sbuf = sbuf, .scount = scount,
                                          .stype = stype, .rbuf = rbuf, .rtype = rtype,
                                          .comm = comm, .rcounts = rcounts,
                                          .rdispls = displs }, NULL);
    return api_vblock(c, NULL, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, NULL,
                      API_BLOCKING);
}

/* gatherv and scatterv: as allgatherv, with a root. */
static int preload_vgather(const coll_desc *c, const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, const int *rcounts, const int *displs,
                           MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route(c->name, comm, 1, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(&(native_args){ .coll = c, .sbuf = sbuf, .scount = scount,
                                          .stype = stype, .rbuf = rbuf, .rtype = rtype,
                                          .root = root, .comm = comm, .rcounts = rcounts,
                                          .rdispls = displs }, NULL);
    return api_vgather(c, NULL, sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm,
                       NULL, API_BLOCKING);
}

static int preload_vscatter(const coll_desc *c, const void *sbuf, const int *scounts,
                            const int *displs, MPI_Datatype stype, void *rbuf, int rcount,
                            MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route(c->name, comm, 1, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(&(native_args){ .coll = c, .sbuf = sbuf, .stype = stype,
                                          .rbuf = rbuf, .rcount = rcount, .rtype = rtype,
                                          .root = root, .comm = comm, .rcounts = scounts,
                                          .rdispls = displs }, NULL);
    return api_vscatter(c, NULL, sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm,
                        NULL, API_BLOCKING);
}

/* alltoallv: counts on both sides. */
static int preload_vexchange(const coll_desc *c, const void *sbuf, const int *scounts,
                             const int *sdispls, MPI_Datatype stype, void *rbuf,
                             const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                             MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route(c->name, comm, 1, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(&(native_args){ .coll = c, .sbuf = sbuf, .stype = stype,
                                          .rbuf = rbuf, .rtype = rtype, .root = -1,
                                          .comm = comm, .rcounts = rcounts,
                                          .rdispls = rdispls, .scounts = scounts,
                                          .sdispls = sdispls }, NULL);
    return api_vexchange(c, NULL, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                         comm, NULL, API_BLOCKING);
}

/* A collective of the communicator alone (barrier): mpicoll's, or the
 * MPI library's own. */
static int preload_barrier(const coll_desc *c, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, how = route(c->name, comm, 1, &rc);
    if (how == FAILED)
        return rc;
    if (how == NATIVE)
        return native_run(&(native_args){ .coll = c, .comm = comm }, NULL);
    return api_barrier(c, NULL, comm, NULL, API_BLOCKING);
}

/* MPI_<MPI name> of every collective (include/mpicoll_collectives.h). */
#define PRELOAD_(name, Name, family)                                                     \
    int MPI_##Name(MPICOLL_ARGS_##family)                                                \
    {                                                                                    \
        return API_PATH(preload_, family)(&name##_desc, API_CALL_##family);              \
    }
MPICOLL_COLLECTIVES(PRELOAD_)
