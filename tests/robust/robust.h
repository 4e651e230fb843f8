/*
 * What the robustness tests share: every collective through each of its
 * entry points behind one call, and one simple data set whose results a
 * rank computes alone.
 *
 * Data: value(r, i) = r * 10000 + i is element i of rank r's send buffer
 * (i < p * n, so that alltoall's block for rank d holds d * n + j). The
 * reductions are MPI_SUM on MPI_INT (exact in any order); bcast, reduce,
 * gather and scatter use the root p - 1. allgatherv gives every rank the
 * count n, in rank order: allgather's data; reduce_scatter every rank the
 * count n: reduce_scatter_block's. exscan's rank 0 receives nothing (its
 * buffer is not checked). A barrier has no data: its buffers must stay
 * untouched. gatherv and scatterv give every rank the count n, in rank
 * order: gather's and scatter's data; alltoallv every pair the count n,
 * in rank order: alltoall's.
 */
#ifndef MPICOLL_TEST_ROBUST_H
#define MPICOLL_TEST_ROBUST_H

#include <mpicoll.h>

/* In the order of the rows of include/mpicoll_collectives.h (rb_names). */
enum rb_coll { AG, A2A, AR, RED, BC, RSB, AGV, RS, SCAN, EXS, GA, SC, BAR, GV, SCV, A2AV,
               NCOLL };
extern const char *const rb_names[NCOLL];

enum rb_form { BLOCKING, WITH, NB, PERSISTENT, NFORMS };
extern const char *const rb_form_names[NFORMS];

/* The arguments of one call (the vector collectives use rcount, rtype). */
struct rb_args {
    const void *sbuf;
    void *rbuf;
    int scount, rcount;
    MPI_Datatype stype, rtype;
    MPI_Op op;
    int root;
    MPI_Comm comm;
    const char *algorithm;      /* the WITH form's; NULL: the table's first */
    int null_request;           /* pass NULL as the request */
};

/* Index of a collective's name, or -1. */
int rb_coll_index(const char *name);

/* The main of a test program that takes COLLECTIVE... arguments (one
 * launch runs several: under valgrind the launch costs more than the
 * test): MPI_Init, rank and size, MPI_ERRORS_RETURN on MPI_COMM_WORLD,
 * each(c) for every collective named, in order, and MPI_Finalize. Returns
 * the program's exit code: 0, 1 when *failures (the program's count) is
 * not 0 on some rank, 2 after "FAIL <test>: usage" on rank 0 for a name
 * that is not a collective or more than NCOLL of them. */
int rb_main_colls(int argc, char **argv, const char *test, int *rank, int *size,
                  void (*each)(enum rb_coll), const int *failures);

/* Starts the call in form f (r receives the request of NB and PERSISTENT). */
int rb_start(enum rb_coll c, enum rb_form f, const struct rb_args *a, mpicoll_request *r);

/* The whole call in form f (start, wait, free): the error of its first
 * failing step. */
int rb_run(enum rb_coll c, enum rb_form f, const struct rb_args *a);

/* Buffers of n ints per block for p ranks: send and receive, p * n each. */
struct rb_data {
    int *send, *recv;
    int n, p, rank;
};

int rb_data_init(struct rb_data *d, int n, MPI_Comm comm);
void rb_data_free(struct rb_data *d);

/* Valid arguments of c on d and comm, send data set and receive data
 * cleared (bcast: the root's buffer holds its data). */
struct rb_args rb_prepare(enum rb_coll c, struct rb_data *d, MPI_Comm comm);

/* Turns prepared arguments into MPI_IN_PLACE ones, the send data moved
 * into the receive buffer as MPI says (a reduce, gather: at the root;
 * scatter: the root's receive buffer is MPI_IN_PLACE, and its block is put
 * where rb_check reads it). 0 when c has no in-place form (bcast). */
int rb_in_place(enum rb_coll c, struct rb_data *d, struct rb_args *a);

/* -1 if the receive buffer holds what c must give on this rank, else the
 * first wrong index (its value and the expected one in *got, *want). */
int rb_check(enum rb_coll c, const struct rb_data *d, int *got, int *want);

#endif
