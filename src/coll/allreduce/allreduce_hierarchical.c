/*
 * allreduce: hierarchical
 *
 * What:    the two-level allreduce of Open MPI's HAN and MVAPICH, in
 *          point-to-point messages only: (1) each node reduces its ranks'
 *          vectors onto its leader (its lowest rank) by a binomial tree,
 *          in rank order; (2) the leaders run an allreduce of the node
 *          results in place, as the flat algorithms do, in node order:
 *          recursive_multiplying of radix k for vectors below `large`
 *          bytes (latency: log_k N steps of whole vectors), rabenseifner
 *          from `large` bytes on (bandwidth: 2(N - 1)/N vectors per
 *          leader); (3) each leader broadcasts the result to its node by
 *          a binomial tree. Only one rank per node sends between nodes,
 *          so the node's link carries the vector a few times, not q
 *          times.
 * Paper:   Sistare, vandeVaart & Loh, "Optimization of MPI Collectives on
 *          Clusters of Large-Scale SMPs", SC 1999; Open MPI's coll/han
 *          (Luo et al., "HAN: a Hierarchical AutotuNed Collective
 *          Communication Framework", CLUSTER 2020): intra-node reduce,
 *          inter-node allreduce, intra-node bcast; MVAPICH's two-level
 *          allreduce.
 * Steps:   2·ceil(log2 q) + the leaders' (log_k N, plus 2 when N is not a
 *          power of k; rabenseifner: 2·log2 N, plus 2).
 * Cost:    with N nodes of at most q ranks and n vector bytes:
 *          2·ceil(log2 q)(α + nβ) + ceil(log2 q)·nγ inside the nodes, plus
 *          between them (log_k N)(k - 1)(α + nβ + nγ) below large, or
 *          2·log2(N)α + 2((N - 1)/N)nβ + ((N - 1)/N)nγ from large on
 *          (N a power of two; else MPICH's fold adds 2(α + nβ) + nγ).
 * Limits:  reads the node layout (MPI_COMM_TYPE_SHARED domains, or
 *          MPICOLL_RANKS_PER_NODE=k). A non-commutative operation needs
 *          nodes of consecutive ranks (R_ORDERED_NODES: a node result is
 *          then a range of ranks, and the leaders keep node order);
 *          otherwise falls back to rabenseifner. Parameters k >= 2
 *          (default 4) and large (default 65536 bytes).
 * Memory:  inside the node n bytes of scratch (one child at a time); at
 *          the leaders the leaders' algorithm's: (min(k, N) - 1)·n, or
 *          rabenseifner's ceil(n/2) (n when N is not a power of two).
 * Example: mpicoll show allreduce hierarchical --np 5 --ranks-per-node 2 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      11111   21211   51515   55555
 *   1      11111   21211   51515   55555
 *   2      11111   21211   51515   55555
 *   3      11111   21211   51515   55555
 *   4      11111   21211   51515   55555
 */
#include "allreduce_algos.h"

void allreduce_hierarchical(plan *pl, const plan_args *a)
{
    const int me = a->rank, mine = a->node_of[me];
    const size_t n = a->block;
    pat_nodes nd;
    if (pat_nodes_make(pl, &nd, a->p, a->node_of))
        return;
    const int q = pat_node_size(&nd, mine), local = nd.local[me];
    const pat_ref in = { a->inplace ? BUF_RECV : BUF_SEND, 0 }, acc = { BUF_RECV, 0 };

    /* the node's vectors reduced onto its leader, in rank order */
    plan_group(pl, nd.members + nd.first[mine]);
    pat_reduce_binomial(pl, q, local, 0, a->commutative, n, in, acc, 0);

    /* the leaders' allreduce of the node results, in place in RECV (TMP
     * from 0 again: the reduce is over) */
    if (local == 0 && nd.nn > 1) {
        plan_args la = *a;
        la.p = nd.nn;
        la.rank = mine;
        la.inplace = 1;
        la.node_of = NULL;
        plan_group(pl, nd.masters);
        if (n >= (size_t)a->param[1])
            allreduce_rabenseifner(pl, &la);
        else
            allreduce_recursive_multiplying(pl, &la);
    }

    /* the result from the leader to its node */
    plan_group(pl, nd.members + nd.first[mine]);
    pat_bcast_binomial(pl, q, local, 0, BUF_RECV, 0, n);
    plan_group(pl, NULL);
    pat_nodes_free(&nd);
}
