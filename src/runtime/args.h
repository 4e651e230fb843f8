/*
 * One call of a collective as the program made it (coll_args): filled once
 * by the API layer (src/api/api.h: API_CALL_<family>) and passed down
 * unchanged, to the entry path (coll_entry: entry.h) and, when the MPI
 * library's own collective runs, to it (native_run: native.h).
 */
#ifndef MPICOLL_RUNTIME_ARGS_H
#define MPICOLL_RUNTIME_ARGS_H

#include <mpi.h>
#include "../model/coll.h"

/* The union of the arguments of the MPI signatures (include/mpicoll.h:
 * MPICOLL_ARGS_<family>), named as their sides. What each signature family
 * fills, MPI's names in parentheses:
 *   block (allgather, alltoall), rooted_block (gather, scatter):
 *       sbuf, scount, stype (sendbuf, sendcount, sendtype), rbuf, rcount,
 *       rtype (recvbuf, recvcount, recvtype); root for rooted_block
 *   reduction (allreduce, reduce_scatter_block, scan, exscan),
 *   rooted_reduction (reduce): sbuf, rbuf, op; the one count and datatype
 *       in both rcount and scount, rtype and stype (reduce_scatter_block:
 *       the count of each rank's block); root for rooted_reduction
 *   bcast: the buffer is rbuf, sbuf MPI_IN_PLACE; count and datatype as a
 *       reduction's; root
 *   vreduction (reduce_scatter): sbuf, rbuf, rcounts (recvcounts), the
 *       datatype in rtype and stype, op
 *   vblock (allgatherv), rooted_vblock (gatherv): sbuf, scount, stype,
 *       rbuf, rcounts, rdispls (recvcounts, displs), rtype; root for
 *       rooted_vblock
 *   vscatter (scatterv): sbuf, rcounts, rdispls (sendcounts, displs: the
 *       counted side, here the send side), stype, rbuf, rcount, rtype, root
 *   vexchange (alltoallv): sbuf, scounts, sdispls, stype (sendbuf,
 *       sendcounts, sdispls, sendtype), rbuf, rcounts, rdispls, rtype
 *   barrier: the communicator alone
 * and comm for all. A field the family does not carry holds its null:
 * NULL, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, root -1. */
typedef struct coll_args {
    const coll_desc *coll;          /* the collective (<name>_desc) */
    const char *spec;               /* the algorithm named for the call, or NULL */
    const void *sbuf;               /* or MPI_IN_PLACE */
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    const int *rcounts, *rdispls;   /* the counted side's counts and displacements per
                                     * rank, in its type's elements: the receive side's
                                     * (the send side's for scatterv) */
    const int *scounts, *sdispls;   /* alltoallv's send side (ignored in place) */
    MPI_Op op;
    int root;
    MPI_Comm comm;                  /* the user's communicator */
} coll_args;

#endif
