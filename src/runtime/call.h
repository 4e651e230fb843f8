/*
 * Calls and requests (request.c): a call ready to run, the copies before
 * and after its plan, and how it runs (now, or as a request).
 */
#ifndef MPICOLL_RUNTIME_CALL_H
#define MPICOLL_RUNTIME_CALL_H

#include "comm.h"
#include "args.h"

/* A copy before or after a plan runs: the views of user datatypes. */
enum { COPY_NONE, COPY_BYTES, COPY_PACK, COPY_UNPACK, COPY_TYPED };
typedef struct copy_step {
    int kind;
    const void *src;
    void *dst;
    size_t bytes;               /* BYTES; PACK, UNPACK: the packed bytes */
    size_t n1, n2;              /* PACK: source count; UNPACK: destination count;
                                 * TYPED: source and destination counts */
    MPI_Datatype t1, t2;        /* the source's and the destination's type */
} copy_step;

int copy_step_run(const copy_step *c);

/* One call, ready to run. */
typedef struct coll_call {
    const coll_desc *coll;
    comm_state *st;
    const ready_plan *rp;
    void *bufs[PLAN_NBUF];
    copy_step pre, post;
    exec_reduce red;
    int reduces;
} coll_call;

/* A collective's last call on a communicator (comm_state.memo), kept so
 * that the same call again runs without its checks, selection and views
 * (coll_run: entry.c). Kept only for a call whose every handle is
 * predefined (types, operation: never freed, so never reused for another
 * object) and that has no arrays of counts (whose contents could change
 * under the same pointers). call_launch keeps the ready call of the call
 * under way (comm_state.armed); it may run again while `valid` and its
 * epoch is the state's (no cached plan evicted, no scratch moved since),
 * a request's while its plan is idle in the same slot with the same
 * scratch, or while the request it made last is parked in it. */
typedef struct call_memo {
    coll_args a;
    /* a call with arrays of counts (kept only when the library runs it
     * with the user's arguments): what its significant arrays held */
    int *counts;
    size_t ncounts;
    coll_call call;
    int valid;
    unsigned epoch;
    const coll_algo *algo;      /* what it chose (mpicoll_last_choice) */
    int params[PLAN_MAX_PARAMS];
    int native;                 /* the library's own collective, with the user's arguments */
    /* a non-blocking call's: its plan, lent from the slot `lease` at
     * generation `gen`, and its scratch, which the plan's slot keeps */
    int request, lease;
    unsigned gen;
    void *scratch;
    /* its request, released and kept whole for the same call again
     * (without threads: MPI_THREAD_MULTIPLE releases requests from any
     * thread): plan, scratch and executor set, with its reference to the
     * state, which frees it when the communicator goes (state_delete:
     * call_memo_unpark) */
    struct mpicoll_request_s *parked;
    unsigned serial;            /* moves each time the memo keeps a call */
} call_memo;

/* Frees the request parked in mm (st: its communicator's state), if any. */
void call_memo_unpark(call_memo *mm, comm_state *st);


/* How a call runs: now (req NULL), or as a request: started now, or
 * persistent (inactive until mpicoll_start). A front end whose requests
 * complete by another's progress (the Open MPI component's, in Open MPI's
 * progress loop) gives `done`: called with `done_arg` and the request's
 * code each time the request completes in request_progress, outside any
 * lock of mpicoll's; the request stays for its owner to release. */
typedef struct mpicoll_request_s req_t;
typedef void (*req_done_fn)(void *arg, int rc);
typedef struct call_mode {
    req_t **req;
    int persistent;
    req_done_fn done;
    void *done_arg;
    /* set to 1 when the call fails the family's argument checks (before
     * anything else happens), if not NULL: the Open MPI component hands
     * such calls to the library, whose MPI layer checked the program's
     * arguments already and whose own internal calls (an allreduce of a
     * buffer onto itself, in its communicator creation) mpicoll's checks
     * would refuse */
    int *refused;
    /* only on a communicator with mpicoll's state already (its first call
     * made it): else refused too, before anything happens (the Open MPI
     * component's non-blocking calls: making the state is collective) */
    int existing;
    /* the communicator's state, when the front end keeps it
     * (comm_state_watch): the kept call is found without a lookup */
    comm_state *st;
    /* the front end starts the library's own request itself when
     * coll_again finds the call again and the library's (2): a
     * non-blocking call that chose the library's is kept for that (the
     * Open MPI component, which calls the module it displaced) */
    int lib_direct;
} call_mode;

/* A non-blocking call kept (call_memo) started again as a new request in
 * *m->req: MPI_SUCCESS, an error, or -1 when its plan is not idle in its
 * slot any more (then nothing was done). */
int call_again(const call_mode *m, call_memo *mm);

/* Where a request keeps its own plan (NULL for a blocking call: cached). */
ready_plan *call_own_plan(const call_mode *m);

/* Scratch for the call: the communicator's (a blocking call), or the
 * request's own. */
char *call_scratch(const call_mode *m, comm_state *st, size_t bytes);

/* Runs the call now, or hands it to the request. */
int call_launch(const call_mode *m, coll_call *c);

/* A request that failed before launch. */
void call_abandon(const call_mode *m);

/* The end of every entry path, with the call's code so far: a call that
 * failed before launch is abandoned; a blocking call that runs as a
 * request (m == nb, from call_mode_for) runs it once. Returns the code. */
int call_finish(const call_mode *m, const call_mode *nb, int rc);

/* A call with nothing to move (count 0): nothing now, or a request with an
 * empty plan. */
int call_empty(const call_mode *m, comm_state *st, const coll_desc *c);

/* A new, empty request for a call_mode, in *m->req (MPI_SUCCESS or
 * MPI_ERR_NO_MEM). */
int request_new(const call_mode *m);

/* A front end's own request calls (the Open MPI component's; the public
 * mpicoll_start, mpicoll_request_free and mpicoll_progress are these with
 * errors raised): start a persistent, inactive request (MPI_ERR_REQUEST
 * otherwise); release an inactive one; advance every active request one
 * step (returns how many completed, their `done` called, plus 1 while a
 * request polls a node barrier that shm_wait would still spin on: a
 * progress loop that yields the processor when its callbacks did nothing,
 * Open MPI's with mpi_yield_when_idle, should poll again at once). None
 * raises. */
int request_start(req_t *r);
void request_release(req_t *r);
/* The completion of an active request given to another (a front end that
 * makes its own request once the start has not completed it). Without
 * threads only: no progress may complete it meanwhile. */
void request_set_done(req_t *r, req_done_fn done, void *done_arg);
int request_progress(int *rc);

/* Waits for a request and releases it (unless persistent); no error
 * handler is called. */
int request_complete(req_t **req);

/* A blocking call run through a request (call_mode_for): started if
 * persistent, waited for, released. */
int request_run_once(req_t **req);

/* Advances the active requests until none holds a channel of the
 * communicator's shared-memory pool (before the pool is freed). */
void request_drain_shm(struct shm_state *shm);

/* A front end's test of the library's request q (a native request's)
 * that says whether it is complete without a turn of the library's
 * progress, for the steps request_progress makes from inside that
 * progress (the Open MPI component's: MPI_Test would run Open MPI's
 * progress loop again, yields included, in each of its turns). NULL: the
 * steps test with PMPI_Test. */
void request_set_lib_done(int (*lib_done)(MPI_Request q));

/* 1 when several threads may be inside MPI at once (MPI_THREAD_MULTIPLE):
 * the requests' locks are taken only then (a front end's own may follow). */
int request_threaded(void);

/* Frees the request this thread keeps for reuse (at MPI_Finalize). */
void request_spare_free(void);

/* The mode a call runs in: as given (a request's handle set to null until
 * the call makes the request), or, for a blocking call of a collective set
 * to MPICOLL_<COLL>=nb, as a request in *nb (which the caller completes
 * with request_complete). */
const call_mode *call_mode_for(const coll_desc *c, const char *spec, const call_mode *m,
                               call_mode *nb);

#endif
