/*
 * Rules: which algorithm runs for a collective, a communicator size and a
 * message size. The same format serves the built-in defaults (compiled in
 * from src/coll/<coll>/<coll>.rules) and files written by users or the
 * tuner (MPICOLL_RULES). docs/selection.md describes the format:
 *
 *   # comment
 *   <collective> np=<range> [nodes=<range>] [rpn=<range>] [form=blocking|request]
 *       bytes=<range>|total=<range> <algorithm>[:p=v,...]
 *
 * bytes: the message size (one rank's block for allgather); total: bytes
 * times np, the measure of Open MPI's allgather decision tree; nodes: the
 * number of nodes the communicator spans (default: any); rpn: its ranks a
 * node, np over nodes rounded up (default: any). A range is
 * `*`, `N`, `N-M` or `N-` (inclusive; K, M and G suffixes are powers of
 * 1024). The first rule that matches wins.
 */
#ifndef MPICOLL_RULES_H
#define MPICOLL_RULES_H

#include "coll.h"

enum { METRIC_BYTES, METRIC_TOTAL };

/* form=: a rule for every call, or only blocking calls, or only requests
 * (non-blocking and persistent calls) */
enum { RULE_FORM_ANY, RULE_FORM_BLOCKING, RULE_FORM_REQUEST };

typedef struct rule {
    const coll_desc *coll;
    const coll_algo *algo;
    int params[PLAN_MAX_PARAMS];
    long long np_lo, np_hi;
    long long nodes_lo, nodes_hi;
    long long rpn_lo, rpn_hi;   /* ranks a node: ceil(np / nodes) */
    int form;                   /* RULE_FORM_*: the calls it is for */
    int metric;
    unsigned long long lo, hi;
    int line;
    char text[160];             /* the line as written, for the log */
} rule;

typedef struct ruleset {
    rule *rules;
    size_t n;
    char source[256];           /* "built-in" or the file's path */
} ruleset;

/* Parses `text`. A malformed line is an error: -1 with a message naming
 * source, line and what was expected. An unknown collective or algorithm
 * skips the rule with a warning passed to `warn` (may be NULL). */
int rules_parse(const char *text, const char *source, ruleset *rs, char *err, size_t errlen,
                void (*warn)(const char *msg));
void rules_free(ruleset *rs);

/* The first rule of rs for collective c that matches, or NULL (request:
 * the call is a non-blocking or persistent one). */
const rule *rules_match(const ruleset *rs, const coll_desc *c, int np, int nnodes,
                        size_t bytes, int request);
/* The next one after prev (a rule of rs; NULL: from the start), or NULL. */
const rule *rules_match_after(const ruleset *rs, const rule *prev, const coll_desc *c, int np,
                              int nnodes, size_t bytes, int request);

/* 1 if a rule of rs for collective c has a nodes= or rpn= condition. */
int rules_use_nodes(const ruleset *rs, const coll_desc *c);

/* Parses "name[:param=value,...]" or an Open MPI id into an algorithm and
 * its parameters (defaults for those not named). 0, or -1 with a message. */
int spec_parse(const coll_desc *c, const char *spec, const coll_algo **algo, int *params,
               char *err, size_t errlen);

/* Writes "name" or "name:param=value,..." into buf. */
void spec_format(const coll_algo *a, const int *params, char *buf, size_t len);

#endif
