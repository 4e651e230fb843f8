/*
 * test_allgatherv: correctness of mpicoll_allgatherv over
 *   datatype cases (MPI_INT, MPI_BYTE, a vector type with gaps, and three
 *   pairs of different send/receive types of one signature)
 *   x counts {0, 1, 7, 1000, 100003 bytes' worth} x {not in place, in place},
 *   rank r's count that many times (r + 1) % 3 (zero counts), the blocks in
 *   reverse rank order with gaps that must stay untouched
 *   x {MPI_COMM_WORLD, a split communicator in reverse rank order}.
 *
 * The program does not choose the algorithm: run it with
 * MPICOLL_ALLGATHERV=<name> to force one, as a user would, or without to
 * test the automatic selection. Each failure prints one line; rank 0 prints
 * a summary; the exit code is 1 if any rank failed any case. The matrix is
 * block_check.c's, shared with test_alltoall.
 */
#include "block_check.h"

int main(int argc, char **argv)
{
    return bc_matrix_main(argc, argv, BC_ALLGATHERV);
}
