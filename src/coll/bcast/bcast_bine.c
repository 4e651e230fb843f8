/*
 * bcast: bine
 *
 * What:    the Bine (binomial negabinary) tree from the root, in its
 *          distance-halving form. Ranks relative to the root, p a power of
 *          two P (L = log2 P steps): a rank is named by the L negabinary
 *          (base -2) digits of its relative rank v mod P. At step s every
 *          rank holding the data flips the last L - s digits of its name,
 *          which are all equal, and sends the data to that rank: v +
 *          rho(L-1-s) if v is even, v - rho(L-1-s) if odd, with rho(j) =
 *          1, -1, 3, -5, 11, ... = (1 - (-2)^(j+1))/3 (Swing's peers,
 *          pat_swing_peer, taken far to near). A rank whose name ends in u
 *          equal digits receives at step L - u (pat_bine_recv_step). The
 *          root's first child is |rho(L-1)| ~ P/3 away, the last step's
 *          P/2 messages go to neighbours (distance 1), and every subtree
 *          is a range of consecutive ranks (mod p) around its root; at
 *          step s peers are (2^(L-s) +/- 1)/3 apart where the halving
 *          binomial tree's are 2^(L-s-1): less traffic leaves a group of
 *          nearby ranks. Other p: see Limits.
 * Paper:   De Sensi, Pasqualoni, Piarulli, Bonato, Ba, Turisini, Domke &
 *          Hoefler, "Bine Trees: Enhancing Collective Operations by
 *          Optimizing Communication Locality", SC 2025 (arXiv 2508.17311):
 *          the small-vector (latency-optimal) broadcast.
 * Steps:   ceil(log2 p).
 * Cost:    ceil(log2 p)(α + nβ)   (n = buffer bytes)
 * Limits:  none: any p, any root. For p not a power of two (the authors'
 *          public code supports powers of two only), the fold of the
 *          Swing allreduces, turned round so that the root is in the
 *          tree: with P the largest power of two <= p and rem = p - P,
 *          relative ranks 2i and 2i + 1 (i < rem) share tree rank i, the
 *          even one in the tree; the others are tree rank v - rem. The
 *          tree runs on the P tree ranks, then each even rank of a pair
 *          sends the data to the odd one above it, one round more.
 * Memory:  none.
 * Example: mpicoll show bcast bine --np 5 --compact
 *          (columns: ranks; rows: bytes of the buffer after each round;
 *          r = rank r's byte, . = not there yet)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      0...0   0.000   00000
 */
#include "bcast_algos.h"

void bcast_bine(plan *pl, const plan_args *a)
{
    const int p = a->p, P = pat_pof2_below(p), rem = p - P, L = pat_ceil_log2(P);
    const int rel = pat_mod(a->rank - a->root, p), root = rel == 0;
    const int buf = root ? BUF_SEND : BUF_RECV;
#define REAL(t) pat_mod((long long)a->root + ((t) < rem ? 2 * (t) : (t) + rem), p)
    if (root)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, a->block);   /* nothing when in place */
    if (rel < 2 * rem && rel % 2) {                  /* folded: the last round */
        plan_recv(pl, BUF_RECV, 0, a->block, pat_mod(a->rank - 1LL, p));
        plan_end_round(pl);
        return;
    }
    const int t = rel < 2 * rem ? rel / 2 : rel - rem, at = pat_bine_recv_step(t, P);
    for (int s = 0; s < L; s++) {
        const int peer = REAL(pat_swing_peer(t, L - 1 - s, P));
        if (s == at)
            plan_recv(pl, buf, 0, a->block, peer);
        else if (s > at)
            plan_send(pl, buf, 0, a->block, peer);
        plan_end_round(pl);
    }
    if (rel < 2 * rem) {
        plan_send(pl, buf, 0, a->block, pat_mod(a->rank + 1LL, p));
        plan_end_round(pl);
    }
#undef REAL
}
