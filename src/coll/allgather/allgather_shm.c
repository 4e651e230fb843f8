/*
 * allgather: shm
 *
 * What:    through the node's shared segment (MPI-3 shared memory): each
 *          rank copies its block into its slot; a barrier of the node's
 *          ranks; each copies the other blocks out to their places. Blocks
 *          that do not fit (p·block > segment) go in chunks, pipelined over
 *          two areas: while the ranks copy chunk j out of one area, they
 *          copy chunk j + 1 into the other; one barrier per chunk.
 * Paper:   the two-copy shared-memory collectives of MPI libraries, e.g.
 *          Graham & Shipman, "MPI Support for Multi-core Architectures:
 *          Optimized Shared Memory Collectives", EuroPVM/MPI 2008.
 * Steps:   n barriers, n = 1 when p·block fits the segment, else
 *          ceil(block / chunk), chunk = segment / (2p); no messages.
 * Cost:    n·β_sync + (p + 1)·block·μ per rank (μ: time to copy a byte;
 *          in, p - 1 out, and its own block to its place).
 * Limits:  one node (else shm_hier); ranks that share memory (R_SHM),
 *          else the fallback.
 *          Requests too (R_SHM): in a channel of the communicator's
 *          pool, segment capped at 1 MiB; the first on a communicator
 *          is collective; over 4 outstanding on one serialise.
 * Memory:  the node's segment: p·block, or 2p·chunk <= segment (the
 *          parameter; the window holds two, calls alternate).
 * Example: mpicoll show allgather shm --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1
 *   rank   01234   01234
 *   0      0....   00000
 *   1      .1...   11111
 *   2      ..2..   22222
 *   3      ...3.   33333
 *   4      ....4   44444
 */
#include "allgather_algos.h"
#include "../../patterns/segment.h"

void allgather_shm(plan *pl, const plan_args *a)
{
    pat_shm_allgather(pl, a->p, a->rank, NULL, a->block, (size_t)a->param[0]);
}
