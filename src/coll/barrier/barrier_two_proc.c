/*
 * barrier: two_proc
 *
 * What:    the two ranks send each other a message and wait for the
 *          other's.
 * Paper:   Open MPI's two_proc (id 5).
 * Steps:   1.
 * Cost:    α (a message of 0 bytes each way).
 * Limits:  exactly 2 ranks (R_TWO; otherwise bruck runs).
 * Memory:  none.
 * Example: mpicoll show barrier two_proc --np 2 --compact
 *          (columns: ranks; rows: ranks whose entry each rank has heard of
 *          after each round; k = rank k's, . = not yet)
 *   round  0
 *   rank   01
 *   0      00
 *   1      11
 */
#include "barrier_algos.h"

void barrier_two_proc(plan *pl, const plan_args *a)
{
    plan_send_token(pl, 1 - a->rank);
    plan_recv_token(pl, 1 - a->rank);
}
