/*
 * The whole call of each path (blockcoll.c, veccoll.c): checks, selection,
 * datatypes, in place, errors raised on the communicator; run now or as a
 * request.
 */
#ifndef MPICOLL_RUNTIME_ENTRY_H
#define MPICOLL_RUNTIME_ENTRY_H

#include "call.h"

/* The whole call of a collective of equal blocks per rank (allgather,
 * alltoall; gather and scatter at `root`, -1 for the others), with MPI's
 * semantics: checks, selection, datatypes, in place, errors raised on
 * comm; run now or as a request (mode). */
int blockcoll_call(const coll_desc *c, const char *spec, const void *sbuf, int scount,
                   MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                   MPI_Comm comm, const call_mode *mode);

/* The whole call of a collective on one vector of `count` elements per
 * rank (allreduce, reduce, bcast, reduce_scatter_block: count is the
 * receive count), with or without an operation (MPI_OP_NULL) and a root
 * (-1 for none). For bcast, sbuf is MPI_IN_PLACE and rbuf the buffer. */
typedef struct vec_call {
    const coll_desc *coll;
    const char *spec;
    const void *sbuf;
    void *rbuf;
    int count;
    MPI_Datatype type;
    MPI_Op op;
    int root;
    MPI_Comm comm;
    const int *counts;      /* reduce_scatter: each rank's block, in elements (count
                             * unused); NULL for the others */
} vec_call;

int veccoll_call(const vec_call *v, const call_mode *mode);

/* The whole call of a collective of the communicator alone (barrier):
 * the communicator's check, selection, a plan of synchronisation messages
 * (no data, no buffers), errors raised on comm; run now or as a request
 * (mode: MPI_Ibarrier's and MPI_Barrier_init's semantics). */
int barrier_call(const coll_desc *c, const char *spec, MPI_Comm comm, const call_mode *mode);

/* 1 if mpicoll's own algorithms take this datatype with this operation
 * (MPI_OP_NULL and reduction 0 for bcast); else veccoll_call fails with
 * MPI_ERR_TYPE, or runs the library's own collective (op_for_library). */
int veccoll_type_supported(MPI_Datatype t, MPI_Op op, int reduction);

/* The whole call of a collective with counts per rank on one side
 * (allgatherv, gatherv: rank r's block is counts[r] elements of rtype at
 * displs[r] of rbuf; scatterv, counted_send: of stype in sbuf), rooted
 * (gatherv, scatterv: the counts significant at the root only) or not
 * (root -1). */
typedef struct vcoll_args {
    const coll_desc *coll;
    const char *spec;
    const void *sbuf;
    int scount;             /* the send side's own count (allgatherv, gatherv) */
    MPI_Datatype stype;
    void *rbuf;
    int rcount;             /* the receive side's own count (scatterv) */
    const int *counts, *displs;
    MPI_Datatype rtype;
    int root;
    int counted_send;
    MPI_Comm comm;
} vcoll_args;

int vcoll_call(const vcoll_args *v, const call_mode *mode);

/* The blocks of counts[r] elements at displs[r] (elements of a type of
 * view cv, p of them) in bytes: count[r], and displ[r] from the lowest
 * block when they tile a range of the user's buffer with a contiguous
 * type (returns 1, *first: the lowest block's offset in bytes), else
 * packed in rank order (returns 0; -1: out of memory). A block of no
 * bytes lies at 0. vcoll.c's, shared with vxcoll.c. */
struct dt_view;
int vcoll_layout(const int *counts, const int *displs, int p, const struct dt_view *cv,
                 size_t *count, size_t *displ, MPI_Aint *first);

/* The whole call of a collective with counts per pair of ranks on both
 * sides, significant on every rank (alltoallv: rank d's block is
 * scounts[d] elements of stype at sdispls[d] of sbuf; rank s's,
 * rcounts[s] of rtype at rdispls[s] of rbuf); sbuf MPI_IN_PLACE: the
 * send data are the receive buffer's blocks (MPI-2.2). */
typedef struct vxcoll_args {
    const coll_desc *coll;
    const char *spec;
    const void *sbuf;
    const int *scounts, *sdispls;
    MPI_Datatype stype;
    void *rbuf;
    const int *rcounts, *rdispls;
    MPI_Datatype rtype;
    MPI_Comm comm;
} vxcoll_args;

int vxcoll_call(const vxcoll_args *v, const call_mode *mode);

#endif
