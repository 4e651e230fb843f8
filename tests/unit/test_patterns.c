/*
 * Rank math of src/patterns, alone: the radix-k fold (pat_fold_k) against
 * its inverse pat_fold_real_k, and recursive_multiplying with k = 2
 * against recursive_doubling, plan for plan (plan_equal).
 */
#include "core/coll.h"
#include "patterns/patterns.h"

#include <stdio.h>

extern const coll_desc allreduce_desc;

/* Every rank that goes on after the fold is the real rank of its new rank;
 * the new ranks are 0 .. pofk-1, in rank order. */
static int fold_cases(void)
{
    int failures = 0;
    for (int k = 2; k <= 9; k++) {
        for (int p = 1; p <= 300; p++) {
            const int pofk = pat_pofk_below(p, k), rem = p - pofk;
            int next = 0;
            for (int r = 0; r < p && failures < 10; r++) {
                plan pl;
                plan_init(&pl, p, r);
                const pat_ref src = { BUF_SEND, 0 }, work = { BUF_RECV, 0 };
                const int nr = pat_fold_k(&pl, p, r, k, src, work, 1, 1, 0);
                plan_free(&pl);
                if (nr < 0)
                    continue;
                if (nr != next++ || pat_fold_real_k(nr, rem, k) != r) {
                    printf("FAIL fold k=%d p=%d: rank %d is new rank %d, whose real rank "
                           "is %d\n", k, p, r, nr, pat_fold_real_k(nr, rem, k));
                    failures++;
                }
            }
            if (next != pofk) {
                printf("FAIL fold k=%d p=%d: %d new ranks, not %d\n", k, p, next, pofk);
                failures++;
            }
        }
    }
    printf("fold: %s\n", failures ? "FAILED" : "k = 2..9, p = 1..300 passed");
    return failures;
}

/* recursive_multiplying:k=2 is recursive_doubling, message for message
 * (from p = 2: alone, recursive_doubling declares a scratch it never
 * uses). */
static int radix2_cases(void)
{
    const coll_algo *rd = coll_algo_find(&allreduce_desc, "recursive_doubling");
    const coll_algo *rm = coll_algo_find(&allreduce_desc, "recursive_multiplying");
    int failures = 0;
    if (!rd || !rm) {
        printf("FAIL radix 2: recursive_doubling or recursive_multiplying not found\n");
        return 1;
    }
    for (int p = 2; p <= 1025 && failures < 10; p++) {
        for (int r = 0; r < p; r++) {
            plan_args a = { .p = p, .rank = r, .block = 24, .esize = 8, .param = { 2 } };
            plan x, y;
            if (plan_build(&x, rd->build, &a))
                return 1;
            if (plan_build(&y, rm->build, &a)) {
                plan_free(&x);
                return 1;
            }
            if (!plan_equal(&x, &y)) {
                printf("FAIL radix 2: p=%d rank %d: recursive_multiplying:k=2 differs from "
                       "recursive_doubling\n", p, r);
                failures++;
            }
            plan_free(&x);
            plan_free(&y);
        }
    }
    printf("radix 2: %s\n", failures ? "FAILED" : "p = 2..1025 passed");
    return failures;
}

int main(void)
{
    int failures = fold_cases() + radix2_cases();
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
