/*
 * bcast: hierarchical (node leaders, point to point)
 *
 * What:    two levels, as Open MPI's coll/han and MVAPICH2's two-level
 *          broadcasts, in messages only (no shared memory). Each node has
 *          a leader: the root on the root's node, the lowest rank on the
 *          others. Phase 1: the leaders broadcast among themselves from
 *          the root down a k-nomial tree of radix k (inter=0), or by bcast
 *          scatter_allgather_ring run unchanged among them (inter=1, for
 *          large messages; plan_group). Phase 2: each leader broadcasts to
 *          its node's ranks down a k-nomial tree of radix intra_k, or a
 *          binary tree (inter=3, SMP_binary's: a rank forwards each
 *          segment to two, not to intra_k - 1 per level). With
 *          inter=2 the leaders' tree is binary (heap order: a leader sends
 *          to at most two, as SimGrid's SMP_binary), so that in a pipeline
 *          a node's link carries two segments a round, where the k-nomial
 *          root sends one per level of its tree. With inter=0 and 2 one
 *          message enters each node, and the message goes in segments of
 *          segsize bytes, pipelined: in round t every rank does step t - s
 *          of segment s (the leaders' steps, then the node's), so a leader
 *          forwards segment s while it receives segment s + 1 and its node
 *          gets segment s - 1. Segments of up to 8 KiB are received into
 *          receives posted up to 4 rounds ahead (plan_ahead), so that a
 *          parent need not wait for its child's next receive.
 * Paper:   Karonis, de Supinski, Foster, Gropp, Lusk & Bresnahan,
 *          "Exploiting Hierarchy in Parallel Computer Networks to Optimize
 *          Collective Operation Performance", IPDPS 2000; Kielmann et al.,
 *          "MagPIe", PPoPP 1999; Open MPI's coll/han bcast (leaders, then
 *          nodes, pipelined by segments); MVAPICH2's two-level knomial
 *          broadcast (inter=1: its scatter + ring among the leaders);
 *          SimGrid's SMP_binary (inter=2: a pipelined binary tree among
 *          the nodes; inter=3: binary trees in the nodes too, as
 *          SMP_binary's).
 * Steps:   with N nodes of at most q ranks, S = ceil(n / segsize) segments
 *          (1 with segsize=0): S - 1 + ceil(log_k N) + ceil(log_k' q)
 *          (k' = intra_k); inter=1: ceil(log2 N) + N - 1 + ceil(log_k' q);
 *          inter=2: S - 1 + floor(log2 N) + ceil(log_k' q); inter=3:
 *          S - 1 + floor(log2 N) + floor(log2 q).
 * Cost:    inter=0, S = 1: ceil(log_k N)(k - 1)(α + nβ) between nodes,
 *          then ceil(log_k' q)(k' - 1)(α + nβ) inside them (n = buffer
 *          bytes); pipelined, about (S - 1 + the steps) rounds of the
 *          segment's cost. inter=1 between nodes: (ceil(log2 N) + N - 1)α
 *          + 2((N - 1)/N)nβ. inter=2 between nodes, pipelined: about
 *          (S - 1 + floor(log2 N))(α + 2(n/S)β), a leader's link
 *          carrying two segments a round.
 * Limits:  none: any p, any root, any layout. Reads the node layout
 *          (R_NODES): MPI_COMM_TYPE_SHARED domains, or
 *          MPICOLL_RANKS_PER_NODE=k. Parameters k, intra_k >= 2 (default
 *          4 and 4, MVAPICH2's knomial factors), inter 0 to 3 (default
 *          0), segsize (default 65536; 0: no segments; inter=1 ignores
 *          it).
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

/* Round j of a tree of `n` ranks from `root`: a k-nomial tree of radix k,
 * or the binary tree (binary != 0). */
static void tree_round(plan *pl, int binary, int n, int me, int root, int k, int j,
                          int buf, size_t off, size_t len)
{
    if (binary)
        pat_bcast_binary_round(pl, n, me, root, j, buf, off, len);
    else
        pat_bcast_knomial_round(pl, n, me, root, k, j, buf, off, len);
}

/* The trees in lockstep (global round t runs step t - s of segment s):
 * `inter` steps among the leaders (binary: the binary tree, else the
 * k-nomial), then the node's k-nomial tree. Each pair of ranks meets at
 * one step, so at most once a round, segments in order. */
static void pipeline(plan *pl, const plan_args *a, const pat_nodes *nd, const int *leaders,
                     int inter, size_t seg, int binary)
{
    const int me = a->rank, mine = a->node_of[me], leader = leaders[mine];
    const int q = pat_node_size(nd, mine), buf = me == a->root ? BUF_SEND : BUF_RECV;
    const int ibin = a->param[2] == 3;     /* the node's tree binary too */
    int intra = 0;
    for (int i = 0; i < nd->nn; i++) {
        const int qi = pat_node_size(nd, i);
        int r = ibin ? pat_binary_rounds(qi) : pat_knomial_rounds(qi, a->param[1]);
        intra = r > intra ? r : intra;
    }
    const size_t n = a->block, nseg = seg && n > seg ? (n + seg - 1) / seg : 1;
    const size_t steps = (size_t)inter + (size_t)intra;
    plan_ahead(pl, 1);      /* the next segment's receive while this one is forwarded */
    for (size_t t = 0; t + 1 < nseg + steps; t++) {
        for (size_t s = t + 1 > steps ? t + 1 - steps : 0; s <= t && s < nseg; s++) {
            const int j = (int)(t - s);
            const size_t off = s * seg, len = nseg == 1 ? n : (n - off < seg ? n - off : seg);
            if (j < inter && me == leader) {
                plan_group(pl, leaders);
                tree_round(pl, binary, nd->nn, mine, a->node_of[a->root], a->param[0], j, buf,
                           off, len);
            } else if (j >= inter) {
                plan_group(pl, nd->members + nd->first[mine]);
                tree_round(pl, ibin, q, nd->local[me], nd->local[leader], a->param[1], j - inter,
                           buf, off, len);
            }
        }
        plan_group(pl, NULL);
        plan_end_round(pl);
    }
    plan_ahead(pl, 0);
}

void bcast_hierarchical(plan *pl, const plan_args *a)
{
    const int me = a->rank;
    pat_nodes nd;
    if (pat_nodes_make(pl, &nd, a->p, a->node_of))
        return;
    int *leaders = pat_node_leaders(pl, &nd, a->node_of, a->root);
    if (leaders && a->param[2] == 1) {
        /* scatter_allgather_ring among the leaders, then the nodes' trees */
        if (me == leaders[a->node_of[me]]) {
            plan_args sub = *a;
            sub.p = nd.nn;
            sub.rank = a->node_of[me];
            sub.root = a->node_of[a->root];
            plan_group(pl, leaders);
            bcast_scatter_allgather_ring(pl, &sub);
            plan_group(pl, NULL);
        }
        pipeline(pl, a, &nd, leaders, 0, 0, 0);
    } else if (leaders) {
        if (me == a->root)
            plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, a->block);     /* nothing when in place */
        const int binary = a->param[2] >= 2;
        pipeline(pl, a, &nd, leaders,
                 binary ? pat_binary_rounds(nd.nn) : pat_knomial_rounds(nd.nn, a->param[0]),
                 (size_t)a->param[3], binary);
    }
    free(leaders);
    pat_nodes_free(&nd);
}
