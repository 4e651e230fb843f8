/*
 * reduce_scatter_block: recursive_halving
 *
 * What:    MPICH's recursive halving. The vector (p blocks of b bytes) is
 *          copied to scratch. Non-power-of-two p: of the first 2·rem ranks
 *          (rem = p - pof2) each even one sends its whole vector to the odd
 *          one above, which reduces it and goes on as one of pof2 new
 *          ranks; new rank i stands for blocks 2i and 2i+1 when i < rem,
 *          else for block i + rem. Halving: for mask = pof2/2, ..., 1, a
 *          new rank keeps the lower half of its range of new blocks if its
 *          mask bit is 0 (else the upper half), sends the other half to new
 *          rank XOR mask and reduces what it receives; it ends with its own
 *          new block(s) reduced over all ranks and, standing for two ranks,
 *          sends the even one its block.
 * Paper:   Thakur, Rabenseifner & Gropp, IJHPCA 2005; MPICH's
 *          MPIR_Reduce_scatter_block_intra_recursive_halving; Open MPI's
 *          ompi_coll_base_reduce_scatter_block_intra_recursivehalving (id 3).
 * Steps:   log2(pof2), plus 2 when p is not a power of two.
 * Cost:    log2(pof2)α + ((pof2 - 1)/pof2)nβ + ((pof2 - 1)/pof2)nγ, plus
 *          2α + (n + b)β + nγ when p is not a power of two   (n = p·b)
 * Limits:  commutative operations (partners at distance pof2/2 first:
 *          partial results do not hold adjacent ranks; declared, falls back
 *          to noncommutative).
 * Memory:  2n bytes of scratch.
 * Example: mpicoll show reduce_scatter_block recursive_halving --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      12111   13211   15211   55211
 *   1      12111   13211   15211   15211
 *   2      12111   13211   13511   13511
 *   3      12111   12132   12152   12152
 *   4      12111   12132   12135   12135
 */
#include "reduce_scatter_block_algos.h"

void reduce_scatter_block_recursive_halving(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, pof2 = pat_pof2_below(p), rem = p - pof2;
    const size_t all = args_displ(a, p - 1) + args_count(a, p - 1);
    const pat_ref in = { BUF_SEND, 0 }, work = { BUF_TMP, 0 };
    /* byte offset of new block i in the vector (i = pof2: the end); rank
     * r's block is args_count(a, r) bytes at args_displ(a, r), in rank
     * order (reduce_scatter shares this builder) */
#define NEWOFF(i) ((i) == pof2 ? all : args_displ(a, (i) < rem ? 2 * (i) : (i) + rem))
    plan_need_tmp(pl, 2 * all);
    const int nr = pat_fold(pl, p, r, in, work, all / a->esize, a->esize, all);
    if (nr >= 0) {
        int l = 0;
        for (int mask = pof2 / 2; mask > 0; mask >>= 1) {
            const int nd = nr ^ mask, dst = pat_fold_real(nd, rem);
            const int keep_lo = nr < nd ? l : l + mask, keep_hi = keep_lo + mask;
            const int give_lo = nr < nd ? l + mask : l;
            const size_t kf = NEWOFF(keep_lo), kb = NEWOFF(keep_hi) - kf;
            const size_t gf = NEWOFF(give_lo), gb = NEWOFF(give_lo + mask) - gf;
            plan_send(pl, BUF_TMP, gf, gb, dst);
            plan_recv(pl, BUF_TMP, all, kb, dst);
            plan_reduce(pl, BUF_TMP, all, BUF_TMP, kf, kb);
            plan_end_round(pl);
            l = keep_lo;
        }
        plan_copy(pl, BUF_TMP, args_displ(a, r), BUF_RECV, 0, args_count(a, r));
    }
#undef NEWOFF
    if (r < 2 * rem) {
        if (r % 2)
            plan_send(pl, BUF_TMP, args_displ(a, r - 1), args_count(a, r - 1), r - 1);
        else
            plan_recv(pl, BUF_RECV, 0, args_count(a, r), r + 1);
    }
    plan_end_round(pl);
}
