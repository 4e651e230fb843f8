/*
 * reduce: hierarchical (node leaders, point to point)
 *
 * What:    two levels, as Open MPI's coll/han and MVAPICH2's two-level
 *          reductions, in messages only (no shared memory). Each node has
 *          a leader: the root on the root's node, the lowest rank on the
 *          others. Phase 1: each node reduces to its leader down reduce
 *          knomial's tree of radix intra_k among the node's ranks. Phase
 *          2: the leaders reduce their node results to the root down the
 *          same tree of radix k among the leaders (plan_group). One
 *          message leaves each node but the root's, instead of one per
 *          rank whose parent is on another node. A non-commutative
 *          operation: each tree is rooted at its first member and keeps
 *          member order (then one more message to the leader, or to the
 *          root); with nodes of consecutive ranks, numbered in rank
 *          order, node results are rank ranges in order.
 * Paper:   Karonis, de Supinski, Foster, Gropp, Lusk & Bresnahan,
 *          "Exploiting Hierarchy in Parallel Computer Networks to Optimize
 *          Collective Operation Performance", IPDPS 2000; Kielmann et al.,
 *          "MagPIe", PPoPP 1999; Open MPI's coll/han reduce (nodes, then
 *          leaders); MVAPICH2's knomial intra- and inter-node reductions.
 * Steps:   with N nodes of at most q ranks: ceil(log_k' q) + ceil(log_k N)
 *          (k' = intra_k; +1 at each level for a non-commutative operation
 *          whose leader, or root, is not the first).
 * Cost:    ceil(log_k' q)(k' - 1)(α + nβ + nγ) inside the nodes, then
 *          ceil(log_k N)(k - 1)(α + nβ + nγ) between them (n = vector
 *          bytes).
 * Limits:  any p, any root. Reads the node layout (R_NODES):
 *          MPI_COMM_TYPE_SHARED domains, or MPICOLL_RANKS_PER_NODE=k. A
 *          non-commutative operation needs nodes of consecutive ranks
 *          (R_ORDERED_NODES; else binomial). Parameters k, intra_k >= 2
 *          (default 4 and 4, MVAPICH2's knomial factors).
 * Memory:  scratch for the children's partial results, n bytes each:
 *          min(k', q) - 1 slots in a node of q ranks, min(k, N) - 1 at a
 *          leader, at least one; n more on ranks other than the root
 *          (their partial result).
 * Example: mpicoll show reduce hierarchical --np 5 --ranks-per-node 2 --compact
 *          (nodes {0, 1}, {2, 3}, {4}; columns: ranks; rows: elements after
 *          each round; k = how many ranks' contributions the rank holds there)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      11111   21211   51211
 *   1      11111   21211   51211
 *   2      11111   21211   51211
 *   3      11111   21211   51211
 *   4      11111   21211   51211
 */
#include "reduce_algos.h"

#include <stdlib.h>

void reduce_hierarchical(plan *pl, const plan_args *a)
{
    const int me = a->rank, mine = a->node_of[me];
    pat_nodes nd;
    if (pat_nodes_make(pl, &nd, a->p, a->node_of))
        return;
    int *leaders = pat_node_leaders(pl, &nd, a->node_of, a->root);
    if (leaders) {
        const int leader = leaders[mine];
        /* the node's result, then the final one, accumulate in acc; the
         * children's partial results arrive in TMP from `slots` */
        const pat_ref in = { BUF_SEND, 0 };
        const pat_ref acc = { me == a->root ? BUF_RECV : BUF_TMP, 0 };
        const size_t slots = me == a->root ? 0 : a->block;
        plan_group(pl, nd.members + nd.first[mine]);
        pat_reduce_knomial(pl, pat_node_size(&nd, mine), nd.local[me], nd.local[leader],
                           a->commutative, a->param[1], 0, a->block, in, acc, slots);
        plan_group(pl, leaders);
        if (me == leader && nd.nn > 1)
            pat_reduce_knomial(pl, nd.nn, mine, a->node_of[a->root], a->commutative,
                               a->param[0], 0, a->block, acc, acc, slots);
        plan_group(pl, NULL);
    }
    free(leaders);
    pat_nodes_free(&nd);
}
