/*
 * reduce_scatter_block: bine
 *
 * What:    the Bine butterfly's reduce-scatter (the first half of
 *          allreduce swing_bandwidth), each rank ending with its own block.
 *          Among pof2 ranks (L = log2 pof2 steps) the peer of rank r at
 *          step s is r + rho(s) mod pof2 if r is even, r - rho(s) if odd,
 *          rho(s) = 1, -1, 3, -5, 11, ... (pat_swing_peer); steps go s = 0
 *          up, distance doubling: the largest messages (half the vector)
 *          go to the nearest ranks. At step s a rank sends its peer the
 *          blocks of the ranks the peer reaches through steps s+1..L-1 and
 *          reduces the peer's copy of its own. Those ranks are not a range,
 *          and rank r must end with block r; but a reduce-scatter chooses
 *          which blocks a step carries, so the vector goes to scratch (a
 *          copy every reduce-scatter into scratch makes) block by block in
 *          the order of Swing's tree (pat_swing_order), where every such
 *          set of ranks is one aligned range: each message is one range,
 *          and each rank ends with its own block at its own position, with
 *          no permutation exchange after (no extra round, no extra bytes).
 *          Any p by MPICH's fold (as recursive_halving and
 *          swing_bandwidth): of the first 2·rem ranks (rem = p - pof2) each
 *          even one sends its vector to the odd one above, which reduces it
 *          and goes on as one of pof2 new ranks, holding both ranks'
 *          blocks; at the end it sends the even one its block. Rank r's
 *          block is args_count(a, r) bytes at args_displ(a, r):
 *          reduce_scatter's bine is this builder, blocks of any size
 *          (pat_rs_placed, with Swing's order and peers).
 * Paper:   De Sensi, Pasqualoni et al., "Bine Trees: Enhancing Collective
 *          Operations by Optimizing Communication Locality", SC 2025 (the
 *          Bine butterfly); De Sensi, Bonato, Saam & Hoefler, "Swing:
 *          Short-cutting Rings for Higher Bandwidth Allreduce", NSDI 2024
 *          (the same peers).
 * Steps:   log2(pof2), plus 2 when p is not a power of two (and one round
 *          of local copies before the first step).
 * Cost:    log2(pof2)α + ((pof2 - 1)/pof2)(nβ + nγ), plus 2α + (n + b)β + nγ
 *          when p is not a power of two   (n = p·b)
 * Limits:  commutative operations (a step combines ranks that are not
 *          adjacent; declared, falls back to noncommutative).
 * Memory:  n bytes of scratch plus the part received at the first step
 *          (half the blocks: n/2 on a power of two), 2n on the odd ranks
 *          of the fold's pairs; while the plan is built, pof2 ints and
 *          pof2 + 1 offsets.
 * Example: mpicoll show reduce_scatter_block bine --np 5 --compact
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
#include "reduce_scatter_block_algos.h"

void reduce_scatter_block_bine(plan *pl, const plan_args *a)
{
    pat_rs_placed(pl, a, pat_swing_order, pat_swing_peer, 0);
}
