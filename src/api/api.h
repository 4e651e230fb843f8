/*
 * The public entry points' one path, and how each signature family
 * (include/mpicoll.h) fills the call it makes (coll_args): src/api/entry.c
 * makes every mpicoll_<c>, mpicoll_i<c> and mpicoll_<c>_init, each also
 * _with an algorithm named, from MPICOLL_COLLECTIVES with these, and the
 * preload library its MPI_ wrappers.
 */
#ifndef MPICOLL_API_H
#define MPICOLL_API_H

#include "../runtime/entry.h"
#include "../runtime/native.h"
#include "../runtime/errors.h"
#include "../../include/mpicoll.h"

/* How an entry point runs its call. */
typedef enum { API_BLOCKING, API_NB, API_PERSISTENT } api_kind;

/* The call a (coll_entry), run as `kind` says; a request call fails with
 * MPI_ERR_ARG, raised on a->comm, when `request` is NULL. */
int api_call(const coll_args *a, mpicoll_request *request, api_kind kind);

/* The algorithm named for the calls of this thread that come through a
 * front end without a way to name one (the MPI_ entry points of the Open
 * MPI component), or NULL: how the sweep forces an algorithm per call
 * there, as mpicoll_<c>_with does through the API (tests/sweep). */
void api_thread_spec_set(const char *spec);
const char *api_thread_spec(void);

/* Each family's coll_args (src/runtime/args.h), from its arguments as
 * MPICOLL_ARGS_<family> names them: API_CALL_<family>, the initializers
 * of every field the family fills and of the nulls that are not 0 (the
 * operation, the root, and barrier's datatypes). */
#define API_CALL_block .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, \
    .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .op = MPI_OP_NULL, .root = -1, \
    .comm = comm
#define API_CALL_rooted_block .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, \
    .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .op = MPI_OP_NULL, .root = root, \
    .comm = comm
#define API_CALL_reduction .sbuf = sendbuf, .scount = count, .stype = datatype, \
    .rbuf = recvbuf, .rcount = count, .rtype = datatype, .op = op, .root = -1, .comm = comm
#define API_CALL_rooted_reduction .sbuf = sendbuf, .scount = count, .stype = datatype, \
    .rbuf = recvbuf, .rcount = count, .rtype = datatype, .op = op, .root = root, .comm = comm
/* the buffer is the receive buffer, the send buffer MPI_IN_PLACE */
#define API_CALL_bcast .sbuf = MPI_IN_PLACE, .scount = count, .stype = datatype, \
    .rbuf = buffer, .rcount = count, .rtype = datatype, .op = MPI_OP_NULL, .root = root, \
    .comm = comm
#define API_CALL_vreduction .sbuf = sendbuf, .stype = datatype, .rbuf = recvbuf, \
    .rcounts = recvcounts, .rtype = datatype, .op = op, .root = -1, .comm = comm
#define API_CALL_vblock .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, \
    .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype, \
    .op = MPI_OP_NULL, .root = -1, .comm = comm
#define API_CALL_rooted_vblock .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, \
    .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype, \
    .op = MPI_OP_NULL, .root = root, .comm = comm
/* the counted side is the send side: its counts in rcounts, rdispls */
#define API_CALL_vscatter .sbuf = sendbuf, .rcounts = sendcounts, .rdispls = displs, \
    .stype = sendtype, .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, \
    .op = MPI_OP_NULL, .root = root, .comm = comm
#define API_CALL_vexchange .sbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls, \
    .stype = sendtype, .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls, \
    .rtype = recvtype, .op = MPI_OP_NULL, .root = -1, .comm = comm
#define API_CALL_barrier .stype = MPI_DATATYPE_NULL, .rtype = MPI_DATATYPE_NULL, \
    .op = MPI_OP_NULL, .root = -1, .comm = comm

/* The call of collective `name` of signature family `family`, with the
 * algorithm `alg` named for it (NULL: the selection's), from the family's
 * arguments. */
#define API_COLL_ARGS(name, alg, family) \
    ((coll_args){ .coll = &name##_desc, .spec = (alg), API_CALL_##family })

/* Each family's arguments as MPICOLL_ARGS_<family> names them, in order
 * (one entry point calling another). */
#define API_ARGS_block sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm
#define API_ARGS_reduction sendbuf, recvbuf, count, datatype, op, comm
#define API_ARGS_rooted_reduction sendbuf, recvbuf, count, datatype, op, root, comm
#define API_ARGS_bcast buffer, count, datatype, root, comm
#define API_ARGS_vreduction sendbuf, recvbuf, recvcounts, datatype, op, comm
#define API_ARGS_rooted_vblock sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, \
    recvtype, root, comm
#define API_ARGS_vscatter sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, \
    root, comm
#define API_ARGS_vexchange sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, \
    recvtype, comm
#define API_ARGS_vblock sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm
#define API_ARGS_rooted_block sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm
#define API_ARGS_barrier comm

#endif
