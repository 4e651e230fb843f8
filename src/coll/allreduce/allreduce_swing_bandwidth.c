/*
 * allreduce: swing_bandwidth
 *
 * What:    Swing's bandwidth-optimal allreduce: a reduce-scatter, then an
 *          allgather, both with Swing's peers. Among pof2 ranks (L = log2
 *          pof2 steps), the peer of rank r at step s is r + rho(s) mod pof2
 *          if r is even, r - rho(s) if odd, with rho(s) = 1, -1, 3, -5,
 *          11, ... = (1 - (-2)^(s+1))/3 (pat_swing_peer); peers are
 *          |rho(s)| <= 2^s apart, fewer hops on a torus than recursive
 *          halving's 2^s. The vector is cut into pof2 blocks of
 *          ceil(n/pof2) elements (the last ones shorter, or empty when
 *          n < pof2). At reduce-scatter step s (s = 0 up), a rank sends its
 *          peer the blocks of the ranks the peer reaches through steps
 *          s+1..L-1 (the peer's remaining subtree), keeps those of its own
 *          subtree and reduces the peer's copy of them into its own; it
 *          ends with one block reduced over all ranks. The allgather runs
 *          the steps backwards (s = L-1 down), each rank sending the
 *          blocks of its subtree. The blocks are remapped: block i of the
 *          vector belongs to the rank at position i of a depth-first walk
 *          of Swing's tree (pat_swing_position), where every subtree's
 *          ranks are consecutive, so each message is one contiguous range,
 *          as in recursive halving. Each block is
 *          reduced on one rank only: the results are identical. Any p by
 *          MPICH's fold (as rabenseifner; the paper's own scheme for other
 *          p is not implemented): of the first 2·rem ranks (rem = p - pof2)
 *          each even one sends its vector to the odd one above, which
 *          reduces it and goes on as one of pof2 new ranks; at the end the
 *          odd ones send the result back.
 * Paper:   De Sensi, Bonato, Saam & Hoefler, "Swing: Short-cutting Rings
 *          for Higher Bandwidth Allreduce", NSDI 2024 (the
 *          bandwidth-optimal variant).
 *          Also Bine trees' large-vector allreduce (De Sensi, Pasqualoni et
 *          al., "Bine Trees: Enhancing Collective Operations by Optimizing
 *          Communication Locality", SC 2025): the Bine butterfly pairs the
 *          same ranks, r +/- rho(s) (the authors' code calls the same peer
 *          function), so this algorithm also answers to bine_bandwidth.
 * Steps:   2·log2(pof2), plus 2 when p is not a power of two.
 * Cost:    2·log2(pof2)α + 2((pof2 - 1)/pof2)nβ + ((pof2 - 1)/pof2)nγ,
 *          plus 2(α + nβ) + nγ when p is not a power of two   (n = vector bytes)
 * Limits:  commutative operations (a step combines ranks that are not
 *          adjacent; declared, the selector falls back to rabenseifner
 *          otherwise). Any p, any count (blocks may be empty).
 * Memory:  ceil(n/2) bytes of scratch, rounded up to whole blocks (n when p
 *          is not a power of two).
 * Example: mpicoll show allreduce swing_bandwidth --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4       5
 *   rank   01234   01234   01234   01234   01234   01234
 *   0      12111   13112   15112   15115   15555   55555
 *   1      12111   13112   15112   15115   15555   55555
 *   2      12111   13112   13115   15115   15555   55555
 *   3      12111   13112   13115   15115   15555   55555
 *   4      12111   12321   12521   12551   15555   55555
 */
#include "allreduce_algos.h"

/* Step s among the pof2 new ranks: this rank's blocks are the aligned range
 * of w = pof2 / 2^(s+1) positions around its own, the peer's the range next
 * to it. Reduce-scatter: send the peer's, reduce ours; allgather: swap. */
static void swing_step(plan *pl, int s, int pof2, int rem, int nr, int pos, size_t n,
                       size_t es, int reduce)
{
    const int w = pof2 >> (s + 1), mine = pos / w * w, theirs = mine ^ w;
    const int peer = pat_fold_real(pat_swing_peer(nr, s, pof2), rem);
    const size_t mf = pat_block_start(n, pof2, mine, es);
    const size_t mb = pat_block_start(n, pof2, mine + w, es) - mf;
    const size_t tf = pat_block_start(n, pof2, theirs, es);
    const size_t tb = pat_block_start(n, pof2, theirs + w, es) - tf;
    if (reduce) {
        plan_send(pl, BUF_RECV, tf, tb, peer);
        plan_recv(pl, BUF_TMP, 0, mb, peer);
        plan_reduce(pl, BUF_TMP, 0, BUF_RECV, mf, mb);
    } else {
        plan_send(pl, BUF_RECV, mf, mb, peer);
        plan_recv(pl, BUF_RECV, tf, tb, peer);
    }
    plan_end_round(pl);
}

void allreduce_swing_bandwidth(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, pof2 = pat_pof2_below(p), rem = p - pof2;
    const size_t es = a->esize, n = a->block / es;
    const pat_ref in = { BUF_SEND, 0 }, work = { BUF_RECV, 0 };
    const int nr = pat_fold(pl, p, r, in, work, n, es, 0);
    if (nr >= 0 && pof2 > 1) {
        const int steps = pat_ceil_log2(pof2), pos = pat_swing_position(pof2, nr);
        /* the largest range received: the first half of the blocks */
        plan_need_tmp(pl, pat_block_start(n, pof2, pof2 / 2, es));
        for (int s = 0; s < steps; s++)
            swing_step(pl, s, pof2, rem, nr, pos, n, es, 1);
        for (int s = steps - 1; s >= 0; s--)
            swing_step(pl, s, pof2, rem, nr, pos, n, es, 0);
    }
    pat_unfold(pl, p, r, work, n, es);
}
