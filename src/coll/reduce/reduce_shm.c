/*
 * reduce: shm
 *
 * What:    allreduce shm's first two stages: each rank copies its vector
 *          into its slot of the node's shared segment; barrier; rank i
 *          reduces slice i of all p vectors in rank order into the result
 *          area; barrier; the root copies the result out. Vectors that do
 *          not fit go in chunks pipelined over two areas. Vectors of at
 *          most 8 KiB (PAT_SHM_WHOLE): copy in; barrier; the root reduces
 *          all p vectors in rank order into its receive buffer.
 * Paper:   as allreduce shm (Graham & Shipman, EuroPVM/MPI 2008): the
 *          reduction is spread over all ranks, not done by the root alone.
 * Steps:   1 barrier up to 8 KiB; else n + 1 barriers (n chunks). The
 *          ranks other than the root arrive at the last barrier, test
 *          it once and return (shm_leave: their next call on the node
 *          waits there before it copies in).
 * Cost:    per rank: ((p - 1)/p)·vector copied in, vector/p·(p - 1)·γ;
 *          the root copies the vector out.
 * Limits:  one node; ranks that share memory (R_SHM). Any operation:
 *          slices are reduced in rank order.
 *          Requests too (R_SHM): in a channel of the communicator's
 *          pool, segment capped at 1 MiB; the first on a communicator
 *          is collective; over 4 outstanding on one serialise.
 * Memory:  the node's segment: p·vector up to 8 KiB; else (p + 1)·vector,
 *          or 2(p + 1)·chunk <= segment.
 * Example: mpicoll show reduce shm --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1
 *   rank   01234   01234
 *   0      11111   51111
 *   1      11111   51111
 *   2      11111   51111
 *   3      11111   51111
 *   4      11111   51111
 */
#include "reduce_algos.h"
#include "../../patterns/segment.h"

void reduce_shm(plan *pl, const plan_args *a)
{
    pat_shm_reduce(pl, a->p, a->rank, a->root, NULL, a->block, a->esize, (size_t)a->param[0]);
}
