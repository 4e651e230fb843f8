/*
 * allgather: two_proc
 *
 * What:    the two ranks swap their blocks in one exchange.
 * Paper:   Open MPI's ompi_coll_base_allgather_intra_two_procs.
 * Steps:   1.
 * Cost:    α + (n/2)β   (n = 2·block)
 * Limits:  p == 2 (declared; the selector falls back to bruck).
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgather two_proc --np 2 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0
 *   rank   01
 *   0      00
 *   1      11
 */
#include "allgather_algos.h"

/* Rank r's block: args_count(a, r) bytes at args_displ(a, r) (allgatherv
 * shares this builder). */
void allgather_two_proc(plan *pl, const plan_args *a)
{
    const int me = a->rank, other = 1 - me;
    plan_send(pl, BUF_SEND, 0, args_count(a, me), other);
    plan_recv(pl, BUF_RECV, args_displ(a, other), args_count(a, other), other);
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, args_displ(a, me), args_count(a, me));
    plan_end_round(pl);
}
