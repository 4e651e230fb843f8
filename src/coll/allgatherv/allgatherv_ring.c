/*
 * allgatherv: ring
 *
 * What:    every rank passes blocks to its right neighbour; in step i rank r
 *          sends the block of rank r - i and receives that of rank r - i - 1.
 *          The builder is allgather's (src/coll/allgather/allgather_ring.c),
 *          which takes each rank's own count and place (args_count,
 *          args_displ); zero-byte blocks are skipped on both sides.
 * Paper:   the classic ring (Thakur, Rabenseifner, Gropp, IJHPCA 2005).
 * Steps:   p - 1.
 * Cost:    (p - 1)α + (n - own)β   (n: all blocks; the largest block on the
 *          path bounds each step)
 * Limits:  none.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgatherv ring --np 4 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   0123    0123    0123    0123
 *   0      0...    00..    000.    0000
 *   1      .1..    .11.    .111    1111
 *   2      ..2.    ..22    2.22    2222
 *   3      ...3    3..3    33.3    3333
 */
#include "allgatherv_algos.h"
#include "../allgather/allgather_algos.h"

void allgatherv_ring(plan *pl, const plan_args *a)
{
    allgather_ring(pl, a);
}
