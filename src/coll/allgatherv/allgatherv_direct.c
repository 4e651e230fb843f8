/*
 * allgatherv: direct
 *
 * What:    every rank posts all p - 1 receives and sends at once.
 *          The builder is allgather's (src/coll/allgather/allgather_direct.c),
 *          which takes each rank's own count and place (args_count,
 *          args_displ); zero-byte blocks are skipped on both sides.
 * Paper:   the direct exchange.
 * Steps:   1.
 * Cost:    (p - 1)α + (n - own)β   (all messages in flight together)
 * Limits:  none.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgatherv direct --np 4 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0
 *   rank   0123
 *   0      0000
 *   1      1111
 *   2      2222
 *   3      3333
 */
#include "allgatherv_algos.h"
#include "../allgather/allgather_algos.h"

void allgatherv_direct(plan *pl, const plan_args *a)
{
    allgather_direct(pl, a);
}
