/*
 * scatterv: linear
 *
 * What:    the root sends every other rank its block at once, each from its
 *          place in the send buffer (count[r] bytes at displ[r]), and copies
 *          its own block; the other ranks receive theirs.
 *          The builder is scatter's (src/coll/scatter/scatter_linear.c),
 *          which takes each rank's count and place (args_count,
 *          args_displ); zero-byte blocks are skipped on both sides.
 * Paper:   Open MPI's coll/basic scatterv (one rank at a time, where here
 *          all are posted together); MPICH's MPIR_Scatterv_allcomm_linear.
 * Steps:   1.
 * Cost:    (p - 1)α + (n - own)β at the root   (n: all blocks)
 * Limits:  none; the root is a hot spot.
 * Memory:  none.
 * Example: mpicoll show scatterv linear --np 4 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0
 *   rank   0123
 *   0      0123
 */
#include "scatterv_algos.h"
#include "../scatter/scatter_algos.h"

void scatterv_linear(plan *pl, const plan_args *a)
{
    scatter_linear(pl, a);
}
