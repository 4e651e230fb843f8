/*
 * alltoall: bruck_index
 *
 * What:    Bruck's index algorithm with explicit packing. A local rotation
 *          puts the block for rank r + i at position i of a work array W.
 *          In step k, the blocks whose position has bit k set are packed
 *          into a contiguous area, sent to r + 2^k, received from r - 2^k
 *          into a second area and unpacked into the same positions of W.
 *          Afterwards W[i] holds the block from rank r - i, and the inverse
 *          rotation puts it at block (r - i) mod p of the receive buffer.
 *          (After steps 0 .. k-1, W[i] comes from rank r - (i mod 2^k).)
 * Paper:   J. Bruck, C.-T. Ho, S. Kipnis, E. Upfal, D. Weathersby,
 *          "Efficient Algorithms for All-to-All Communications in
 *          Multiport Message-Passing Systems", IEEE TPDS 8(11), 1997;
 *          Open MPI's modified_bruck (id 3), MPICH's "brucks".
 * Steps:   ceil(log2 p), between two local rotations.
 * Cost:    ceil(log2 p)α + (n/2)·ceil(log2 p)β at most (n = p·block;
 *          each step moves the blocks with bit k set, about p/2), plus
 *          local copies of about 2n + n·ceil(log2 p) bytes.
 * Limits:  none: any p.
 * Memory:  (p + 2·ceil(p/2))·block bytes of scratch (W and the two areas).
 * Example: mpicoll show alltoall bruck_index --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      .....   .....   .....   00000
 *   1      .....   .....   .....   11111
 *   2      .....   .....   .....   22222
 *   3      .....   .....   .....   33333
 *   4      .....   .....   .....   44444
 */
#include "alltoall_algos.h"

void alltoall_bruck_index(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block, W = 0;
    const size_t out = (size_t)p * B, in = out + (size_t)((p + 1) / 2) * B;
    plan_need_tmp(pl, in + (size_t)((p + 1) / 2) * B);
    /* W[i] = SEND[(r + i) mod p]: two contiguous pieces. */
    plan_copy(pl, BUF_SEND, (size_t)r * B, BUF_TMP, W, (size_t)(p - r) * B);
    plan_copy(pl, BUF_SEND, 0, BUF_TMP, W + (size_t)(p - r) * B, (size_t)r * B);
    for (long long d = 1; d < p; d *= 2) {
        size_t n = 0;
        for (int i = 1; i < p; i++)
            if (i & d)
                plan_copy(pl, BUF_TMP, W + (size_t)i * B, BUF_TMP, out + n++ * B, B);
        plan_end_round(pl);
        plan_send(pl, BUF_TMP, out, n * B, pat_mod(r + d, p));
        plan_recv(pl, BUF_TMP, in, n * B, pat_mod(r - d, p));
        n = 0;
        for (int i = 1; i < p; i++)
            if (i & d)
                plan_copy(pl, BUF_TMP, in + n++ * B, BUF_TMP, W + (size_t)i * B, B);
    }
    for (int i = 0; i < p; i++)
        plan_copy(pl, BUF_TMP, W + (size_t)i * B, BUF_RECV, (size_t)pat_mod(r - i, p) * B, B);
    plan_end_round(pl);
}
