/*
 * alltoall: pairwise
 *
 * What:    p - 1 exchange steps, one block each way per step. In step i
 *          rank r exchanges with r XOR i when p is a power of two (both
 *          partners of a pair swap blocks), otherwise it sends to r + i and
 *          receives from r - i. Its own block is copied locally.
 * Paper:   the pairwise exchange (Thakur, Rabenseifner, Gropp,
 *          "Optimization of Collective Communication Operations in MPICH",
 *          IJHPCA 2005); Open MPI's pairwise (id 2).
 * Steps:   p - 1.
 * Cost:    (p - 1)α + ((p - 1)/p)·nβ   (n = p·block, one rank's send data)
 * Limits:  none; 2 requests in flight per rank.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show alltoall pairwise --np 5 --compact
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
#include "alltoall_algos.h"

/* Blocks as alltoall_linear's (args_count, args_displ on the receive
 * side, args_scount, args_sdispl on the send side: alltoallv shares this
 * builder). A step whose blocks are both of zero bytes adds no round. */
void alltoall_pairwise(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const int xor = pat_is_pow2(p);
    plan_copy(pl, BUF_SEND, args_sdispl(a, r), BUF_RECV, args_displ(a, r), args_count(a, r));
    for (int i = 1; i < p; i++) {
        int to = xor ? r ^ i : pat_mod(r + i, p);
        int from = xor ? r ^ i : pat_mod(r - i, p);
        plan_recv(pl, BUF_RECV, args_displ(a, from), args_count(a, from), from);
        plan_send(pl, BUF_SEND, args_sdispl(a, to), args_scount(a, to), to);
        plan_end_round(pl);
    }
    plan_end_round(pl);
}
