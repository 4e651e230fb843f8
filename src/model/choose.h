/*
 * Selection without MPI: the configuration read once from the environment
 * (MPICOLL_<COLL>, MPICOLL_RULES, MPICOLL_MODEL, MPICOLL_FALLBACK,
 * MPICOLL_MODE, MPICOLL_VERBOSE, MPICOLL_RANKS_PER_NODE,
 * MPICOLL_CMA_REFUSE: every MPICOLL_ variable but the preload library's
 * MPICOLL_DISABLE), the choice of an algorithm for a call
 * (a function of the call_info and those settings: every rank decides the
 * same), the restrictions' fallback policy and the verbose log. The
 * runtime (src/runtime/select.c) asks it on each call; the tools and the
 * unit tests ask it directly.
 */
#ifndef MPICOLL_CHOOSE_H
#define MPICOLL_CHOOSE_H

#include <stddef.h>
#include <stdint.h>

#include "coll.h"
#include "rules.h"

/* select_choose's results (the runtime maps them onto MPI error classes:
 * MPI_SUCCESS, MPI_ERR_ARG, MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_INTERN) */
enum { SELECT_OK = 0, SELECT_BAD_ARG, SELECT_UNSUPPORTED, SELECT_NO_RULE };

typedef struct choice {
    const coll_algo *algo;
    int params[PLAN_MAX_PARAMS];
    const char *reason;         /* "forced", "rule" or "fallback" */
    const char *by;             /* where the choice came from: "the call", an
                                 * environment variable or a rules source */
    int line;                   /* the rule's line in `by`, or 0 */
    char detail[400];           /* why it fell back ("" if it did not): formatted
                                 * only then, so a call pays no formatting */
    const coll_algo *warn_from; /* a forced algorithm replaced under MPICOLL_FALLBACK=warn */
} choice;

/* Chooses the algorithm for one call: the call's spec (NULL or "auto": none)
 * > MPICOLL_<COLL> > MPICOLL_RULES > built-in rules (nnodes: the nodes the
 * communicator spans, for rules with nodes=), then the restriction
 * check and fallback policy. Returns SELECT_OK, SELECT_BAD_ARG (a bad spec,
 * environment variable or rules file: `err` says which),
 * SELECT_UNSUPPORTED (MPICOLL_FALLBACK=error, or no fallback applies) or
 * SELECT_NO_RULE (no rule matches: the rules' fault). With
 * `use_env` == 0 the MPICOLL_<COLL> variable is ignored. */
int select_choose(const coll_desc *c, const char *spec, int use_env, const call_info *ci,
                  choice *ch, char *err, size_t errlen);

/* 1 if the rules in force for c depend on the number of nodes, so the
 * caller must find it (collectively) before select_choose. */
int select_needs_nodes(const coll_desc *c);

/* On rank 0: the fallback warning (once per algorithm and process), and
 * with MPICOLL_VERBOSE the rules in force once, then one line per call;
 * warnings about the configuration on rank 0 of MPI_COMM_WORLD
 * (world_rank) only. */
void select_log(const coll_desc *c, const choice *ch, const call_info *ci, int rank,
                int world_rank);

/* How blocking calls of c run: as themselves, as non-blocking + wait
 * (MPICOLL_<COLL>=nb, or MPICOLL_MODE=nb for all), or as persistent
 * init + start + wait + free (MPICOLL_MODE=persistent, for tests). */
enum select_mode { SELECT_MODE_BLOCKING, SELECT_MODE_NB, SELECT_MODE_PERSISTENT };
enum select_mode select_nb(const coll_desc *c);

/* MPICOLL_RANKS_PER_NODE: 0 unset, the number, or -1 for a bad value
 * (then *text, when text is not NULL, is what was set). */
long select_ranks_per_node(const char **text);

/* MPICOLL_CMA_REFUSE (tests: a kernel that refuses cross-memory attach). */
enum select_cma_refuse { CMA_REFUSE_NONE, CMA_REFUSE_ALL, CMA_REFUSE_LAST };
enum select_cma_refuse select_cma_refuse(void);

/* 1 when MPICOLL_VERBOSE is set. */
int select_verbose(void);

/* Where the settings are read: get(name) for each MPICOLL_ variable's
 * name, returning its value or NULL (default: getenv; the Open MPI
 * component's reads its MCA parameters first). Before the first call of
 * any selection: the settings are read once per process. */
void select_set_source(const char *(*get)(const char *name));

/* The settings of the selection that every rank must share (MPICOLL_<COLL>,
 * MPICOLL_RULES, MPICOLL_MODE, MPICOLL_FALLBACK, MPICOLL_MODEL,
 * MPICOLL_RANKS_PER_NODE): names[i] and a digest of
 * what each means (equal digests: the same behaviour), for i below the
 * count returned (at most max). */
int select_settings(const char **names, uint64_t *digests, int max);

/* FNV-1a, 64 bits: h = DIGEST_INIT, then the bytes of each piece in turn
 * (the settings' digests that every rank compares). */
#define DIGEST_INIT 14695981039346656037u
uint64_t settings_digest(uint64_t h, const void *p, size_t n);

/* Prints "mpicoll: error: ..." on stderr (used on rank 0 of a failing call). */
void mpicoll_print_error(const char *msg);

#endif
