/*
 * allreduce: shm
 *
 * What:    through the node's shared segment: each rank copies its vector
 *          into its slot; barrier; rank i reduces slice i (pat_block over
 *          the p ranks) of all p vectors, in rank order (its own straight
 *          from its send buffer), into the result area; barrier; all copy
 *          the result out. Vectors that do not fit go in chunks pipelined
 *          over two areas: in one epoch the ranks copy chunk j + 2 in,
 *          reduce chunk j + 1 and copy chunk j out. Vectors of at most
 *          8 KiB (PAT_SHM_WHOLE) skip the slices and a barrier: copy in;
 *          barrier; every rank reduces all p vectors, in rank order,
 *          straight into its receive buffer.
 * Paper:   the shared-memory reduce-scatter + gather of e.g. Graham &
 *          Shipman, "MPI Support for Multi-core Architectures: Optimized
 *          Shared Memory Collectives", EuroPVM/MPI 2008; slices reduced in
 *          rank order, so results are bitwise identical on every rank and
 *          non-commutative operations are respected.
 * Steps:   1 barrier up to 8 KiB; else n + 1 barriers, n = 1 when
 *          (p + 1)·vector fits the segment, else chunks of
 *          segment / (2(p + 1)) bytes.
 * Cost:    per rank: (n + 1)·β_sync + ((p - 1)/p)·n_v·μ in + ((p - 1)/p)·n_v·γ
 *          (its slice over the p vectors) + n_v·μ out (n_v = vector bytes,
 *          μ: time to copy a byte); up to 8 KiB β_sync + n_v·μ in +
 *          (p - 1)·n_v·γ.
 * Limits:  one node (else shm_hier); ranks that share memory (R_SHM).
 *          Requests too (R_SHM): in a channel of the communicator's
 *          pool, segment capped at 1 MiB; the first on a communicator
 *          is collective; over 4 outstanding on one serialise.
 * Memory:  the node's segment: p·vector up to 8 KiB; else (p + 1)·vector,
 *          or 2(p + 1)·chunk <= segment.
 * Example: mpicoll show allreduce shm --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1
 *   rank   01234   01234
 *   0      11111   55555
 *   1      11111   55555
 *   2      11111   55555
 *   3      11111   55555
 *   4      11111   55555
 */
#include "allreduce_algos.h"
#include "../../patterns/segment.h"

void allreduce_shm(plan *pl, const plan_args *a)
{
    pat_shm_reduce(pl, a->p, a->rank, -1, NULL, a->block, a->esize, (size_t)a->param[0]);
}
