/*
 * bcast: shm
 *
 * What:    the root copies its buffer into the node's shared segment;
 *          barrier; every other rank copies it out. Buffers that do not fit
 *          go in chunks pipelined over two areas: the root copies chunk
 *          j + 1 in while the others copy chunk j out; one barrier per
 *          chunk. Single copy (cma=1, buffers of cma_min bytes or more):
 *          the root publishes where its buffer is; a barrier; the others
 *          copy it straight from the root's (process_vm_readv:
 *          pat_cma_bcast); a barrier. Two copies when the node's kernel
 *          refuses it.
 * Paper:   the shared-memory broadcast of e.g. Graham & Shipman, "MPI
 *          Support for Multi-core Architectures: Optimized Shared Memory
 *          Collectives", EuroPVM/MPI 2008; single copy: the CMA of MPI
 *          libraries' shared-memory transports.
 * Steps:   n barriers, n = 1 when the buffer fits the segment, else
 *          ceil(bytes / (segment / 2)). Single copy: 2 barriers. The
 *          root arrives at the last barrier, tests it once and returns
 *          (shm_leave: its next call on the node waits there before it
 *          copies in), so calls back to back overlap by one. Not with the single copy,
 *          where the others read the root's buffer until that barrier.
 * Cost:    n·β_sync + bytes·μ at the root and at each other rank. Single
 *          copy: 2·β_sync + σ + bytes·μ at each other rank (σ: a system
 *          call), nothing at the root.
 * Limits:  one node (else shm_hier); ranks that share memory (R_SHM).
 *          Requests too (R_SHM): in a channel of the communicator's
 *          pool, segment capped at 1 MiB; the first on a communicator
 *          is collective; over 4 outstanding on one serialise.
 * Memory:  the node's segment: the buffer, or the whole segment; single
 *          copy: the root's record, 64 bytes.
 * Example: mpicoll show bcast shm --np 5 --compact
 *          (columns: ranks; rows: bytes of the buffer after each round;
 *          k = rank k's byte, . = not there yet)
 *   round  0       1
 *   rank   01234   01234
 *   0      0....   00000
 */
#include "bcast_algos.h"
#include "../../patterns/segment.h"

void bcast_shm(plan *pl, const plan_args *a)
{
    if (pat_cma_on(a))
        pat_cma_bcast(pl, a->p, a->rank, a->root, a->block);
    else
        pat_shm_bcast(pl, a->p, a->rank, a->root, NULL, a->block, (size_t)a->param[0]);
}
