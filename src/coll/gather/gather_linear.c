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

/* Rank r's block: args_count(a, r) bytes at args_displ(a, r) (gatherv
 * shares this builder; its other ranks know their own count only, which
 * args_count gives them as a->block). */
void gather_linear(plan *pl, const plan_args *a)
{
    const int me = a->rank;
    if (me != a->root) {
        plan_send(pl, BUF_SEND, 0, args_count(a, me), a->root);
        return;
    }
    /* nothing when in place */
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, args_displ(a, me), args_count(a, me));
    for (int r = 0; r < a->p; r++)
        if (r != me)
            plan_recv(pl, BUF_RECV, args_displ(a, r), args_count(a, r), r);
}
