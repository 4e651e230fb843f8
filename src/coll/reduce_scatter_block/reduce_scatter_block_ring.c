/*
 * reduce_scatter_block: ring
 *
 * What:    the vector of p blocks is copied to scratch; p - 1 ring steps
 *          (send the block you last reduced to r + 1, receive the next from
 *          r - 1 and reduce it) leave block r reduced on rank r. Rank
 *          r's block is args_count(a, r) bytes at args_displ(a, r):
 *          reduce_scatter's ring is this builder, blocks of any size.
 * Paper:   the reduce-scatter half of the ring allreduce (Patarasuk & Yuan,
 *          JPDC 2009); MPICH's reduce_scatter "ring".
 * Steps:   p - 1.
 * Cost:    (p - 1)(α + bβ + bγ)   (b = block bytes)
 * Limits:  commutative operations (declared; falls back to noncommutative).
 * Memory:  (p + 1)·b bytes of scratch (the vector and its largest block).
 * Example: mpicoll show reduce_scatter_block ring --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4       5
 *   rank   01234   01234   01234   01234   01234   01234
 *   0      11111   11211   11231   11234   51234   51234
 *   1      11111   11121   11123   41123   45123   45123
 *   2      11111   11112   31112   34112   34512   34512
 *   3      11111   21111   23111   23411   23451   23451
 *   4      11111   12111   12311   12341   12345   12345
 */
#include "reduce_scatter_block_algos.h"

void reduce_scatter_block_ring(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t all = args_displ(a, p - 1) + args_count(a, p - 1);
    const pat_ref work = { BUF_TMP, 0 };
    plan_need_tmp(pl, all);
    plan_copy(pl, BUF_SEND, 0, BUF_TMP, 0, all);
    plan_end_round(pl);
    pat_ring_reduce_scatter_blocks(pl, a, work, all);
    plan_copy(pl, BUF_TMP, args_displ(a, r), BUF_RECV, 0, args_count(a, r));
    plan_end_round(pl);
}
