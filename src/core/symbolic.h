/*
 * The symbolic executor: builds the plans of all p ranks in one process and
 * runs them together without MPI. Messages match as MPI matches them (per
 * sender and receiver, in posting order); a send completes only when it is
 * matched, so a plan that would deadlock on a rendezvous protocol deadlocks
 * here too. Instead of bytes it moves labels (which rank's byte this is), so
 * at the end it can say for every byte of every rank whether it is the
 * right one. It also catches: reads of bytes never written, writes into the
 * send buffer, offsets out of bounds, a receive that overlaps another
 * operation of its round, and size mismatches between a send and its
 * receive.
 */
#ifndef MPICOLL_SYMBOLIC_H
#define MPICOLL_SYMBOLIC_H

#include "coll.h"

typedef struct sym_result {
    int ok;
    char why[512];          /* first failure, when !ok */
    plan_stats worst;       /* per-field maximum over ranks */
    double alpha_max;       /* max over ranks of the α terms */
    double beta_max;        /* max over ranks of the β bytes */
} sym_result;

/* Called after each step of the run (when every rank has finished its
 * round `step`) with every rank's receive buffer labels. */
typedef void (*sym_snapshot_fn)(void *ctx, int step, int p, int64_t *const *recv,
                                size_t recv_len);

/* Runs algorithm `a` with parameters `params` for p ranks and blocks of
 * `block` bytes; node_of (p entries) is the node layout for algorithms that
 * read it (NULL: one node). Returns 0 when it ran (see res->ok), -1 when
 * out of memory. */
int sym_run(const coll_desc *c, const coll_algo *a, const int *params, int p,
            size_t block, int inplace, const int *node_of, sym_snapshot_fn snap,
            void *ctx, sym_result *res);

#endif
