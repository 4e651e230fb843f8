/*
 * The MPI library's own collectives (native.c).
 */
#ifndef MPICOLL_RUNTIME_NATIVE_H
#define MPICOLL_RUNTIME_NATIVE_H

#include "call.h"
#include "args.h"

/* The one place that calls the PMPI_ collectives, with a's arguments as
 * they are (buffers, MPI_IN_PLACE, counts, types, operation, root, and the
 * user's communicator, not mpicoll's duplicate): blocking (req NULL:
 * PMPI_Allgather & co.) or started (PMPI_Iallgather & co., MPI-3). Returns
 * the MPI library's code; raises nothing itself (MPI may, on comm). */
int native_run(const coll_args *a, MPI_Request *req);

/* A native call as the MPI library runs it: its arguments (the user's,
 * or for a predefined operation on a derived datatype the view of the
 * predefined type beneath it; and under MPICH before 4.2.1 a blocking
 * in-place reduce at a root other than 0 gets a send buffer apart), and
 * the typed copies into the view's scratch before each run and out of it
 * once the library's collective has completed (COPY_NONE when the view is
 * the user's buffers). */
typedef struct native_call {
    coll_args lib;
    copy_step pre, post;
} native_call;

/* The native call for the user's arguments a, on st's communicator; the
 * view's scratch comes from call_scratch(m, st, ...): the communicator's
 * for a blocking call, the request's own otherwise. MPI_ERR_COUNT when
 * the view would hold more than INT_MAX elements (on every rank alike). */
int native_prepare(const coll_args *a, const call_mode *m, comm_state *st, native_call *nc);

/* Copies into the view, then native_run(&nc->lib, req); the caller runs
 * nc->post (copy_step_run) once the collective has completed. */
int native_start(const native_call *nc, MPI_Request *req);

/* A call whose selection chose native (select_prepare left no plan):
 * now, or as a request that wraps the MPI request (a persistent one
 * starts a new PMPI_I<coll> with the bound arguments at each start). */
int call_native(const call_mode *m, comm_state *st, const coll_args *a);

/* A blocking call kept (call_memo.native) again: the library's own
 * collective with the user's arguments, as call_native ran it. */
int call_native_again(const coll_args *a);

#endif
