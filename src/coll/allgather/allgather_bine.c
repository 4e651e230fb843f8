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

#include <stdlib.h>

/* Move the blocks of RECV so that block j goes to block to[j] (a
 * permutation of 0..p-1), one cycle after another through TMP. Uses
 * from[] (p ints) as the inverse and the marks of the cycles done. */
static void permute_blocks(plan *pl, int p, size_t B, const int *to, int *from)
{
    for (int j = 0; j < p; j++)
        from[to[j]] = j;
    for (int k = 0; k < p; k++) {
        if (from[k] == k)
            continue;
        plan_need_tmp(pl, B);
        plan_copy(pl, BUF_RECV, (size_t)k * B, BUF_TMP, 0, B);
        int cur = k;
        while (from[cur] != k) {
            const int src = from[cur];
            plan_copy(pl, BUF_RECV, (size_t)src * B, BUF_RECV, (size_t)cur * B, B);
            from[cur] = cur;
            cur = src;
        }
        plan_copy(pl, BUF_TMP, 0, BUF_RECV, (size_t)cur * B, B);
        from[cur] = cur;
    }
    plan_end_round(pl);
}

void allgather_bine(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, pof2 = pat_pof2_below(p), rem = p - pof2;
    const size_t B = a->block;
    if (r < 2 * rem && r % 2 == 0) {   /* folded: hand over, get the result */
        plan_send(pl, BUF_SEND, 0, B, r + 1);
        plan_end_round(pl);
        plan_recv(pl, BUF_RECV, 0, (size_t)p * B, r + 1);
        plan_end_round(pl);
        return;
    }
    const int nr = r < 2 * rem ? r / 2 : r - rem;
    /* order: new rank at each position; first: first block of each
     * position's ranks in the buffer; to: the rank whose block lies at each
     * block of the buffer during the butterfly; from: permute_blocks'. */
    int *order = malloc(((size_t)2 * pof2 + 1 + (size_t)2 * p) * sizeof *order);
    if (!order) {
        plan_fail(pl);
        return;
    }
    int *first = order + pof2, *to = first + pof2 + 1, *from = to + p, pos = 0;
    pat_swing_order(pof2, order);
    first[0] = 0;
    for (int i = 0; i < pof2; i++) {
        const int u = order[i], lo = pat_fold_real(u, rem) - (u < rem);
        first[i + 1] = first[i] + 1 + (u < rem);
        for (int j = first[i]; j < first[i + 1]; j++)
            to[j] = lo + j - first[i];
        if (u == nr)
            pos = i;
    }
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)(first[pos + 1] - 1) * B, B);
    plan_end_round(pl);
    if (nr < rem) {   /* the folded partner's block, below ours */
        plan_recv(pl, BUF_RECV, (size_t)first[pos] * B, B, r - 1);
        plan_end_round(pl);
    }
    for (int s = pat_ceil_log2(pof2) - 1; s >= 0; s--) {
        const int w = pof2 >> (s + 1), mine = pos / w * w, theirs = mine ^ w;
        const int peer = pat_fold_real(pat_swing_peer(nr, s, pof2), rem);
        plan_send(pl, BUF_RECV, (size_t)first[mine] * B,
                  (size_t)(first[mine + w] - first[mine]) * B, peer);
        plan_recv(pl, BUF_RECV, (size_t)first[theirs] * B,
                  (size_t)(first[theirs + w] - first[theirs]) * B, peer);
        plan_end_round(pl);
    }
    permute_blocks(pl, p, B, to, from);
    free(order);
    if (nr < rem) {
        plan_send(pl, BUF_RECV, 0, (size_t)p * B, r - 1);
        plan_end_round(pl);
    }
}
