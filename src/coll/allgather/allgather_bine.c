/*
 * allgather: bine
 *
 * What:    the Bine butterfly in distance-halving order, as the authors'
 *          allgather runs it: among pof2 ranks (L = log2 pof2), step
 *          s = L-1 down to 0 pairs rank r with its Swing peer r +/- rho(s)
 *          (pat_swing_peer; |rho(s)| ~ 2^(s+1)/3), so the first, one-block
 *          messages go far and the last, largest one (half of the blocks)
 *          goes to the next rank. At step s a rank sends its peer the
 *          blocks of the ranks it reached through steps s+1..L-1 (its
 *          subtree). Those are scattered among the ranks (up to p/4
 *          separate ranges at p = 256; in the other order, distance
 *          doubling, up to 43), so during the butterfly the receive buffer
 *          holds the blocks in the order of Swing's tree
 *          (pat_swing_position, pat_swing_order), where every subtree is a
 *          range: each message is one contiguous range. A final local
 *          permutation, in place along its cycles through one block of
 *          scratch, puts every block at its rank's place. Any p
 *          by a fold (MPICH's, as swing_bandwidth; the authors' code takes
 *          even p only): of the first 2·rem ranks (rem = p - pof2), each
 *          even one sends its block to the odd one above, which carries
 *          both blocks through the butterfly and at the end sends the whole
 *          result back.
 * Paper:   De Sensi, Pasqualoni, Piarulli, Bonato, Ba, Turisini, Domke &
 *          Hoefler, "Bine Trees: Enhancing Collective Operations by
 *          Optimizing Communication Locality", SC 2025 (the butterfly:
 *          peers r +/- rho(s), as Swing's, NSDI 2024); the authors'
 *          bine_allgather_block_by_block (HLC-Lab/bine-trees) runs the same
 *          steps with one message per block and no permutation.
 * Steps:   log2(pof2), plus 2 when p is not a power of two.
 * Cost:    log2(pof2)α + ((p - 1)/p)·nβ   (n = p·block), plus α + block·β
 *          and α + nβ when p is not a power of two; the own block and at
 *          most 1.5n bytes copied by the permutation (a cycle of c blocks
 *          takes c + 1 copies; blocks already in place none): 260
 *          blocks in all at p = 256 (the most of any rank).
 * Limits:  none: any p.
 * Memory:  one block of scratch; O(p) integers while the plan is built.
 * Example: mpicoll show allgather bine --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3       4       5
 *   rank   01234   01234   01234   01234   01234   01234
 *   0      .....   .0...   .0..0   .0000   .0000   00000
 *   1      .1...   .1...   .1..1   .1111   .1111   11111
 *   2      ....4   ....4   .4..4   .4444   .2222   22222
 *   3      ..2..   ..22.   ..22.   .2222   .3333   33333
 *   4      ...3.   ..33.   ..33.   .3333   .4444   44444
 */
#include "allgather_algos.h"

void allgather_bine(plan *pl, const plan_args *a)
{
    const int pof2 = pat_pof2_below(a->p);
    const size_t B = a->block;
    pat_placed x;
    if (pat_placed_begin(pl, &x, a->p, a->rank, pof2, B) <= 0)
        return;
    pat_swing_order(pof2, x.order);
    pat_placed_start(pl, &x, B);
    for (int s = pat_ceil_log2(pof2) - 1; s >= 0; s--) {
        const int w = pof2 >> (s + 1), mine = x.pos / w * w, theirs = mine ^ w;
        const int peer = pat_fold_real(pat_swing_peer(x.nr, s, pof2), x.rem);
        plan_send(pl, BUF_RECV, (size_t)x.first[mine] * B,
                  (size_t)(x.first[mine + w] - x.first[mine]) * B, peer);
        plan_recv(pl, BUF_RECV, (size_t)x.first[theirs] * B,
                  (size_t)(x.first[theirs + w] - x.first[theirs]) * B, peer);
        plan_end_round(pl);
    }
    pat_placed_finish(pl, &x, B);
}
