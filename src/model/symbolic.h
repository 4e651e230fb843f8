/*
 * The symbolic executor: builds the plans of all p ranks in one process and
 * runs them together without MPI. Messages match as MPI matches them (per
 * sender and receiver, in posting order); a send completes only when it is
 * matched, so a plan that would deadlock on a rendezvous protocol deadlocks
 * here too. Instead of bytes it moves labels (which rank's byte this is),
 * so at the end it can say for every byte of every rank whether it is the
 * right one. For reductions a byte also carries whose contributions it
 * holds, in which order, and a hash of the expression that combined them:
 * the checker proves that every result holds every rank's contribution
 * exactly once, in rank order when the operation is not commutative, and
 * that every rank computed it the same way (bitwise-identical results).
 * Where a collective's ranks hold different ranges of contributions
 * (coll_desc.expect_ranks: scan, exscan), every result must hold exactly
 * its rank's range, ranks of one range must agree, and each rank's result
 * must be one expression tree at every byte of the vector (a shape hash
 * that leaves the byte's position out), so that equal inputs give equal
 * results.
 * It also catches: reads of bytes never written, writes into the send
 * buffer, offsets out of bounds, a receive that overlaps another operation
 * of its round, a reduction of part of an element, and size mismatches
 * between a send and its receive.
 *
 * The node's shared segment (BUF_SHM) is one buffer per node (o->call.node_of),
 * and a round that begins with a barrier waits for every rank of the node:
 * a barrier some rank never reaches is a deadlock, and between two
 * barriers a byte written by one rank and read or written by another is a
 * race, whatever the order of the two. Ranks of a node must declare the
 * same segment size, and a plan that uses the segment must pass a barrier
 * (consecutive calls alternate between two segments: see shm.h).
 *
 * A synchronising collective (coll_desc.synchronizing: barrier) moves no
 * data; the checker proves that no rank finishes its plan before every
 * rank has started its own, by causality: each rank carries the set of
 * ranks whose start has reached it (itself at first), a matched message
 * gives the receiver the sender's set as of the send's posting (merged
 * when the receiver's round completes), a node barrier gives its ranks
 * their union, and at the end every set must hold all p ranks. The
 * snapshots then show those sets (a row per rank) instead of buffers.
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

/* What a snapshot shows after a superstep: every rank's receive buffer
 * (cells of `cell` bytes whose first 8 bytes are the int64 label) and, for
 * a reduction, whose contributions each rank holds of each byte of the
 * vector: held[(r * vec + i) * words ...] is a set of ranks (bit q of word
 * q / 64), taken from the copy of byte i in rank r's receive buffer when
 * it has one written there, else the fullest copy in its scratch or send
 * buffer (none: the empty set). NULL when not a reduction. */
typedef struct sym_snapshot {
    int step, p;
    unsigned char *const *recv;
    const size_t *recv_len;
    size_t cell;
    const uint64_t *held;
    size_t vec, words;
} sym_snapshot;

typedef void (*sym_snapshot_fn)(void *ctx, const sym_snapshot *snap);

/* The call every rank makes, and what only the checker adds to it. */
typedef struct sym_opts {
    plan_args call;         /* p, block, esize (reductions: default 1), root,
                             * commutative, inplace, param[] and node_of (NULL: one
                             * node) of every rank's call; its rank is not read;
                             * count and displ: p of them, with counts per rank */
    const size_t *all_count, *all_displ;    /* COUNTS_MATRIX: every rank's count and
                                             * displ (call's are NULL), p × p, row r
                                             * rank r's */
    const size_t *all_scount, *all_sdispl;  /* COUNTS_MATRIX: every rank's scount and
                                             * sdispl, likewise */
    sym_snapshot_fn snap;
    void *ctx;
} sym_opts;

/* Runs algorithm `a` on o->call.p ranks. Returns 0 when it ran (see
 * res->ok), -1 when out of memory. */
int sym_run(const coll_desc *c, const coll_algo *a, const sym_opts *o, sym_result *res);

#endif
