/*
 * alltoall: hierarchical (node masters)
 *
 * What:    IMPI's "short" alltoall (Intel MPI's, through node masters).
 *          Local phase: an alltoall among the ranks of each node. Global
 *          phase: each node i in turn is the root: (A) its master (its
 *          lowest rank) gathers from every rank of node i the blocks meant
 *          for ranks on other nodes; (B) for each other node j it sends
 *          the n_i·n_j blocks from node i to node j as ONE message, ordered
 *          by sender rank then receiver rank, to node j's master; (C) each
 *          master scatters them to its node's ranks. Messages between
 *          nodes: one per ordered pair of nodes.
 * Paper:   IMPI (Interoperable MPI) protocol draft 0.0, 1999, "Alltoall".
 * Steps:   1 + 3·(number of nodes) rounds.
 * Cost:    with N nodes of q ranks: local (q - 1)α + (q - 1)·bβ; per root
 *          node, gather (q - 1)α + q(p - q)·bβ at its master, then
 *          (N - 1)α + q(p - q)·bβ out of it, then scatter (q - 1)α +
 *          q(q - 1)... at each other master: the masters carry everything;
 *          what it saves is inter-node messages (N(N - 1) instead of
 *          p(p - 1)), which pays for short blocks (b = block bytes).
 * Limits:  none (one node: the local phase only). Reads the node layout:
 *          MPI_COMM_TYPE_SHARED domains, or MPICOLL_RANKS_PER_NODE=k.
 * Memory:  masters: q(p - q) + q·max(n_j) blocks of scratch.
 * Example: mpicoll show alltoall hierarchical --np 5 --ranks-per-node 2 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3       4       5       6       7       8       9
 *   rank   01234   01234   01234   01234   01234   01234   01234   01234   01234   01234
 *   0      00...   00...   00...   00000   00000   00000   00000   00000   00000   00000
 *   1      11...   11...   11...   11111   11111   11111   11111   11111   11111   11111
 *   2      ..22.   ..22.   ..22.   ..22.   ..22.   ..22.   22222   22222   22222   22222
 *   3      ..33.   ..33.   ..33.   ..33.   ..33.   ..33.   33333   33333   33333   33333
 *   4      ....4   ....4   ....4   ....4   ....4   ....4   ....4   ....4   ....4   44444
 */
#include "alltoall_algos.h"

/* Position of rank d among the ranks outside node i, in rank order: d less
 * the members of node i below it (members are sorted: binary search). */
static int outside_index(const pat_nodes *nd, int i, int d)
{
    int lo = nd->first[i], hi = nd->first[i + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (nd->members[mid] < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return d - (lo - nd->first[i]);
}

/* (A) Node `root`'s master gathers every local rank's blocks for the other
 * nodes: G[ls][k] = block for the k-th rank outside the node, from the
 * rank of local index ls. */
static void gather(plan *pl, const plan_args *a, const pat_nodes *nd, int root, size_t B)
{
    const int p = a->p, me = a->rank, ni = pat_node_size(nd, root), out = p - ni;
    const int master = pat_node_master(nd, root);
    if (a->node_of[me] != root || out == 0)
        return;
    if (me != master) {
        plan_send_begin(pl, BUF_SEND, master);
        for (int d = 0; d < p; d++)
            if (a->node_of[d] != root)
                plan_seg_add(pl, (size_t)d * B, B);
        plan_seg_end(pl);
        return;
    }
    for (int ls = 0; ls < ni; ls++) {
        int s = nd->members[nd->first[root] + ls];
        size_t at = (size_t)ls * (size_t)out * B;
        if (s != me) {
            plan_recv(pl, BUF_TMP, at, (size_t)out * B, s);
            continue;
        }
        for (int d = 0, k = 0; d < p; d++)
            if (a->node_of[d] != root)
                plan_copy(pl, BUF_SEND, (size_t)d * B, BUF_TMP, at + (size_t)(k++) * B, B);
    }
}

/* (B) Masters: node root's sends node j's share as one message. */
static void exchange(plan *pl, const plan_args *a, const pat_nodes *nd, int root, size_t B,
                     size_t r_off)
{
    const int p = a->p, me = a->rank, ni = pat_node_size(nd, root), out = p - ni;
    const int mine = a->node_of[me];
    if (me == pat_node_master(nd, root)) {
        for (int j = 0; j < nd->nn; j++) {
            if (j == root)
                continue;
            plan_send_begin(pl, BUF_TMP, pat_node_master(nd, j));
            for (int ls = 0; ls < ni; ls++)
                for (int ld = 0; ld < pat_node_size(nd, j); ld++) {
                    int d = nd->members[nd->first[j] + ld];
                    size_t k = (size_t)outside_index(nd, root, d);
                    plan_seg_add(pl, ((size_t)ls * (size_t)out + k) * B, B);
                }
            plan_seg_end(pl);
        }
    } else if (mine != root && me == pat_node_master(nd, mine)) {
        size_t bytes = (size_t)ni * (size_t)pat_node_size(nd, mine) * B;
        plan_recv(pl, BUF_TMP, r_off, bytes, pat_node_master(nd, root));
    }
}

/* (C) Each other node's master scatters R[ls][ld] to local rank ld. */
static void scatter(plan *pl, const plan_args *a, const pat_nodes *nd, int root, size_t B,
                    size_t r_off)
{
    const int me = a->rank, mine = a->node_of[me], ni = pat_node_size(nd, root);
    const int nj = pat_node_size(nd, mine), master = pat_node_master(nd, mine);
    if (mine == root)
        return;
    if (me != master) {
        plan_recv_begin(pl, BUF_RECV, master);
        for (int ls = 0; ls < ni; ls++)
            plan_seg_add(pl, (size_t)nd->members[nd->first[root] + ls] * B, B);
        plan_seg_end(pl);
        return;
    }
    for (int ld = 0; ld < nj; ld++) {
        int d = nd->members[nd->first[mine] + ld];
        if (d != me)
            plan_send_begin(pl, BUF_TMP, d);
        for (int ls = 0; ls < ni; ls++) {
            size_t at = r_off + ((size_t)ls * (size_t)nj + (size_t)ld) * B;
            if (d == me)
                plan_copy(pl, BUF_TMP, at, BUF_RECV,
                          (size_t)nd->members[nd->first[root] + ls] * B, B);
            else
                plan_seg_add(pl, at, B);
        }
        if (d != me)
            plan_seg_end(pl);
    }
}

void alltoall_hierarchical(plan *pl, const plan_args *a)
{
    const int p = a->p, me = a->rank, mine = a->node_of[me];
    const size_t B = a->block;
    pat_nodes nd;
    if (pat_nodes_make(pl, &nd, p, a->node_of))
        return;
    /* local phase: an alltoall inside the node */
    for (int k = nd.first[mine]; k < nd.first[mine + 1]; k++) {
        int d = nd.members[k];
        if (d != me) {
            plan_recv(pl, BUF_RECV, (size_t)d * B, B, d);
            plan_send(pl, BUF_SEND, (size_t)d * B, B, d);
        }
    }
    plan_copy(pl, BUF_SEND, (size_t)me * B, BUF_RECV, (size_t)me * B, B);
    plan_end_round(pl);

    /* scratch of a master: its gather area, then the area it receives
     * other nodes' shares into */
    const int q = pat_node_size(&nd, mine);
    size_t g_len = (size_t)q * (size_t)(p - q) * B, r_len = 0;
    for (int i = 0; i < nd.nn; i++)
        if (i != mine && (size_t)pat_node_size(&nd, i) * (size_t)q * B > r_len)
            r_len = (size_t)pat_node_size(&nd, i) * (size_t)q * B;
    if (me == pat_node_master(&nd, mine))
        plan_need_tmp(pl, g_len + r_len);

    for (int root = 0; root < nd.nn; root++) {
        gather(pl, a, &nd, root, B);
        plan_end_round(pl);
        exchange(pl, a, &nd, root, B, g_len);
        plan_end_round(pl);
        scatter(pl, a, &nd, root, B, g_len);
        plan_end_round(pl);
    }
    pat_nodes_free(&nd);
}
