/*
 * scan: linear
 *
 * What:    a chain. Rank 0 sends its vector to rank 1 and keeps it; rank r
 *          receives the prefix of ranks 0..r-1 from rank r - 1, appends its
 *          own vector (prefix ⊕ own: rank order, any operation) and sends
 *          the result on to rank r + 1. Not in place the prefix arrives in
 *          the receive buffer and the own vector is appended there; in
 *          place (the receive buffer holds the input) it arrives in scratch
 *          and is prepended to the input.
 * Paper:   Open MPI's ompi_coll_base_scan_intra_linear (coll/basic's
 *          MPI_Scan, Open MPI 4.1's choice: id 1).
 * Steps:   p - 1 rounds of one message each, one after the other.
 * Cost:    (p - 1)(α + nβ + nγ)   (n = vector bytes)
 * Limits:  none: any operation, any p.
 * Memory:  in place, n bytes of scratch; none otherwise.
 * Example: mpicoll show scan linear --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      12111   12311   12341   12345
 *   1      12111   12311   12341   12345
 *   2      12111   12311   12341   12345
 *   3      12111   12311   12341   12345
 *   4      12111   12311   12341   12345
 */
#include "scan_algos.h"

void scan_linear(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t n = a->block;
    if (r == 0) {
        if (p > 1)
            plan_send(pl, BUF_SEND, 0, n, 1);
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, n);
        plan_end_round(pl);
        return;
    }
    if (a->inplace) {
        plan_need_tmp(pl, n);
        plan_recv(pl, BUF_TMP, 0, n, r - 1);
        plan_reduce(pl, BUF_TMP, 0, BUF_RECV, 0, n);
    } else {
        plan_recv(pl, BUF_RECV, 0, n, r - 1);
        plan_reduce_after(pl, BUF_SEND, 0, BUF_RECV, 0, n);
    }
    plan_end_round(pl);
    if (r < p - 1) {
        plan_send(pl, BUF_RECV, 0, n, r + 1);
        plan_end_round(pl);
    }
}
