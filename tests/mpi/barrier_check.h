/*
 * The MPI test of barriers (tests/sweep runs it for every algorithm): a
 * barrier's semantics, which a wrong barrier fails, and barriers repeated
 * on duplicated and split communicators among other collectives.
 *
 * Semantics: every rank reads a clock shared by the node's processes
 * (CLOCK_MONOTONIC) just before it enters the barrier and just after it
 * leaves; one rank, in turn, sleeps before entering. No rank may leave
 * before the last rank has entered: min(leave) >= max(enter) over the
 * communicator, or a FAIL line names the rank that left and the one that
 * had not entered yet. The ranks of the tests share one machine (the
 * sweep's launch), so their clocks are one.
 */
#ifndef MPICOLL_TEST_BARRIER_CHECK_H
#define MPICOLL_TEST_BARRIER_CHECK_H

#include <mpi.h>

struct bar_call {
    const char *spec;          /* NULL: the selection, else the algorithm */
    const char *algo_label;    /* what the failure line calls the algorithm */
    const char *expect_algo;   /* NULL, or what mpicoll_last_choice must name */
    MPI_Comm comm;
    const char *comm_label;
    const char *context;       /* "mode=nb" and the like, for failure lines */
    MPI_Comm dup, half;        /* bar_comms_make's for comm, or MPI_COMM_NULL: made and
                                * freed by the call */
};

/* A duplicate of comm and a split of it in two (even and odd ranks, in
 * reverse order), for bar_run_comm's repeated barriers; made once per
 * communicator, since making communicators is slow under MPICH on an
 * oversubscribed node. Collective. bar_comms_free frees them. */
void bar_comms_make(MPI_Comm comm, MPI_Comm *dup, MPI_Comm *half);
void bar_comms_free(MPI_Comm *dup, MPI_Comm *half);

/* The whole test on one communicator: the semantics with each rank late
 * in turn (quick: the last rank only), then barriers repeated on comm, a
 * duplicate and a split of it, between bcasts and allreduces whose
 * results are checked, and non-blocking barriers completed in reverse
 * order. Collective over b->comm. Returns the failures this rank saw
 * (after one FAIL line each); *calls counts the barriers. */
int bar_run_comm(const struct bar_call *b, int quick, int *calls);

#endif
