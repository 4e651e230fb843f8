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

#include <stddef.h>
#include <stdint.h>

/* Restrictions: what the communicator must satisfy for an algorithm to run
 * as itself. The selector checks them and applies the fallback policy. */
enum {
    R_NONE = 0,
    R_POW2 = 1u << 0,   /* p is a power of two */
    R_EVEN = 1u << 1,   /* p is even */
    R_TWO = 1u << 2,    /* p == 2 */
    R_NODES = 1u << 3,  /* not a restriction: the builder reads the node layout */
};

typedef struct algo_param {
    const char *name;
    int def, min, max;
    const char *doc;
} algo_param;

typedef struct coll_algo {
    const char *name;
    int ompi_id;                /* Open MPI's number; 0 if Open MPI has none */
    plan_builder build;
    unsigned restrictions;
    const char *fallback;       /* runs instead when a restriction fails */
    const algo_param *params;   /* ends with a NULL name; may be NULL */
    const char *summary;
} coll_algo;

typedef struct coll_desc {
    const char *name;           /* "allgather" */
    const char *env;            /* "MPICOLL_ALLGATHER" */
    int tag;                    /* tag of its traffic on the private communicator */
    const coll_algo *algos;
    int nalgos;
    const char *builtin_rules;  /* text in the rules format (docs/selection.md) */

    /* The data model, in bytes, for a block of `block` bytes per rank. */
    size_t (*send_bytes)(int p, size_t block);
    size_t (*recv_bytes)(int p, size_t block);
    /* Where SEND lies inside RECV for MPI_IN_PLACE. */
    size_t (*inplace_offset)(int p, int rank, size_t block);
    /* Byte i of rank r's send data is labelled r * send_bytes + i; this
     * says which label byte i of a rank's receive buffer must hold at the
     * end. */
    int64_t (*expect_label)(int p, int rank, size_t block, size_t i);
} coll_desc;

/* All collectives mpicoll knows, and lookups by name. */
extern const coll_desc *const mpicoll_colls[];
const coll_desc *coll_find(const char *name);
const coll_algo *coll_algo_find(const coll_desc *c, const char *name_or_id);
int coll_algo_nparams(const coll_algo *a);

/* 1 if the algorithm's restrictions hold for p ranks. */
int coll_algo_applies(const coll_algo *a, int p);

#endif
