/*
 * The entry path (entry.h: barrier_path) of the collectives of the
 * communicator alone (barrier): selection, and a plan of synchronisation
 * messages of 0 bytes (plan_send_token), no data and no buffers, run now
 * or as a request; or, when the selection chose native, the MPI library's
 * own collective on the user's communicator (src/runtime/native.c). Its
 * one check, the communicator's, is coll_entry's.
 */
#include "entry.h"
#include "select.h"
#include "native.h"

static int run(const coll_args *a, const call_mode *mode, comm_state *st)
{
    coll_call call = { .coll = a->coll, .st = st };
    /* no message size: the rules see bytes=0 */
    call_info ci = { .p = comm_state_size(st), .nnodes = 1, .bytes = 0, .commutative = 1 };
    plan_args pa = { .esize = 1, .commutative = 1 };
    int rc = select_prepare(st, a->coll, a->spec, &ci, pa, &call.rp, call_own_plan(mode));
    if (rc != MPI_SUCCESS)
        return rc;
    if (!call.rp)       /* native: the MPI library's own, on the user's communicator */
        return call_native(mode, st, a);
    if (call.rp->pl.tmp_bytes && !(call.bufs[BUF_TMP] = call_scratch(mode, st,
                                                                     call.rp->pl.tmp_bytes)))
        return MPI_ERR_NO_MEM;
    return call_launch(mode, &call);
}

const entry_path barrier_path = { NULL, run, NULL };
