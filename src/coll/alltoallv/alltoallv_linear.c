/*
 * alltoallv: linear
 *
 * What:    every rank posts its receives from all other ranks and its sends
 *          to all of them at once (staggered: receive from r - i, send to
 *          r + i) and waits for all; its own block is copied locally.
 *          The builder is alltoall's (src/coll/alltoall/alltoall_linear.c),
 *          which takes each pair's count and place on both sides
 *          (args_count, args_displ; args_scount, args_sdispl); zero-byte
 *          blocks are skipped on both sides (no message).
 * Paper:   Open MPI's basic linear alltoallv
 *          (ompi_coll_base_alltoallv_intra_basic_linear, tuned id 1).
 * Steps:   1.
 * Cost:    (p - 1)α + max(sent, received)β   (per rank, own block apart)
 * Limits:  none; up to 2(p - 1) requests in flight per rank.
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show alltoallv linear --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0
 *   rank   01234
 *   0      00000
 *   1      11111
 *   2      22222
 *   3      33333
 *   4      44444
 */
#include "alltoallv_algos.h"
#include "../alltoall/alltoall_algos.h"

void alltoallv_linear(plan *pl, const plan_args *a)
{
    alltoall_linear(pl, a);
}
