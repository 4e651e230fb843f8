/*
 * bcast: binomial
 *
 * What:    a binomial tree from the root: in round k the ranks that hold the
 *          data (relative ranks below 2^k) send it to relative rank + 2^k.
 * Paper:   MPICH's MPIR_Bcast_intra_binomial; Open MPI's binomial (id 6).
 * Steps:   ceil(log2 p).
 * Cost:    ceil(log2 p)(α + nβ)   (n = buffer bytes)
 * Limits:  none.
 * Memory:  none.
 * Example: mpicoll show bcast binomial --np 5 --compact
 *          (columns: ranks; rows: bytes of the buffer after each round;
 *          k = rank k's byte, . = not there yet)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      00...   0000.   00000
 */
#include "bcast_algos.h"

void bcast_binomial(plan *pl, const plan_args *a)
{
    const int root = a->rank == a->root;
    if (root)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, a->block);   /* nothing when in place */
    pat_bcast_binomial(pl, a->p, a->rank, a->root, root ? BUF_SEND : BUF_RECV, 0, a->block);
}
