/*
 * alltoallv: scattered
 *
 * What:    the p blocks in batches of bblock (a parameter): in batch b
 *          rank r posts its receives from r + b·bblock + i and its sends
 *          to r - b·bblock - i (i < bblock), then waits for the batch;
 *          its own block (i = 0 of the first batch) is copied locally.
 *          Bounds the requests in flight, and staggers the partners so
 *          that no rank is every rank's first target. Zero-byte blocks
 *          are no message.
 * Paper:   MPICH's MPIR_Alltoallv_intra_scattered (bblock:
 *          MPIR_CVAR_ALLTOALL_THROTTLE, 32 by default).
 * Steps:   ceil(p / bblock).
 * Cost:    ceil(p / bblock)α' + max(sent, received)β   (α': a batch of
 *          bblock messages in flight)
 * Limits:  none; at most 2·bblock requests in flight per rank.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show alltoallv scattered:bblock=2 --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      0...0   0.000   00000
 *   1      11...   11.11   11111
 *   2      .22..   222.2   22222
 *   3      ..33.   3333.   33333
 *   4      ...44   .4444   44444
 */
#include "alltoallv_algos.h"

void alltoallv_scattered(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, bblock = a->param[0] > 0 ? a->param[0] : 1;
    for (int b = 0; b < p; b += bblock) {
        const int n = p - b < bblock ? p - b : bblock;
        for (int i = 0; i < n; i++) {
            const int from = pat_mod(r + b + i, p);
            if (from != r)
                plan_recv(pl, BUF_RECV, args_displ(a, from), args_count(a, from), from);
        }
        for (int i = 0; i < n; i++) {
            const int to = pat_mod(r - b - i, p);
            if (to != r)
                plan_send(pl, BUF_SEND, args_sdispl(a, to), args_scount(a, to), to);
            else
                plan_copy(pl, BUF_SEND, args_sdispl(a, r), BUF_RECV, args_displ(a, r),
                          args_count(a, r));
        }
        plan_end_round(pl);
    }
}
