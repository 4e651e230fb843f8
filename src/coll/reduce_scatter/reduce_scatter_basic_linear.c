/*
 * reduce_scatter: basic_linear
 *
 * What:    the whole vector is reduced to rank 0 by a linear reduce, in rank
 *          order; rank 0 then sends every rank its block.
 *          The builder is reduce_scatter_block's
 *          (src/coll/reduce_scatter_block/reduce_scatter_block_basic_linear.c),
 *          which takes each rank's block size and place (args_count,
 *          args_displ); zero-byte blocks are skipped on both sides.
 * Paper:   Open MPI's non-overlapping reduce_scatter (a reduce, then a
 *          scatterv).
 * Steps:   2.
 * Cost:    (p - 1)(α + nβ + nγ) at rank 0, then (p - 1)α + nβ   (n: the whole
 *          vector)
 * Limits:  none.
 * Memory:  TMP of the vector at rank 0.
 * Example: mpicoll show reduce_scatter basic_linear --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1
 *   rank   01234   01234
 *   0      51111   51111
 *   1      51111   55111
 *   2      51111   51511
 *   3      51111   51151
 *   4      51111   51115
 */
#include "reduce_scatter_algos.h"
#include "../reduce_scatter_block/reduce_scatter_block_algos.h"

void reduce_scatter_basic_linear(plan *pl, const plan_args *a)
{
    reduce_scatter_block_basic_linear(pl, a);
}
