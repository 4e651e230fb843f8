/*
 * alltoall: bruck_datatype
 *
 * What:    the rounds of bruck_index without packing: a local rotation
 *          puts the block for rank r + i at position i of a work array;
 *          in step k the blocks whose position has bit k set travel to
 *          r + 2^k as one segmented message (an MPI hindexed datatype
 *          over the work array), and those from r - 2^k arrive the same
 *          way. A round may not receive into what it sends, so there are
 *          two work arrays and a block alternates between them each time
 *          it moves: before step k it lies in the array given by the
 *          parity of its bits below k. A final inverse rotation puts
 *          position i at block (r - i) mod p of the receive buffer. Only
 *          the two rotations copy.
 * Paper:   Bruck et al., IEEE TPDS 8(11), 1997, with derived datatypes as
 *          in J. L. Träff, A. Rougier, S. Hunold, "Implementing a classic:
 *          zero-copy all-to-all communication with MPI datatypes",
 *          ICS 2014 (their baseline). Open MPI's bruck also sends an
 *          indexed datatype, but copies each round's blocks back into its
 *          work array; here nothing is copied back.
 * Steps:   ceil(log2 p), between two local rotations.
 * Cost:    ceil(log2 p)α + (n/2)·ceil(log2 p)β at most (n = p·block),
 *          plus local copies of 2n bytes.
 * Limits:  none: any p.
 * Memory:  2·p·block bytes of scratch (the two work arrays).
 * Example: mpicoll show alltoall bruck_datatype --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3       4
 *   rank   01234   01234   01234   01234   01234
 *   0      .....   .....   .....   .....   00000
 *   1      .....   .....   .....   .....   11111
 *   2      .....   .....   .....   .....   22222
 *   3      .....   .....   .....   .....   33333
 *   4      .....   .....   .....   .....   44444
 */
#include "alltoall_algos.h"

/* Parity of the set bits of x. */
static int parity(unsigned long long x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n ^= 1;
    return n;
}

/* Offset in TMP of position i, in the work array where it lies once it
 * has moved for the bits of `moved`. */
static size_t work(int i, unsigned long long moved, size_t half, size_t B)
{
    return (size_t)parity((unsigned long long)i & moved) * half + (size_t)i * B;
}

void alltoall_bruck_datatype(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block, half = (size_t)p * B;
    plan_need_tmp(pl, 2 * half);
    plan_copy(pl, BUF_SEND, (size_t)r * B, BUF_TMP, 0, (size_t)(p - r) * B);
    plan_copy(pl, BUF_SEND, 0, BUF_TMP, (size_t)(p - r) * B, (size_t)r * B);
    plan_end_round(pl);
    for (long long d = 1; d < p; d *= 2) {
        plan_send_begin(pl, BUF_TMP, pat_mod(r + d, p));
        for (int i = 1; i < p; i++)
            if (i & d)
                plan_seg_add(pl, work(i, (unsigned long long)d - 1, half, B), B);
        plan_seg_end(pl);
        plan_recv_begin(pl, BUF_TMP, pat_mod(r - d, p));
        for (int i = 1; i < p; i++)
            if (i & d)
                plan_seg_add(pl, work(i, 2 * (unsigned long long)d - 1, half, B), B);
        plan_seg_end(pl);
        plan_end_round(pl);
    }
    for (int i = 0; i < p; i++)
        plan_copy(pl, BUF_TMP, work(i, ~0ULL, half, B), BUF_RECV, (size_t)pat_mod(r - i, p) * B, B);
    plan_end_round(pl);
}
