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
 *          reduce_scatter's bine is this builder, blocks of any size.
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
 *          adjacent; declared, falls back to basic_linear).
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

#include <stdlib.h>

void reduce_scatter_block_bine(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, pof2 = pat_pof2_below(p), rem = p - pof2;
    const size_t all = args_displ(a, p - 1) + args_count(a, p - 1);
    /* new rank q's blocks: from real block q < rem ? 2q : q + rem, 2 or 1
     * of them; rank r's block is args_count(a, r) bytes at args_displ(a, r),
     * in rank order (reduce_scatter shares this builder) */
#define FIRST(q) ((q) < rem ? 2 * (q) : (q) + rem)
#define LAST(q) ((q) < rem ? 2 * (q) + 1 : (q) + rem)
#define START(q) args_displ(a, FIRST(q))
#define BYTES(q) (args_displ(a, LAST(q)) + args_count(a, LAST(q)) - START(q))
    /* TMP: the vector in tree order at 0, what the steps receive at n.
     * The vector in rank order (nat) is the send buffer but on the ranks
     * of the fold's pairs: TMP at n (the fold receives at 0, reduces
     * there); elsewhere the fold's copy is one onto itself, dropped. */
    const pat_ref in = { BUF_SEND, 0 };
    const pat_ref nat = r < 2 * rem ? (pat_ref){ BUF_TMP, all } : in;
    plan_need_tmp(pl, nat.buf == BUF_TMP ? 2 * all : all);
    const int nr = rem ? pat_fold(pl, p, r, in, nat, all / a->esize, a->esize, 0) : r;
    size_t mine_off = 0;
    if (nr >= 0) {
        int *order = malloc((size_t)pof2 * sizeof *order);
        size_t *off = malloc(((size_t)pof2 + 1) * sizeof *off);
        if (!order || !off) {
            free(order);
            free(off);
            plan_fail(pl);
            return;
        }
        /* position i holds new rank order[i]'s blocks, from off[i] */
        pat_swing_order(pof2, order);
        off[0] = 0;
        for (int i = 0; i < pof2; i++) {
            const int q = order[i];
            off[i + 1] = off[i] + BYTES(q);
            plan_copy(pl, nat.buf, nat.off + START(q), BUF_TMP, off[i], BYTES(q));
        }
        plan_end_round(pl);
        const int pos = pat_swing_position(pof2, nr);
        for (int s = 0; (1 << s) < pof2; s++) {
            const int w = pof2 >> (s + 1), mine = pos / w * w, theirs = mine ^ w;
            const int peer = pat_fold_real(pat_swing_peer(nr, s, pof2), rem);
            const size_t mb = off[mine + w] - off[mine];
            plan_need_tmp(pl, all + mb);
            plan_send(pl, BUF_TMP, off[theirs], off[theirs + w] - off[theirs], peer);
            plan_recv(pl, BUF_TMP, all, mb, peer);
            plan_reduce(pl, BUF_TMP, all, BUF_TMP, off[mine], mb);
            plan_end_round(pl);
        }
        mine_off = off[pos];
        free(order);
        free(off);
        plan_copy(pl, BUF_TMP, mine_off + args_displ(a, r) - START(nr), BUF_RECV, 0,
                  args_count(a, r));
    }
#undef FIRST
#undef LAST
#undef START
#undef BYTES
    if (r < 2 * rem) {
        if (r % 2)
            plan_send(pl, BUF_TMP, mine_off, args_count(a, r - 1), r - 1);
        else
            plan_recv(pl, BUF_RECV, 0, args_count(a, r), r + 1);
    }
    plan_end_round(pl);
}
