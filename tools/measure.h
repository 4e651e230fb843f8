/*
 * The measuring core shared by `mpicoll bench` and `mpicoll tune`: the
 * collectives as the harness calls them (the MPI library's own or
 * mpicoll's with a named algorithm; blocking, non-blocking or
 * persistent), their data and its validation, and the timing of several
 * cases at one size, interleaved, with statistics over the iterations.
 *
 * Timing follows the OSU micro-benchmarks: warm-up, then timed
 * iterations, each preceded by a barrier and timed on every rank; an
 * iteration's figure is the slowest rank's time. The cases of one size
 * alternate in chunks of iterations (round-robin), so that a drift of
 * the machine spreads over all of them.
 *
 * mcoll.c holds the collectives (their calls, data and checks), cases.c
 * the cases, measure.c the buffers, the validation and the timing,
 * progress.c the progress line.
 */
#ifndef MPICOLL_TOOLS_MEASURE_H
#define MPICOLL_TOOLS_MEASURE_H

#include <mpi.h>
#include <mpicoll.h>

#include <stddef.h>
#include <stdio.h>

/* ---- element types (-T) ------------------------------------------------ */

enum { T_CHAR, T_INT, T_FLOAT, T_DOUBLE, NTYPES };

struct etype {
    const char *name;
    MPI_Datatype type; /* set by measure_init: handles are not constants everywhere */
    size_t size;
};

extern struct etype etypes[NTYPES];

/* MPI_Init_thread, the element types, this rank and the number of ranks.
 * MPI_COMM_WORLD returns errors: mpicoll's request calls report to its
 * handler, and a failing non-blocking case must show as failed, not abort
 * the run (the harness's own calls go through a communicator whose
 * errors are fatal). */
void measure_init(int *argc, char ***argv, int *rank, int *nranks);

/* ---- collectives -------------------------------------------------------- */

/* How a case runs: one blocking call per iteration; a non-blocking start
 * and its wait (with, in the overlap phase, a computation between them);
 * a persistent request, made once per size, started and waited for. */
enum { MODE_BLOCKING, MODE_NB, MODE_PERSISTENT };

/* The root of reduce, bcast, gather and scatter. */
#define MEASURE_ROOT 0

/* One call of a collective: `count` is its count argument (sendcount =
 * recvcount for allgather and alltoall, recvcount for reduce_scatter_block)
 * in elements of `type`. */
struct call {
    const char *spec;        /* the algorithm ("native": the MPI library's own, through
                              * mpicoll's native path, src/runtime/native.c) */
    int mode;                /* MODE_PERSISTENT: makes the request */
    const void *sendbuf;     /* or MPI_IN_PLACE */
    void *recvbuf;
    int count;
    MPI_Datatype type;
    MPI_Comm comm;
    mpicoll_request *creq;   /* mpicoll's non-blocking or persistent call */
    const int *counts, *displs;  /* counts per rank (allgatherv): `count` each, in rank
                                  * order (as OSU's osu_allgatherv) */
};

/* What MPI_IN_PLACE means for a collective's input: */
enum {
    IP_NONE,       /* nothing (bcast) */
    IP_OWN_BLOCK,  /* the rank's block sits at its place in the receive buffer (allgather) */
    IP_WHOLE,      /* the receive buffer holds the send data */
    IP_ROOT,       /* the root's receive buffer holds its send data; others send as usual */
    IP_ROOT_RECV,  /* the root's receive buffer is MPI_IN_PLACE: its block stays in its send
                    * buffer (scatter) */
};

struct mcoll {
    const char *name;
    int (*call)(const struct call *c);
    /* 1 if recvbuf, on rank `rank`, holds what the collective must deliver
     * when the send buffers hold what the harness fills them with. */
    int (*check)(const unsigned char *recvbuf, size_t count, const struct etype *t, int rank,
                 int nranks);
    int send_per_peer; /* the send buffer holds one block per rank */
    int recv_per_peer; /* the receive buffer holds one block per rank */
    int vector;        /* typed values and MPI_SUM; else bytes (MPI_BYTE) */
    int default_type;
    int inplace;       /* what -l does (IP_*) */
    const char *size_is; /* what a row's size counts, for headers */
    int no_data;       /* no data and no size (barrier): one row, of count 0 */
};

/* The number of nodes comm spans, as mpicoll sees them (shared-memory
 * domains, or MPICOLL_RANKS_PER_NODE); collective. */
int measure_nodes(MPI_Comm comm);

/* By name ("allgather", ...), or NULL. */
const struct mcoll *mcoll_find(const char *name);
/* The collectives, in order, for messages and help (NULL-terminated). */
extern const struct mcoll *const mcolls[];
/* Their number (the rows of include/mpicoll_collectives.h). */
#define MCOLL_ONE_(name, Name, family) +1
enum { MCOLLS = 0 MPICOLL_COLLECTIVES(MCOLL_ONE_) };
#undef MCOLL_ONE_

/* 1 if -l (MPI_IN_PLACE) means something for c (not for bcast). */
int mcoll_has_inplace(const struct mcoll *c);

/* Elements of one rank's send data for a call of count `count`. */
size_t mcoll_send_elems(const struct mcoll *c, int nranks, size_t count);
/* Elements of one rank's receive buffer for a call of count `count`. */
size_t mcoll_recv_elems(const struct mcoll *c, int nranks, size_t count);
/* The size of a row in bytes: one block (allgather, alltoall) or the
 * whole vector (the others; all p blocks for reduce_scatter_block), the
 * measure that the rules' bytes= and mpicoll_auto_choice use. */
size_t mcoll_row_bytes(const struct mcoll *c, const struct etype *t, int nranks, size_t count);
/* The call count of a row of `bytes` (0 when it holds no element). */
size_t mcoll_count_for(const struct mcoll *c, const struct etype *t, int nranks, size_t bytes);

/* Writes the first `elems` elements of `rank`'s send data (what the checks
 * expect the ranks to send) into buf: bytes for the block collectives,
 * values of type t for the vector ones. */
void mcoll_fill(const struct mcoll *c, const struct etype *t, unsigned char *buf, int rank,
                size_t elems);
/* 1 if buf still holds what mcoll_fill writes there (a call left its send
 * data intact). */
int mcoll_filled(const struct mcoll *c, const struct etype *t, const unsigned char *buf,
                 int rank, size_t elems);

/* ---- cases -------------------------------------------------------------- */

struct stats {
    double median, min, avg, max; /* microseconds */
};

struct result {
    int valid;        /* every validation passed and no call failed */
    int iters;        /* the timed iterations each figure rests on */
    struct stats time; /* per call; MODE_NB: the pure communication (start + wait) */
    struct stats overall, compute; /* MODE_NB: with the computation between start and wait */
    double overlap;   /* MODE_NB: percent, OSU's max(0, 100 (1 - (overall - compute) / pure)) */
};

struct mcase {
    int native;        /* the MPI library's own collective: the algorithm native */
    char spec[64];     /* "auto", "name" or "name:param=value" ("native" for native) */
    int mode;
    char label[80];    /* as printed: "native", "ring", "k_bruck:k=8", "ring/persistent" */
    struct result res; /* of the size measured last */
    char ran[64];      /* mpicoll cases: the algorithm its validation call ran
                        * at that size (mpicoll_last_choice), "" if unknown */
};

struct caselist {
    struct mcase *v;
    int n, cap;
};

/* Appends a case (unless one with the same label is there); spec "native" is
 * the native case whatever `native` says (one column). 0, or -1 out of memory. */
int cases_add(struct caselist *cl, int native, const char *spec, int mode);
/* Checks the algorithm `spec` of `coll` ("name[:param=value,...]", the name
 * an alias or an Open MPI id too) and writes it into out with the
 * algorithm's own name: 0, or -1 with the library's message in err. */
int cases_spec(const char *coll, const char *spec, char *out, size_t outlen, char *err,
               size_t errlen);
/* 1 if the algorithm `spec` of `coll` runs as itself (its restrictions
 * hold) on nranks ranks spanning nnodes nodes, in this mode; 0 if the
 * selector would run its fallback instead; -1 if spec is no algorithm. */
int cases_applicable(const char *coll, const char *spec, int nranks, int nnodes, int mode);
/* 1 if every parameter of the algorithm `spec` of `coll` has its default
 * value (an algorithm without parameters: 1); 0 otherwise or if spec is no
 * algorithm. */
int cases_default_params(const char *coll, const char *spec);
/* Appends every algorithm of `coll` that runs as itself (cases_applicable),
 * with its default parameters, or, with `sweep`, once per value of each
 * parameter's sweep (see measure_sweep_values). 0, or -1 out of memory. */
int cases_add_all(struct caselist *cl, const char *coll, int nranks, int nnodes, int sweep,
                  int mode);
void cases_free(struct caselist *cl);

/* The values the sweep tries for parameter `param` of algorithm `algo`
 * (at most max of them, ascending) into out; returns how many, 0 if the
 * algorithm has no such parameter. */
int measure_sweep_values(const char *coll, const char *algo, int param, int *out, int max);

/* 1 if the two specs of one algorithm of `coll` make the same plan on
 * every rank of a communicator of nranks ranks, for calls of `count`
 * elements of esize bytes: timing both would measure one thing twice
 * (a radix at or above p, a segment at or above the message). */
int cases_same_plan(const char *coll, const char *spec_a, const char *spec_b, int nranks,
                    size_t count, size_t esize);

/* ---- progress (rank 0, stderr, only when it is a terminal) -------------- */

struct progress {
    int on;
    double start, last;        /* seconds (a monotonic clock) of the start and the last update */
    double total, done;        /* work units: see measure_units */
    int shown;                 /* a line is on the screen */
};

void progress_init(struct progress *pg, int rank);
/* Prints "what, elapsed, estimated remaining" over the previous line (at
 * most four times a second). */
void progress_show(struct progress *pg, const char *what);
void progress_end(struct progress *pg);
/* The work units of `calls` calls of a collective moving `bytes` per
 * row on nranks ranks: a rough cost model, for the estimate only. */
double measure_units(size_t bytes, int nranks, double calls);

/* ---- measuring ---------------------------------------------------------- */

/* The cases of a size alternate in chunks of at most this many iterations
 * (fewer when a case has fewer than 10 x this many). */
#define MEASURE_CHUNK_MAX 10

/* Iteration counts: OSU's defaults are 1000 timed + 100 warm-up up to
 * MEASURE_LARGE_BYTES, 100 + 10 above. */
#define MEASURE_LARGE_BYTES 8192
struct counts {
    int iters_small, warmup_small, iters_large, warmup_large;
};
int counts_iters(const struct counts *k, size_t bytes);
int counts_warmup(const struct counts *k, size_t bytes);

struct meas {
    const struct mcoll *coll;
    const struct etype *type;
    int inplace;       /* -l */
    int check_chunks;  /* -c: validate after every chunk too */
    int no_validate;   /* --no-validate: one untimed call instead (SMPI shared memory) */
    long delay_us;     /* sleep after each iteration, outside the timed region */
    int rank_mean;     /* an iteration's figure: the ranks' mean, not the slowest's */
    struct counts counts;
    struct progress *pg;
    /* set by meas_open: */
    MPI_Comm harness;  /* barriers and reductions (errors fatal) */
    MPI_Comm comm;     /* the measured calls (errors returned) */
    int rank, nranks;
    size_t max_count;
    unsigned char *sendbuf, *recvbuf;
    size_t room;       /* bytes of recvbuf before its guard */
    int *vcounts;      /* counts and displacements per rank (struct call), for the
                        * size being measured */
};

/* Allocates the buffers for calls of up to max_count on `comm` (the
 * ranks that measure) and the communicators; collective over comm.
 * Returns 1 if every rank succeeded. */
int meas_open(struct meas *m, MPI_Comm comm, size_t max_count);
void meas_close(struct meas *m);

/* Measures every case at call count `count`: validates each (all ranks
 * agree), then times the valid ones interleaved, and leaves in each
 * case's res the statistics of the slowest rank's time per iteration
 * (known on every rank). Shows progress as "label: what". */
void meas_size(struct meas *m, struct mcase *cases, int ncases, size_t count,
               const char *label);

/* The units meas_size will account for (for progress totals). */
double meas_size_units(const struct meas *m, const struct mcase *cases, int ncases,
                       size_t count);

#endif
