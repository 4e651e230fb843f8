/*
 * allreduce: ring
 *
 * What:    the classic ring allreduce: the vector is cut into p blocks
 *          of ceil(n/p) elements (the last ones shorter, or empty when
 *          n < p); a ring reduce-scatter (p - 1
 *          steps: send the block you last reduced to r + 1, receive the
 *          next from r - 1 and reduce it) leaves block r fully reduced on
 *          rank r; a ring allgather (p - 1 steps) gives every rank all of
 *          them. Each step's send and receive are posted together.
 * Paper:   Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for
 *          clusters of workstations", JPDC 2009; Open MPI's
 *          ompi_coll_base_allreduce_intra_ring.
 * Steps:   2(p - 1).
 * Cost:    2(p - 1)α + 2((p - 1)/p)nβ + ((p - 1)/p)nγ   (n = vector bytes)
 * Limits:  commutative operations (contributions meet around the ring;
 *          declared, the selector falls back to basic_linear otherwise).
 * Memory:  one block (ceil(n/p) elements) of scratch.
 * Example: mpicoll show allreduce ring --np 5 --compact
 *          (columns: ranks; rows: elements of the receive buffer after each
 *          round; k = how many ranks' contributions the element holds
 *   round  0       1       2       3       4       5       6       7       8
 *   rank   01234   01234   01234   01234   01234   01234   01234   01234   01234
 *   0      11111   11211   11231   11234   51234   55234   55534   55554   55555
 */
#include "allreduce_algos.h"

void allreduce_ring(plan *pl, const plan_args *a)
{
    const size_t n = a->block / a->esize;
    const pat_ref work = { BUF_RECV, 0 };
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, a->block);
    plan_end_round(pl);
    pat_ring_reduce_scatter(pl, a->p, a->rank, work, n, a->esize, 0);
    pat_ring_allgather(pl, a->p, a->rank, work, n, a->esize);
}
