/*
 * reduce: bine
 *
 * What:    bcast bine's tree read backwards: the Bine (binomial
 *          negabinary) tree in its distance-doubling form. Ranks relative
 *          to the root, p a power of two P (L = log2 P steps): at step j,
 *          rank v's peer is v + rho(j) if v is even, v - rho(j) if odd,
 *          with rho(j) = 1, -1, 3, -5, 11, ... = (1 - (-2)^(j+1))/3
 *          (Swing's peers, pat_swing_peer, taken near to far): peers are
 *          1, 1, 3, 5, 11, ... apart. A rank whose negabinary name ends in
 *          u equal digits (it receives at broadcast step L - u,
 *          pat_bine_recv_step) sends its partial result to its peer at
 *          step u - 1 and stops; before that it receives, at each step,
 *          the partial result of its peer and reduces it into its own. The
 *          first step's P/2 messages go to neighbours, and each partial
 *          result covers a range of consecutive ranks (mod p) around the
 *          rank that holds it, so little traffic leaves a group of nearby
 *          ranks. Other p: see Limits.
 * Paper:   De Sensi, Pasqualoni, Piarulli, Bonato, Ba, Turisini, Domke &
 *          Hoefler, "Bine Trees: Enhancing Collective Operations by
 *          Optimizing Communication Locality", SC 2025 (arXiv 2508.17311):
 *          the small-vector (latency-optimal) reduce.
 * Steps:   ceil(log2 p).
 * Cost:    ceil(log2 p)(α + nβ + nγ)   (n = vector bytes)
 * Limits:  commutative operations: a rank's range of ranks wraps around
 *          the root (mod p), so its partial results cannot be combined in
 *          rank order (declared; the selector falls back to binomial,
 *          which is rooted at rank 0 for non-commutative operations). Any
 *          p, any root. For p not a power of two (the authors' public code
 *          supports powers of two only), the fold of the Swing
 *          allreduces, turned round so that the root is in the tree: with
 *          P the largest power of two <= p and rem = p - P, relative ranks
 *          2i and 2i + 1 (i < rem) first combine on the even one, which
 *          goes on as tree rank i; the others are tree rank v - rem. One
 *          round more.
 * Memory:  n bytes of scratch (2n on ranks other than the root, none on
 *          the odd ranks of the fold).
 * Example: mpicoll show reduce bine --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      11111   21112   31112   51112
 *   1      11111   21112   31112   51112
 *   2      11111   21112   31112   51112
 *   3      11111   21112   31112   51112
 *   4      11111   21112   31112   51112
 */
#include "reduce_algos.h"

void reduce_bine(plan *pl, const plan_args *a)
{
    const int p = a->p, P = pat_pof2_below(p), rem = p - P, L = pat_ceil_log2(P);
    const int rel = pat_mod(a->rank - a->root, p), root = rel == 0;
    const size_t n = a->block, slot = root ? 0 : n;   /* TMP: [acc,] slot */
    const int acc = root ? BUF_RECV : BUF_TMP;
#define REAL(t) pat_mod((long long)a->root + ((t) < rem ? 2 * (t) : (t) + rem), p)
    if (rel < 2 * rem && rel % 2) {                  /* folded: the first round */
        plan_send(pl, BUF_SEND, 0, n, pat_mod(a->rank - 1LL, p));
        plan_end_round(pl);
        return;
    }
    plan_need_tmp(pl, slot + n);
    plan_copy(pl, BUF_SEND, 0, acc, 0, n);
    plan_end_round(pl);
    if (rel < 2 * rem) {
        plan_recv(pl, BUF_TMP, slot, n, pat_mod(a->rank + 1LL, p));
        plan_reduce(pl, BUF_TMP, slot, acc, 0, n);
        plan_end_round(pl);
    }
    /* the rank's step in the broadcast tree, mirrored: it sends at L-1-at */
    const int t = rel < 2 * rem ? rel / 2 : rel - rem, last = L - 1 - pat_bine_recv_step(t, P);
    for (int j = 0; j < L && j <= last; j++) {
        const int peer = REAL(pat_swing_peer(t, j, P));
        if (j == last) {
            plan_send(pl, acc, 0, n, peer);
        } else {
            plan_recv(pl, BUF_TMP, slot, n, peer);
            plan_reduce(pl, BUF_TMP, slot, acc, 0, n);
        }
        plan_end_round(pl);
    }
#undef REAL
}
