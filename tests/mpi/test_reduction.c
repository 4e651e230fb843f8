/*
 * test_reduction COLLECTIVE: correctness of mpicoll_allreduce, _reduce,
 * _bcast, _reduce_scatter_block, _scan or _exscan (COLLECTIVE = allreduce,
 * reduce, bcast, reduce_scatter_block, scan, exscan; scan's and exscan's
 * results are the prefix reductions over ranks 0..r and 0..r-1, exscan's
 * rank 0's receive buffer must stay as it was) over
 *   cases: int SUM, double SUM (bitwise identical on every rank for
 *     allreduce), a non-commutative user operation (2x2 int matrix product
 *     on contiguous(4, MPI_INT)), MINLOC on MPI_DOUBLE_INT, SUM on a
 *     derived contiguous type (contiguous(3, MPI_INT)) and on a vector of
 *     doubles with gaps (which must stay untouched; mpicoll reduces their
 *     predefined base type); then every other predefined operation once
 *     (PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR, MAXLOC; and float
 *     SUM) and a commutative user SUM on the two derived types, at count
 *     p + 1
 *   x counts {0, 1, 3, p-1, p+1, 1000, 100003} (100003 on MPI_COMM_WORLD
 *     only; reduce_scatter_block: recvcount {0, 1, 3, 1000}, its first
 *     four cases; p is the communicator's size)
 *   x roots {0, p-1, p/2} (reduce, bcast)
 *   x {not in place, in place} (not bcast; reduce: in place at the root)
 *   x {MPI_COMM_WORLD, a split communicator in reverse rank order}.
 * bcast takes the same types (the operation is ignored).
 *
 * The program does not choose the algorithm: run it with
 * MPICOLL_<COLLECTIVE>=<name> to force one, as a user would, or without to
 * test the automatic selection. Each failure prints one line naming the
 * collective, algorithm, np, communicator, case, count, in place, root,
 * rank and first wrong element; rank 0 prints a summary; the exit code is
 * 1 if any rank failed any case. The machinery is vec_check.c's.
 */
#include "vec_check.h"

int main(int argc, char **argv)
{
    return vc_matrix_main(argc, argv);
}
