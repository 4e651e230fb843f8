/*
 * bcast: linear
 *
 * What:    the root sends the buffer to every other rank at once.
 * Paper:   Open MPI's ompi_coll_base_bcast_intra_basic_linear.
 * Steps:   1.
 * Cost:    (p - 1)α + (p - 1)nβ at the root   (n = buffer bytes)
 * Limits:  none; the root is a hot spot.
 * Memory:  none.
 * Example: mpicoll show bcast linear --np 5 --compact
 *          (columns: ranks; rows: bytes of the buffer after each round;
 *          k = rank k's byte, . = not there yet)
 *   round  0
 *   rank   01234
 *   0      00000
 */
#include "bcast_algos.h"

void bcast_linear(plan *pl, const plan_args *a)
{
    const int root = a->rank == a->root;
    if (root)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, a->block);   /* nothing when in place */
    pat_bcast_linear(pl, a->p, a->rank, a->root, root ? BUF_SEND : BUF_RECV, 0, a->block);
}
