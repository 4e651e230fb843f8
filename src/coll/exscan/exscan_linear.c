/*
 * exscan: linear
 *
 * What:    a chain. Rank 0 sends its vector to rank 1 (its receive buffer
 *          is left as it is); rank r receives the prefix of ranks 0..r-1
 *          from rank r - 1, keeps it as its result and, unless it is the
 *          last rank, sends the prefix with its own vector appended
 *          (prefix ⊕ own: rank order, any operation) to rank r + 1. In
 *          place (the receive buffer holds the input) the prefix arrives in
 *          scratch, is prepended to the input there, and goes into the
 *          receive buffer once that has been sent.
 * Paper:   Open MPI's ompi_coll_base_exscan_intra_linear (coll/basic's
 *          MPI_Exscan, Open MPI 4.1's choice: id 1).
 * Steps:   p - 1 rounds of one message each, one after the other.
 * Cost:    (p - 1)(α + nβ + nγ)   (n = vector bytes)
 * Limits:  none: any operation, any p.
 * Memory:  n bytes of scratch (none at rank 0 and rank p - 1).
 * Example: mpicoll show exscan linear --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      11111   11211   11231   11234
 *   1      11111   11211   11231   11234
 *   2      11111   11211   11231   11234
 *   3      11111   11211   11231   11234
 *   4      11111   11211   11231   11234
 */
#include "exscan_algos.h"

void exscan_linear(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t n = a->block;
    if (r == 0) {
        if (p > 1)
            plan_send(pl, BUF_SEND, 0, n, 1);
        plan_end_round(pl);
        return;
    }
    if (r == p - 1) {   /* its own vector goes nowhere */
        plan_recv(pl, BUF_RECV, 0, n, r - 1);
        plan_end_round(pl);
        return;
    }
    plan_need_tmp(pl, n);
    if (a->inplace) {
        plan_recv(pl, BUF_TMP, 0, n, r - 1);
        plan_reduce(pl, BUF_TMP, 0, BUF_RECV, 0, n);
        plan_end_round(pl);
        plan_send(pl, BUF_RECV, 0, n, r + 1);
        plan_copy(pl, BUF_TMP, 0, BUF_RECV, 0, n);
    } else {
        plan_recv(pl, BUF_RECV, 0, n, r - 1);
        plan_copy(pl, BUF_SEND, 0, BUF_TMP, 0, n);
        plan_reduce(pl, BUF_RECV, 0, BUF_TMP, 0, n);
        plan_end_round(pl);
        plan_send(pl, BUF_TMP, 0, n, r + 1);
    }
    plan_end_round(pl);
}
