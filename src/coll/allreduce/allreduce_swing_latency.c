/*
 * allreduce: swing_latency
 *
 * What:    Swing's latency-optimal allreduce: recursive doubling whose
 *          peers swing left and right around the ring instead of jumping
 *          by 2^s. Among pof2 ranks (L = log2 pof2 steps), the peer of
 *          rank r at step s is r + rho(s) mod pof2 if r is even, r - rho(s)
 *          if odd, with rho(s) = 1, -1, 3, -5, 11, ... = (1 - (-2)^(s+1))/3
 *          (pat_swing_peer); peers are |rho(s)| <= 2^s apart, nearer than
 *          recursive doubling's 2^s, fewer hops on a torus. At each step a
 *          rank swaps its whole partial result with its peer and reduces.
 *          The steps run from s = L-1 down to 0 (the order of the paper's
 *          allgather): in the paper's order (s = 0 up) the ranks would
 *          combine the same contributions in different trees (at p = 8,
 *          rank 0 ends with {0,1,6,7} ⊕ {2,3,4,5}, rank 2 with
 *          {0,1,2,3} ⊕ {4,5,6,7}), so floating-point results would differ
 *          between ranks; from L-1 down, after each step the ranks whose
 *          contributions a rank holds hold the same set, combined the same
 *          way, and every rank ends with the same expression, bit for bit.
 *          Peers and messages are the paper's, in the other order. Any p
 *          by MPICH's fold (as recursive_doubling, and as the authors'
 *          public code does; the paper's own scheme for other p is not
 *          implemented): of the first 2·rem ranks (rem = p - pof2) each
 *          even one sends its vector to the odd one above, which reduces it
 *          and goes on as one of pof2 new ranks; at the end the odd ones
 *          send the result back.
 * Paper:   De Sensi, Bonato, Saam & Hoefler, "Swing: Short-cutting Rings
 *          for Higher Bandwidth Allreduce", NSDI 2024 (the latency-optimal
 *          variant).
 *          Also Bine trees' small-vector allreduce (De Sensi, Pasqualoni et
 *          al., "Bine Trees: Enhancing Collective Operations by Optimizing
 *          Communication Locality", SC 2025): the Bine butterfly pairs the
 *          same ranks, r +/- rho(s) (the authors' code calls the same peer
 *          function), so this algorithm also answers to bine_latency.
 * Steps:   log2(pof2), plus 2 when p is not a power of two.
 * Cost:    (log2(pof2) + 2[p != pof2])(α + nβ) + (log2(pof2) + [p != pof2])nγ
 *          (n = vector bytes)
 * Limits:  commutative operations (a step combines ranks that are not
 *          adjacent; declared, the selector falls back to
 *          recursive_doubling otherwise). Any p.
 * Memory:  n bytes of scratch.
 * Example: mpicoll show allreduce swing_latency --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      12111   13223   15555   55555
 *   1      12111   13223   15555   55555
 *   2      12111   13223   15555   55555
 *   3      12111   13223   15555   55555
 *   4      12111   13223   15555   55555
 */
#include "allreduce_algos.h"

void allreduce_swing_latency(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, pof2 = pat_pof2_below(p), rem = p - pof2;
    const size_t n = a->block / a->esize, bytes = a->block;
    const pat_ref in = { BUF_SEND, 0 }, work = { BUF_RECV, 0 };
    const int nr = pat_fold(pl, p, r, in, work, n, a->esize, 0);
    if (nr >= 0 && pof2 > 1) {
        plan_need_tmp(pl, bytes);
        for (int s = pat_ceil_log2(pof2) - 1; s >= 0; s--) {
            const int peer = pat_fold_real(pat_swing_peer(nr, s, pof2), rem);
            plan_send(pl, BUF_RECV, 0, bytes, peer);
            plan_recv(pl, BUF_TMP, 0, bytes, peer);
            plan_reduce(pl, BUF_TMP, 0, BUF_RECV, 0, bytes);
            plan_end_round(pl);
        }
    }
    pat_unfold(pl, p, r, work, n, a->esize);
}
