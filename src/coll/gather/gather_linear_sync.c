/*
 * gather: linear_sync
 *
 * What:    the root asks each rank in turn, in rank order, for its block:
 *          it posts the receive of the first first_segment bytes (the
 *          whole block when first_segment is 0 or not below it), sends the
 *          rank a 1-byte request and waits for that first part; the rest
 *          of the block comes in a second message, whose receive is posted
 *          with the next rank's turn (the last with the root's own copy).
 *          Each rank waits for the request, then sends its first part and
 *          the rest. The root thus paces the senders, as Open MPI's does
 *          with a 0-byte message (plans drop empty messages: 1 byte here).
 * Paper:   Open MPI's ompi_coll_base_gather_intra_linear_sync (id 3; it
 *          posts each second receive with its rank's first and waits for
 *          all of them at the end, where here a second part is waited for
 *          in the next rank's turn).
 * Steps:   p - 1 turns at the root (p with a second part).
 * Cost:    (p - 1)(3α + nβ) at the root, in turns   (n = block bytes)
 * Limits:  none. Parameter first_segment >= 0 (default 0: one message a
 *          block).
 * Memory:  non-roots: 1 byte of TMP (the request).
 * Example: mpicoll show gather linear_sync --np 5 --compact
 *          (columns: ranks; rows: blocks of the root's receive buffer
 *          after each round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3       4       5       6       7       8
 *   rank   01234   01234   01234   01234   01234   01234   01234   01234   01234
 *   0      .....   .....   .....   .....   .....   .....   .....   .....   0....
 *   1      .....   1....   1....   1....   1....   1....   1....   1....   1....
 *   2      .....   .....   .....   2....   2....   2....   2....   2....   2....
 *   3      .....   .....   .....   .....   .....   3....   3....   3....   3....
 *   4      .....   .....   .....   .....   .....   .....   .....   4....   4....
 */
#include "gather_algos.h"

void gather_linear_sync(plan *pl, const plan_args *a)
{
    const size_t B = a->block, seg = (size_t)a->param[0];
    const size_t first = seg > 0 && seg < B ? seg : B;
    if (a->rank != a->root) {
        plan_need_tmp(pl, 1);
        plan_recv(pl, BUF_TMP, 0, 1, a->root);
        plan_end_round(pl);
        plan_send(pl, BUF_SEND, 0, first, a->root);
        plan_send(pl, BUF_SEND, first, B - first, a->root);  /* dropped when empty */
        plan_end_round(pl);
        return;
    }
    int prev = -1;  /* the rank whose second part is still to come */
    for (int r = 0; r < a->p; r++) {
        if (r == a->rank)
            continue;
        plan_recv(pl, BUF_RECV, (size_t)r * B, first, r);
        plan_send(pl, BUF_SEND, 0, 1, r);
        if (prev >= 0)
            plan_recv(pl, BUF_RECV, (size_t)prev * B + first, B - first, prev);
        plan_end_round(pl);
        prev = r;
    }
    if (prev >= 0)
        plan_recv(pl, BUF_RECV, (size_t)prev * B + first, B - first, prev);
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)a->rank * B, B);  /* nothing when in place */
}
