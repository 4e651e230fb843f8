/*
 * reduce: linear
 *
 * What:    every rank sends its vector to the root, which receives them all
 *          at once and combines them in rank order, starting from its own.
 * Paper:   Open MPI's ompi_coll_base_reduce_intra_basic_linear.
 * Steps:   1.
 * Cost:    (p - 1)α + (p - 1)nβ + (p - 1)nγ at the root   (n = vector bytes)
 * Limits:  none: any operation.
 * Memory:  root: (p - 1)·n bytes of scratch.
 * Example: mpicoll show reduce linear --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0
 *   rank   01234
 *   0      51111
 *   1      51111
 *   2      51111
 *   3      51111
 *   4      51111
 */
#include "reduce_algos.h"

void reduce_linear(plan *pl, const plan_args *a)
{
    const pat_ref in = { BUF_SEND, 0 }, out = { BUF_RECV, 0 };
    pat_reduce_linear(pl, a->p, a->rank, a->root, a->block, in, out, 0);
}
