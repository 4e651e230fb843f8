/*
 * allgather: recursive_multiplying
 *
 * What:    recursive multiplying in distance-halving order (MPICH's
 *          recursive exchange allgather, its halving form): the ranks are
 *          numbered in a mixed radix whose digits (radices r_0 <= r_1 <=
 *          ... <= r_{L-1}) pack p's prime factors into radices of at most
 *          k (a prime factor above k is a radix of its own). Step t = L-1
 *          down to 0 joins the r_t ranks that differ only in digit t
 *          (distance: a multiple of r_0·...·r_{t-1}): each sends the other
 *          r_t - 1 the blocks it has gathered so far, in one round, the
 *          i-th message to the member i digits up (so that no member gets
 *          all its messages first or last). So the first, one-block
 *          messages go far and the last, largest ones (p/r_0 blocks each)
 *          to the r_0 - 1 nearest ranks, as in Bine's butterfly
 *          (allgather bine) but with up to k - 1 peers a step as in
 *          k_bruck. During the steps the receive buffer holds the blocks
 *          in digit-reversed order, where every gathered set is one range;
 *          a final local permutation puts every block at its rank's place.
 * Paper:   MPICH's MPIR_Allgather_intra_recexch (recursive exchange,
 *          halving); Ruefenacht, Bull & Booth, Parallel Computing 69, 2017
 *          (the radix-k exchange); De Sensi et al., SC 2025 (large
 *          messages to near ranks: locality on oversubscribed networks).
 * Steps:   L (log_k p when p is a power of k).
 * Cost:    Σ_t (r_t - 1)α + ((p - 1)/p)·nβ   (n = p·block; the r_t - 1
 *          messages of a step in flight together); the own block and at
 *          most 1.5n bytes copied by the permutation.
 * Limits:  p whose prime factors are at most 7 (declared; other p run
 *          k_bruck: a fold onto such a p would send one rank the whole
 *          result at the end, twice k_bruck's time in the model). Parameter
 *          k >= 2 (default 4); k = 2 is recursive doubling in
 *          distance-halving order.
 * Memory:  one block of scratch; O(p) integers while the plan is built.
 * Example: mpicoll show allgather recursive_multiplying:k=3 --np 6 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   012345  012345  012345  012345
 *   0      0.....  0.0.0.  000000  000000
 *   1      ..2...  2.2.2.  222222  111111
 *   2      ....4.  4.4.4.  444444  222222
 *   3      .1....  .1.1.1  111111  333333
 *   4      ...3..  .3.3.3  333333  444444
 *   5      .....5  .5.5.5  555555  555555
 */
#include "allgather_algos.h"

/* p's prime factors packed, largest first, into the fewest radices of at
 * most k that first fit finds (a factor above k alone), sorted ascending
 * into rad; returns L. */
static int radices(int p, int k, int *rad)
{
    int primes[32], np = 0, L = 0;
    for (int f = 2; p > 1; f++) {
        if ((long long)f * f > p)
            f = p;
        while (p % f == 0) {
            primes[np++] = f;
            p /= f;
        }
    }
    for (int i = np - 1; i >= 0; i--) {   /* ascending from trial division */
        int j = 0;
        while (j < L && (long long)rad[j] * primes[i] > k)
            j++;
        if (j == L)
            rad[L++] = 1;
        rad[j] *= primes[i];
    }
    for (int i = 1; i < L; i++)
        for (int j = i; j > 0 && rad[j - 1] > rad[j]; j--) {
            const int t = rad[j];
            rad[j] = rad[j - 1];
            rad[j - 1] = t;
        }
    return L;
}

void allgather_recursive_multiplying(plan *pl, const plan_args *a)
{
    const int p = a->p, k = a->param[0];
    const size_t B = a->block;
    pat_placed x;
    if (pat_placed_begin(pl, &x, p, a->rank, p, B) <= 0)
        return;
    /* weight of digit t in the rank (w) and in the position (wp: the
     * digits reversed, the last digit the lowest) */
    int rad[32], w[33], wp[32];
    const int L = radices(p, k, rad);
    w[0] = 1;
    for (int t = 0; t < L; t++)
        w[t + 1] = w[t] * rad[t];
    for (int t = L - 1, q = 1; t >= 0; q *= rad[t--])
        wp[t] = q;
    for (int v = 0; v < p; v++) {
        int at = 0;
        for (int t = 0; t < L; t++)
            at += v / w[t] % rad[t] * wp[t];
        x.order[at] = v;
    }
    pat_placed_start(pl, &x, B);
    for (int t = L - 1; t >= 0; t--) {
        /* the range of the group (rad[t] parts of wp[t] positions each) */
        const int d = x.nr / w[t] % rad[t], base = x.pos - x.pos % (wp[t] * rad[t]);
        const int mine = base + d * wp[t];
        /* the i-th message to member d + i, from member d - i: each member
         * gets its messages one by one, not all first or all last */
        for (int i = 1; i < rad[t]; i++) {
            const int to = (d + i) % rad[t], from = (d - i + rad[t]) % rad[t];
            const int theirs = base + from * wp[t];
            plan_send(pl, BUF_RECV, (size_t)x.first[mine] * B,
                      (size_t)(x.first[mine + wp[t]] - x.first[mine]) * B,
                      x.nr + (to - d) * w[t]);
            plan_recv(pl, BUF_RECV, (size_t)x.first[theirs] * B,
                      (size_t)(x.first[theirs + wp[t]] - x.first[theirs]) * B,
                      x.nr + (from - d) * w[t]);
        }
        plan_end_round(pl);
    }
    pat_placed_finish(pl, &x, B);
}
