/*
 * gather: linear
 *
 * What:    every rank sends its block to the root, which posts all p - 1
 *          receives at once, each into the sender's place in its receive
 *          buffer, and copies its own block there.
 * Paper:   Open MPI's ompi_coll_base_gather_intra_basic_linear (id 1; it
 *          receives one block at a time, in rank order, where here the
 *          receives are all posted together, as its libnbc igather does).
 * Steps:   1.
 * Cost:    (p - 1)α + (p - 1)nβ at the root   (n = block bytes)
 * Limits:  none; the root is a hot spot.
 * Memory:  none.
 * Example: mpicoll show gather linear --np 5 --compact
 *          (columns: ranks; rows: blocks of the root's receive buffer
 *          after each round; k = rank k's block, . = not there yet)
 *   round  0
 *   rank   01234
 *   0      0....
 *   1      1....
 *   2      2....
 *   3      3....
 *   4      4....
 */
#include "gather_algos.h"

void gather_linear(plan *pl, const plan_args *a)
{
    const size_t B = a->block;
    if (a->rank != a->root) {
        plan_send(pl, BUF_SEND, 0, B, a->root);
        return;
    }
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)a->rank * B, B);  /* nothing when in place */
    for (int r = 0; r < a->p; r++)
        if (r != a->rank)
            plan_recv(pl, BUF_RECV, (size_t)r * B, B, r);
}
