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
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4       5       6       7       8
 *   rank   01234   01234   01234   01234   01234   01234   01234   01234   01234
 *   0      11111   11211   11231   11234   51234   55234   55534   55554   55555
 *   1      11111   11121   11123   41123   45123   45523   45553   45555   55555
 *   2      11111   11112   31112   34112   34512   34552   34555   54555   55555
 *   3      11111   21111   23111   23411   23451   23455   53455   55455   55555
 *   4      11111   12111   12311   12341   12345   52345   55345   55545   55555
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
