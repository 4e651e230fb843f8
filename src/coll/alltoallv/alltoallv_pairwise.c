/*
 * alltoallv: pairwise
 *
 * What:    p - 1 exchange steps, at most one block each way per step: in
 *          step k rank r sends to r + k and receives from r - k, or, when
 *          p is a power of two, swaps with r XOR k. Its own block is
 *          copied locally. The builder is alltoall's
 *          (src/coll/alltoall/alltoall_pairwise.c), which takes each
 *          pair's count and place on both sides; zero-byte blocks are no
 *          message, and a step with none adds no round.
 * Paper:   the pairwise exchange (Thakur, Rabenseifner, Gropp, IJHPCA
 *          2005); Open MPI's pairwise alltoallv (tuned id 2: always
 *          r + k, r - k), MPICH's alltoall pairwise (XOR for a power of
 *          two).
 * Steps:   p - 1.
 * Cost:    Σ over steps of (α + max(block sent, block received)β)
 * Limits:  none; 2 requests in flight per rank.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show alltoallv pairwise --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      00...   000..   0000.   00000
 *   1      .11..   .111.   .1111   11111
 *   2      ..22.   ..222   2.222   22222
 *   3      ...33   3..33   33.33   33333
 *   4      4...4   44..4   444.4   44444
 */
#include "alltoallv_algos.h"
#include "../alltoall/alltoall_algos.h"

void alltoallv_pairwise(plan *pl, const plan_args *a)
{
    alltoall_pairwise(pl, a);
}
