/*
 * Rank math and plan fragments shared by algorithms. No MPI here.
 */
#ifndef MPICOLL_PATTERNS_H
#define MPICOLL_PATTERNS_H

#include "../core/plan.h"

#include <stddef.h>

/* (x mod p) in [0, p) for any x. */
static inline int pat_mod(long long x, int p)
{
    long long m = x % p;
    return (int)(m < 0 ? m + p : m);
}

static inline int pat_is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

/* Smallest k with 2^k >= p (0 for p <= 1). */
int pat_ceil_log2(int p);

/* Broadcast `bytes` at (buf, off) from `root` down a binomial tree: in
 * round k the ranks that hold the data (relative ranks [0, 2^k)) send to
 * relative rank + 2^k. ceil(log2 p) rounds. */
void pat_bcast_binomial(plan *pl, int p, int rank, int root, int buf, size_t off,
                        size_t bytes);

/* Bruck's final step: RECV holds, at block i, the block of rank
 * (rank + i) mod p; put every block at its own rank's place. Uses TMP. */
void pat_bruck_unrotate(plan *pl, int p, int rank, size_t block);

#endif
