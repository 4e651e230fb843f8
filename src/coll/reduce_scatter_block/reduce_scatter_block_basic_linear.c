/*
 * reduce_scatter_block: basic_linear
 *
 * What:    a linear reduce of the whole vector (p blocks) to rank 0, in
 *          rank order, then rank 0 sends every rank its block.
 * Paper:   Open MPI's ompi_coll_base_reduce_scatter_block_basic_linear
 *          (reduce + scatter).
 * Steps:   2.
 * Cost:    2(p - 1)α + (p - 1)pbβ + (p - 1)pbγ at rank 0   (b = block bytes)
 * Limits:  none: any operation.
 * Memory:  rank 0: p·p·b bytes of scratch.
 * Example: mpicoll show reduce_scatter_block basic_linear --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1
 *   rank   01234   01234
 *   0      51111   51111
 *   1      51111   55111
 *   2      51111   51511
 *   3      51111   51151
 *   4      51111   51115
 */
#include "reduce_scatter_block_algos.h"

/* Rank r's block: args_count(a, r) bytes at args_displ(a, r) of the vector,
 * in rank order (reduce_scatter shares this builder). */
void reduce_scatter_block_basic_linear(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t all = args_displ(a, p - 1) + args_count(a, p - 1);
    const pat_ref in = { BUF_SEND, 0 }, sum = { BUF_TMP, 0 };
    pat_reduce_linear(pl, p, r, 0, all, in, sum, all);
    for (int i = 0; i < p; i++) {
        if (r == 0 && i > 0)
            plan_send(pl, BUF_TMP, args_displ(a, i), args_count(a, i), i);
        else if (r == i && i > 0)
            plan_recv(pl, BUF_RECV, 0, args_count(a, i), 0);
    }
    if (r == 0)
        plan_copy(pl, BUF_TMP, 0, BUF_RECV, 0, args_count(a, 0));
    plan_end_round(pl);
}
