/*
 * reduce_scatter: noncommutative
 *
 * What:    MPICH's recursive halving for any operation, each rank's block
 *          of its own size (args_count): the vector goes to scratch with
 *          its blocks in bit-reversed order, partners at distance 1, 2, 4,
 *          ... (the largest halves to the nearest ranks), the lower rank's
 *          part on the left, so that the operation's order holds; any p by
 *          MPICH's fold. The builder is reduce_scatter_block's
 *          (src/coll/reduce_scatter_block/reduce_scatter_block_noncommutative.c),
 *          which takes each rank's block size and place.
 * Paper:   Thakur, Rabenseifner & Gropp, IJHPCA 2005; MPICH's
 *          MPIR_Reduce_scatter_intra_noncommutative (powers of two, equal
 *          blocks).
 * Steps:   log2(pof2), plus 2 when p is not a power of two (and one round
 *          of local copies before the first step).
 * Cost:    log2(pof2)α + about (nβ + nγ), plus 2α + nβ + nγ when p is not
 *          a power of two   (n: the whole vector)
 * Limits:  none (any operation, any p).
 * Memory:  TMP of the vector and the part received at the first step,
 *          twice the vector on the odd ranks of the fold's pairs.
 * Example: mpicoll show reduce_scatter noncommutative --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4
 *   rank   01234   01234   01234   01234   01234
 *   0      12111   12121   13121   15121   55121
 *   1      12111   12121   13121   15121   15121
 *   2      12111   12112   12312   12512   12512
 *   3      12111   12121   13121   13151   13151
 *   4      12111   12112   12312   12315   12315
 */
#include "reduce_scatter_algos.h"
#include "../reduce_scatter_block/reduce_scatter_block_algos.h"

void reduce_scatter_noncommutative(plan *pl, const plan_args *a)
{
    reduce_scatter_block_noncommutative(pl, a);
}
