/*
 * allgather: shm
 *
 * What:    through the node's shared segment (MPI-3 shared memory): each
 *          rank copies its block into its slot; a barrier of the node's
 *          ranks; each copies the other blocks out to their places. Blocks
 *          that do not fit (p·block > segment) go in chunks, pipelined over
 *          two areas: while the ranks copy chunk j out of one area, they
 *          copy chunk j + 1 into the other; one barrier per chunk.
 *          Single copy (cma=1, blocks of cma_min bytes or more): each rank
 *          publishes where its buffers are in the segment; a barrier; each
 *          copies the other blocks straight from their owners' send
 *          buffers (cross-memory attach, process_vm_readv: pat_cma_allgather);
 *          a barrier, so that no rank returns while another still reads.
 *          When the node's kernel refuses it (found once per communicator),
 *          two copies.
 * Paper:   the two-copy shared-memory collectives of MPI libraries, e.g.
 *          Graham & Shipman, "MPI Support for Multi-core Architectures:
 *          Optimized Shared Memory Collectives", EuroPVM/MPI 2008; single
 *          copy: the CMA of Open MPI's and MPICH's shared-memory transports
 *          (Vienne, "Benefits of Cross Memory Attach for MPI libraries on
 *          HPC clusters", XSEDE 2014).
 * Steps:   n barriers, n = 1 when p·block fits the segment, else
 *          ceil(block / chunk), chunk = segment / (2p); no messages.
 *          Single copy: 2 barriers, p - 1 system calls per rank.
 * Cost:    n·β_sync + (p + 1)·block·μ per rank (μ: time to copy a byte;
 *          in, p - 1 out, and its own block to its place). Single copy:
 *          2·β_sync + (p - 1)·σ + p·block·μ (σ: a system call).
 * Limits:  one node (else shm_hier); ranks that share memory (R_SHM),
 *          else the fallback.
 *          Requests too (R_SHM): in a channel of the communicator's
 *          pool, segment capped at 1 MiB; the first on a communicator
 *          is collective; over 4 outstanding on one serialise.
 * Memory:  the node's segment: p·block, or 2p·chunk <= segment (the
 *          parameter; the window holds two, calls alternate); single
 *          copy: p records of 64 bytes.
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
    if (pat_cma_on(a))
        pat_cma_allgather(pl, a->p, a->rank, a->block);
    else
        pat_shm_allgather(pl, a->p, a->rank, NULL, a->block, (size_t)a->param[0]);
}
