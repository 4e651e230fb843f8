/*
 * allgatherv: neighbor
 *
 * What:    neighbor exchange: pairs of ranks swap blocks, then pass pairs of
 *          blocks back and forth.
 *          The builder is allgather's (src/coll/allgather/allgather_neighbor.c),
 *          which takes each rank's own count and place (args_count,
 *          args_displ); zero-byte blocks are skipped on both sides.
 * Paper:   Chen et al., "Performance evaluation of Allgather algorithms on
 *          terascale Linux cluster with fast Ethernet", HPCAsia 2005.
 * Steps:   p / 2.
 * Cost:    (p/2)α + (n - own)β
 * Limits:  p even (R_EVEN; else ring).
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgatherv neighbor --np 4 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2
 *   rank   0123    0123    0123
 *   0      0...    00..    0000
 *   1      .1..    11..    1111
 *   2      ..2.    ..22    2222
 *   3      ...3    ..33    3333
 */
#include "allgatherv_algos.h"
#include "../allgather/allgather_algos.h"

void allgatherv_neighbor(plan *pl, const plan_args *a)
{
    allgather_neighbor(pl, a);
}
