/*
 * allreduce: nonoverlapping
 *
 * What:    a binomial-tree reduce to rank 0, then a binomial-tree
 *          broadcast: the two phases do not overlap. The reduce tree is
 *          rooted at rank 0, where children always hold higher ranks, so
 *          rank order is kept for non-commutative operations.
 * Paper:   Open MPI's ompi_coll_base_allreduce_intra_nonoverlapping
 *          (reduce + bcast).
 * Steps:   2·ceil(log2 p).
 * Cost:    2·ceil(log2 p)(α + nβ) + ceil(log2 p)·nγ   (n = vector bytes)
 * Limits:  none: any operation.
 * Memory:  n bytes of scratch.
 * Example: mpicoll show allreduce nonoverlapping --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4       5       6
 *   rank   01234   01234   01234   01234   01234   01234   01234
 *   0      11111   21211   41211   51211   55211   55551   55555
 *   1      11111   21211   41211   51211   55211   55551   55555
 *   2      11111   21211   41211   51211   55211   55551   55555
 *   3      11111   21211   41211   51211   55211   55551   55555
 *   4      11111   21211   41211   51211   55211   55551   55555
 */
#include "allreduce_algos.h"

void allreduce_nonoverlapping(plan *pl, const plan_args *a)
{
    const pat_ref in = { BUF_SEND, 0 }, acc = { BUF_RECV, 0 };
    pat_reduce_binomial(pl, a->p, a->rank, 0, 0, a->block, in, acc, 0);
    pat_bcast_binomial(pl, a->p, a->rank, 0, BUF_RECV, 0, a->block);
}
