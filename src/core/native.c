/*
 * native: the MPI library's own collectives, as an algorithm of every
 * collective (R_NATIVE in each table). The one piece of code that calls
 * the PMPI_ collectives: the entry paths after checks and selection
 * (blockcoll.c, veccoll.c, through call_native), requests (request.c:
 * PMPI_I<coll>, MPI-3) and the preload library's calls that mpicoll does
 * not take. Arguments go through as the user gave them, on the user's
 * communicator, so the MPI library sees exactly what the program passed.
 */
#include "runtime.h"

extern const coll_desc allgather_desc, alltoall_desc, allreduce_desc, reduce_desc,
    bcast_desc, reduce_scatter_block_desc;

int native_run(const native_args *a, MPI_Request *req)
{
    const coll_desc *c = a->coll;
    if (c == &allgather_desc)
        return req ? PMPI_Iallgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                     a->comm, req)
                   : PMPI_Allgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                    a->comm);
    if (c == &alltoall_desc)
        return req ? PMPI_Ialltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                    a->comm, req)
                   : PMPI_Alltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                   a->comm);
    if (c == &allreduce_desc)
        return req ? PMPI_Iallreduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm, req)
                   : PMPI_Allreduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm);
    if (c == &reduce_desc)
        return req ? PMPI_Ireduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root,
                                  a->comm, req)
                   : PMPI_Reduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root, a->comm);
    if (c == &bcast_desc)
        return req ? PMPI_Ibcast(a->rbuf, a->rcount, a->rtype, a->root, a->comm, req)
                   : PMPI_Bcast(a->rbuf, a->rcount, a->rtype, a->root, a->comm);
    if (c == &reduce_scatter_block_desc)
        return req ? PMPI_Ireduce_scatter_block(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op,
                                                a->comm, req)
                   : PMPI_Reduce_scatter_block(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op,
                                               a->comm);
    return MPI_ERR_INTERN;
}
