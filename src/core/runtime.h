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

#include "coll.h"
#include "rules.h"

/* ---- selection ---------------------------------------------------------- */

typedef struct choice {
    const coll_algo *algo;
    int params[PLAN_MAX_PARAMS];
    const char *reason;         /* "forced", "rule" or "fallback" */
    char detail[400];           /* where the choice came from, or why it fell back */
    const coll_algo *warn_from; /* a forced algorithm replaced under MPICOLL_FALLBACK=warn */
} choice;

/* Chooses the algorithm for one call: the call's spec (NULL or "auto": none)
 * > MPICOLL_<COLL> > MPICOLL_RULES > built-in rules, then the restriction
 * check and fallback policy. Returns MPI_SUCCESS, MPI_ERR_ARG (a bad spec,
 * environment variable or rules file: `err` says which) or
 * MPI_ERR_UNSUPPORTED_OPERATION (MPICOLL_FALLBACK=error). With
 * `use_env` == 0 the MPICOLL_<COLL> variable is ignored. */
int select_choose(const coll_desc *c, const char *spec, int use_env, int p, size_t bytes,
                  choice *ch, char *err, size_t errlen);

/* On rank 0: the fallback warning (once per algorithm and process), and
 * with MPICOLL_VERBOSE the rules in force once, then one line per call. */
void select_log(const coll_desc *c, const choice *ch, int p, size_t bytes, int rank);

/* Prints "mpicoll: error: ..." on stderr (used on rank 0 of a failing call). */
void mpicoll_print_error(const char *msg);

/* ---- per-communicator state --------------------------------------------- */

typedef struct comm_state comm_state;

/* The state of `comm` (created on first use): the private duplicate on which
 * all of mpicoll's traffic runs, size and rank. */
int comm_state_get(MPI_Comm comm, comm_state **st);
MPI_Comm comm_state_comm(const comm_state *st);
int comm_state_size(const comm_state *st);
int comm_state_rank(const comm_state *st);

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

/* The plan for this rank (from the cache, or built once). */
int comm_state_plan(comm_state *st, const coll_desc *c, const choice *ch, size_t block,
                    int inplace, const ready_plan **rp);

/* Runs a ready plan on the state's private communicator. */
int comm_state_run(comm_state *st, const coll_desc *c, const ready_plan *rp,
                   void *const bufs[PLAN_NBUF]);

/* ---- execution ---------------------------------------------------------- */

/* Requests a plan needs in its busiest round (messages over 1 GiB go in
 * several pieces). */
size_t exec_requests(const plan *pl);

/* The derived datatypes of a plan's segmented messages (indexed by the
 * op's first segment; NULL when it has none), made once per cached plan. */
int exec_types_make(const plan *pl, MPI_Datatype **types);
void exec_types_free(const plan *pl, MPI_Datatype *types);

int exec_plan(const plan *pl, void *const bufs[PLAN_NBUF], MPI_Comm comm, int tag,
              MPI_Request *reqs, const MPI_Datatype *types);

/* ---- datatypes ---------------------------------------------------------- */

typedef struct dt_view {
    MPI_Aint extent, true_lb;
    int size;
    int contig;                 /* count elements are size·count bytes at buf + true_lb */
} dt_view;

int dt_view_get(MPI_Datatype t, dt_view *v);
int dt_pack(const void *buf, int count, MPI_Datatype t, void *out, size_t outlen);
int dt_unpack(const void *in, size_t inlen, void *buf, int count, MPI_Datatype t);

/* ---- entry points ------------------------------------------------------- */

/* The whole call of a collective of equal blocks per rank (allgather,
 * alltoall), with MPI's semantics: checks, selection, datatypes, in place,
 * errors raised on comm. */
int blockcoll_call(const coll_desc *c, const char *spec, const void *sbuf, int scount,
                   MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                   MPI_Comm comm);

/* ---- errors ------------------------------------------------------------- */

/* Raises `code` on comm's error handler (MPI_COMM_WORLD's when comm is
 * MPI_COMM_NULL) and returns it. */
int mpicoll_raise(MPI_Comm comm, int code);

/* Argument checks shared by entry points: MPI_SUCCESS or an error class. */
int check_comm(MPI_Comm comm);
int check_count_type(int count, MPI_Datatype t);

#endif
