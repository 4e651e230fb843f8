/*
 * allgather: node_ring
 *
 * What:    a ring of nodes in which every rank of a node carries a share,
 *          so that all of a node's ranks send off the node at once and
 *          every block enters every other node exactly once. Nodes are in
 *          a ring (node n sends to n + 1); block j of node m (its j-th
 *          rank) is carried on node n by that node's rank j mod q_n (q_n:
 *          its ranks), which receives it from node n - 1 (from the rank
 *          j mod q_(n-1) there), passes it on to node n + 1 (to the rank
 *          j mod q_(n+1)) and hands it to the other ranks of its node
 *          directly, in the same round. In round i a rank of node n passes
 *          on and hands out the blocks of node n - i it carries (its own
 *          in round 0), and receives those of node n - i - 1 from the
 *          previous node and those of node n - i from its node's ranks. On
 *          nodes of equal size these are q rings, one per index in the
 *          node, each carrying one block a step. The blocks a rank sends
 *          one peer in a round go as one segmented message (nodes of
 *          unequal sizes: several blocks), nothing packed.
 * Paper:   SimGrid's allgather loosely_lr (logical ring grouped by node:
 *          the same rings, with its exchange inside the node left
 *          unwaited until the end); Traeff and Hunold, "Decomposing MPI
 *          Collectives for Exploiting Multi-lane Communication", CLUSTER
 *          2020 (all ranks of a node use the network at once).
 * Steps:   N rounds on N nodes: N - 1 around the nodes' ring, each also
 *          inside the node, then one inside the node only (one rank a node:
 *          the ring's p - 1).
 * Cost:    with N nodes of q ranks and b block bytes, per rank: N - 1
 *          messages of b bytes off the node, α + bβ each, the node's link
 *          carrying q of them at once each way ((p - q)b bytes into each
 *          node, the least an allgather can), and N(q - 1) messages of b
 *          bytes inside the node, alongside the ring's.
 * Limits:  none (one node: every rank sends its block to the others at
 *          once, as direct). Reads the node layout (MPI_COMM_TYPE_SHARED
 *          domains, or MPICOLL_RANKS_PER_NODE=k); nodes of any ranks and
 *          sizes: on a node smaller than another, some of its ranks carry
 *          more than one block of the larger node a round.
 * Memory:  none.
 * Example: mpicoll show allgather node_ring --np 5 --ranks-per-node 2 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      000..   00000   00000
 *   1      11.1.   11111   11111
 *   2      ..222   2.222   22222
 *   3      ..333   .3333   33333
 *   4      4...4   444.4   44444
 */
#include "allgather_algos.h"

/* The blocks of node m that the rank of index l carries on a node of q
 * ranks and that the rank of index lo carries on a node of qo ranks, as
 * segments of one message in buf: RECV at their places, or SEND (only
 * this rank's own block is ever sent from there). */
static void carried(plan *pl, const pat_nodes *nd, int m, int q, int l, int qo, int lo, int buf,
                    size_t B)
{
    const int *node = nd->members + nd->first[m];
    for (int j = l; j < pat_node_size(nd, m); j += q)
        if (j % qo == lo)
            plan_seg_add(pl, buf == BUF_SEND ? 0 : (size_t)node[j] * B, B);
    plan_seg_end(pl);
}

void allgather_node_ring(plan *pl, const plan_args *a)
{
    const int me = a->rank, n = a->node_of[me];
    const size_t B = a->block;
    pat_nodes nd;
    if (pat_nodes_make(pl, &nd, a->p, a->node_of))
        return;
    const int nn = nd.nn, q = pat_node_size(&nd, n), l = nd.local[me];
    const int next = pat_mod(n + 1, nn), prev = pat_mod(n - 1, nn);
    const int qn = pat_node_size(&nd, next), qp = pat_node_size(&nd, prev);
    const int *node = nd.members + nd.first[n];

    for (int i = 0; i < nn; i++) {
        const int m = pat_mod(n - i, nn), buf = i == 0 ? BUF_SEND : BUF_RECV;
        if (i < nn - 1) {
            /* around the nodes' ring: node m's blocks out, node m - 1's in */
            for (int k = 0; k < qp; k++) {
                plan_recv_begin(pl, BUF_RECV, nd.members[nd.first[prev] + k]);
                carried(pl, &nd, pat_mod(m - 1, nn), q, l, qp, k, BUF_RECV, B);
            }
            for (int k = 0; k < qn; k++) {
                plan_send_begin(pl, buf, nd.members[nd.first[next] + k]);
                carried(pl, &nd, m, q, l, qn, k, buf, B);
            }
        }
        /* inside the node: node m's blocks, each from the rank carrying it */
        for (int d = 1; d < q; d++) {
            const int to = pat_mod(l + d, q), from = pat_mod(l - d, q);
            plan_recv_begin(pl, BUF_RECV, node[from]);
            carried(pl, &nd, m, q, from, 1, 0, BUF_RECV, B);
            plan_send_begin(pl, buf, node[to]);
            carried(pl, &nd, m, q, l, 1, 0, buf, B);
        }
        if (i == 0 && !a->inplace)
            plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)me * B, B);
        plan_end_round(pl);
    }
    pat_nodes_free(&nd);
}
