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
 *          declared, falls back to noncommutative).
 * Memory:  TMP of the vector and its largest block.
 * Example: mpicoll show reduce_scatter ring --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4       5
 *   rank   01234   01234   01234   01234   01234   01234
 *   0      11111   11211   11231   11234   51234   51234
 *   1      11111   11121   11123   41123   45123   45123
 *   2      11111   11112   31112   34112   34512   34512
 *   3      11111   21111   23111   23411   23451   23451
 *   4      11111   12111   12311   12341   12345   12345
 */
#include "reduce_scatter_algos.h"
#include "../reduce_scatter_block/reduce_scatter_block_algos.h"

void reduce_scatter_ring(plan *pl, const plan_args *a)
{
    reduce_scatter_block_ring(pl, a);
}
