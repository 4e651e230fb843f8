/*
 * allreduce: allgather_reduce
 *
 * What:    every rank sends its vector to every other rank and receives
 *          all of theirs, all messages posted at once; then each rank
 *          reduces the p vectors locally from left to right,
 *          ((a0 ⊕ a1) ⊕ a2) ⊕ ...: rank order, and the same expression on
 *          every rank, so the results are bitwise identical.
 * Paper:   Open MPI's ompi_coll_base_allreduce_intra_allgather_reduce
 *          (id 7).
 * Steps:   1.
 * Cost:    (p - 1)α + (p - 1)nβ + (p - 1)nγ on every rank   (n = vector bytes)
 * Limits:  none: any operation; only sensible for small vectors.
 * Memory:  (p - 1)·n bytes of scratch.
 * Example: mpicoll show allreduce allgather_reduce --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0
 *   rank   01234
 *   0      55555
 *   1      55555
 *   2      55555
 *   3      55555
 *   4      55555
 */
#include "allreduce_algos.h"

void allreduce_allgather_reduce(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t n = a->block;
    /* slot of rank i in TMP: the ranks other than this one, in order */
#define SLOT(i) ((size_t)((i) < r ? (i) : (i) - 1) * n)
    plan_need_tmp(pl, (size_t)(p - 1) * n);
    for (int i = 0; i < p; i++) {
        if (i == r)
            continue;
        plan_send(pl, BUF_SEND, 0, n, i);
        plan_recv(pl, BUF_TMP, SLOT(i), n, i);
    }
    /* rank 0 folds into RECV from its own vector; the others fold into
     * rank 0's slot (their own vector may lie in RECV, in place) */
    if (r == 0) {
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, n);
        for (int i = 1; i < p; i++)
            plan_reduce_after(pl, BUF_TMP, SLOT(i), BUF_RECV, 0, n);
    } else {
        for (int i = 1; i < p; i++) {
            if (i == r)
                plan_reduce_after(pl, BUF_SEND, 0, BUF_TMP, SLOT(0), n);
            else
                plan_reduce_after(pl, BUF_TMP, SLOT(i), BUF_TMP, SLOT(0), n);
        }
        plan_copy(pl, BUF_TMP, SLOT(0), BUF_RECV, 0, n);
    }
#undef SLOT
    plan_end_round(pl);
}
