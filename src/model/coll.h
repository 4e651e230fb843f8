/*
 * The table of a collective: its algorithms, their restrictions and
 * parameters, its built-in rules, and what the symbolic checker needs to
 * know about its data (who holds which bytes before and after).
 *
 * Each collective fills one coll_desc in src/coll/<name>/<name>.c from its
 * <name>.def file; everything users see (environment, rules, logs, the
 * command line, the tests) is read from there.
 */
#ifndef MPICOLL_COLL_H
#define MPICOLL_COLL_H

#include "plan.h"
#include "../../include/mpicoll_collectives.h"

#include <stddef.h>
#include <stdint.h>

/* Restrictions: what the communicator must satisfy for an algorithm to run
 * as itself (and two markers), from restrictions.def. The selector checks
 * them and applies the fallback policy. */
enum {
    R_NONE = 0,
#define MPICOLL_RESTRICTION(flag, bit, shown, broken, needs, kind) flag = 1u << (bit),
#include "restrictions.def"
#undef MPICOLL_RESTRICTION
};

/* What the selector knows of a call: the same on every rank, so not a
 * plan_args (docs/ARCHITECTURE.md, Plans). */
typedef struct call_info {
    int p;
    int nnodes;             /* nodes the communicator spans (1 when not asked) */
    size_t bytes;           /* the message size */
    int commutative;        /* 1 for collectives without an operation */
    int request;            /* a non-blocking or persistent call */
    const char *shm_missing;    /* why the nodes cannot share memory (NULL: they can, or
                                 * not asked yet) */
    int scattered_nodes;    /* some node's ranks are not consecutive (0: not asked) */
    int shm_unready;        /* a request, on a communicator whose requests' pool of
                             * shared memory is not made yet (its first blocking call
                             * that uses shared memory makes it) */
} call_info;

typedef struct algo_param {
    const char *name;
    int def, min, max;
    const char *doc;
} algo_param;

/* ALGO_PARAMS(algo, { name, def, min, max, doc }, ...): the parameter
 * array <algo>_params of an algorithm (its .def line names it), with the
 * terminator coll_algo_nparams counts to. */
#define ALGO_PARAMS(algo, ...) \
    static const algo_param algo##_params[] = { __VA_ARGS__, { NULL, 0, 0, 0, NULL } }

typedef struct coll_algo {
    const char *name;
    int ompi_id;                /* Open MPI 4.1's number; 0 if 4.1 has none */
    const char *aliases;        /* other names it answers to (Open MPI 4.1's where it
                                 * differs), space-separated; NULL if none */
    plan_builder build;         /* NULL for R_NATIVE */
    unsigned restrictions;
    const char *fallback;       /* runs instead when a restriction fails */
    const algo_param *params;   /* ends with a NULL name; may be NULL */
    const char *summary;
} coll_algo;

/* What expect_label is given: one rank's call, and what the checker adds
 * to it (symbolic.h): how it labels send data, and for counts on both
 * sides every rank's send displacements (a receiver's labels come from
 * its senders). */
typedef struct expect_args {
    plan_args call;
    size_t stride;              /* byte i of rank r's send data is labelled
                                 * r * stride + i: the longest send data of any rank */
    const size_t *all_sdispl;   /* COUNTS_MATRIX: every rank's sdispl, p × p, row s
                                 * rank s's; NULL for the others */
} expect_args;

/* inplace_offset for a rank whose send data never aliases its receive
 * buffer (a non-root rank of a rooted collective). */
#define NO_ALIAS ((size_t)-1)
/* expect_label for a byte whose final content does not matter. */
#define EXPECT_ANY ((int64_t)-2)

/* coll_desc counts */
enum { COUNTS_NONE, COUNTS_ANYWHERE, COUNTS_RANK_ORDER, COUNTS_MATRIX };

typedef struct coll_desc {
    const char *name;           /* "allgather" */
    int index;                  /* its place in the list (mpicoll_colls[index]) */
    const char *env;            /* "MPICOLL_ALLGATHER" */
    int tag;                    /* tag of its traffic on the private communicator */
    const coll_algo *algos;
    int nalgos;
    const char *builtin_rules;  /* text in the rules format (docs/selection.md) */

    /* The data model, in bytes, of one rank's call (the runtime's and the
     * checker's: they read p, rank, root, block and the counts). */
    size_t (*send_bytes)(const plan_args *a);
    size_t (*recv_bytes)(const plan_args *a);
    /* Where SEND lies inside RECV for MPI_IN_PLACE (NO_ALIAS: apart for
     * this rank). NULL: the entry point runs plans on a copy, builders
     * never see MPI_IN_PLACE. */
    size_t (*inplace_offset)(const plan_args *a);
    /* Not a reduction: byte i of rank r's send data is labelled
     * r * S + i, S (e->stride) the longest send data of any rank
     * (send_bytes: the same on every rank but at a root and for counts).
     * A reduction: it is labelled i, its position in the vector, and
     * carries rank r's contribution. This says which label byte i of the
     * rank's receive buffer must hold at the end (for a reduction: fully
     * reduced over all ranks), or EXPECT_ANY. */
    int64_t (*expect_label)(const expect_args *e, size_t i);
    /* A reduction whose result on a rank holds the contributions of some
     * ranks only (scan: 0..rank; exscan: 0..rank - 1): that range, lo..hi
     * in rank order, for every byte of this rank's result. NULL: all p
     * ranks, the same expression on every rank. With a range, results
     * are compared across the ranks of the same range only, and each
     * rank's result must be one expression at every position of the
     * vector (equal inputs, equal results: see symbolic.h). */
    void (*expect_ranks)(const plan_args *a, int *lo, int *hi);
    int reduction;              /* receive data are reductions (over all ranks, or
                                 * expect_ranks') */
    int counts;                 /* the call gives counts per rank (plan_args count,
                                 * displ): COUNTS_ANYWHERE (allgatherv: blocks in any
                                 * order), COUNTS_RANK_ORDER (reduce_scatter) or
                                 * COUNTS_MATRIX (alltoallv: counts per pair of ranks,
                                 * on both sides, blocks in any order: the checker's
                                 * are p × p matrices, sym_opts all_count...); the
                                 * checker tries uneven and zero counts */
    int rooted;                 /* the checker tries several roots */
    int inplace_recv;           /* MPI_IN_PLACE is the root's receive buffer, its data
                                 * staying in its send buffer (scatter); else it is the
                                 * send buffer */
    int synchronizing;          /* no rank may return before every rank has entered
                                 * (barrier): the checker proves it by causality */
} coll_desc;

/* Each collective's table, <name>_desc (src/coll/<name>/<name>.c). */
#define MPICOLL_DESC_(name, Name, family) extern const coll_desc name##_desc;
MPICOLL_COLLECTIVES(MPICOLL_DESC_)
#undef MPICOLL_DESC_

/* Each collective's place in the list (coll_desc.index: coll_index_<name>),
 * and their number. */
#define MPICOLL_INDEX_(name, Name, family) coll_index_##name,
enum { MPICOLL_COLLECTIVES(MPICOLL_INDEX_) NCOLLS };
#undef MPICOLL_INDEX_

/* All collectives mpicoll knows (MPICOLL_COLLECTIVES's order, then NULL),
 * and lookups by name. */
extern const coll_desc *const mpicoll_colls[];
const coll_desc *coll_find(const char *name);
/* By name, alias or Open MPI id; NULL if none. */
const coll_algo *coll_algo_find(const coll_desc *c, const char *name_or_id);
/* 1 if `name` is one of a's aliases. */
int coll_algo_has_alias(const coll_algo *a, const char *name);
int coll_algo_nparams(const coll_algo *a);

/* A call's size (call_info.bytes: the selection's and the rules' bytes=)
 * and the builders' block (plan_args.block) at p ranks: the same for all
 * but the reductions whose result is one block of the vector
 * (reduce_scatter_block), whose call size is the whole vector of p
 * blocks: bytes = block · max(send, recv) / recv, per the collective's
 * data model. For the others, scatter's root included, the call size is
 * one rank's block, as the entry paths pass it (blockcoll.c). */
size_t coll_block_of(const coll_desc *c, int p, size_t bytes);
size_t coll_call_bytes(const coll_desc *c, int p, size_t block);
/* 1 for the MPI library's own collective (R_NATIVE): no plan to build, check or
 * show; tools say NATIVE_NO_PLAN and skip it. */
int coll_algo_native(const coll_algo *a);
#define NATIVE_NO_PLAN "the MPI library's own collective, no plan"

/* 1 if the algorithm's restrictions hold for the call. */
int coll_algo_applies(const coll_algo *a, const call_info *ci);

#endif
