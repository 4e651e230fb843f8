/*
 * alltoall: linear
 *
 * What:    every rank posts its p - 1 receives (from r + 1, r + 2, ...)
 *          and then its p - 1 sends (to r - 1, r - 2, ...) at once and
 *          waits for all; its own block is copied locally. Every receive is
 *          posted before any message can reach it, and each rank's first
 *          message goes to a rank whose first receive awaits it (Open MPI's
 *          order; sent to r + 1 first, it was 1.03x slower at 1 KiB on 64
 *          ranks of fattree8 in SMPI, 8 B to 1 MiB otherwise within 0.02%).
 *          The "long message" algorithm of IMPI (the Intel MPI library's
 *          alltoall).
 * Paper:   the direct exchange; Open MPI's basic_linear (id 1).
 * Steps:   1.
 * Cost:    (p - 1)α + ((p - 1)/p)·nβ   (n = p·block, one rank's send data)
 * Limits:  none; 2(p - 1) requests in flight per rank.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show alltoall linear --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0
 *   rank   01234
 *   0      00000
 *   1      11111
 *   2      22222
 *   3      33333
 *   4      44444
 */
#include "alltoall_algos.h"

/* The block from rank s: args_count(a, s) bytes at args_displ(a, s) of
 * RECV; the block to rank d: args_scount(a, d) bytes at args_sdispl(a, d)
 * of SEND (alltoallv shares this builder; for alltoall, blocks of `block`
 * bytes in rank order). Zero-byte blocks are no message. */
void alltoall_linear(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    for (int i = 1; i < p; i++) {
        const int from = pat_mod(r + i, p);
        plan_recv(pl, BUF_RECV, args_displ(a, from), args_count(a, from), from);
    }
    for (int i = 1; i < p; i++) {
        const int to = pat_mod(r - i, p);
        plan_send(pl, BUF_SEND, args_sdispl(a, to), args_scount(a, to), to);
    }
    plan_copy(pl, BUF_SEND, args_sdispl(a, r), BUF_RECV, args_displ(a, r), args_count(a, r));
    plan_end_round(pl);
}
