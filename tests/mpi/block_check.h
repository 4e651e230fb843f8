/*
 * Shared machinery of the MPI tests of the block collectives (allgather,
 * alltoall, and with a root gather and scatter): datatype cases, buffer filling, one checked call, and the
 * whole correctness matrix of test_allgather and test_alltoall.
 *
 * Every basic element sent carries a value that names its origin.
 *   allgather, MPI_INT: (src + 1) * 1000000 + j, j being the element's
 *     index in the rank's block (type signature order), so "got 3000007"
 *     in a failure line reads "rank 2's element 7".
 *   alltoall, MPI_INT: 1 + (src * p + dst) * K + j, K being the elements of
 *     one block: unique per (source, destination, element) on a call; the
 *     failure line decodes it ("source 2's block for rank 1, element 7").
 *   gather: as allgather (the root's result); scatter: as alltoall (the
 *     source is the root); alltoallv: as alltoall, K the longest block.
 * Arguments that are not significant on a rank (gather's receive buffer,
 * count and type on the non-roots, scatter's send side there) are passed
 * as NULL, -1 and MPI_DATATYPE_NULL, which an implementation that reads
 * them trips over.
 * MPI_BYTE data cannot be unique in 8 bits; it uses a pattern in which a
 * shift by one element or one block changes the value (the key being the
 * source for allgather, source * p + destination for alltoall). The
 * receive buffer (and a guard zone on each side of it) is pre-filled with
 * the sentinel byte 0xA5; the gaps of non-contiguous types must keep it.
 * The gaps of the send buffer hold 0x5A, so data taken from a gap shows up
 * as 0x5A5A5A5A.
 */
#ifndef MPICOLL_TEST_BLOCK_CHECK_H
#define MPICOLL_TEST_BLOCK_CHECK_H

#include <mpi.h>
#include <stddef.h>

/* The collectives this helper tests. */
enum bc_coll {
    BC_ALLGATHER = 0, /* the default of a zero-initialized bc_call */
    BC_ALLTOALL,
    BC_ALLGATHERV,    /* rank r's block n * ((r + 1) % 3) units: zero counts included;
                       * the blocks in reverse rank order, one element apart
                       * (bytes between them must stay untouched) */
    BC_GATHER,
    BC_SCATTER,
    BC_GATHERV,       /* gather with allgatherv's counts and layout at the root */
    BC_SCATTERV,      /* scatter with those counts and layout in the root's send buffer */
    BC_ALLTOALLV,     /* rank s sends rank d n * ((s + 2d + 1) % 3) units (in place:
                       * n * ((s + d + 1) % 3), the same both ways): zero counts
                       * included; send blocks in reverse rank order, receive blocks
                       * odd ranks first, one element apart (bytes between them
                       * must stay untouched) */
};

/* "allgather", "alltoall", "allgatherv", "gather", "scatter", "gatherv",
 * "scatterv", "alltoallv". */
const char *bc_coll_name(enum bc_coll coll);
/* The collective of that name, or -1. */
int bc_coll_from_name(const char *name);

/* One datatype as the test sees it: basic elements of `unit` bytes, placed
 * at offsets offs[0..ndata-1] (in units) inside an extent of `extent`
 * units, lower bound 0. */
struct bc_layout {
    const char *name;
    MPI_Datatype type;
    size_t unit;
    int extent;
    int ndata;
    int offs[2];
};

/* One datatype case: sendcount = n * smult of send->type, recvcount =
 * n * rmult of recv->type; the two have the same type signature. */
struct bc_dtcase {
    const char *name;
    const struct bc_layout *send;
    int smult;
    const struct bc_layout *recv;
    int rmult;
};

/* What one call is, for the failure line. */
struct bc_call {
    enum bc_coll coll;
    const char *spec;        /* NULL: mpicoll_<coll>, else mpicoll_<coll>_with(spec) */
    const char *algo_label;  /* what the failure line calls the algorithm */
    MPI_Comm comm;
    const char *comm_label;  /* "world", "split" ... */
    const struct bc_dtcase *dc;
    int n;                   /* count per block, in units of the case */
    int inplace;             /* the root's only for gather and scatter */
    int root;                /* gather and scatter (bc_run_comm sets it) */
    int expect_class;        /* MPI_SUCCESS, or the error class expected */
    const char *expect_algo; /* NULL, or the algorithm (name[:params]) that
                              * mpicoll_last_choice must name after a call
                              * with data: forced, not replaced by a fallback */
};

extern const struct bc_dtcase bc_cases[];
extern const int bc_ncases;
extern const int bc_counts[];   /* 0, 1, 7, 1000, BC_BIG */
extern const int bc_ncounts;
#define BC_BIG (-1)             /* "100003 bytes' worth" */

/* Creates and checks the derived types (MPI_Init done). Returns 0 or 1. */
int bc_types_create(void);
void bc_types_free(void);

/* The count n that the entry `c` of bc_counts means for case `dc`. */
int bc_count_for(const struct bc_dtcase *dc, int c);

/* Runs and checks one call on this rank. Prints one FAIL line on a failure
 * and returns 1, else 0. Not collective beyond the call itself. */
int bc_run(const struct bc_call *call);

/* The matrix of one communicator: every datatype case x count x {not in
 * place, in place} (gather and scatter: x roots 0, p - 1 and p / 2 for
 * counts 0, 1 and 7, root p / 2 for the larger ones), each call as `base`
 * says (coll, spec, labels, expect_algo, comm). quick: counts 0, 1 and 7
 * only. Adds the calls made to
 * *calls; returns the calls that failed on this rank. */
int bc_run_comm(const struct bc_call *base, int quick, int *calls);

/* ---- shared with vec_check.c and tests/sweep ------------------------------
 * Text every FAIL line carries after the algorithm (the sweep's mode and
 * layout); NULL or "" for none. */
void bc_set_context(const char *text);
const char *bc_context(void);   /* " text", or "" */
/* FAIL lines one rank prints before the rest are muted (default 20);
 * failures are still counted. */
void bc_set_max_lines(int n);
/* printf of a FAIL line of collective coll, under that limit. */
void bc_fail_line(const char *coll, const char *fmt, ...);
/* 1 (and a FAIL line starting with pre) unless mpicoll_last_choice(comm)
 * names the algorithm of spec `expect` (its name, before any ':'). */
/* 1 where the choice of a call cannot be seen (no check then): through
 * the MPI_ entry points (coll_sweep_via), on a communicator of one rank,
 * where Open MPI's MPI layer answers MPI_Bcast and MPI_Barrier itself and
 * no blocking call makes mpicoll's state for the non-blocking ones. */
int bc_choice_unseen(MPI_Comm comm);
int bc_check_choice(const char *coll, const char *pre, MPI_Comm comm, const char *expect);

/* A test build's injected fault (tests/sweep's fault driver), NULL
 * otherwise: called after a call that returned MPI_SUCCESS, before its
 * result is checked, with the first data item of this rank's result
 * (item_bytes bytes) when the call has one; it may corrupt it. */
typedef void (*bc_fault_fn)(const char *coll, const char *spec, unsigned char *item,
                            size_t item_bytes);
extern bc_fault_fn bc_fault;

/* The communicator used as "split": MPI_Comm_split by rank % 2 when the
 * world has 3 ranks or more (one color otherwise), key in reverse rank
 * order, so comm ranks differ from world ranks. Errors return. */
MPI_Comm bc_split_comm(void);

int bc_world_rank(void);
int bc_world_size(void);

/* The correctness program of one collective (test_allgather,
 * test_alltoall): MPI_Init, every datatype case x count x {not in place,
 * in place} x {MPI_COMM_WORLD, split} through mpicoll_<coll> with the
 * algorithm left to the environment (MPICOLL_<COLL>, as a user forces it),
 * one FAIL line per failure, a summary on rank 0, MPI_Finalize. Returns
 * the exit code: 0, or 1 if any rank failed any case. */
int bc_matrix_main(int argc, char **argv, enum bc_coll coll);

#endif
