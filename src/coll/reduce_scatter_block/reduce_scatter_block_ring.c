/*
 * reduce_scatter_block: ring
 *
 * What:    the vector of p blocks is copied to scratch; p - 1 ring steps
 *          (send the block you last reduced to r + 1, receive the next from
 *          r - 1 and reduce it) leave block r reduced on rank r.
 * Paper:   the reduce-scatter half of the ring allreduce (Patarasuk & Yuan,
 *          JPDC 2009); MPICH's reduce_scatter "ring".
 * Steps:   p - 1.
 * Cost:    (p - 1)(α + bβ + bγ)   (b = block bytes)
 * Limits:  commutative operations (declared; falls back to basic_linear).
 * Memory:  (p + 1)·b bytes of scratch.
 * Example: mpicoll show reduce_scatter_block ring --np 5 --compact
 *          (columns: ranks; rows: elements of the receive buffer after each
 *          round; k = how many ranks' contributions the element holds
 *   round  0       1       2       3       4       5
 *   rank   01234   01234   01234   01234   01234   01234
 *   0      .....   .....   .....   .....   .....   55555
 */
#include "reduce_scatter_block_algos.h"

void reduce_scatter_block_ring(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t b = a->block, all = (size_t)p * b;
    const pat_ref work = { BUF_TMP, 0 };
    plan_need_tmp(pl, all);
    plan_copy(pl, BUF_SEND, 0, BUF_TMP, 0, all);
    plan_end_round(pl);
    pat_ring_reduce_scatter(pl, p, r, work, all / a->esize, a->esize, all);
    plan_copy(pl, BUF_TMP, (size_t)r * b, BUF_RECV, 0, b);
    plan_end_round(pl);
}
