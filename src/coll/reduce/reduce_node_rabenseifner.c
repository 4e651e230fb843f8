/*
 * reduce: node_rabenseifner
 *
 * What:    Rabenseifner's reduce across nodes, each node's ranks sharing
 *          the vector. With N nodes, the smallest of q_min ranks, the
 *          vector is cut into s = q_min slices. Phase 1, inside each node
 *          in one round: every rank sends slice j to the node's rank of
 *          index j (j < s, itself excepted), which reduces the node's
 *          copies of slice j. Phase 2: for each j, the ranks of index j,
 *          one a node, reduce slice j by reduce rabenseifner run among them
 *          (plan_group) to the one on the root's node. Phase 3, in one
 *          round: those send their slices to the root (the root's own, if
 *          its index is below s, is already in place). Every rank of a node
 *          carries a share off the node at once, and a node's link carries
 *          what one rank's would in Rabenseifner's reduce, while the steps
 *          inside a node are one round each instead of log2 q. A node's
 *          ranks of index s and more only hand their vector out.
 * Paper:   Thakur, Rabenseifner & Gropp, "Optimization of Collective
 *          Communication Operations in MPICH", IJHPCA 2005 (the reduce
 *          among the nodes); MVAPICH2's two-level reduce and Open MPI's
 *          coll/han (nodes, then leaders), with the leaders' work split
 *          among all of a node's ranks as in Traeff & Hunold, "Decomposing
 *          MPI Collectives for Exploiting Multi-lane Communication",
 *          CLUSTER 2020.
 * Steps:   1 + rabenseifner's on N ranks (2 ceil(log2 N) at most) + 1.
 * Cost:    inside a node: α + (q - 1)(n/s)(β + γ) at the rank of each
 *          slice, then among the nodes 2 log2(N)α + 2((N - 1)/N)(n/s)β +
 *          ((N - 1)/N)(n/s)γ for each of the s slices at once (the node's
 *          link carries 2((N - 1)/N)n), then α + (s - 1)(n/s)β into the
 *          root (n = vector bytes).
 * Limits:  commutative operations (declared: falls back to rabenseifner).
 *          Reads the node layout (R_NODES): MPI_COMM_TYPE_SHARED domains,
 *          or MPICOLL_RANKS_PER_NODE=k; nodes of any ranks and sizes.
 * Memory:  at a slice's rank: (q - 1) slices of scratch (the node's
 *          copies), and one for the slice itself unless it is the root.
 * Example: mpicoll show reduce node_rabenseifner --np 6 --ranks-per-node 2 --compact
 *          (nodes {0, 1}, {2, 3}, {4, 5}; columns: ranks; rows: elements
 *          after each round; k = the ranks' contributions held there)
 *   round  0       1       2       3       4       5
 *   rank   012345  012345  012345  012345  012345  012345
 *   0      212121  214121  216121  216121  616121  616121
 *   1      212121  214121  216121  216121  616121  616121
 *   2      212121  214121  214161  216161  616161  616161
 *   3      121212  121412  121612  121612  161612  661612
 *   4      121212  121412  121612  121612  161612  661612
 *   5      121212  121412  121416  121616  161616  661616
 */
#include "reduce_algos.h"

#include <stdlib.h>

void reduce_node_rabenseifner(plan *pl, const plan_args *a)
{
    const int me = a->rank, mine = a->node_of[me];
    const size_t es = a->esize, n = a->block / es;
    pat_nodes nd;
    if (pat_nodes_make(pl, &nd, a->p, a->node_of))
        return;
    const int nn = nd.nn, q = pat_node_size(&nd, mine), l = nd.local[me];
    const int home = a->node_of[a->root];
    const int *node = nd.members + nd.first[mine];
    int s = q;
    for (int m = 0; m < nn; m++)
        s = pat_node_size(&nd, m) < s ? pat_node_size(&nd, m) : s;
    /* slice j: bytes [at(j), at(j + 1)) of the vector; the first is the largest */
    #define at(j) pat_block_start(n, s, (j), es)
    const size_t most = at(1), off = l < s ? at(l) : 0, bytes = l < s ? at(l + 1) - off : 0;
    int *group = malloc((size_t)nn * sizeof *group);
    if (!group) {
        plan_fail(pl);
        goto out;
    }

    /* phase 1: slice j to the node's rank j; the rank of slice l reduces
     * the node's copies of it (received into TMP from `slots`) into its
     * work: its place in the root's RECV, else TMP at 0 */
    const pat_ref work = { me == a->root ? BUF_RECV : BUF_TMP, me == a->root ? off : 0 };
    const size_t slots = me == a->root ? 0 : most;
    if (l < s) {
        plan_need_tmp(pl, slots + (size_t)(q - 1) * most);
        for (int d = 1; d < q; d++)
            plan_recv(pl, BUF_TMP, slots + (size_t)(d - 1) * most, bytes, node[(l + d) % q]);
    }
    for (int d = 1; d < q; d++) {
        const int j = (l + q - d) % q;      /* the rank d before: it receives from us d-th */
        if (j < s)
            plan_send(pl, BUF_SEND, at(j), at(j + 1) - at(j), node[j]);
    }
    if (l < s) {
        plan_copy(pl, BUF_SEND, off, work.buf, work.off, bytes);
        for (int d = 1; d < q; d++)
            plan_reduce(pl, BUF_TMP, slots + (size_t)(d - 1) * most, work.buf, work.off, bytes);
    }
    plan_end_round(pl);

    /* phase 2: slice l among the ranks of index l, to the root's node */
    if (l < s && nn > 1) {
        for (int m = 0; m < nn; m++)
            group[m] = nd.members[nd.first[m] + l];
        plan_group(pl, group);
        pat_reduce_rabenseifner(pl, nn, mine, home, work, work, bytes / es, es, slots);
        plan_group(pl, NULL);
    }

    /* phase 3: the root's node hands the slices to the root */
    if (mine == home) {
        if (me == a->root) {
            for (int j = 0; j < s; j++)
                if (j != l)
                    plan_recv(pl, BUF_RECV, at(j), at(j + 1) - at(j), node[j]);
        } else if (l < s) {
            plan_send(pl, work.buf, work.off, bytes, a->root);
        }
        plan_end_round(pl);
    }
    #undef at
out:
    free(group);
    pat_nodes_free(&nd);
}
