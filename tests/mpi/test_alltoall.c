/*
 * test_alltoall: correctness of mpicoll_alltoall over
 *   datatype cases (MPI_INT, MPI_BYTE, a vector type with gaps, and three
 *   pairs of different send/receive types of one signature)
 *   x counts per block {0, 1, 7, 1000, 100003 bytes' worth}
 *   x {not in place, MPI_IN_PLACE (the receive buffer holds the send data)}
 *   x {MPI_COMM_WORLD, a split communicator in reverse rank order}.
 *
 * Every element is distinct per (source rank, destination rank, element),
 * so a block delivered to the wrong rank or the wrong slot names itself in
 * the failure line ("source 2's block for rank 1, element 7").
 *
 * The program does not choose the algorithm: run it with
 * MPICOLL_ALLTOALL=<name> to force one, as a user would, or without to
 * test the automatic selection. Each failure prints one line; rank 0 prints
 * a summary; the exit code is 1 if any rank failed any case. The matrix is
 * block_check.c's, shared with test_allgather.
 */
#include "block_check.h"

int main(int argc, char **argv)
{
    return bc_matrix_main(argc, argv, BC_ALLTOALL);
}
