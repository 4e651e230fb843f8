/*
 * allgather: sparbit
 *
 * What:    Bruck-like, but distances shrink (l, l/2, ..., 1 with l the
 *          largest power of two below p) while the number of blocks sent
 *          grows; blocks stay at their final places (no rotation). In the
 *          step of distance d rank r sends the blocks of ranks r, r - 2d,
 *          r - 4d, ... to r + d and receives those of r - d, r - 3d, ...
 *          from r - d, one message per block. When p is not a power of two,
 *          the steps whose distance has its bit set in the "ignore" mask
 *          derived from p send one block fewer, so no block arrives twice.
 * Paper:   W. Loch, G. Koslovski, "Sparbit: a new logarithmic-cost and
 *          data locality-aware MPI Allgather algorithm", SBAC-PAD 2021.
 * Steps:   ceil(log2 p).
 * Cost:    ceil(log2 p) rounds, but one message per block: p - 1 messages,
 *          so (p - 1)α when every message pays α, ceil(log2 p)α when a
 *          round's messages overlap; + ((p - 1)/p)·nβ   (n = p·block)
 * Limits:  none: any p.
 * Memory:  none beyond the user's buffers; up to p/2 requests per step.
 * Example: mpicoll show allgather sparbit --np 6 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   012345  012345  012345  012345
 *   0      0.....  0...0.  0.0.0.  000000
 *   1      .1....  .1...1  .1.1.1  111111
 *   2      ..2...  2.2...  2.2.2.  222222
 *   3      ...3..  .3.3..  .3.3.3  333333
 *   4      ....4.  ..4.4.  4.4.4.  444444
 *   5      .....5  ...5.5  .5.5.5  555555
 */
#include "allgather_algos.h"

void allgather_sparbit(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block;
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)r * B, B);
    plan_end_round(pl);
    if (p == 1)
        return;
    /* Bits of the distances whose step sends one block fewer: p with its
     * trailing zeros removed, complemented, lowest bit forced, shifted back. */
    const int tz = __builtin_ctz((unsigned)p);
    const unsigned ignore = (~((unsigned)p >> tz) | 1u) << tz;
    long long have = 1;
    for (long long d = 1LL << (pat_ceil_log2(p) - 1); d >= 1; d /= 2) {
        int skip = ((unsigned)d & ignore) == (unsigned)d;
        for (long long t = 0; t < have - skip; t++) {
            plan_send(pl, BUF_RECV, (size_t)pat_mod(r - 2 * t * d, p) * B, B, pat_mod(r + d, p));
            plan_recv(pl, BUF_RECV, (size_t)pat_mod(r - (2 * t + 1) * d, p) * B, B,
                      pat_mod(r - d, p));
        }
        plan_end_round(pl);
        have = 2 * have - skip;
    }
}
