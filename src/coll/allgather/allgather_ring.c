/*
 * allgather: ring
 *
 * What:    every rank passes blocks to its right neighbour; in step i rank r
 *          sends the block of rank r - i and receives that of rank r - i - 1.
 * Paper:   the classic ring (e.g. Thakur, Rabenseifner, Gropp, "Optimization
 *          of Collective Communication Operations in MPICH", IJHPCA 2005).
 * Steps:   p - 1.
 * Cost:    (p - 1)α + ((p - 1)/p)·nβ   (n = p·block, the gathered bytes)
 * Limits:  none.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgather ring --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3       4
 *   rank   01234   01234   01234   01234   01234
 *   0      0....   00...   000..   0000.   00000
 *   1      .1...   .11..   .111.   .1111   11111
 *   2      ..2..   ..22.   ..222   2.222   22222
 *   3      ...3.   ...33   3..33   33.33   33333
 *   4      ....4   4...4   44..4   444.4   44444
 */
#include "allgather_algos.h"

/* Rank r's block: args_count(a, r) bytes at args_displ(a, r) (allgatherv
 * shares this builder). */
void allgather_ring(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, args_displ(a, r), args_count(a, r));
    plan_end_round(pl);
    for (int i = 0; i < p - 1; i++) {
        const int out = pat_mod(r - i, p), in = pat_mod(r - i - 1, p);
        plan_send(pl, BUF_RECV, args_displ(a, out), args_count(a, out), pat_mod(r + 1, p));
        plan_recv(pl, BUF_RECV, args_displ(a, in), args_count(a, in), pat_mod(r - 1, p));
        plan_end_round(pl);
    }
}
