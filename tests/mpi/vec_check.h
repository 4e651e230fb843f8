/*
 * Shared machinery of the MPI tests of the vector collectives (allreduce,
 * reduce, bcast, reduce_scatter_block, scan, exscan): the operation/datatype cases, the
 * expected values computed independently of MPI's collectives, one checked
 * call, and the whole correctness matrix of test_reduction.
 *
 * Values. Basic item g of rank r's vector (g counts the basic items of the
 * whole vector in type-signature order; for reduce_scatter_block, of all p
 * blocks) has a value v(case, r, g) that depends on both. The expected
 * result of a reduction is the fold v(0) o v(1) o ... o v(p-1) in rank
 * order (the order MPI defines for non-commutative operations; scan's and
 * exscan's over ranks 0..r and 0..r-1 at rank r), computed
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
 * requires it untouched (mpicoll never writes there). So at exscan's rank
 * 0, whose receive buffer MPI leaves undefined: untouched, its input in
 * place. The send buffer must come back unchanged.
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
    VC_REDUCE_SCATTER,      /* rank r's block n * ((r + 1) % 3) elements: zero
                             * counts included */
    VC_SCAN,
    VC_EXSCAN,
};
#define VC_NCOLLS (VC_EXSCAN + 1)

/* "allreduce", "reduce", "bcast", "reduce_scatter_block", "reduce_scatter",
 * "scan", "exscan". */
const char *vc_coll_name(enum vc_coll coll);

/* One call as vc_run sees it. */
struct vc_call {
    enum vc_coll coll;
    const char *spec;          /* NULL: mpicoll_<coll>_with(NULL): the selection
                                * (MPICOLL_<COLL>, rules), else the algorithm */
    const char *algo_label;    /* what the failure line calls the algorithm */
    const char *expect_algo;   /* NULL, or the algorithm mpicoll_last_choice must
                                * name after a call with data (see bc_call) */
    int expect_commutative;    /* the forced algorithm needs a commutative
                                * operation: expect_algo only for those */
    MPI_Comm comm;
    const char *comm_label;    /* "world", "split", ... */
    int case_index;            /* which operation/datatype case (vec_cases.c) */
    int n;                     /* count (recvcount for reduce_scatter_block) */
    int inplace;
    int root;                  /* reduce and bcast; -1 otherwise */
};

/* vc_coll of a name, or -1. */
int vc_coll_from_name(const char *name);

/* Creates the cases' derived types and operations (MPI_Init done) and names
 * coll in the FAIL lines. Returns 0, or 1 (with a FAIL line) on a layout
 * MPI does not agree with. */
int vc_setup(enum vc_coll coll);
void vc_teardown(void);

/* Runs and checks one call on this rank. Collective over v->comm (a
 * double SUM allreduce also broadcasts rank 0's result natively). Returns
 * 1 (after one FAIL line) if this rank saw a failure. */
int vc_run(const struct vc_call *v);

/* The matrix of one communicator: every case x count {0, 1, 3, p-1, p+1,
 * 1000, and with `big` 100003} (reduce_scatter_block: {0, 1, 3, 1000}; the
 * cases beyond the main ones at count p + 1 only) x roots {0, p-1, p/2}
 * (reduce, bcast) x {not in place, in place} (not bcast), each call as
 * `base` says (coll, spec, labels, expectations, comm). quick: no count
 * above p + 1. Adds the calls to *calls on the communicator's rank 0 (0
 * elsewhere) and returns the calls that failed on this rank. */
int vc_run_comm(const struct vc_call *base, int big, int quick, int *calls);

/* The correctness program: test_reduction COLLECTIVE. MPI_Init, the matrix
 * of COLLECTIVE through mpicoll_<coll> with the algorithm left to the
 * environment (MPICOLL_<COLL>, as a user forces it), one FAIL line per
 * failure, a summary on rank 0, MPI_Finalize. Returns the exit code: 0, 1
 * if any case failed on any rank, 2 on a bad command line. */
int vc_matrix_main(int argc, char **argv);

#endif
