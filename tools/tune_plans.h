/*
 * What tune asks of the library's plans and selection before it
 * measures: which candidates make the same plan at a size (one
 * measurement for all of them, under the name that says what runs),
 * and which plan auto would run there without a tuned rule.
 */
#ifndef MPICOLL_TOOLS_TUNE_PLANS_H
#define MPICOLL_TOOLS_TUNE_PLANS_H

#include "measure.h"

#include <stddef.h>

/* 1 if specs a and b, of any algorithms of `coll`, make the same plan on
 * every rank of a communicator of np ranks spanning nnodes nodes, for
 * calls of `count` elements of esize bytes. Unlike cases_same_plan it
 * compares different algorithms (shm_hier on one node makes shm's plan),
 * and algorithms that read the node layout on one node (on several, whose
 * layout it does not know, it says 0). */
int tune_same_plan(const char *coll, const char *a, const char *b, int np, int nnodes,
                   size_t count, size_t esize);

/* The groups of same-plan cases of `all` at one size: group[i] is the
 * index of the member that is measured for case i's group, the preferred
 * one: an algorithm whose plan does not read the node layout (it names
 * what runs: shm rather than shm_hier on one node), then default
 * parameters, then the earlier in the list. 0, or -1 out of memory. */
int tune_plan_groups(const char *coll, const struct caselist *all, int np, int nnodes,
                     size_t count, size_t esize, int *group);

/* 1 if specs a and b name the same algorithm of coll (an alias, an
 * Open MPI id and its name alike). */
int tune_same_algorithm(const char *coll, const char *a, const char *b);

/* What auto runs on np ranks over nnodes nodes for a message of `bytes`
 * (the rules' measure) when nothing is forced: MPICOLL_RULES if set, the
 * built-in rules, the fallback. 0, or -1. */
int tune_auto_choice(const char *coll, int np, int nnodes, size_t bytes, char *buf,
                     size_t len);

#endif
