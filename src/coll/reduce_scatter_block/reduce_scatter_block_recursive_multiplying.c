/*
 * reduce_scatter_block: recursive_multiplying
 *
 * What:    recursive halving in radix k (the k-nomial reduce-scatter of
 *          MPICH's recursive exchange). The vector (p blocks of b bytes)
 *          is copied to scratch. With pofk the largest power of k <= p and
 *          rem = p - pofk, the fold of allreduce's recursive_multiplying
 *          (pat_fold_k) first makes pofk new ranks: the first
 *          rem + ceil(rem/(k-1)) ranks form groups of k consecutive ranks
 *          (the last one shorter) whose lower ranks send their vector to
 *          the group's top rank, which reduces them; new rank g < groups
 *          stands for its group's blocks, new rank i >= groups for block
 *          i + rem, so every new rank's blocks are consecutive. Then, for
 *          d = pofk/k, ..., k, 1: a new rank's range of k·d new blocks
 *          splits into k parts of d; the k new ranks that differ only in
 *          their base-k digit at d exchange in one round, each sending
 *          every other member the part of that member's digit and
 *          receiving its own part from the k - 1 others, which it reduces.
 *          Each ends with its own new block(s) reduced over all ranks; a
 *          group's top rank sends the others of its group their block.
 *          k = 2 is recursive_halving, message for message; k > p runs as
 *          k = p (one step). Rank r's block is args_count(a, r) bytes at
 *          args_displ(a, r): reduce_scatter's recursive_multiplying is
 *          this builder, blocks of any size.
 * Paper:   Thakur, Rabenseifner & Gropp, IJHPCA 2005 (k = 2); MPICH's
 *          MPIR_Ireduce_scatter_block_intra_tsp_recexch (its recursive
 *          exchange in the distance-halving form, which needs no digit-
 *          reversed exchange at the end; its fold differs: this one is
 *          allreduce recursive_multiplying's); Ruefenacht, Bull & Booth,
 *          Parallel Computing 69, 2017 (the radix-k exchange).
 * Steps:   log_k(pofk), plus 2 when p is not a power of k.
 * Cost:    log_k(pofk)(k - 1)α + ((pofk - 1)/pofk)(nβ + nγ) (the k - 1
 *          messages of a step in flight together), plus
 *          (k - 1)(2α + (n + b)β + nγ) when p is not a power of k
 *          (n = p·b)
 * Limits:  commutative operations (members at distance pofk/k first:
 *          partial results do not hold adjacent ranks; declared, falls back
 *          to noncommutative). Parameter k >= 2 (default 4).
 * Memory:  n bytes of scratch plus the k - 1 parts a step receives (the
 *          first step's are the largest: (k - 1)n/k on a power of k); n
 *          plus the (k - 1)n the fold receives on its groups' top ranks.
 * Example: mpicoll show reduce_scatter_block recursive_multiplying:k=3 --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      11311   11511   51511
 *   1      11311   11511   15511
 *   2      11311   11511   11511
 *   3      11311   11351   11351
 *   4      11311   11315   11315
 */
#include "reduce_scatter_block_algos.h"

void reduce_scatter_block_recursive_multiplying(plan *pl, const plan_args *a)
{
    /* a radix above p acts as p (as in MPICH): one step, not a fold onto one rank */
    const int p = a->p, r = a->rank, k = a->param[0] <= p ? a->param[0] : (p > 2 ? p : 2);
    const int pofk = pat_pofk_below(p, k), rem = p - pofk, groups = pat_fold_groups(rem, k);
    const size_t all = args_displ(a, p - 1) + args_count(a, p - 1);
    const pat_ref in = { BUF_SEND, 0 }, work = { BUF_TMP, 0 };
    /* byte offset of new block i in the vector (i = pofk: the end); rank
     * r's block is args_count(a, r) bytes at args_displ(a, r), in rank
     * order (reduce_scatter shares this builder) */
#define NEWOFF(i) ((i) == pofk ? all : args_displ(a, (int)((i) < groups ? (i) * k : (i) + rem)))
    plan_need_tmp(pl, all);
    const int nr = pat_fold_k(pl, p, r, k, in, work, all / a->esize, a->esize, all);
    if (nr >= 0) {
        for (long long d = pofk / k; d >= 1; d /= k) {
            const int digit = (int)(nr / d % k);
            const long long base = nr - digit * d, lo = base - base % (d * k);
            const size_t kf = NEWOFF(lo + digit * d), kb = NEWOFF(lo + (digit + 1) * d) - kf;
            /* TMP after the vector: the other members' copies of our part */
#define SLOT(j) (all + (size_t)((j) < digit ? (j) : (j) - 1) * kb)
            plan_need_tmp(pl, all + (size_t)(k - 1) * kb);
            /* the i-th message to member digit + i, from member digit - i:
             * each member gets its parts one by one, not all first or all
             * last (the reductions below keep their order) */
            for (int i = 1; i < k; i++) {
                const int to = (digit + i) % k, from = (digit - i + k) % k;
                const size_t gf = NEWOFF(lo + to * d);
                plan_send(pl, BUF_TMP, gf, NEWOFF(lo + (to + 1) * d) - gf,
                          pat_fold_real_k((int)(base + to * d), rem, k));
                plan_recv(pl, BUF_TMP, SLOT(from), kb, pat_fold_real_k((int)(base + from * d), rem, k));
            }
            for (int j = 0; j < k; j++)
                if (j != digit)
                    plan_reduce(pl, BUF_TMP, SLOT(j), BUF_TMP, kf, kb);
#undef SLOT
            plan_end_round(pl);
        }
        plan_copy(pl, BUF_TMP, args_displ(a, r), BUF_RECV, 0, args_count(a, r));
    }
#undef NEWOFF
    if (r < rem + groups) {
        /* the fold's group: a top rank sends the others their block */
        const int first = r / k * k, top = first + k - 1 < rem + groups ? first + k - 1
                                                                          : rem + groups - 1;
        if (r == top)
            for (int i = top - 1; i >= first; i--)
                plan_send(pl, BUF_TMP, args_displ(a, i), args_count(a, i), i);
        else
            plan_recv(pl, BUF_RECV, 0, args_count(a, r), top);
    }
    plan_end_round(pl);
}
