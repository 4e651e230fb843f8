/*
 * The collectives of mpicoll: one row per collective, the single list that
 * everything listing them is made from (the entry points of mpicoll.h and
 * the library, the table of collectives, the preload library's MPI_
 * wrappers, the build and the tests). No MPI here: the MPI-free part of
 * the library reads it too.
 *
 * MPICOLL_COLLECTIVES(X) calls X(name, MPI name, family) for each row, in
 * table order:
 *   name    mpicoll_<name>, src/coll/<name>/ (<name>.def, <name>.rules,
 *           the descriptor <name>_desc), MPICOLL_<NAME>
 *   MPI name   MPI_<MPI name>, PMPI_<MPI name> (the preload wrapper, native)
 *   family  the signature family (mpicoll.h: block, reduction,
 *           rooted_reduction, bcast, vblock, vreduction, rooted_block, barrier,
 *           rooted_vblock, vscatter, vexchange)
 * The build reads the rows as text: keep one a line, X(...) with nothing
 * else on it but the line's backslash.
 */
#ifndef MPICOLL_COLLECTIVES_H
#define MPICOLL_COLLECTIVES_H

#define MPICOLL_COLLECTIVES(X)                                  \
    X(allgather, Allgather, block)                              \
    X(alltoall, Alltoall, block)                                \
    X(allreduce, Allreduce, reduction)                          \
    X(reduce, Reduce, rooted_reduction)                         \
    X(bcast, Bcast, bcast)                                      \
    X(reduce_scatter_block, Reduce_scatter_block, reduction)    \
    X(allgatherv, Allgatherv, vblock)                           \
    X(reduce_scatter, Reduce_scatter, vreduction)               \
    X(scan, Scan, reduction)                                    \
    X(exscan, Exscan, reduction)                                \
    X(gather, Gather, rooted_block)                             \
    X(scatter, Scatter, rooted_block)                           \
    X(barrier, Barrier, barrier)                                \
    X(gatherv, Gatherv, rooted_vblock)                          \
    X(scatterv, Scatterv, vscatter)                             \
    X(alltoallv, Alltoallv, vexchange)

#endif
