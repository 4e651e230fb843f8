/*
 * allgather: shm_hier
 *
 * What:    hierarchical: inside each node through its shared segment, as
 *          shm; between nodes, the nodes' first ranks exchange their
 *          nodes' blocks (one message per pair of nodes and chunk, posted
 *          all at once) straight from and into their segments. Pipelined
 *          over three areas: copy in chunk j + 2, exchange chunk j + 1,
 *          copy out chunk j, one barrier per chunk.
 * Paper:   the SMP-aware allgather of Träff, "Efficient allgather for
 *          regular SMP-clusters", EuroPVM/MPI 2006 (leaders exchange node
 *          blocks), with the node phases through shared memory.
 * Steps:   n + 1 barriers (one node: n, as shm); N - 1 messages out and in
 *          at each first rank per chunk (N nodes).
 * Cost:    per chunk at a first rank: (N - 1)α + (N - 1)·q·chunk·β out and
 *          (p - q)·chunk·β in (q: its node's ranks); every rank copies
 *          (p + 1)·block.
 * Limits:  ranks that share memory on each node (R_SHM); nodes from
 *          MPI_COMM_TYPE_SHARED or MPICOLL_RANKS_PER_NODE.
 *          Requests too (R_SHM): in a channel of the communicator's
 *          pool, segment capped at 1 MiB; the first on a communicator
 *          is collective; over 4 outstanding on one serialise.
 * Memory:  each node's segment: p·block, or 3p·chunk <= segment.
 * Example: mpicoll show allgather shm_hier --np 5 --ranks-per-node 2 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      0....   0....   00000
 *   1      .1...   .1...   11111
 *   2      ..2..   ..2..   22222
 *   3      ...3.   ...3.   33333
 *   4      ....4   ....4   44444
 */
#include "allgather_algos.h"
#include "../../patterns/segment.h"

void allgather_shm_hier(plan *pl, const plan_args *a)
{
    pat_shm_allgather(pl, a->p, a->rank, a->node_of, a->block, (size_t)a->param[0]);
}
