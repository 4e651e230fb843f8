/*
 * reduce_scatter: ring
 *
 * What:    the vector goes to scratch; p - 1 ring steps (send the block
 *          you last reduced to r + 1, receive the next from r - 1 and
 *          reduce it) leave rank r's block reduced on rank r, each block of
 *          its own size (args_count). The builder is reduce_scatter_block's
 *          (src/coll/reduce_scatter_block/reduce_scatter_block_ring.c),
 *          which takes each rank's block size and place; zero-byte blocks
 *          are skipped on both sides.
 * Paper:   the reduce-scatter half of the ring allreduce (Patarasuk & Yuan,
 *          JPDC 2009); Open MPI's ompi_coll_base_reduce_scatter_intra_ring.
 * Steps:   p - 1.
 * Cost:    (p - 1)α + (n - b)β + (n - b)γ   (n: the whole vector; each step
 *          carries one rank's block, the largest sets the pace)
 * Limits:  commutative operations (contributions join around the ring;
 *          declared, falls back to basic_linear).
 * Memory:  TMP of the vector and its largest block.
 * Example: mpicoll show reduce_scatter ring --np 5 --compact
 *          (columns: ranks; rows: elements of the receive buffer after each
 *          round; k = how many ranks' contributions the element holds
 *   round  0       1       2       3       4       5
 *   rank   01234   01234   01234   01234   01234   01234
 *   0      .....   .....   .....   .....   .....   55555
 */
#include "reduce_scatter_algos.h"
#include "../reduce_scatter_block/reduce_scatter_block_algos.h"

void reduce_scatter_ring(plan *pl, const plan_args *a)
{
    reduce_scatter_block_ring(pl, a);
}
