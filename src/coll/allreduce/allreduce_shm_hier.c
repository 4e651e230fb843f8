/*
 * allreduce: shm_hier
 *
 * What:    hierarchical: each node reduces through its shared segment as
 *          shm does (rank i of the node reduces slice i over the node's
 *          ranks, in rank order) into a node result; the nodes' first
 *          ranks send it to each other (one message per pair of nodes and
 *          chunk) and each reduces the N node results in node order into
 *          the final result, which the node's ranks copy out. Pipelined
 *          over two areas, four stages: copy in, node reduce, first ranks
 *          combine, copy out.
 * Paper:   SMP-aware allreduce (node reduce, leaders' allreduce, node
 *          broadcast), e.g. Sistare, vandeVaart & Loh, "Optimization of MPI
 *          Collectives on Clusters of Large-Scale SMPs", SC 1999; the
 *          leaders' step is allgather + local reduce (Open MPI's
 *          allgather_reduce), so node results combine in node order.
 * Steps:   n + 2 barriers (one node: n + 1, as shm); N - 1 messages out
 *          and in at each first rank per chunk.
 * Cost:    per chunk at a first rank: (N - 1)(α + chunk·β) + (N - 1)·chunk·γ.
 * Limits:  ranks that share memory on each node (R_SHM);
 *          a non-commutative operation needs nodes of consecutive ranks
 *          (R_ORDERED_NODES): node results are then rank ranges.
 *          Requests too (R_SHM): in a channel of the communicator's
 *          pool, segment capped at 1 MiB; the first on a communicator
 *          is collective; over 4 outstanding on one serialise.
 * Memory:  each node's segment: (q + 2)·vector, or 2(q + 2)·chunk, chunk =
 *          segment / (2(q_max + 2)); first ranks: N·chunk of scratch.
 * Example: mpicoll show allreduce shm_hier --np 5 --ranks-per-node 2 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      11111   11111   21212   55555
 *   1      11111   11111   21212   55555
 *   2      11111   11111   21212   55555
 *   3      11111   11111   21212   55555
 *   4      11111   11111   21212   55555
 */
#include "allreduce_algos.h"
#include "../../patterns/segment.h"

void allreduce_shm_hier(plan *pl, const plan_args *a)
{
    pat_shm_reduce(pl, a->p, a->rank, -1, a->node_of, a->block, a->esize,
                   (size_t)a->param[0]);
}
