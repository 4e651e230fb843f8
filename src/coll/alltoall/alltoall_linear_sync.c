/*
 * alltoall: linear_sync
 *
 * What:    staggered exchanges (receive from r - i, send to r + i,
 *          i = 1 .. p-1), cut into rounds of at most max_requests
 *          operations: floor(max_requests / 2) exchange pairs per round,
 *          each round ended by a wait for all of them. The own block is
 *          copied locally. A receive and its matching send always share a
 *          round number, so rounds cannot wait on each other in a cycle.
 *          Open MPI's linear_sync keeps a sliding window instead: it
 *          refills a slot as soon as any request completes (Waitany),
 *          while here a round ends with a Waitall, so one slow message
 *          holds back the next round.
 * Paper:   MPICH's "scattered" alltoall (Thakur, Rabenseifner, Gropp,
 *          IJHPCA 2005); Open MPI's linear_sync (id 4).
 * Steps:   ceil((p - 1) / floor(max_requests / 2)).
 * Cost:    (p - 1)α + ((p - 1)/p)·nβ   (n = p·block), in
 *          ceil((p - 1)/h) synchronised rounds (h = floor(max_requests / 2)).
 * Limits:  none. Parameter max_requests >= 2 (default 8); an odd value
 *          counts as the even number below it.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show alltoall linear_sync:max_requests=4 --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1
 *   rank   01234   01234
 *   0      000..   00000
 *   1      .111.   11111
 *   2      ..222   22222
 *   3      3..33   33333
 *   4      44..4   44444
 */
#include "alltoall_algos.h"

void alltoall_linear_sync(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const int pairs = a->param[0] / 2;
    const size_t B = a->block;
    plan_copy(pl, BUF_SEND, (size_t)r * B, BUF_RECV, (size_t)r * B, B);
    for (int i = 1; i < p; i++) {
        int from = pat_mod(r - i, p), to = pat_mod(r + i, p);
        plan_recv(pl, BUF_RECV, (size_t)from * B, B, from);
        plan_send(pl, BUF_SEND, (size_t)to * B, B, to);
        if (i % pairs == 0)
            plan_end_round(pl);
    }
    plan_end_round(pl);
}
