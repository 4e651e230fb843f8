/*
 * reduce_scatter: recursive_multiplying
 *
 * What:    recursive halving in radix k (MPICH's recursive exchange), each
 *          rank's block of its own size (args_count): a fold makes pofk
 *          new ranks (the largest power of k <= p), then for d = pofk/k,
 *          ..., 1 the k new ranks that differ in their base-k digit at d
 *          swap, in one round, the parts of their range each of them keeps
 *          and reduce what they receive. The builder is
 *          reduce_scatter_block's
 *          (src/coll/reduce_scatter_block/reduce_scatter_block_recursive_multiplying.c),
 *          which takes each rank's block size and place; zero-byte blocks
 *          are skipped on both sides.
 * Paper:   MPICH's MPIR_Ireduce_scatter_intra_tsp_recexch; Thakur,
 *          Rabenseifner & Gropp, IJHPCA 2005 (k = 2).
 * Steps:   log_k(pofk), plus 2 when p is not a power of k.
 * Cost:    log_k(pofk)(k - 1)α + about (nβ + nγ), plus (k - 1)(2α + nβ +
 *          nγ) when p is not a power of k   (n: the whole vector)
 * Limits:  commutative operations (declared; falls back to noncommutative).
 *          Parameter k >= 2 (default 4).
 * Memory:  TMP of the vector plus the k - 1 parts a step receives; the
 *          fold's top ranks k times the vector.
 * Example: mpicoll show reduce_scatter recursive_multiplying:k=3 --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      11311   11511   51511
 *   1      11311   11511   15511
 *   2      11311   11511   11511
 *   3      11311   11351   11351
 *   4      11311   11315   11315
 */
#include "reduce_scatter_algos.h"
#include "../reduce_scatter_block/reduce_scatter_block_algos.h"

void reduce_scatter_recursive_multiplying(plan *pl, const plan_args *a)
{
    reduce_scatter_block_recursive_multiplying(pl, a);
}
