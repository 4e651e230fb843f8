/*
 * allreduce: recursive_multiplying
 *
 * What:    recursive doubling in radix k (MPICH's recursive exchange,
 *          UCC's knomial allreduce). With pofk the largest power of k <= p
 *          and rem = p - pofk, a fold first makes pofk "new ranks": the
 *          first rem + ceil(rem/(k-1)) ranks form groups of k consecutive
 *          ranks (the last one shorter) whose lower ranks send their vector
 *          to the group's top rank, which reduces them and goes on (the
 *          others sit out). Then, for d = 1, k, k^2, ..., pofk/k, new ranks
 *          differing only in their base-k digit at d form a group of k:
 *          each sends its whole partial result to the k - 1 others and
 *          receives theirs, all in one round, and every member computes
 *          v0 ⊕ (v1 ⊕ (... ⊕ v(k-1))) (v_j: the member of digit j, which
 *          holds the j-th range of ranks): rank order is kept and every
 *          member reduces the same expression, bit for bit. Last, the tops
 *          give the result back to their group. k = 2 is recursive_doubling,
 *          message for message; k > p runs as k = p (one step).
 * Paper:   Ruefenacht, Bull & Booth, "Generalisation of recursive doubling
 *          for AllReduce: Now with simulation", Parallel Computing 69, 2017;
 *          MPICH's MPIR_Allreduce_intra_recexch (this fold; MPICH's
 *          recursive_multiplying folds round-robin, commutative ops only);
 *          UCC's knomial allreduce.
 * Steps:   log_k(pofk), plus 2 when p is not a power of k.
 * Cost:    (log_k(pofk) + 2[p != pofk])·(k - 1)(α + nβ + nγ)
 *          (n = vector bytes; the k - 1 messages of a step are in flight
 *          together)
 * Limits:  none: any operation, any p. Parameter k >= 2 (default 4).
 * Memory:  (min(k, p) - 1)·n bytes of scratch.
 * Example: mpicoll show allreduce recursive_multiplying:k=3 --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      11311   11555   55555
 *   1      11311   11555   55555
 *   2      11311   11555   55555
 *   3      11311   11555   55555
 *   4      11311   11555   55555
 */
#include "allreduce_algos.h"

void allreduce_recursive_multiplying(plan *pl, const plan_args *a)
{
    /* a radix above p acts as p (as in MPICH): one step, not a fold onto one rank */
    const int p = a->p, r = a->rank, k = a->param[0] <= p ? a->param[0] : (p > 2 ? p : 2);
    const int pofk = pat_pofk_below(p, k), rem = p - pofk;
    const size_t n = a->block / a->esize, bytes = a->block;
    /* in place, the vector is in RECV (hierarchical runs this among node
     * leaders on their node results) */
    const pat_ref in = { a->inplace ? BUF_RECV : BUF_SEND, 0 }, work = { BUF_RECV, 0 };
    const int nr = pat_fold_k(pl, p, r, k, in, work, n, a->esize, 0);
    if (nr >= 0 && pofk > 1) {
        plan_need_tmp(pl, (size_t)(k - 1) * bytes);
        for (long long d = 1; d < pofk; d *= k) {
            const int digit = (int)(nr / d % k);
            const long long base = nr - digit * d;
            /* TMP: the other members' vectors in digit order, k - 1 slots */
#define SLOT(j) ((size_t)((j) < digit ? (j) : (j) - 1) * bytes)
            /* the i-th message to member digit + i, from member digit - i:
             * each member gets its messages one by one, not all first or
             * all last (the reductions below keep their order) */
            for (int i = 1; i < k; i++) {
                const int to = (digit + i) % k, from = (digit - i + k) % k;
                plan_send(pl, BUF_RECV, 0, bytes, pat_fold_real_k((int)(base + to * d), rem, k));
                plan_recv(pl, BUF_TMP, SLOT(from), bytes,
                          pat_fold_real_k((int)(base + from * d), rem, k));
            }
            /* from the top digit down: in TMP until our own digit, then in
             * RECV, each lower part joining on the left */
            for (int j = k - 2; j > digit; j--)
                plan_reduce(pl, BUF_TMP, SLOT(j), BUF_TMP, SLOT(k - 1), bytes);
            if (digit < k - 1)
                plan_reduce_after(pl, BUF_TMP, SLOT(k - 1), BUF_RECV, 0, bytes);
            for (int j = digit - 1; j >= 0; j--)
                plan_reduce(pl, BUF_TMP, SLOT(j), BUF_RECV, 0, bytes);
#undef SLOT
            plan_end_round(pl);
        }
    }
    pat_unfold_k(pl, p, r, k, work, n, a->esize);
}
