/*
 * allreduce: basic_linear
 *
 * What:    the "naive" allreduce that ring allreduce tutorials compare against:
 *          a linear reduce to rank 0 (every rank sends its vector, rank 0
 *          receives them all at once and combines them in rank order), then
 *          a linear broadcast of the result from rank 0.
 * Paper:   Open MPI's ompi_coll_base_allreduce_intra_basic_linear.
 * Steps:   2.
 * Cost:    2(p - 1)α + 2(p - 1)nβ + (p - 1)nγ, all at rank 0   (n = vector bytes)
 * Limits:  none: any operation, rank order kept.
 * Memory:  rank 0: (p - 1)·n bytes of scratch.
 * Example: mpicoll show allreduce basic_linear --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1
 *   rank   01234   01234
 *   0      51111   55555
 *   1      51111   55555
 *   2      51111   55555
 *   3      51111   55555
 *   4      51111   55555
 */
#include "allreduce_algos.h"

void allreduce_basic_linear(plan *pl, const plan_args *a)
{
    const pat_ref in = { BUF_SEND, 0 }, out = { BUF_RECV, 0 };
    pat_reduce_linear(pl, a->p, a->rank, 0, a->block, in, out, 0);
    pat_bcast_linear(pl, a->p, a->rank, 0, BUF_RECV, 0, a->block);
}
