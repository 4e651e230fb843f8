/*
 * allreduce: rabenseifner
 *
 * What:    a reduce-scatter by recursive halving, then an allgather by
 *          recursive doubling. Non-power-of-two p as in MPICH: of the
 *          first 2·rem ranks (rem = p - pof2) each even one sends its
 *          vector to the odd one above, which reduces it and goes on as one
 *          of pof2 new ranks; at the end the odd ones send the result back.
 *          The vector is cut into pof2 blocks of ceil(n/pof2) elements (the
 *          last ones shorter, or empty when n < pof2). Halving: for mask =
 *          1, 2, ..., pof2/2, a new rank keeps the lower half of its range
 *          of blocks if its mask bit is 0 (the upper half if 1), sends the
 *          other half to new rank XOR mask and reduces the partner's half
 *          of what it keeps; it ends with one block, reduced over all
 *          ranks. Doubling runs the same steps backwards, swapping whole
 *          ranges. The partners of a halving step hold adjacent ranges of
 *          ranks, the lower one's part is combined on the left: rank order
 *          is kept, so non-commutative operations run as well; each block
 *          is reduced on one rank only, so the results are identical.
 * Paper:   Rabenseifner, "Optimization of collective reduction operations",
 *          ICCS 2004; Thakur, Rabenseifner & Gropp, IJHPCA 2005; MPICH's
 *          MPIR_Allreduce_intra_reduce_scatter_allgather; Open MPI's
 *          ompi_coll_base_allreduce_intra_redscat_allgather (id 6).
 * Steps:   2·log2(pof2), plus 2 when p is not a power of two.
 * Cost:    2·log2(pof2)α + 2((pof2 - 1)/pof2)nβ + ((pof2 - 1)/pof2)nγ,
 *          plus 2(α + nβ) + nγ when p is not a power of two   (n = vector bytes)
 * Limits:  none: any operation, any p, any count (blocks may be empty).
 * Memory:  ceil(n/2) bytes of scratch, rounded up to whole blocks (n when p
 *          is not a power of two).
 * Example: mpicoll show allreduce rabenseifner --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4       5
 *   rank   01234   01234   01234   01234   01234   01234
 *   0      12111   13121   15121   15151   15555   55555
 *   1      12111   13121   15121   15151   15555   55555
 *   2      12111   13121   13151   15151   15555   55555
 *   3      12111   13121   13151   15151   15555   55555
 *   4      12111   12312   12512   12515   15555   55555
 */
#include "allreduce_algos.h"

void allreduce_rabenseifner(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, pof2 = pat_pof2_below(p), rem = p - pof2;
    const size_t es = a->esize, n = a->block / es;
    /* in place, the vector is in RECV (hierarchical runs this among node
     * leaders on their node results) */
    const pat_ref in = { a->inplace ? BUF_RECV : BUF_SEND, 0 }, work = { BUF_RECV, 0 };
    const int nr = pat_fold(pl, p, r, in, work, n, es, 0);
    if (nr >= 0) {
        /* lo[k], hi[k]: the range of blocks held before halving step k */
        int lo[32], hi[32], l, h;
        const int steps = pat_halving(pl, nr, pof2, rem, n, es, work, 0, lo, hi, &l, &h);
        /* doubling: undo the halving steps, last first */
        for (int k = steps - 1; k >= 0; k--) {
            const int dst = pat_fold_real(nr ^ (1 << k), rem);
            /* the partner holds the other half of [lo[k], hi[k]) */
            const int ol = l == lo[k] ? h : lo[k], oh = l == lo[k] ? hi[k] : l;
            const size_t mf = pat_block_start(n, pof2, l, es), of = pat_block_start(n, pof2, ol, es);
            plan_send(pl, BUF_RECV, mf, pat_block_start(n, pof2, h, es) - mf, dst);
            plan_recv(pl, BUF_RECV, of, pat_block_start(n, pof2, oh, es) - of, dst);
            plan_end_round(pl);
            l = lo[k];
            h = hi[k];
        }
    }
    pat_unfold(pl, p, r, work, n, es);
}
