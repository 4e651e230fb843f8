/*
 * allgather: recursive_doubling
 *
 * What:    in step k, rank r exchanges everything it holds (the 2^k blocks
 *          of its aligned group) with r XOR 2^k; groups double each step.
 * Paper:   Thakur, Rabenseifner, Gropp, IJHPCA 2005 (MPICH's short and
 *          medium messages on power-of-two communicators).
 * Steps:   log2 p.
 * Cost:    log2(p)α + ((p - 1)/p)·nβ   (n = p·block)
 * Limits:  p must be a power of two (declared; the selector falls back to
 *          bruck, as Open MPI does).
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgather recursive_doubling --np 4 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2
 *   rank   0123    0123    0123
 *   0      0...    00..    0000
 *   1      .1..    11..    1111
 *   2      ..2.    ..22    2222
 *   3      ...3    ..33    3333
 */
#include "allgather_algos.h"

void allgather_recursive_doubling(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block;
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)r * B, B);
    plan_end_round(pl);
    for (int mask = 1; mask < p; mask <<= 1) {
        int peer = r ^ mask;
        size_t mine = (size_t)(r & ~(mask - 1)), theirs = (size_t)(peer & ~(mask - 1));
        plan_send(pl, BUF_RECV, mine * B, (size_t)mask * B, peer);
        plan_recv(pl, BUF_RECV, theirs * B, (size_t)mask * B, peer);
        plan_end_round(pl);
    }
}
