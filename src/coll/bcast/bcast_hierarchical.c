/*
 * bcast: hierarchical (node leaders, point to point)
 *
 * What:    two levels, as Open MPI's coll/han and MVAPICH2's two-level
 *          broadcasts, in messages only (no shared memory). Each node has
 *          a leader: the root on the root's node, the lowest rank on the
 *          others. Phase 1: the leaders broadcast among themselves from
 *          the root, by bcast knomial of radix k (inter=0) or by bcast
 *          scatter_allgather_ring (inter=1: a binomial scatter and a ring
 *          allgather, for large messages), run unchanged among the
 *          leaders (plan_group). Phase 2: each leader broadcasts to its
 *          node's ranks down a k-nomial tree of radix intra_k. One message
 *          crosses into each node (inter=0), instead of one per rank
 *          below a node boundary.
 * Paper:   Karonis, de Supinski, Foster, Gropp, Lusk & Bresnahan,
 *          "Exploiting Hierarchy in Parallel Computer Networks to Optimize
 *          Collective Operation Performance", IPDPS 2000; Kielmann et al.,
 *          "MagPIe", PPoPP 1999; Open MPI's coll/han bcast (leaders, then
 *          nodes); MVAPICH2's two-level knomial broadcast (inter=1: its
 *          scatter + ring among the leaders, for large messages).
 * Steps:   with N nodes of at most q ranks: ceil(log_k N) + ceil(log_k' q)
 *          (k' = intra_k); inter=1: ceil(log2 N) + N - 1 + ceil(log_k' q).
 * Cost:    inter=0: ceil(log_k N)(k - 1)(α + nβ) between nodes, then
 *          ceil(log_k' q)(k' - 1)(α + nβ) inside them (n = buffer bytes);
 *          inter=1 between nodes: (ceil(log2 N) + N - 1)α + 2((N-1)/N)nβ.
 * Limits:  none: any p, any root, any layout. Reads the node layout
 *          (R_NODES): MPI_COMM_TYPE_SHARED domains, or
 *          MPICOLL_RANKS_PER_NODE=k. Parameters k, intra_k >= 2 (default
 *          4 and 4, MVAPICH2's knomial factors), inter 0 or 1 (default 0).
 * Memory:  none.
 * Example: mpicoll show bcast hierarchical --np 5 --ranks-per-node 2 --compact
 *          (nodes {0, 1}, {2, 3}, {4}; columns: ranks; rows: bytes of the
 *          buffer after each round; k = rank k's byte, . = not there yet)
 *   round  0       1
 *   rank   01234   01234
 *   0      0.0.0   00000
 */
#include "bcast_algos.h"

#include <stdlib.h>

void bcast_hierarchical(plan *pl, const plan_args *a)
{
    const int me = a->rank, mine = a->node_of[me];
    pat_nodes nd;
    if (pat_nodes_make(pl, &nd, a->p, a->node_of))
        return;
    int *leaders = pat_node_leaders(pl, &nd, a->node_of, a->root);
    if (leaders) {
        const int leader = leaders[mine];
        if (me == leader) {
            /* an existing builder among the leaders: param[0] is its k */
            plan_args sub = *a;
            sub.p = nd.nn;
            sub.rank = mine;
            sub.root = a->node_of[a->root];
            plan_group(pl, leaders);
            (a->param[2] ? bcast_scatter_allgather_ring : bcast_knomial)(pl, &sub);
            plan_group(pl, NULL);
        }
        plan_group(pl, nd.members + nd.first[mine]);
        pat_bcast_knomial(pl, pat_node_size(&nd, mine), nd.local[me], nd.local[leader],
                          a->param[1], me == a->root ? BUF_SEND : BUF_RECV, 0, a->block);
        plan_group(pl, NULL);
    }
    free(leaders);
    pat_nodes_free(&nd);
}
