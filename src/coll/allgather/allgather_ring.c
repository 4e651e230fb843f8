/*
 * allgather: ring
 *
 * What:    every rank passes blocks to its right neighbour; in step i rank r
 *          sends the block of rank r - i and receives that of rank r - i - 1.
 * Paper:   the classic ring (e.g. Thakur, Rabenseifner, Gropp, "Optimization
 *          of Collective Communication Operations in MPICH", IJHPCA 2005).
 * Steps:   p - 1.
 * Cost:    (p - 1)α + ((p - 1)/p)·nβ   (n = p·block, the gathered bytes)
 * Limits:  none.
 * Memory:  none beyond the user's buffers.
 * Example: DIAGRAM
 */
#include "allgather_algos.h"

void allgather_ring(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block;
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)r * B, B);
    plan_end_round(pl);
    for (int i = 0; i < p - 1; i++) {
        plan_send(pl, BUF_RECV, (size_t)pat_mod(r - i, p) * B, B, pat_mod(r + 1, p));
        plan_recv(pl, BUF_RECV, (size_t)pat_mod(r - i - 1, p) * B, B, pat_mod(r - 1, p));
        plan_end_round(pl);
    }
}
