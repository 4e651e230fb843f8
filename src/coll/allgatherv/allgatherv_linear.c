/*
 * allgatherv: linear
 *
 * What:    gather to rank 0, then a binomial-tree broadcast of the whole
 *          result.
 *          The builder is allgather's (src/coll/allgather/allgather_linear.c),
 *          which takes each rank's own count and place (args_count,
 *          args_displ); zero-byte blocks are skipped on both sides.
 * Paper:   Open MPI's default allgatherv
 *          (ompi_coll_base_allgatherv_intra_basic_default).
 * Steps:   1 + ceil(log2 p).
 * Cost:    (p - 1)α + nβ at rank 0, then ceil(log2 p)(α + nβ)   (n: all blocks)
 * Limits:  none.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgatherv linear --np 4 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2
 *   rank   0123    0123    0123
 *   0      0...    00..    0000
 *   1      1...    11..    1111
 *   2      2...    22..    2222
 *   3      3...    33..    3333
 */
#include "allgatherv_algos.h"
#include "../allgather/allgather_algos.h"

void allgatherv_linear(plan *pl, const plan_args *a)
{
    allgather_linear(pl, a);
}
