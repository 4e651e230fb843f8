/*
 * allgatherv: two_proc
 *
 * What:    the two ranks swap their blocks.
 *          The builder is allgather's (src/coll/allgather/allgather_two_proc.c),
 *          which takes each rank's own count and place (args_count,
 *          args_displ); zero-byte blocks are skipped on both sides.
 * Paper:   Open MPI's two_proc.
 * Steps:   1.
 * Cost:    α + count(other)β
 * Limits:  p = 2 (R_TWO; else bruck).
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgatherv two_proc --np 2 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0
 *   rank   01
 *   0      00
 *   1      11
 */
#include "allgatherv_algos.h"
#include "../allgather/allgather_algos.h"

void allgatherv_two_proc(plan *pl, const plan_args *a)
{
    allgather_two_proc(pl, a);
}
