/*
 * reduce_scatter: pairwise
 *
 * What:    MPICH's pairwise exchange: rank r starts from its own block of
 *          its vector; in step i it sends rank r + i that rank's block of
 *          its vector, receives its own block of rank r - i's and reduces
 *          it in. Each rank's block has its own size (args_count).
 * Paper:   Thakur, Rabenseifner & Gropp, IJHPCA 2005; MPICH's
 *          MPIR_Reduce_scatter_intra_pairwise.
 * Steps:   p - 1.
 * Cost:    (p - 1)α + (n - b)β + (p - 1)bγ   (n: the whole vector, b: the
 *          block; a rank sends every block but its own)
 * Limits:  commutative operations (contributions join in the order the
 *          steps bring them; declared, falls back to noncommutative).
 * Memory:  TMP of one block.
 * Example: mpicoll show reduce_scatter pairwise --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4
 *   rank   01234   01234   01234   01234   01234
 *   0      11111   21111   31111   41111   51111
 *   1      11111   12111   13111   14111   15111
 *   2      11111   11211   11311   11411   11511
 *   3      11111   11121   11131   11141   11151
 *   4      11111   11112   11113   11114   11115
 */
#include "reduce_scatter_algos.h"

void reduce_scatter_pairwise(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t mine = args_count(a, r);
    plan_need_tmp(pl, mine);
    plan_copy(pl, BUF_SEND, args_displ(a, r), BUF_RECV, 0, mine);
    plan_end_round(pl);
    for (int i = 1; i < p; i++) {
        const int to = pat_mod(r + i, p), from = pat_mod(r - i, p);
        plan_send(pl, BUF_SEND, args_displ(a, to), args_count(a, to), to);
        plan_recv(pl, BUF_TMP, 0, mine, from);
        plan_reduce(pl, BUF_TMP, 0, BUF_RECV, 0, mine);
        plan_end_round(pl);
    }
}
