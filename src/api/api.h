/*
 * The public entry points' two paths, and how each signature family
 * (include/mpicoll.h) maps onto them: src/api/entry.c makes every
 * mpicoll_<c>, mpicoll_i<c> and mpicoll_<c>_init, each also _with an
 * algorithm named, from
 * MPICOLL_COLLECTIVES with these, and the preload library its MPI_
 * wrappers.
 */
#ifndef MPICOLL_API_H
#define MPICOLL_API_H

#include "../runtime/entry.h"
#include "../runtime/native.h"
#include "../runtime/errors.h"
#include "../../include/mpicoll.h"

/* How an entry point runs its call. */
typedef enum { API_BLOCKING, API_NB, API_PERSISTENT } api_kind;

/* A block collective (blockcoll_call) or a vector one (veccoll_call),
 * run as `kind` says; a request call fails with MPI_ERR_ARG, raised on
 * comm, when `request` is NULL. */
int api_block(const coll_desc *c, const char *spec, const void *sbuf, int scount,
              MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
              MPI_Comm comm, mpicoll_request *request, api_kind kind);
int api_vector(const coll_desc *c, const char *spec, const void *sbuf, void *rbuf, int count,
               MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, mpicoll_request *request,
               api_kind kind);
/* A reduction with counts per rank (reduce_scatter: veccoll_call). */
int api_vreduction(const coll_desc *c, const char *spec, const void *sbuf, void *rbuf,
                   const int *counts, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   mpicoll_request *request, api_kind kind);
/* A collective with counts per rank on one side (allgatherv, gatherv:
 * the receive side; scatterv: the send side: vcoll_call), rooted or not
 * (root -1). */
int api_vblock(const coll_desc *c, const char *spec, const void *sbuf, int scount,
               MPI_Datatype stype, void *rbuf, const int *rcounts, const int *displs,
               MPI_Datatype rtype, MPI_Comm comm, mpicoll_request *request, api_kind kind);
int api_vgather(const coll_desc *c, const char *spec, const void *sbuf, int scount,
                MPI_Datatype stype, void *rbuf, const int *rcounts, const int *displs,
                MPI_Datatype rtype, int root, MPI_Comm comm, mpicoll_request *request,
                api_kind kind);
int api_vscatter(const coll_desc *c, const char *spec, const void *sbuf, const int *scounts,
                 const int *displs, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm, mpicoll_request *request,
                 api_kind kind);
/* A collective with counts per pair of ranks on both sides (alltoallv:
 * vxcoll_call). */
int api_vexchange(const coll_desc *c, const char *spec, const void *sbuf, const int *scounts,
                  const int *sdispls, MPI_Datatype stype, void *rbuf, const int *rcounts,
                  const int *rdispls, MPI_Datatype rtype, MPI_Comm comm,
                  mpicoll_request *request, api_kind kind);
/* A collective of the communicator alone (barrier: barrier_call). */
int api_barrier(const coll_desc *c, const char *spec, MPI_Comm comm, mpicoll_request *request,
                api_kind kind);

/* Each family: API_PATH_<family> is its path (block, vector or barrier:
 * api_block, api_vector or api_barrier, and the preload library's
 * preload_block, preload_vector or preload_barrier), API_CALL_<family> its
 * arguments (named as in
 * MPICOLL_ARGS_<family>) in that path's order. */
#define API_PATH_block block
#define API_CALL_block sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, -1, comm
#define API_PATH_rooted_block block
#define API_CALL_rooted_block sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, \
    comm
#define API_PATH_reduction vector
#define API_CALL_reduction sendbuf, recvbuf, count, datatype, op, -1, comm
#define API_PATH_rooted_reduction vector
#define API_CALL_rooted_reduction sendbuf, recvbuf, count, datatype, op, root, comm
/* veccoll_call's form of a broadcast: the buffer is the receive buffer */
#define API_PATH_bcast vector
#define API_CALL_bcast MPI_IN_PLACE, buffer, count, datatype, MPI_OP_NULL, root, comm
#define API_PATH_vreduction vreduction
#define API_CALL_vreduction sendbuf, recvbuf, recvcounts, datatype, op, comm
#define API_PATH_rooted_vblock vgather
#define API_CALL_rooted_vblock sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, \
    recvtype, root, comm
#define API_PATH_vscatter vscatter
#define API_CALL_vscatter sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, \
    root, comm
#define API_PATH_vexchange vexchange
#define API_CALL_vexchange sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, \
    recvtype, comm
#define API_PATH_vblock vblock
#define API_CALL_vblock sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm
/* no data: its own path (api_barrier, preload_barrier) */
#define API_PATH_barrier barrier
#define API_CALL_barrier comm

/* Each family's arguments as MPICOLL_ARGS_<family> names them, in order
 * (one entry point calling another). */
#define API_ARGS_block sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm
#define API_ARGS_reduction sendbuf, recvbuf, count, datatype, op, comm
#define API_ARGS_rooted_reduction sendbuf, recvbuf, count, datatype, op, root, comm
#define API_ARGS_bcast buffer, count, datatype, root, comm
#define API_ARGS_vreduction sendbuf, recvbuf, recvcounts, datatype, op, comm
#define API_ARGS_rooted_vblock API_CALL_rooted_vblock
#define API_ARGS_vscatter API_CALL_vscatter
#define API_ARGS_vexchange API_CALL_vexchange
#define API_ARGS_vblock sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm
#define API_ARGS_rooted_block sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm
#define API_ARGS_barrier comm

/* API_PATH(prefix_, family): prefix_block, prefix_vector or prefix_barrier */
#define API_CAT_(a, b) a##b
#define API_CAT(a, b) API_CAT_(a, b)
#define API_PATH(prefix, family) API_CAT(prefix, API_PATH_##family)

#endif
