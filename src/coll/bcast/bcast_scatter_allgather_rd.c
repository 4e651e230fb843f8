/*
 * bcast: scatter_allgather_rd
 *
 * What:    van de Geijn's broadcast for long messages with a recursive-
 *          doubling allgather: the buffer is cut into p blocks of ceil(n/p)
 *          bytes (the last ones shorter, or empty when n < p), numbered by
 *          rank relative to the root. A binomial scatter from the root
 *          leaves block i on relative rank i (as scatter_allgather_ring);
 *          then, for m = 1, 2, 4, ..., relative rank i swaps the blocks of
 *          its aligned group of m ranks with rank i XOR m. When p is not a
 *          power of two some ranks have no partner (i + m >= p): after that
 *          step, the ranks of their group that had one pass the blocks they
 *          got on to them by a binomial tree (pat_rd_allgather), where
 *          MPICH only drafted this ("experimental", unused: its non-powers
 *          of two take the ring).
 * Paper:   Barnett, Shuler, van de Geijn et al., "Interprocessor collective
 *          communication library (InterCom)", SHPCC 1994; Thakur,
 *          Rabenseifner, Gropp, IJHPCA 2005; MPICH's
 *          MPIR_Bcast_intra_scatter_recursive_doubling_allgather (its
 *          medium messages on powers of two), SimGrid's
 *          scatter_rdb_allgather; Open MPI's
 *          ompi_coll_base_bcast_intra_scatter_allgather (id 8, which needs
 *          count >= p).
 * Steps:   2 ceil(log2 p) on a power of two and one less; at most
 *          3 ceil(log2 p) - 1 (at p = 2^k + 1): the trees after the steps
 *          telescope to fewer than ceil(log2 p) rounds.
 * Cost:    2 log2(p)α + 2((p - 1)/p)nβ on a power of two (n = buffer bytes).
 *          Otherwise the trees add up to ceil(log2 p) - 1 α, and the last
 *          step's lower half sends its ~(2^k/p)n bytes again to the ranks
 *          past 2^k: up to ~3nβ on the root's path just above a power of
 *          two (p = 2^k + 1: 3.0n at 65, 257, 1025; 2.0n at 1000, 255).
 * Limits:  none: any p, any size (blocks may be empty). Just above a power
 *          of two it moves up to 1.5 times the bytes (see Cost), where
 *          scatter_allgather_ring moves 2((p - 1)/p)n at any p.
 * Memory:  none.
 * Example: mpicoll show bcast scatter_allgather_rd --np 6 --compact
 *          (columns: ranks; rows: bytes of the buffer after each round;
 *          k = rank k's byte, . = not there yet)
 *   round  0       1       2       3
 *   rank   012345  012345  012345  012345
 *   0      0.....  00....  0000..  000000
 */
#include "bcast_algos.h"

void bcast_scatter_allgather_rd(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t n = a->block;
    /* the root scatters from SEND (its RECV, or a copy made meanwhile) */
    if (r == a->root)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, n);   /* nothing when in place */
    pat_scatter_binomial(pl, p, r, a->root, BUF_SEND, BUF_RECV, n, 1);
    pat_rd_allgather(pl, p, r, a->root, (pat_ref){ BUF_RECV, 0 }, n, 1);
}
