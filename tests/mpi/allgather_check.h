/*
 * Shared machinery of the allgather MPI tests: datatype cases, buffer
 * filling, one checked call.
 *
 * Every basic element sent carries a value that names its origin: for
 * MPI_INT, (rank + 1) * 1000000 + j, j being the element's index in the
 * rank's block (type signature order), so "got 3000007" in a failure line
 * reads "rank 2's element 7". MPI_BYTE data cannot be unique in 8 bits; it
 * uses a pattern in which a shift by one element or one block changes the
 * value. The receive buffer (and a guard zone on each side of it) is
 * pre-filled with the sentinel byte 0xA5; the gaps of non-contiguous types
 * must keep it. The gaps of the send buffer hold 0x5A, so data taken from a
 * gap shows up as 0x5A5A5A5A.
 */
#ifndef MPICOLL_TEST_ALLGATHER_CHECK_H
#define MPICOLL_TEST_ALLGATHER_CHECK_H

#include <mpi.h>
#include <stddef.h>

/* One datatype as the test sees it: basic elements of `unit` bytes, placed
 * at offsets offs[0..ndata-1] (in units) inside an extent of `extent`
 * units, lower bound 0. */
struct ag_layout {
    const char *name;
    MPI_Datatype type;
    size_t unit;
    int extent;
    int ndata;
    int offs[2];
};

/* One datatype case: sendcount = n * smult of send->type, recvcount =
 * n * rmult of recv->type; the two have the same type signature. */
struct ag_dtcase {
    const char *name;
    const struct ag_layout *send;
    int smult;
    const struct ag_layout *recv;
    int rmult;
};

/* What one call is, for the failure line. */
struct ag_call {
    const char *spec;        /* NULL: mpicoll_allgather, else _with(spec) */
    const char *algo_label;  /* what the failure line calls the algorithm */
    MPI_Comm comm;
    const char *comm_label;  /* "world", "split" ... */
    const struct ag_dtcase *dc;
    int n;                   /* count in units of the case */
    int inplace;
    int expect_class;        /* MPI_SUCCESS, or the error class expected */
};

extern const struct ag_dtcase ag_cases[];
extern const int ag_ncases;
extern const int ag_counts[];   /* 0, 1, 7, 1000, AG_BIG */
extern const int ag_ncounts;
#define AG_BIG (-1)             /* "100003 bytes' worth" */

/* Creates and checks the derived types (MPI_Init done). Returns 0 or 1. */
int ag_types_create(void);
void ag_types_free(void);

/* The count n that the entry `c` of ag_counts means for case `dc`. */
int ag_count_for(const struct ag_dtcase *dc, int c);

/* Runs and checks one call on this rank. Prints one FAIL line on a failure
 * and returns 1, else 0. Not collective beyond the call itself. */
int ag_run(const struct ag_call *call);

/* The communicator used as "split": MPI_Comm_split by rank % 2 when the
 * world has 3 ranks or more (one color otherwise), key in reverse rank
 * order, so comm ranks differ from world ranks. Errors return. */
MPI_Comm ag_split_comm(void);

int ag_world_rank(void);
int ag_world_size(void);

#endif
