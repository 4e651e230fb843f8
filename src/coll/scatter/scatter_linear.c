/*
 * scatter: linear
 *
 * What:    the root sends every other rank its block at once, each from
 *          that rank's place in its send buffer, and copies its own block
 *          to its receive buffer.
 * Paper:   Open MPI's ompi_coll_base_scatter_intra_basic_linear (id 1; it
 *          sends one block at a time, in rank order, where here the sends
 *          are all posted together).
 * Steps:   1.
 * Cost:    (p - 1)α + (p - 1)nβ at the root   (n = block bytes)
 * Limits:  none; the root is a hot spot.
 * Memory:  none.
 * Example: mpicoll show scatter linear --np 5 --compact
 *          (columns: ranks; rows: each rank's receive buffer after each
 *          round; k = block k of the root's send data, . = not there yet)
 *   round  0
 *   rank   01234
 *   0      01234
 */
#include "scatter_algos.h"

/* Rank r's block: args_count(a, r) bytes at args_displ(a, r) (scatterv
 * shares this builder; its other ranks know their own count only, which
 * args_count gives them as a->block). */
void scatter_linear(plan *pl, const plan_args *a)
{
    const int me = a->rank;
    if (me != a->root) {
        plan_recv(pl, BUF_RECV, 0, args_count(a, me), a->root);
        return;
    }
    for (int r = 0; r < a->p; r++)
        if (r != me)
            plan_send(pl, BUF_SEND, args_displ(a, r), args_count(a, r), r);
    plan_copy(pl, BUF_SEND, args_displ(a, me), BUF_RECV, 0, args_count(a, me));
}
