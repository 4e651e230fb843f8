/*
 * The MPI side of mpicoll: configuration from the environment, selection,
 * per-communicator state (private duplicate, plan cache, scratch), the
 * executor, datatype views, and errors. Every MPI call here goes through
 * the PMPI_ entry points, so an interception library can define the MPI_
 * ones on top of mpicoll without recursion.
 */
#ifndef MPICOLL_RUNTIME_H
#define MPICOLL_RUNTIME_H

#include <mpi.h>

#include <stdint.h>

#include "coll.h"
#include "rules.h"

/* ---- selection ---------------------------------------------------------- */

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
 * check and fallback policy. Returns MPI_SUCCESS, MPI_ERR_ARG (a bad spec,
 * environment variable or rules file: `err` says which) or
 * MPI_ERR_UNSUPPORTED_OPERATION (MPICOLL_FALLBACK=error). With
 * `use_env` == 0 the MPICOLL_<COLL> variable is ignored. */
int select_choose(const coll_desc *c, const char *spec, int use_env, const call_info *ci,
                  choice *ch, char *err, size_t errlen);

/* 1 if the rules in force for c depend on the number of nodes, so the
 * caller must find it (collectively) before select_choose. */
int select_needs_nodes(const coll_desc *c);

/* On rank 0: the fallback warning (once per algorithm and process), and
 * with MPICOLL_VERBOSE the rules in force once, then one line per call. */
void select_log(const coll_desc *c, const choice *ch, const call_info *ci, int rank);

/* How blocking calls of c run: 0 as themselves, 1 as non-blocking + wait
 * (MPICOLL_<COLL>=nb, or MPICOLL_MODE=nb for all), 2 as persistent
 * init + start + wait + free (MPICOLL_MODE=persistent, for tests). */
int select_nb(const coll_desc *c);

/* 1 when MPICOLL_VERBOSE is set. */
int select_verbose(void);

/* The settings of select.c that every rank must share (MPICOLL_<COLL>,
 * MPICOLL_RULES, MPICOLL_MODE, MPICOLL_FALLBACK): names[i] and a digest of
 * what each means (equal digests: the same behaviour), for i below the
 * count returned (at most max). */
int select_settings(const char **names, uint64_t *digests, int max);

/* FNV-1a, 64 bits: h = DIGEST_INIT, then the bytes of each piece in turn
 * (the settings' digests that every rank compares). */
#define DIGEST_INIT 14695981039346656037u
uint64_t settings_digest(uint64_t h, const void *p, size_t n);

/* Prints "mpicoll: error: ..." on stderr (used on rank 0 of a failing call). */
void mpicoll_print_error(const char *msg);

/* ---- per-communicator state --------------------------------------------- */

typedef struct comm_state comm_state;

/* The state of `comm` (created on first use): the private duplicate on which
 * all of mpicoll's traffic runs, size and rank. Its creation is collective
 * and checks first that every rank has the same settings
 * (comm_settings_agree). */
int comm_state_get(MPI_Comm comm, comm_state **st);

/* Collective over comm: MPI_SUCCESS when every rank has the same
 * settings (select_settings, MPICOLL_RANKS_PER_NODE, and `disabled`: the
 * preload library's MPICOLL_DISABLE); else MPI_ERR_ARG on every rank, and
 * rank 0 prints the first variable that differs and the first rank where
 * it does. One allreduce of 24 bytes when they agree, which also leaves
 * *known (unless known is NULL, which counts as 0) at 1 only when it was
 * 1 on every rank. */
int comm_settings_agree(MPI_Comm comm, int disabled, int *known);

/* For a rank that runs the MPI library's own collectives (the preload
 * library under MPICOLL_DISABLE): comm_settings_agree(comm, 1, NULL) the first
 * time per communicator, where the other ranks create mpicoll's state. */
int comm_settings_native(MPI_Comm comm);
MPI_Comm comm_state_comm(const comm_state *st);
int comm_state_size(const comm_state *st);
int comm_state_rank(const comm_state *st);

/* A duplicate of MPI_COMM_SELF that returns errors, for MPI calls that
 * take a communicator but only work locally (freed at MPI_Finalize). */
int comm_self(MPI_Comm *self);

/* Requests hold a reference to their communicator's state, so that the
 * user may free the communicator while they live (MPI's rule: pending
 * operations complete normally). */
void comm_state_retain(comm_state *st);
void comm_state_release(comm_state *st);

/* The number of communicator states alive in the process (for tests). */
int comm_state_live(void);

/* The number of nodes the communicator spans (collective on first use). */
int comm_state_nodes(comm_state *st, int *nnodes);

/* The node's shared segments of the communicator (R_SHM algorithms:
 * src/core/shm.h), made when the selection first asked, or NULL. */
struct shm_state *comm_state_shm(const comm_state *st);

/* Scratch memory of at least `bytes` owned by the state (grows, never
 * shrinks; valid until the next call). NULL if out of memory. */
void *comm_state_scratch(comm_state *st, size_t bytes);

/* A plan ready to run: the plan, a request array large enough for its
 * busiest round, and the datatypes of its segmented messages. */
typedef struct ready_plan {
    plan pl;
    MPI_Request *reqs;
    MPI_Datatype *types;
} ready_plan;

/* What the executor needs for a plan's local reductions. */
typedef struct exec_reduce {
    MPI_Datatype type;          /* one element */
    MPI_Op op;
    size_t esize;               /* the element's extent */
    MPI_Aint lb;                /* buffers hold elements from their true lower bound */
    int commutative;
    void *scratch;              /* max_after bytes, for dst = dst ⊕ src */
} exec_reduce;

/* Selection and planning of one call, shared by the entry paths: the node
 * count when rules need it, the choice (errors printed on rank 0), the
 * log, and the plan for pa: cached, or built into *own (requests own
 * theirs). When the choice is native (R_NATIVE) there is no plan: *rp is
 * NULL, and the caller runs call_native. */
int comm_state_prepare(comm_state *st, const coll_desc *c, const char *spec, call_info *ci,
                       plan_args pa, const ready_plan **rp, ready_plan *own);
void ready_plan_free(ready_plan *rp);

/* The tag of the next collective started on the communicator. Every rank
 * starts collectives on a communicator in the same order, so outstanding
 * collectives between the same ranks never match each other's messages. */
int comm_state_next_tag(comm_state *st);

/* ---- calls and requests ------------------------------------------------- */

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

/* How a call runs: now (req NULL), or as a request: started now, or
 * persistent (inactive until mpicoll_start). */
typedef struct mpicoll_request_s req_t;
typedef struct call_mode {
    req_t **req;
    int persistent;
} call_mode;

/* Where a request keeps its own plan (NULL for a blocking call: cached). */
ready_plan *call_own_plan(const call_mode *m);

/* Scratch for the call: the communicator's (a blocking call), or the
 * request's own. */
char *call_scratch(const call_mode *m, comm_state *st, size_t bytes);

/* Runs the call now, or hands it to the request. */
int call_launch(const call_mode *m, coll_call *c);

/* A request that failed before launch. */
void call_abandon(const call_mode *m);

/* A call with nothing to move (count 0): nothing now, or a request with an
 * empty plan. */
int call_empty(const call_mode *m, comm_state *st, const coll_desc *c);

/* A new, empty request for a call_mode (MPI_SUCCESS or MPI_ERR_NO_MEM). */
int request_new(req_t **req);

/* Waits for a request and releases it (unless persistent); no error
 * handler is called. */
int request_complete(req_t **req);

/* A blocking call run through a request (call_mode_for): started if
 * persistent, waited for, released. */
int request_run_once(req_t **req);

/* Advances the active requests until none holds a channel of the
 * communicator's shared-memory pool (before the pool is freed). */
void request_drain_shm(struct shm_state *shm);

/* The mode a call runs in: as given (a request's handle set to null until
 * the call makes the request), or, for a blocking call of a collective set
 * to MPICOLL_<COLL>=nb, as a request in *nb (which the caller completes
 * with request_complete). */
const call_mode *call_mode_for(const coll_desc *c, const char *spec, const call_mode *m,
                               call_mode *nb);

/* ---- execution ---------------------------------------------------------- */

/* Requests a plan needs in its busiest round (messages over 1 GiB go in
 * several pieces). */
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
    int posted;
    int arrived;                /* at the node barrier that begins the round */
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

/* ---- datatypes ---------------------------------------------------------- */

typedef struct dt_view {
    MPI_Aint extent, true_lb, true_extent;
    int size;
    int contig;                 /* count elements are size·count bytes at buf + true_lb */
    int named;                  /* a predefined type */
} dt_view;

/* The type's sizes and bounds. A predefined type's come from a cache
 * after its first call (its handle is never freed, so never reused);
 * a derived type's are asked of MPI each time. */
int dt_view_get(MPI_Datatype t, dt_view *v);
/* A predefined type's slot in that cache, 0 <= slot < DT_NAMED_MAX, the
 * same for the whole run; -1 for a derived type, an invalid one, or when
 * the cache is full. */
#define DT_NAMED_MAX 64
int dt_named_slot(MPI_Datatype t);
int dt_pack(const void *buf, int count, MPI_Datatype t, void *out, size_t outlen);
int dt_unpack(const void *in, size_t inlen, void *buf, int count, MPI_Datatype t);
/* Copies count elements of t from src to dst, touching only t's data. */
int dt_copy(const void *src, void *dst, size_t count, MPI_Datatype t);

/* ---- entry points ------------------------------------------------------- */

/* The whole call of a collective of equal blocks per rank (allgather,
 * alltoall), with MPI's semantics: checks, selection, datatypes, in place,
 * errors raised on comm; run now or as a request (mode). */
int blockcoll_call(const coll_desc *c, const char *spec, const void *sbuf, int scount,
                   MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                   MPI_Comm comm, const call_mode *mode);

/* The whole call of a collective on one vector of `count` elements per
 * rank (allreduce, reduce, bcast, reduce_scatter_block: count is the
 * receive count), with or without an operation (MPI_OP_NULL) and a root
 * (-1 for none). For bcast, sbuf is MPI_IN_PLACE and rbuf the buffer. */
typedef struct vec_call {
    const coll_desc *coll;
    const char *spec;
    const void *sbuf;
    void *rbuf;
    int count;
    MPI_Datatype type;
    MPI_Op op;
    int root;
    MPI_Comm comm;
} vec_call;

int veccoll_call(const vec_call *v, const call_mode *mode);

/* 1 if mpicoll's own algorithms take this datatype with this operation
 * (MPI_OP_NULL and reduction 0 for bcast); else veccoll_call fails with
 * MPI_ERR_TYPE, or runs the library's own collective (op_for_library). */
int veccoll_type_supported(MPI_Datatype t, MPI_Op op, int reduction);

/* ---- the MPI library's own collectives (native) ------------------------- */

/* A call of the MPI library's own collective, with the user's arguments
 * as given (buffers, MPI_IN_PLACE, counts, types, operation, root, and the
 * user's communicator, not mpicoll's duplicate). Block collectives use
 * every field but op and root; vector collectives sbuf, rbuf, rcount (the
 * count: the receive count of reduce_scatter_block), rtype, op, root
 * (bcast: its buffer is rbuf). */
typedef struct native_args {
    const coll_desc *coll;
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    MPI_Op op;
    int root;
    MPI_Comm comm;
} native_args;

/* The one place that calls the PMPI_ collectives: blocking (req NULL:
 * PMPI_Allgather & co.) or started (PMPI_Iallgather & co., MPI-3). Returns
 * the MPI library's code; raises nothing itself (MPI may, on comm). */
int native_run(const native_args *a, MPI_Request *req);

/* A native call as the MPI library runs it: its arguments (the user's,
 * or for a predefined operation on a derived datatype the view of the
 * predefined type beneath it; and under MPICH before 4.2.1 a blocking
 * in-place reduce at a root other than 0 gets a send buffer apart), and
 * the typed copies into the view's scratch before each run and out of it
 * once the library's collective has completed (COPY_NONE when the view is
 * the user's buffers). */
typedef struct native_call {
    native_args lib;
    copy_step pre, post;
} native_call;

/* The native call for the user's arguments a, on st's communicator; the
 * view's scratch comes from call_scratch(m, st, ...): the communicator's
 * for a blocking call, the request's own otherwise. MPI_ERR_COUNT when
 * the view would hold more than INT_MAX elements (on every rank alike). */
int native_prepare(const native_args *a, const call_mode *m, comm_state *st, native_call *nc);

/* Copies into the view, then native_run(&nc->lib, req); the caller runs
 * nc->post (copy_step_run) once the collective has completed. */
int native_start(const native_call *nc, MPI_Request *req);

/* A call whose selection chose native (comm_state_prepare left no plan):
 * now, or as a request that wraps the MPI request (a persistent one
 * starts a new PMPI_I<coll> with the bound arguments at each start). */
int call_native(const call_mode *m, comm_state *st, const native_args *a);

/* ---- errors ------------------------------------------------------------- */

/* Raises `code` on comm's error handler (MPI_COMM_WORLD's when comm is
 * MPI_COMM_NULL) and returns it. */
int mpicoll_raise(MPI_Comm comm, int code);

/* Argument checks shared by entry points: MPI_SUCCESS or an error class
 * (docs/robustness.md has the table). All are local. */
int check_comm(MPI_Comm comm);                  /* NULL, intercommunicator: COMM */
int check_count_type(int count, MPI_Datatype t);    /* COUNT; TYPE: NULL, uncommitted */
/* n elements of t at buf: BUFFER when buf is NULL and the data would start
 * at address 0 (NULL is also MPI_BOTTOM, for absolute addresses). */
int check_buffer(const void *buf, size_t n, MPI_Datatype t);
/* BUFFER when the send and receive data overlap (without MPI_IN_PLACE). */
int check_disjoint(const void *a, size_t na, MPI_Datatype ta, const void *b, size_t nb,
                   MPI_Datatype tb);
/* OP: MPI_OP_NULL, or a predefined operation that the MPI library refuses
 * on t's predefined base type (asked once per pair: src/core/errors.c);
 * TYPE: a predefined operation on a type mixing predefined types. */
int check_op(MPI_Op op, MPI_Datatype t);
/* 1 when the library takes a predefined operation on the predefined type
 * `base` (dt_base_type) but mpicoll leaves the call to the library's own
 * collective (MPI_REPLACE, MPI_NO_OP; MPICH's logical operations on
 * floating point); 0 for a user operation. */
int op_for_library(MPI_Op op, MPI_Datatype base);
/* Send and receive sides of a block collective: TRUNCATE when their bytes
 * differ, TYPE when their elements differ in size. */
int check_signatures(int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype);

int op_is_predefined(MPI_Op op);
/* The one predefined type t is built from, or MPI_DATATYPE_NULL when it
 * mixes several (or is too deep). */
MPI_Datatype dt_base_type(MPI_Datatype t);

#endif
