/*
 * The one skeleton of every collective's call: the mode it runs in, the
 * communicator's check, the family's own checks, the request, the
 * communicator's state, the family's run, the end of the call
 * (call_finish) and its error raised on the communicator. The family's
 * path (entry.h: entry_path) comes from the list of collectives.
 */
#include "entry.h"
#include "errors.h"

#include <stdio.h>

/* Each signature family's path (include/mpicoll_collectives.h). */
#define ENTRY_PATH_block blockcoll_path
#define ENTRY_PATH_rooted_block blockcoll_path
#define ENTRY_PATH_reduction veccoll_path
#define ENTRY_PATH_rooted_reduction veccoll_path
#define ENTRY_PATH_bcast veccoll_path
#define ENTRY_PATH_vreduction veccoll_path
#define ENTRY_PATH_vblock vcoll_path
#define ENTRY_PATH_rooted_vblock vcoll_path
#define ENTRY_PATH_vscatter vcoll_path
#define ENTRY_PATH_vexchange vxcoll_path
#define ENTRY_PATH_barrier barrier_path

static const entry_path *path_of(const coll_desc *c)
{
#define PATH_OF_(name, Name, family) \
    if (c == &name##_desc)           \
        return &ENTRY_PATH_##family;
    MPICOLL_COLLECTIVES(PATH_OF_)
#undef PATH_OF_
    return NULL;
}

int coll_entry(const coll_args *a, const call_mode *mode)
{
    return mpicoll_raise(a->comm, coll_run(a, mode));
}

int coll_run(const coll_args *a, const call_mode *mode)
{
    const entry_path *path = path_of(a->coll);
    req_t *nbreq = NULL;
    call_mode nb = { .req = &nbreq };
    comm_state *st;
    int p, me, rc;
    runtime_enter();
    mode = call_mode_for(a->coll, a->spec, mode, &nb);
    CHECK(path ? MPI_SUCCESS : MPI_ERR_INTERN);
    CHECK(check_comm(a->comm));
    PMPI_Comm_size(a->comm, &p);
    PMPI_Comm_rank(a->comm, &me);
    if (path->check && (rc = path->check(a, p, me)) != MPI_SUCCESS) {
        if (mode->refused)
            *mode->refused = 1;
        goto out;
    }
    CHECK(comm_state_find(a->comm, !mode->existing, &st));
    if (!st) {      /* mode->existing: handed back, as a refusal */
        if (mode->refused)
            *mode->refused = 1;
        else
            rc = MPI_ERR_INTERN;
        goto out;
    }
    if (mode->req)
        CHECK(request_new(mode));
    CHECK(path->run(a, mode, st));
out:
    rc = call_finish(mode, &nb, rc);
    runtime_leave();
    return rc;
}

int coll_supported(const coll_args *a)
{
    const entry_path *path = path_of(a->coll);
    return path && (!path->supported || path->supported(a));
}

int coll_takes(const coll_args *a, int quiet)
{
    int inter = 0, rank = 0;
    runtime_enter();    /* the support checks may ask the library (a collective of its own) */
    const int supported = coll_supported(a);
    runtime_leave();
    if (a->comm == MPI_COMM_NULL)
        return supported;                   /* the checks report it */
    if (PMPI_Comm_test_inter(a->comm, &inter) != MPI_SUCCESS)
        return 0;                           /* an invalid communicator: MPI reports it */
    if (!inter && supported)
        return 1;
    PMPI_Comm_rank(a->comm, &rank);
    if (!quiet && select_verbose() && rank == 0)
        fprintf(stderr, "mpicoll: %s native MPI collective (%s)\n", a->coll->name,
                inter ? "intercommunicator" : "datatype or operation left to the MPI library");
    return 0;
}
