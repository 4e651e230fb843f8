/*
 * allgather: direct
 *
 * What:    every rank posts all p - 1 receives and p - 1 sends at once and
 *          waits for all; the order of the posts is staggered by rank
 *          (send to r + i, receive from r - i) to spread the load.
 * Paper:   the "linear" / "spread-out" allgather (e.g. MVAPICH2's direct
 *          algorithms; Bienz et al. on locality-aware allgather).
 * Steps:   1.
 * Cost:    (p - 1)α + ((p - 1)/p)·nβ   (n = p·block), all in flight at once
 * Limits:  none; 2(p - 1) requests in flight per rank.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgather direct --np 5 --compact
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
#include "allgather_algos.h"

/* Rank r's block: args_count(a, r) bytes at args_displ(a, r) (allgatherv
 * shares this builder). */
void allgather_direct(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    for (int i = 1; i < p; i++) {
        int from = pat_mod(r - i, p);
        plan_recv(pl, BUF_RECV, args_displ(a, from), args_count(a, from), from);
        plan_send(pl, BUF_SEND, 0, args_count(a, r), pat_mod(r + i, p));
    }
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, args_displ(a, r), args_count(a, r));
    plan_end_round(pl);
}
