/*
 * gatherv: linear
 *
 * What:    the root posts a receive from every other rank at once, each into
 *          that rank's place (count[r] bytes at displ[r]), and copies its own
 *          block; the other ranks send theirs.
 *          The builder is gather's (src/coll/gather/gather_linear.c),
 *          which takes each rank's count and place (args_count,
 *          args_displ); zero-byte blocks are skipped on both sides.
 * Paper:   Open MPI's coll/basic gatherv (one rank at a time, where here
 *          all are posted together); MPICH's MPIR_Gatherv_allcomm_linear.
 * Steps:   1.
 * Cost:    (p - 1)α + (n - own)β at the root   (n: all blocks)
 * Limits:  none; the root is a hot spot.
 * Memory:  none.
 * Example: mpicoll show gatherv linear --np 4 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0
 *   rank   0123
 *   0      0...
 *   1      1...
 *   2      2...
 *   3      3...
 */
#include "gatherv_algos.h"
#include "../gather/gather_algos.h"

void gatherv_linear(plan *pl, const plan_args *a)
{
    gather_linear(pl, a);
}
