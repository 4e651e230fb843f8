/*
 * alltoall: mesh2d
 *
 * What:    the ranks form a grid of R rows and C columns (R the largest
 *          divisor of p not above sqrt(p), C = p/R; rank r sits in row
 *          r / C, column r mod C). Phase 1, along the rows: r sends each
 *          rank of its row, all at once, the R blocks bound for that
 *          rank's column, and receives from each the R blocks its row
 *          sends to r's column. Phase 2, along the columns: r sends each
 *          rank of its column the C blocks (one from each rank of r's row)
 *          bound for it, and receives from each the C blocks of that
 *          rank's row, which land contiguous in the receive buffer. For a
 *          prime p (R = 1) it is linear.
 * Paper:   all-to-all personalized communication on a mesh, in two phases
 *          (A. Grama, A. Gupta, G. Karypis, V. Kumar, "Introduction to
 *          Parallel Computing", 2nd ed., 2003, section 4.5.2); STAR-MPI's
 *          and SimGrid's alltoall "2dmesh".
 * Steps:   2 (each with every message of the phase in flight at once).
 * Cost:    (C - 1 + R - 1)α + 2·(n - n/sqrt(p))β about (n = p·block;
 *          each phase moves about all of a rank's data once), plus local
 *          copies of about 3n bytes.
 * Limits:  none: any p (a prime p runs as one phase, linear).
 * Memory:  (p + (C - 1)·R + (R - 1)·C)·block bytes of scratch.
 * Example: mpicoll show alltoall mesh2d --np 6 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2
 *   rank   012345  012345  012345
 *   0      ......  000...  000000
 *   1      ......  111...  111111
 *   2      ......  222...  222222
 *   3      ......  ...333  333333
 *   4      ......  ...444  444444
 *   5      ......  ...555  555555
 */
#include "alltoall_algos.h"

void alltoall_mesh2d(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block;
    int R = 1;
    for (int d = 1; (long long)d * d <= p; d++)
        if (p % d == 0)
            R = d;
    const int C = p / R, row = r / C, col = r % C;
    /* scratch: IN[c] = the R blocks from (row, c) bound for column col, by
     * destination row; OUT1[j - 1] = the R blocks for column col + j;
     * OUT2[k - 1] = the C blocks for row row + k */
    const size_t in = 0, out1 = (size_t)p * B, out2 = out1 + (size_t)(C - 1) * R * B;
    plan_need_tmp(pl, out2 + (size_t)(R - 1) * C * B);
    for (int i = 0; i < R; i++)
        plan_copy(pl, BUF_SEND, (size_t)(i * C + col) * B, BUF_TMP,
                  in + ((size_t)col * R + i) * B, B);
    for (int j = 1; j < C; j++) {
        const int c = (col + j) % C;
        for (int i = 0; i < R; i++)
            plan_copy(pl, BUF_SEND, (size_t)(i * C + c) * B, BUF_TMP,
                      out1 + ((size_t)(j - 1) * R + i) * B, B);
    }
    plan_end_round(pl);
    /* phase 1: along the row */
    for (int j = 1; j < C; j++) {
        const int to = row * C + (col + j) % C, from = row * C + pat_mod(col - j, C);
        plan_recv(pl, BUF_TMP, in + (size_t)(from % C) * R * B, (size_t)R * B, from);
        plan_send(pl, BUF_TMP, out1 + (size_t)(j - 1) * R * B, (size_t)R * B, to);
    }
    /* the blocks of r's row bound for r, and for the other rows of r's column */
    for (int c = 0; c < C; c++)
        plan_copy(pl, BUF_TMP, in + ((size_t)c * R + row) * B, BUF_RECV,
                  (size_t)(row * C + c) * B, B);
    for (int k = 1; k < R; k++) {
        const int i = (row + k) % R;
        for (int c = 0; c < C; c++)
            plan_copy(pl, BUF_TMP, in + ((size_t)c * R + i) * B, BUF_TMP,
                      out2 + ((size_t)(k - 1) * C + c) * B, B);
    }
    if (R == 1)
        return;
    plan_end_round(pl);
    /* phase 2: along the column; row i's C blocks are contiguous in RECV */
    for (int k = 1; k < R; k++) {
        const int to = ((row + k) % R) * C + col, fromrow = pat_mod(row - k, R);
        plan_recv(pl, BUF_RECV, (size_t)fromrow * C * B, (size_t)C * B, fromrow * C + col);
        plan_send(pl, BUF_TMP, out2 + (size_t)(k - 1) * C * B, (size_t)C * B, to);
    }
    plan_end_round(pl);
}
