/*
 * The cost model: what a collective's plans take on a machine described by
 * a few parameters (no MPI).
 *
 * Parameters (cost_params) describe two kinds of link, between two ranks of
 * one node and between nodes, and the local copy and reduction rates. They
 * come from `mpicoll calibrate` (a small text file, cost_read) or from
 * cost_defaults. The file, one `key value` a line, `#` comments:
 *
 *     net.latency 1e-06          s: a message's wire latency, end to end
 *     net.beta 1e-10             s per byte on one link (1 / bandwidth)
 *     net.send_overhead 2e-07    s of CPU per message sent
 *     net.recv_overhead 2e-07    s of CPU per message received
 *     net.eager 0                bytes: messages up to this size leave before
 *                                their receive is posted (above: rendezvous)
 *     net.detach 0               bytes: up to this size the sender is done at
 *                                once, the data still waiting for the receive
 *     node.latency ...           the same six inside a node
 *     group 16                   nodes a group (a fat tree's leaf), 0: one
 *     far.latency ...            the six of a link between two groups
 *     oversubscription 2         a group's hosts' bandwidth over its links out
 *     nic 1e-10                  s per byte of a node's network link, each
 *                                way: the off-node messages of all its ranks
 *                                share it (calibrate: k streams at once)
 *     fanin 0                    s per byte of a rank's link inside its node,
 *                                shared by its messages within the node at
 *                                once; 0: node.beta (calibrate: the node's
 *                                other ranks stream to one at once)
 *     copy 1e-10                 s per byte of a local copy
 *     reduce 2.5e-10             s per byte of a local reduction
 *
 * A key left out keeps its default. latency and beta must be positive; the
 * overheads, copy and reduce may be 0 (under SMPI without simulated
 * computation local work takes no time); eager is a whole number of bytes.
 *
 * cost_plans (cost.c) replays the plans of all ranks against these
 * parameters: see its comment for the model itself.
 */
#ifndef MPICOLL_COST_H
#define MPICOLL_COST_H

#include <stddef.h>
#include <stdio.h>

#include "coll.h"
#include "plan.h"

typedef struct cost_link {
    double latency;         /* s, end to end */
    double beta;            /* s per byte of one link */
    double send_overhead;   /* s of CPU per message sent */
    double recv_overhead;   /* s of CPU per message received */
    size_t eager;           /* bytes: up to this, a message leaves at once, needing no
                             * posted receive, and its sender is done with it */
    size_t detach;          /* bytes: up to this, the sender is done with a message at
                             * once, but its data wait for the receive (SMPI's sends
                             * below smpi/send-is-detached-thresh); at least eager */
} cost_link;

typedef struct cost_params {
    cost_link node;         /* two ranks of one node */
    cost_link net;          /* two nodes */
    cost_link far;          /* two nodes of different groups */
    size_t group;           /* nodes a group (a leaf switch), 0: one group */
    double oversubscription;/* a group's hosts' bandwidth over its links' out */
    double nic;             /* s per byte of a node's network link, each way, shared
                             * by the off-node messages of all the node's ranks (one
                             * message alone: at most 1 / net.beta, far.beta) */
    double fanin;           /* s per byte of a rank's own link inside its node, each
                             * way, shared by the messages within the node it sends
                             * or receives at once (one alone: node.beta); 0: node.beta,
                             * the link one message fills */
    double copy;            /* s per byte copied */
    double reduce;          /* s per byte reduced */
} cost_params;

/* The defaults: the network of platforms/flat.xml (1 us, 10 GB/s, 0.2 us of
 * CPU per message sent and received, rendezvous at every size: SMPI itself
 * sends messages below 64 KiB eagerly, see cost_params.c), and a node of
 * one 2020s server (see cost_params.c). */
void cost_defaults(cost_params *cp);

/* Reads a parameter file over *cp (keys left out keep their value).
 * 0, or -1 with "FILE:LINE: what" (or "FILE: what") in err and *cp as it
 * was. */
int cost_read(const char *path, cost_params *cp, char *err, size_t errlen);

/* Writes every parameter in the file format, after `comment` (lines to
 * prefix with "# ", may be NULL). 0, or -1 on a write error. */
int cost_write(FILE *f, const cost_params *cp, const char *comment);

/* Replays one call: every rank's plan (plans[r] for rank r of p),
 * node_of[r] the node of rank r (NULL: one rank a node; a node of several
 * ranks shares its link, nic, among their off-node messages), rank r starting
 * at start[r] (NULL: all at 0). 0 and finish[0..p-1], when each rank is
 * done; -1 when memory ran out or the plans do not match (a message
 * without its receive). */
int cost_replay(const plan *plans, int p, const int *node_of, const cost_params *cp,
                const double *start, double *finish);

/* A dissemination barrier (round k: to rank + 2^k, from rank - 2^k) that
 * rank r enters at enter[r] (NULL: 0): 0 and exits[], or -1. */
int cost_barrier(int p, const int *node_of, const cost_params *cp, const double *enter,
                 double *exits);

/* The time of a call as `mpicoll bench` (and OSU's benchmarks) measure it:
 * iterations of a barrier then the call, each rank timing the call from
 * its own exit of the barrier; the slowest rank's time, in the steady
 * state (the last of a few iterations: a network of unequal links leaves
 * the barrier's exits skewed). 0, or -1 as cost_replay. */
int cost_bench(const plan *plans, int p, const int *node_of, const cost_params *cp,
               double *seconds);

/* One candidate of the selection by the model. */
typedef struct cost_pick {
    const coll_algo *algo;      /* NULL: none */
    int params[PLAN_MAX_PARAMS];
    double seconds;             /* predicted; < 0: none */
} cost_pick;

/* The selection by the model (cost_choose.c): every algorithm of c that
 * applies(a, ci) (neither native nor shared-memory ones), at its default
 * parameters and its radix parameter (k, radix) at 2, 4 and 8, replayed
 * with all ranks starting together on nodes of consecutive ranks; a
 * candidate of more than `budget` messages in all is left out. The
 * cheapest in *best, the next in *second. A function of c, ci and cp
 * only, so that every rank chooses the same. 0, or -1 (out of memory). */
int cost_choose(const coll_desc *c, const call_info *ci, const cost_params *cp, size_t budget,
                int (*applies)(const coll_algo *, const call_info *), cost_pick *best,
                cost_pick *second);

#endif
