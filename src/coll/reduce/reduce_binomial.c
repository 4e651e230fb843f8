/*
 * reduce: binomial
 *
 * What:    a binomial tree: in step k, ranks whose relative rank has bit k
 *          set send their partial result to the rank 2^k below and stop;
 *          the others receive and combine. For a commutative operation the
 *          tree is rooted at the root; otherwise at rank 0 (a child always
 *          holds the next higher ranks, so rank order is kept) and rank 0
 *          sends the result to the root.
 * Paper:   MPICH's MPIR_Reduce_intra_binomial; Open MPI's binomial (id 5).
 * Steps:   ceil(log2 p) (+1 for a non-commutative operation, root != 0).
 * Cost:    ceil(log2 p)(α + nβ + nγ)   (n = vector bytes)
 * Limits:  none: any operation.
 * Memory:  n bytes of scratch (2n on ranks other than the root).
 * Example: mpicoll show reduce binomial --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      11111   21211   41211   51211
 *   1      11111   21211   41211   51211
 *   2      11111   21211   41211   51211
 *   3      11111   21211   41211   51211
 *   4      11111   21211   41211   51211
 */
#include "reduce_algos.h"

void reduce_binomial(plan *pl, const plan_args *a)
{
    const int root = a->rank == a->root;
    const pat_ref in = { BUF_SEND, 0 };
    const pat_ref acc = { root ? BUF_RECV : BUF_TMP, 0 };
    pat_reduce_binomial(pl, a->p, a->rank, a->root, a->commutative, a->block, in, acc,
                        root ? 0 : a->block);
}
