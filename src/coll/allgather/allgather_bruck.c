/*
 * allgather: bruck
 *
 * What:    blocks are kept in an order rotated by the rank: block i of the
 *          receive buffer holds rank (r + i)'s block. In step k, with
 *          distance d = 2^k, rank r sends its first min(d, p - d) blocks to
 *          r - d and receives as many from r + d, appended at block d; a
 *          final local rotation puts every block in its place.
 * Paper:   J. Bruck, C.-T. Ho, S. Kipnis, E. Upfal, D. Weathersby,
 *          "Efficient Algorithms for All-to-All Communications in
 *          Multiport Message-Passing Systems", IEEE TPDS 8(11), 1997.
 * Steps:   ceil(log2 p), then a local rotation.
 * Cost:    ceil(log2 p)α + ((p - 1)/p)·nβ   (n = p·block)
 * Limits:  none: any p.
 * Memory:  (p - r)·block bytes of scratch on rank r for the rotation.
 * Example: mpicoll show allgather bruck --np 6 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3       4
 *   rank   012345  012345  012345  012345  012345
 *   0      012345  012345  012345  012345  000000
 *   1      ......  123450  123450  123450  111111
 *   2      ......  ......  234501  234501  222222
 *   3      ......  ......  345012  345012  333333
 *   4      ......  ......  ......  450123  444444
 *   5      ......  ......  ......  501234  555555
 */
#include "allgather_algos.h"

void allgather_bruck(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block;
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, B);
    plan_end_round(pl);
    for (long long d = 1; d < p; d *= 2) {
        size_t n = (size_t)(d < p - d ? d : p - d);
        plan_send(pl, BUF_RECV, 0, n * B, pat_mod(r - d, p));
        plan_recv(pl, BUF_RECV, (size_t)d * B, n * B, pat_mod(r + d, p));
        plan_end_round(pl);
    }
    pat_bruck_unrotate(pl, p, r, B);
}
