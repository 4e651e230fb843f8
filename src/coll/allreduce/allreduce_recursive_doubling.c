/*
 * allreduce: recursive_doubling
 *
 * What:    MPICH's recursive doubling on any p. With pof2 the largest power
 *          of two <= p and rem = p - pof2, the first 2·rem ranks pair up:
 *          each even one sends its vector to the odd one above, which
 *          reduces and goes on as one of pof2 "new ranks" (the even one
 *          sits out). Then, for mask = 1, 2, ..., pof2/2, new rank i swaps
 *          its whole partial result with new rank i XOR mask and reduces;
 *          last, the odd ranks give the result back to their even partner.
 *          The two partners of a step hold adjacent ranges of ranks and
 *          both compute (lower range) ⊕ (upper range) from identical
 *          operands: rank order is kept and every rank's result is the same
 *          expression, bit for bit.
 * Paper:   Thakur, Rabenseifner & Gropp, "Optimization of collective
 *          communication operations in MPICH", IJHPCA 2005; MPICH's
 *          MPIR_Allreduce_intra_recursive_doubling; Open MPI's
 *          ompi_coll_base_allreduce_intra_recursivedoubling (id 3).
 * Steps:   log2(pof2), plus 2 when p is not a power of two.
 * Cost:    (log2(pof2) + 2[p != pof2])(α + nβ + nγ)   (n = vector bytes)
 * Limits:  none: any operation, any p.
 * Memory:  n bytes of scratch.
 * Example: mpicoll show allreduce recursive_doubling --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      12111   13322   15555   55555
 *   1      12111   13322   15555   55555
 *   2      12111   13322   15555   55555
 *   3      12111   13322   15555   55555
 *   4      12111   13322   15555   55555
 */
#include "allreduce_algos.h"

void allreduce_recursive_doubling(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, pof2 = pat_pof2_below(p), rem = p - pof2;
    const size_t n = a->block / a->esize, bytes = a->block;
    const pat_ref in = { BUF_SEND, 0 }, work = { BUF_RECV, 0 };
    const int nr = pat_fold(pl, p, r, in, work, n, a->esize, 0);
    if (nr >= 0) {
        plan_need_tmp(pl, bytes);
        for (int mask = 1; mask < pof2; mask <<= 1) {
            const int nd = nr ^ mask, dst = pat_fold_real(nd, rem);
            plan_send(pl, BUF_RECV, 0, bytes, dst);
            plan_recv(pl, BUF_TMP, 0, bytes, dst);
            if (nd < nr)
                plan_reduce(pl, BUF_TMP, 0, BUF_RECV, 0, bytes);
            else
                plan_reduce_after(pl, BUF_TMP, 0, BUF_RECV, 0, bytes);
            plan_end_round(pl);
        }
    }
    pat_unfold(pl, p, r, work, n, a->esize);
}
