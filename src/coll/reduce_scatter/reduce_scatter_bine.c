/*
 * reduce_scatter: bine
 *
 * What:    the Bine butterfly (peers r +/- rho(s), the nearest first, with
 *          the largest messages), each rank's block of its own size
 *          (args_count): the vector goes to scratch block by block in the
 *          order of the butterfly's tree, so that each step's message is one
 *          range and rank r ends with its own block; any p by MPICH's fold.
 *          The builder is reduce_scatter_block's
 *          (src/coll/reduce_scatter_block/reduce_scatter_block_bine.c),
 *          which takes each rank's block size and place.
 * Paper:   De Sensi, Pasqualoni et al., "Bine Trees: Enhancing Collective
 *          Operations by Optimizing Communication Locality", SC 2025.
 * Steps:   log2(pof2), plus 2 when p is not a power of two (and one round
 *          of local copies before the first step).
 * Cost:    log2(pof2)α + about (nβ + nγ), plus 2α + nβ + nγ when p is not
 *          a power of two   (n: the whole vector)
 * Limits:  commutative operations (a step combines ranks that are not
 *          adjacent; declared, falls back to noncommutative).
 * Memory:  TMP of the vector and the part received at the first step,
 *          twice the vector on the odd ranks of the fold's pairs.
 * Example: mpicoll show reduce_scatter bine --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4
 *   rank   01234   01234   01234   01234   01234
 *   0      12111   12112   13112   15112   55112
 *   1      12111   12112   13112   15112   15112
 *   2      12111   12121   12321   12521   12521
 *   3      12111   12121   12321   12351   12351
 *   4      12111   12112   13112   13115   13115
 */
#include "reduce_scatter_algos.h"
#include "../reduce_scatter_block/reduce_scatter_block_algos.h"

void reduce_scatter_bine(plan *pl, const plan_args *a)
{
    reduce_scatter_block_bine(pl, a);
}
