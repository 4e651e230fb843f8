/*
 * reduce: rabenseifner
 *
 * What:    a reduce-scatter by recursive halving, then a binomial gather of
 *          the reduced blocks to the root. Non-power-of-two p as in MPICH:
 *          of the first 2·rem ranks (rem = p - pof2) each even one sends
 *          its vector to the odd one above, which reduces it and goes on as
 *          one of pof2 new ranks. The vector is cut into pof2 blocks of
 *          ceil(n/pof2) elements (some empty when n < pof2). Halving: for
 *          mask = 1, 2, ..., pof2/2, a new rank keeps the lower half of its
 *          range of blocks if its mask bit is 0 (else the upper half),
 *          sends the other half to new rank XOR mask and reduces the
 *          partner's half of what it keeps (the lower ranks' part on the
 *          left: rank order is kept). Gather: the halving steps backwards;
 *          in each pair the rank on the root's side receives the partner's
 *          range, the other one is done. A root that sat out (an even rank
 *          below 2·rem) receives the result from its odd partner.
 * Paper:   Rabenseifner, "Optimization of collective reduction operations",
 *          ICCS 2004; Thakur, Rabenseifner & Gropp, IJHPCA 2005; MPICH's
 *          MPIR_Reduce_intra_reduce_scatter_gather; Open MPI's
 *          ompi_coll_base_reduce_intra_redscat_gather (id 7).
 * Steps:   2·log2(pof2), plus 1 or 2 when p is not a power of two.
 * Cost:    2·log2(pof2)α + 2((pof2 - 1)/pof2)nβ + ((pof2 - 1)/pof2)nγ, plus
 *          up to 2(α + nβ) + nγ when p is not a power of two   (n = vector bytes)
 * Limits:  none: any operation, any p, any count.
 * Memory:  root: n bytes of scratch (ceil(n/2) on a power of two); other
 *          ranks n more, for their partial results.
 * Example: mpicoll show reduce rabenseifner --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4       5
 *   rank   01234   01234   01234   01234   01234   01234
 *   0      12111   13121   15121   15121   15121   55121
 *   1      12111   13121   15121   15121   15121   55121
 *   2      12111   13121   13151   15151   15151   55151
 *   3      12111   13121   13151   15151   15151   55151
 *   4      12111   12312   12512   12512   15512   55512
 */
#include "reduce_algos.h"

void reduce_rabenseifner(plan *pl, const plan_args *a)
{
    const int at_root = a->rank == a->root;
    const pat_ref in = { BUF_SEND, 0 }, work = { at_root ? BUF_RECV : BUF_TMP, 0 };
    pat_reduce_rabenseifner(pl, a->p, a->rank, a->root, in, work, a->block / a->esize, a->esize,
                            at_root ? 0 : a->block);     /* received halves after the work */
}
