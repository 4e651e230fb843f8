/*
 * alltoall: radix_bruck
 *
 * What:    Bruck's index algorithm in radix R. A local rotation puts the
 *          block for rank r + i at position i of a work array. Positions
 *          are written in base R; for each digit place k (w = R^k) and
 *          each digit value d = 1 .. R-1, the blocks whose digit k is d
 *          travel to r + d·w as one segmented message (a derived datatype,
 *          no packing), and those from r - d·w arrive the same way. A
 *          round may not receive into what it sends, so a block alternates
 *          between two work arrays each time it moves. A final inverse
 *          rotation puts position i at block (r - i) mod p of the receive
 *          buffer. R = 2 is bruck_datatype; R >= p sends one block per
 *          step, a direct exchange in p - 1 steps. multiport=1 sends a
 *          digit place's R - 1 messages together, in one step: they carry
 *          disjoint positions (digit d), each read from one work array and
 *          received into the other, so none waits for another
 *          (log_R p steps, as allgather's k_bruck).
 * Paper:   Bruck et al., IEEE TPDS 8(11), 1997 (the radix-r index
 *          algorithm); K. Fan, T. Gilray, V. Pascucci, X. Huang,
 *          K. Micinski, S. Kumar, "Optimizing the Bruck Algorithm for
 *          Non-uniform All-to-all Communication", HPDC 2022.
 * Steps:   at most (R - 1)·ceil(log_R p), between two local rotations;
 *          ceil(log_R p) with multiport=1.
 * Cost:    (R - 1)·ceil(log_R p)α + ((R - 1)/R)·n·ceil(log_R p)β about
 *          (n = p·block; each step moves about p/R blocks), plus local
 *          copies of 2n bytes; multiport: ceil(log_R p)α and the same
 *          bytes, R - 1 messages in flight.
 * Limits:  none: any p. Parameters radix >= 2 (default 4), multiport 0
 *          or 1 (default 0).
 * Memory:  2·p·block bytes of scratch (the two work arrays).
 * Example: mpicoll show alltoall radix_bruck:radix=3 --np 5 --compact
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

/* 1 if x mod w has an odd number of non-zero base-R digits: position x
 * then lies in the second work array once the digits below w have moved. */
static size_t odd_moves(long long x, long long w, long long R)
{
    size_t n = 0;
    for (x %= w; x; x /= R)
        n ^= x % R != 0;
    return n;
}

void alltoall_radix_bruck(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const long long R = a->param[0];
    const int multiport = a->param[1];
    const size_t B = a->block, half = (size_t)p * B;
    plan_need_tmp(pl, 2 * half);
    plan_copy(pl, BUF_SEND, (size_t)r * B, BUF_TMP, 0, (size_t)(p - r) * B);
    plan_copy(pl, BUF_SEND, 0, BUF_TMP, (size_t)(p - r) * B, (size_t)r * B);
    plan_end_round(pl);
    for (long long w = 1; w < p; w *= R) {
        for (long long d = 1; d < R && d * w < p; d++) {
            for (int side = 0; side < 2; side++) {
                if (side == 0)
                    plan_send_begin(pl, BUF_TMP, pat_mod(r + d * w, p));
                else
                    plan_recv_begin(pl, BUF_TMP, pat_mod(r - d * w, p));
                /* Positions with digit d at place w: base + s, s < w. */
                for (long long base = d * w; base < p; base += w * R)
                    for (long long i = base; i < base + w && i < p; i++)
                        plan_seg_add(pl, (odd_moves(i, w, R) ^ (size_t)side) * half +
                                             (size_t)i * B, B);
                plan_seg_end(pl);
            }
            if (!multiport)
                plan_end_round(pl);
        }
        if (multiport)
            plan_end_round(pl);
    }
    for (long long i = 0; i < p; i++)
        plan_copy(pl, BUF_TMP, odd_moves(i, (long long)p * R, R) * half + (size_t)i * B,
                  BUF_RECV, (size_t)pat_mod(r - i, p) * B, B);
    plan_end_round(pl);
}
