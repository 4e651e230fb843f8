/*
 * The entry path of the collectives of the communicator alone (barrier):
 * the communicator's check, selection, and a plan of synchronisation
 * messages of 0 bytes (plan_send_token), no data and no buffers, run now
 * or as a request; or, when the selection chose native, the MPI library's
 * own collective on the user's communicator (src/runtime/native.c).
 */
#include "entry.h"
#include "select.h"
#include "native.h"
#include "errors.h"

static int run(const coll_desc *c, const char *spec, MPI_Comm comm, const call_mode *mode)
{
    comm_state *st;
    int rc = comm_state_get(comm, &st);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_call call = { .coll = c, .st = st };
    /* no message size: the rules see bytes=0 */
    call_info ci = { .p = comm_state_size(st), .nnodes = 1, .bytes = 0, .commutative = 1 };
    plan_args pa = { .esize = 1, .commutative = 1 };
    rc = select_prepare(st, c, spec, &ci, pa, &call.rp, call_own_plan(mode));
    if (rc != MPI_SUCCESS)
        return rc;
    if (!call.rp) {     /* native: the MPI library's own, on the user's communicator */
        const native_args na = { .coll = c, .stype = MPI_DATATYPE_NULL,
                                 .rtype = MPI_DATATYPE_NULL, .op = MPI_OP_NULL, .root = -1,
                                 .comm = comm };
        return call_native(mode, st, &na);
    }
    if (call.rp->pl.tmp_bytes && !(call.bufs[BUF_TMP] = call_scratch(mode, st,
                                                                     call.rp->pl.tmp_bytes)))
        return MPI_ERR_NO_MEM;
    return call_launch(mode, &call);
}

int barrier_call(const coll_desc *c, const char *spec, MPI_Comm comm, const call_mode *mode)
{
    req_t *nbreq = NULL;
    call_mode nb = { &nbreq, 0 };
    mode = call_mode_for(c, spec, mode, &nb);
    int rc;
    CHECK(check_comm(comm));
    if (mode->req)
        CHECK(request_new(mode->req));
    CHECK(run(c, spec, comm, mode));
out:
    rc = call_finish(mode, &nb, rc);
    return mpicoll_raise(comm, rc);
}
