/*
 * reduce_scatter: recursive_halving
 *
 * What:    MPICH's recursive halving with each rank's block of its own size:
 *          non-powers of two fold the first 2·rem ranks, then each step keeps
 *          half of the new blocks and sends the other half.
 *          The builder is reduce_scatter_block's
 *          (src/coll/reduce_scatter_block/reduce_scatter_block_recursive_halving.c),
 *          which takes each rank's block size and place (args_count,
 *          args_displ); zero-byte blocks are skipped on both sides.
 * Paper:   Thakur, Rabenseifner & Gropp, IJHPCA 2005; MPICH's
 *          MPIR_Reduce_scatter_intra_recursive_halving.
 * Steps:   log2(pof2), plus 2 when p is not a power of two.
 * Cost:    log2(pof2)α + about nβ + nγ   (n: the whole vector)
 * Limits:  commutative operations (declared; falls back to noncommutative).
 * Memory:  TMP of twice the vector.
 * Example: mpicoll show reduce_scatter recursive_halving --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      12111   13211   15211   55211
 *   1      12111   13211   15211   15211
 *   2      12111   13211   13511   13511
 *   3      12111   12132   12152   12152
 *   4      12111   12132   12135   12135
 */
#include "reduce_scatter_algos.h"
#include "../reduce_scatter_block/reduce_scatter_block_algos.h"

void reduce_scatter_recursive_halving(plan *pl, const plan_args *a)
{
    reduce_scatter_block_recursive_halving(pl, a);
}
