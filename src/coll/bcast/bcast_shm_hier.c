/*
 * bcast: shm_hier
 *
 * What:    hierarchical: the root sends each chunk to the first rank of
 *          every other node (linear) and copies it into its node's shared
 *          segment; each first rank copies what it received into its
 *          node's segment; barrier; the other ranks of each node copy it
 *          out. Chunks pipelined over two areas, one barrier per chunk.
 * Paper:   SMP-aware broadcast (inter-node step between node leaders, then
 *          an intra-node one), e.g. Sistare, vandeVaart & Loh, "Optimization
 *          of MPI Collectives on Clusters of Large-Scale SMPs", SC 1999.
 * Steps:   n barriers; N - 1 messages per chunk from the root (N nodes).
 * Cost:    per chunk: (N - 1)(α + chunk·β) at the root, then chunk·μ at
 *          every rank.
 * Limits:  ranks that share memory on each node (R_SHM). Linear between
 *          nodes: for a few nodes.
 *          Requests too (R_SHM): in a channel of the communicator's
 *          pool, segment capped at 1 MiB; the first on a communicator
 *          is collective; over 4 outstanding on one serialise.
 * Memory:  each node's segment: the buffer, or the whole segment.
 * Example: mpicoll show bcast shm_hier --np 5 --ranks-per-node 2 --compact
 *          (columns: ranks; rows: bytes of the buffer after each round;
 *          k = rank k's byte, . = not there yet)
 *   round  0       1
 *   rank   01234   01234
 *   0      0.0.0   00000
 */
#include "bcast_algos.h"
#include "../../patterns/segment.h"

void bcast_shm_hier(plan *pl, const plan_args *a)
{
    pat_shm_bcast(pl, a->p, a->rank, a->root, a->node_of, a->block, (size_t)a->param[0]);
}
