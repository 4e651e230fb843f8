/*
 * The MPI executor (exec.c): a plan ready to run, and its resumable
 * execution.
 */
#ifndef MPICOLL_RUNTIME_EXEC_H
#define MPICOLL_RUNTIME_EXEC_H

#include <mpi.h>
#include "../model/plan.h"

struct shm_chan;

/* A plan ready to run: the plan, a request array large enough for its
 * busiest round, and the datatypes of its segmented messages. A request's
 * own plan also holds the request's scratch, and where it was lent from:
 * the communicator's cache of request plans (comm.h: comm_state_plan). */
typedef struct ready_plan {
    plan pl;
    MPI_Request *reqs;
    MPI_Datatype *types;
    void *scratch;
    size_t scratch_len;
    int lease;                  /* 1 + the slot of the cache it came from; 0: its own */
} ready_plan;
void ready_plan_free(ready_plan *rp);

/* What the executor needs for a plan's local reductions. */
typedef struct exec_reduce {
    MPI_Datatype type;          /* one element */
    MPI_Op op;
    size_t esize;               /* the element's extent */
    MPI_Aint lb;                /* buffers hold elements from their true lower bound */
    int commutative;
    void *scratch;              /* max_after bytes, for dst = dst ⊕ src */
} exec_reduce;

/* Requests a plan needs: its busiest round's (messages over 1 GiB go in
 * several pieces) and its receives posted ahead (plan.h: plan_lookahead),
 * which come first in the array. */
size_t exec_requests(const plan *pl);

/* The derived datatypes of a plan's segmented messages (indexed by the
 * op's first segment; NULL when it has none), made once per cached plan. */
int exec_types_make(const plan *pl, MPI_Datatype **types);
void exec_types_free(const plan *pl, MPI_Datatype *types);

/* A plan in execution, resumable: exec_begin, then exec_progress until
 * done (blocking: waits for each round; else tests and returns). */
typedef struct exec_state {
    const plan *pl;
    void *bufs[PLAN_NBUF];
    MPI_Comm comm;
    int tag;
    MPI_Request *reqs;
    const MPI_Datatype *types;
    const exec_reduce *red;
    struct shm_chan *shm;       /* the node's channel (segment and barrier) the call
                                 * uses, for a plan that uses BUF_SHM */
    size_t round, nreq;
    size_t early_next;          /* the receives among ops [0, early_next) are posted */
    size_t ring_head, ring_len; /* those posted ahead, not yet in their round: reqs[]
                                 * from ring_head, in plan order, max_early slots */
    int posted;
    int arrived;                /* at the node barrier that begins the round */
    int spinning;               /* exec_progress's out: not done, at a node barrier still
                                 * in its polls before a yield (shm_spin_more) */
} exec_state;

/* exec_begin also points BUF_SHM at this call's copy of its channel's
 * segment (x->shm, set before). */
void exec_begin(exec_state *x);
int exec_progress(exec_state *x, int blocking, int *done);
/* Whether blocking waits test and yield the processor (the launcher says
 * this node runs more ranks than it has processors) rather than block in
 * the MPI library, whose waits may spin (MPICH's do). */
int exec_wait_yields(void);
/* Waits for n requests: MPI_Waitall, or on an oversubscribed node
 * (exec_wait_yields) tests and yields the processor between tests. */
int exec_waitall(int n, MPI_Request *reqs);

#endif
