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

void scatter_linear(plan *pl, const plan_args *a)
{
    const size_t B = a->block;
    if (a->rank != a->root) {
        plan_recv(pl, BUF_RECV, 0, B, a->root);
        return;
    }
    for (int r = 0; r < a->p; r++)
        if (r != a->rank)
            plan_send(pl, BUF_SEND, (size_t)r * B, B, r);
    plan_copy(pl, BUF_SEND, (size_t)a->rank * B, BUF_RECV, 0, B);
}
