/*
 * alltoall: two_proc
 *
 * What:    the two ranks swap the block meant for the other in one
 *          exchange; each copies its own block locally.
 * Paper:   Open MPI's ompi_coll_base_alltoall_intra_two_procs (id 5).
 * Steps:   1.
 * Cost:    α + (n/2)β   (n = 2·block, one rank's send data)
 * Limits:  p == 2 (declared; the selector falls back to linear).
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show alltoall two_proc --np 2 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0
 *   rank   01
 *   0      00
 *   1      11
 */
#include "alltoall_algos.h"

void alltoall_two_proc(plan *pl, const plan_args *a)
{
    const int r = a->rank, other = 1 - r;
    const size_t B = a->block;
    plan_recv(pl, BUF_RECV, (size_t)other * B, B, other);
    plan_send(pl, BUF_SEND, (size_t)other * B, B, other);
    plan_copy(pl, BUF_SEND, (size_t)r * B, BUF_RECV, (size_t)r * B, B);
    plan_end_round(pl);
}
