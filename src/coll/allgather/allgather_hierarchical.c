/*
 * allgather: hierarchical
 *
 * What:    the two-level allgather of Open MPI's HAN and MVAPICH, in
 *          point-to-point messages only: (1) each node's ranks send their
 *          block to the node's leader (its lowest rank), which receives
 *          them straight into their places in its receive buffer; (2) the
 *          leaders run a ring allgatherv of node blocks (N - 1 steps;
 *          nodes may differ in size): in step i a leader passes on the
 *          blocks of node (its own - i) and receives those of node (its own
 *          - i - 1), each as ONE segmented message of that node's blocks
 *          where they lie in the receive buffer (blocks of consecutive
 *          ranks in one segment), so nothing is packed; (3) each leader
 *          broadcasts the whole result to its node by a binomial tree.
 *          Only one rank per node sends between nodes.
 * Paper:   Open MPI's coll/han allgather (intra-node gather, inter-node
 *          allgather among leaders, intra-node bcast; Luo et al., "HAN: a
 *          Hierarchical AutotuNed Collective Communication Framework",
 *          CLUSTER 2020); Traeff, "Efficient Allgather for Regular SMP-
 *          Clusters", EuroPVM/MPI 2006; MVAPICH's two-level allgather.
 * Steps:   1 + (N - 1) + ceil(log2 q).
 * Cost:    with N nodes of at most q ranks and b block bytes:
 *          (q - 1)(α + bβ) at a leader to gather, (N - 1)α + (p - q)bβ
 *          around the leaders' ring, ceil(log2 q)(α + p·bβ) to broadcast.
 * Limits:  none (one node: the gather and the broadcast only). Reads the
 *          node layout (MPI_COMM_TYPE_SHARED domains, or
 *          MPICOLL_RANKS_PER_NODE=k); nodes of any ranks, any sizes.
 * Memory:  none.
 * Example: mpicoll show allgather hierarchical --np 5 --ranks-per-node 2 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      0....   0.0..   0.0.0   00000
 *   1      1....   1.1..   1.1.1   11111
 *   2      ..2..   ..2.2   2.2.2   22222
 *   3      ..3..   ..3.3   3.3.3   33333
 *   4      ....4   4...4   4.4.4   44444
 */
#include "allgather_algos.h"

/* Node `node`'s blocks in RECV as the segments of one message, blocks of
 * consecutive ranks merged into one segment. */
static void node_segs(plan *pl, const pat_nodes *nd, int node, size_t B)
{
    size_t off = 0, len = 0;
    for (int k = nd->first[node]; k < nd->first[node + 1]; k++) {
        const size_t at = (size_t)nd->members[k] * B;
        if (len && off + len == at) {
            len += B;
            continue;
        }
        if (len)
            plan_seg_add(pl, off, len);
        off = at;
        len = B;
    }
    if (len)
        plan_seg_add(pl, off, len);
}

void allgather_hierarchical(plan *pl, const plan_args *a)
{
    const int me = a->rank, mine = a->node_of[me];
    const size_t B = a->block;
    pat_nodes nd;
    if (pat_nodes_make(pl, &nd, a->p, a->node_of))
        return;
    const int q = pat_node_size(&nd, mine), local = nd.local[me], nn = nd.nn;
    const int *node = nd.members + nd.first[mine];

    /* the node's blocks gathered at its leader, straight to their places */
    plan_group(pl, node);
    if (local > 0) {
        plan_send(pl, a->inplace ? BUF_RECV : BUF_SEND, a->inplace ? (size_t)me * B : 0, B, 0);
    } else {
        if (!a->inplace)
            plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)me * B, B);
        for (int l = 1; l < q; l++)
            plan_recv(pl, BUF_RECV, (size_t)node[l] * B, B, l);
    }
    plan_end_round(pl);

    /* the leaders' ring: node blocks of unequal sizes, one message each */
    if (local == 0) {
        plan_group(pl, nd.masters);
        for (int i = 0; i < nn - 1; i++) {
            plan_send_begin(pl, BUF_RECV, pat_mod(mine + 1, nn));
            node_segs(pl, &nd, pat_mod(mine - i, nn), B);
            plan_seg_end(pl);
            plan_recv_begin(pl, BUF_RECV, pat_mod(mine - 1, nn));
            node_segs(pl, &nd, pat_mod(mine - i - 1, nn), B);
            plan_seg_end(pl);
            plan_end_round(pl);
        }
    }

    /* the whole result from the leader to its node */
    plan_group(pl, node);
    pat_bcast_binomial(pl, q, local, 0, BUF_RECV, 0, (size_t)a->p * B);
    plan_group(pl, NULL);
    pat_nodes_free(&nd);
}
