/*
 * Shared machinery of the MPI tests of the vector collectives (allreduce,
 * reduce, bcast, reduce_scatter_block): the operation/datatype cases, the
 * expected values computed independently of MPI's collectives, one checked
 * call, and the whole correctness matrix of test_reduction.
 *
 * Values. Basic item g of rank r's vector (g counts the basic items of the
 * whole vector in type-signature order; for reduce_scatter_block, of all p
 * blocks) has a value v(case, r, g) that depends on both. The expected
 * result of a reduction is the fold v(0) o v(1) o ... o v(p-1) in rank
 * order (the order MPI defines for non-commutative operations), computed
 * locally item by item: the matrix product case (a user operation created
 * with commute = 0) fails when an algorithm reorders the operands.
 * Integer, logical, bitwise and *LOC cases, and the float and vector-of-
 * doubles sums (integer values), are compared exactly; the double SUM case
 * uses values whose sum depends on the order of the additions, is compared
 * within a relative 1e-10, and for allreduce must be bitwise identical on
 * every rank (each rank's result against rank 0's, through the native
 * MPI_Bcast).
 *
 * Buffers. The receive buffer (and GUARD bytes on each side of it) starts
 * filled with the sentinel byte 0xA5; the gaps of the non-contiguous type,
 * and the guards, must keep it. At a reduce's non-root ranks the receive
 * buffer is insignificant; the test passes one full of sentinels and
 * requires it untouched (mpicoll never writes there). The send buffer must
 * come back unchanged.
 */
#ifndef MPICOLL_TEST_VEC_CHECK_H
#define MPICOLL_TEST_VEC_CHECK_H

#include <mpi.h>

/* The collectives this helper tests. */
enum vc_coll {
    VC_ALLREDUCE = 0,
    VC_REDUCE,
    VC_BCAST,
    VC_REDUCE_SCATTER_BLOCK,
};

/* "allreduce", "reduce", "bcast", "reduce_scatter_block". */
const char *vc_coll_name(enum vc_coll coll);

/* The correctness program: test_reduction COLLECTIVE. MPI_Init, the matrix
 * of COLLECTIVE through mpicoll_<coll> with the algorithm left to the
 * environment (MPICOLL_<COLL>, as a user forces it), one FAIL line per
 * failure, a summary on rank 0, MPI_Finalize. Returns the exit code: 0, 1
 * if any case failed on any rank, 2 on a bad command line. */
int vc_matrix_main(int argc, char **argv);

#endif
