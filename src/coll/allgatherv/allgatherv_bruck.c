/*
 * allgatherv: bruck
 *
 * What:    Bruck's allgather with a block per rank of its own size: in step
 *          k rank r sends the blocks it holds (those of ranks r, r + 1, ...)
 *          to rank r - 2^k and appends those of rank r + 2^k; the blocks
 *          gather in rotated order in TMP, then each goes to its place.
 * Paper:   Bruck et al., "Efficient algorithms for all-to-all
 *          communications in multiport message-passing systems", IEEE TPDS
 *          1997; Open MPI's allgatherv bruck.
 * Steps:   ceil(log2 p), then p local copies.
 * Cost:    ceil(log2 p)α + (n - own)β + nγ   (n: all blocks)
 * Limits:  none.
 * Memory:  TMP of n bytes.
 * Example: mpicoll show allgatherv bruck --np 5 --compact
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
#include "allgatherv_algos.h"

/* The bytes of the n blocks of ranks from, from + 1, ... (mod p). */
static size_t span(const plan_args *a, int from, int n)
{
    size_t b = 0;
    for (int i = 0; i < n; i++)
        b += args_count(a, pat_mod(from + i, a->p));
    return b;
}

void allgatherv_bruck(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    plan_need_tmp(pl, span(a, 0, p));
    plan_copy(pl, BUF_SEND, 0, BUF_TMP, 0, args_count(a, r));
    plan_end_round(pl);
    for (long long d = 1; d < p; d *= 2) {
        const int n = (int)(d < p - d ? d : p - d), from = pat_mod(r + (int)d, p);
        plan_send(pl, BUF_TMP, 0, span(a, r, n), pat_mod(r - (int)d, p));
        plan_recv(pl, BUF_TMP, span(a, r, (int)d), span(a, from, n), from);
        plan_end_round(pl);
    }
    size_t off = 0;
    for (int i = 0; i < p; i++) {
        const int owner = pat_mod(r + i, p);
        plan_copy(pl, BUF_TMP, off, BUF_RECV, args_displ(a, owner), args_count(a, owner));
        off += args_count(a, owner);
    }
    plan_end_round(pl);
}
