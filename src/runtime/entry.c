/*
 * The one skeleton of every collective's call: the mode it runs in, the
 * communicator's check, the family's own checks, the request, the
 * communicator's state, the family's run, the end of the call
 * (call_finish) and its error raised on the communicator. The family's
 * path (entry.h: entry_path) comes from the list of collectives.
 */
#include "entry.h"
#include "errors.h"

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
    const entry_path *path = path_of(a->coll);
    req_t *nbreq = NULL;
    call_mode nb = { &nbreq, 0 };
    comm_state *st;
    int p, me, rc;
    mode = call_mode_for(a->coll, a->spec, mode, &nb);
    CHECK(path ? MPI_SUCCESS : MPI_ERR_INTERN);
    CHECK(check_comm(a->comm));
    PMPI_Comm_size(a->comm, &p);
    PMPI_Comm_rank(a->comm, &me);
    if (path->check)
        CHECK(path->check(a, p, me));
    if (mode->req)
        CHECK(request_new(mode->req));
    CHECK(comm_state_get(a->comm, &st));
    CHECK(path->run(a, mode, st));
out:
    rc = call_finish(mode, &nb, rc);
    return mpicoll_raise(a->comm, rc);
}

int coll_supported(const coll_args *a)
{
    const entry_path *path = path_of(a->coll);
    return path && (!path->supported || path->supported(a));
}
