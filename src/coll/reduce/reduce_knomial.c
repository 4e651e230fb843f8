/*
 * reduce: knomial
 *
 * What:    binomial's tree in radix k: for d = 1, k, k^2, ..., a rank
 *          whose relative rank has a non-zero base-k digit at d (its lowest
 *          one) sends its partial result to the rank with that digit
 *          cleared and stops; the others receive the partial results of
 *          their children rel + d, rel + 2d, ..., rel + (k-1)d (those below
 *          p), the k - 1 messages in flight together, and reduce them onto
 *          their own in that order: child i holds relative ranks
 *          [rel + i·d, rel + (i+1)·d), so ((own ⊕ c1) ⊕ c2) ⊕ ... keeps
 *          their order. For a commutative operation the tree is rooted at
 *          the root; otherwise at rank 0 (relative ranks are ranks: rank
 *          order) and rank 0 sends the result to the root. k = 2 is
 *          binomial, message for message. prepost=1 receives every
 *          child of every round in the first (MVAPICH2's k-nomial reduce):
 *          a child's message leaves when the child is done, not when its
 *          parent has finished the rounds before (on networks where a
 *          transfer starts at the receive, as SMPI's does), and the
 *          reductions follow in the same order once all are in.
 * Paper:   UCC's knomial reduce; MPICH's MPIR_Ireduce_intra_tsp_tree
 *          (knomial tree); Open MPI 5's knomial (4.1 has none).
 * Steps:   ceil(log_k p) (+1 for a non-commutative operation, root != 0).
 * Cost:    ceil(log_k p)·(k - 1)(α + nβ + nγ)   (n = vector bytes; the
 *          k - 1 messages of a round reach the same rank together)
 * Limits:  none: any operation, any p, any root. Parameter k >= 2
 *          (default 4), prepost 0 or 1 (default 0).
 * Memory:  (min(k, p) - 1)·n bytes of scratch, at least n (n more on ranks
 *          other than the root); preposted, n per child: up to
 *          (k - 1)·ceil(log_k p)·n.
 * Example: mpicoll show reduce knomial:k=3 --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      11111   31121   51121
 *   1      11111   31121   51121
 *   2      11111   31121   51121
 *   3      11111   31121   51121
 *   4      11111   31121   51121
 */
#include "reduce_algos.h"

void reduce_knomial(plan *pl, const plan_args *a)
{
    const int root = a->rank == a->root;
    const pat_ref in = { BUF_SEND, 0 };
    const pat_ref acc = { root ? BUF_RECV : BUF_TMP, 0 };
    pat_reduce_knomial(pl, a->p, a->rank, a->root, a->commutative, a->param[0], a->param[1],
                       a->block, in, acc, root ? 0 : a->block);
}
