/* Rank math and plan fragments shared by algorithms (see patterns.h). */
#include "patterns.h"

int pat_ceil_log2(int p)
{
    int k = 0;
    while ((1LL << k) < p)
        k++;
    return k;
}

void pat_bcast_binomial(plan *pl, int p, int rank, int root, int buf, size_t off,
                        size_t bytes)
{
    int rel = pat_mod(rank - root, p);
    for (long long d = 1; d < p; d *= 2) {
        if (rel < d && rel + d < p)
            plan_send(pl, buf, off, bytes, pat_mod(rank + d, p));
        else if (rel >= d && rel < 2 * d)
            plan_recv(pl, buf, off, bytes, pat_mod(rank - d, p));
        plan_end_round(pl);
    }
}

void pat_bruck_unrotate(plan *pl, int p, int rank, size_t block)
{
    if (rank == 0)
        return;
    size_t head = (size_t)(p - rank) * block;   /* blocks rank .. p-1 */
    size_t tail = (size_t)rank * block;         /* blocks 0 .. rank-1 */
    plan_need_tmp(pl, head);
    plan_copy(pl, BUF_RECV, 0, BUF_TMP, 0, head);
    plan_copy(pl, BUF_RECV, head, BUF_RECV, 0, tail);
    plan_copy(pl, BUF_TMP, 0, BUF_RECV, tail, head);
    plan_end_round(pl);
}
