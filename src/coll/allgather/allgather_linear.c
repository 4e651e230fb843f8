/*
 * allgather: linear
 *
 * What:    gather every block to rank 0 (each rank sends one message, rank
 *          0 receives them all at once), then broadcast the whole vector
 *          from rank 0 down a binomial tree.
 * Paper:   Open MPI's ompi_coll_base_allgather_intra_basic_linear (gather
 *          + broadcast).
 * Steps:   1 + ceil(log2 p).
 * Cost:    (p - 1)α + ((p - 1)/p)·nβ for the gather at rank 0, then
 *          ceil(log2 p)(α + nβ) for the broadcast   (n = p·block)
 * Limits:  none; rank 0 is a hot spot.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgather linear --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      0....   00...   0000.   00000
 *   1      1....   11...   1111.   11111
 *   2      2....   22...   2222.   22222
 *   3      3....   33...   3333.   33333
 *   4      4....   44...   4444.   44444
 */
#include "allgather_algos.h"

/* Rank r's block: args_count(a, r) bytes at args_displ(a, r) (allgatherv
 * shares this builder); the blocks tile the receive buffer, so the
 * broadcast sends it whole. */
void allgather_linear(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    size_t total = 0;
    for (int i = 0; i < p; i++)
        total += args_count(a, i);
    if (r == 0) {
        for (int i = 1; i < p; i++)
            plan_recv(pl, BUF_RECV, args_displ(a, i), args_count(a, i), i);
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, args_displ(a, 0), args_count(a, 0));
    } else {
        plan_send(pl, BUF_SEND, 0, args_count(a, r), 0);
    }
    plan_end_round(pl);
    pat_bcast_binomial(pl, p, r, 0, BUF_RECV, 0, total);
}
