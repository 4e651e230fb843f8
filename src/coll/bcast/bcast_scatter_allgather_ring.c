/*
 * bcast: scatter_allgather_ring
 *
 * What:    van de Geijn's broadcast for long messages: the buffer is cut
 *          into p blocks of ceil(n/p) bytes (the last ones shorter, or
 *          empty when n < p), numbered by rank relative to the root. A
 *          binomial scatter from the root (pat_scatter_binomial: in round
 *          k, from the top, a rank that holds blocks [i, i + 2m) with
 *          m = 2^(L-1-k) sends [i + m, i + 2m) to relative rank i + m)
 *          leaves block i on relative rank i; a ring allgather (p - 1
 *          steps: send the block you last got to the right, receive the
 *          next from the left) gives every rank all of them.
 * Paper:   Barnett, Shuler, van de Geijn et al., "Interprocessor collective
 *          communication library (InterCom)", SHPCC 1994; MPICH's
 *          MPIR_Bcast_intra_scatter_ring_allgather; Open MPI's
 *          ompi_coll_base_bcast_intra_scatter_allgather_ring (id 9; its
 *          id 8, the recursive-doubling variant, is scatter_allgather_rd).
 * Steps:   ceil(log2 p) + p - 1.
 * Cost:    (ceil(log2 p) + p - 1)α + 2((p - 1)/p)nβ   (n = buffer bytes)
 * Limits:  none: any p, any size (blocks may be empty).
 * Memory:  none.
 * Example: mpicoll show bcast scatter_allgather_ring --np 5 --compact
 *          (columns: ranks; rows: bytes of the buffer after each round;
 *          k = rank k's byte, . = not there yet)
 *   round  0       1       2       3       4
 *   rank   01234   01234   01234   01234   01234
 *   0      0....   00...   000..   0000.   00000
 */
#include "bcast_algos.h"

/* Byte offset of relative block i (i = p: the end). */
static size_t start(size_t n, int p, int i)
{
    return pat_block_start(n, p, i, 1);
}

void bcast_scatter_allgather_ring(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, rel = pat_mod(r - a->root, p);
    const size_t n = a->block;
    /* the root scatters from SEND (its RECV, or a copy made meanwhile) */
    if (rel == 0)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, n);   /* nothing when in place */
    pat_scatter_binomial(pl, p, r, a->root, BUF_SEND, BUF_RECV, n, 1);
    for (int k = 0; k < p - 1; k++) {
        const int sb = pat_mod(rel - k, p), rb = pat_mod(rel - k - 1, p);
        plan_send(pl, BUF_RECV, start(n, p, sb), start(n, p, sb + 1) - start(n, p, sb),
                  pat_mod(r + 1, p));
        plan_recv(pl, BUF_RECV, start(n, p, rb), start(n, p, rb + 1) - start(n, p, rb),
                  pat_mod(r - 1, p));
        plan_end_round(pl);
    }
}
