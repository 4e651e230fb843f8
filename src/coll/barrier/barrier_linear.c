/*
 * barrier: linear
 *
 * What:    every other rank sends rank 0 a message saying it has entered,
 *          then waits; rank 0, once it has heard from all of them, sends
 *          each one a message that releases it.
 * Paper:   Open MPI's basic_linear (id 1).
 * Steps:   2 (rank 0 receives p-1 messages, then sends p-1).
 * Cost:    2(p-1)α at rank 0 (every message of 0 bytes).
 * Limits:  none.
 * Memory:  none.
 * Example: mpicoll show barrier linear --np 5 --compact
 *          (columns: ranks; rows: ranks whose entry each rank has heard of
 *          after each round; k = rank k's, . = not yet)
 *   round  0       1
 *   rank   01234   01234
 *   0      0....   00000
 *   1      11...   11111
 *   2      2.2..   22222
 *   3      3..3.   33333
 *   4      4...4   44444
 */
#include "barrier_algos.h"

void barrier_linear(plan *pl, const plan_args *a)
{
    if (a->p == 1)
        return;
    if (a->rank != 0) {
        plan_send_token(pl, 0);
        plan_end_round(pl);
        plan_recv_token(pl, 0);
        return;
    }
    for (int q = 1; q < a->p; q++)
        plan_recv_token(pl, q);
    plan_end_round(pl);
    for (int q = 1; q < a->p; q++)
        plan_send_token(pl, q);
}
