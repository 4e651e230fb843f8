/*
 * mpicoll: MPI collective algorithms on any MPI's point-to-point layer.
 *
 * Every entry point has the semantics of the MPI collective it is named
 * after and returns an MPI error code; errors go through the
 * communicator's error handler, as MPI's own collectives do.
 *
 * Algorithm selection (see docs/selection.md):
 *   1. per call: the `algorithm` argument of the *_with entry points
 *      (blocking, non-blocking and persistent);
 *   2. forced from the environment: MPICOLL_ALLGATHER=name[:param=value,...]
 *      (names as Open MPI spells them, or Open MPI's numeric ids);
 *   3. a rules file: MPICOLL_RULES=path;
 *   4. the built-in rules (Open MPI's decision tree for allgather).
 * MPICOLL_FALLBACK=error|warn|silent says what happens when a forced
 * algorithm cannot run on the communicator (default: warn).
 * MPICOLL_VERBOSE=1 prints the rules in force and each call's choice.
 */
#ifndef MPICOLL_H
#define MPICOLL_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPICOLL_VERSION "0.1.0"

/* ---- The collectives ------------------------------------------------------
 * allgather, alltoall, allreduce, reduce, bcast, reduce_scatter_block,
 * allgatherv, reduce_scatter, scan, exscan, gather, scatter, barrier: the
 * rows of mpicoll_collectives.h, each with its signature family. Each
 * collective has six entry points, with the semantics of the MPI
 * collective of its MPI name:
 *   int mpicoll_<name>(ARGS);                                  blocking
 *   int mpicoll_i<name>(ARGS, mpicoll_request *request);       non-blocking
 *   int mpicoll_<name>_init(ARGS, mpicoll_request *request);   persistent
 * and each of them with the algorithm named for this call:
 *   int mpicoll_<name>_with(const char *algorithm, ARGS);
 *   int mpicoll_i<name>_with(const char *algorithm, ARGS, mpicoll_request *request);
 *   int mpicoll_<name>_init_with(const char *algorithm, ARGS, mpicoll_request *request);
 * where `algorithm` is "name[:param=value,...]" or an Open MPI numeric id
 * ("4"); NULL or "auto" means the normal selection.
 * where ARGS are those of its family, as MPI's:
 *   block             const void *sendbuf, int sendcount, MPI_Datatype sendtype,
 *                     void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm
 *   reduction         const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
 *                     MPI_Op op, MPI_Comm comm
 *                     (reduce_scatter_block: count is the recvcount of each rank's block)
 *   rooted_reduction  const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
 *                     MPI_Op op, int root, MPI_Comm comm
 *   bcast             void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm
 *   vblock            const void *sendbuf, int sendcount, MPI_Datatype sendtype,
 *                     void *recvbuf, const int recvcounts[], const int displs[],
 *                     MPI_Datatype recvtype, MPI_Comm comm
 *   vreduction        const void *sendbuf, void *recvbuf, const int recvcounts[],
 *                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm
 *   rooted_block      const void *sendbuf, int sendcount, MPI_Datatype sendtype,
 *                     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
 *                     MPI_Comm comm
 *   barrier           MPI_Comm comm
 *   rooted_vblock     const void *sendbuf, int sendcount, MPI_Datatype sendtype,
 *                     void *recvbuf, const int recvcounts[], const int displs[],
 *                     MPI_Datatype recvtype, int root, MPI_Comm comm
 *   vscatter          const void *sendbuf, const int sendcounts[], const int displs[],
 *                     MPI_Datatype sendtype, void *recvbuf, int recvcount,
 *                     MPI_Datatype recvtype, int root, MPI_Comm comm
 *   vexchange         const void *sendbuf, const int sendcounts[], const int sdispls[],
 *                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
 *                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm
 * (allgather, alltoall: block; allreduce, reduce_scatter_block, scan, exscan:
 * reduction; reduce: rooted_reduction; bcast: bcast; allgatherv: vblock;
 * reduce_scatter: vreduction; gather, scatter: rooted_block; barrier:
 * barrier; gatherv: rooted_vblock; scatterv: vscatter; alltoallv:
 * vexchange), so that, for example:
 *   int mpicoll_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
 *                         void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
 *   int mpicoll_ireduce(const void *sendbuf, void *recvbuf, int count,
 *                       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
 *                       mpicoll_request *request);
 *   int mpicoll_bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
 *                          MPI_Comm comm, mpicoll_request *request);
 *
 * The list, MPICOLL_COLLECTIVES(X), is in mpicoll_collectives.h.
 */
#include "mpicoll_collectives.h"

/* The arguments of each family (see above). */
#define MPICOLL_ARGS_block const void *sendbuf, int sendcount, MPI_Datatype sendtype, \
    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm
#define MPICOLL_ARGS_reduction const void *sendbuf, void *recvbuf, int count, \
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm
#define MPICOLL_ARGS_rooted_reduction const void *sendbuf, void *recvbuf, int count, \
    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm
#define MPICOLL_ARGS_bcast void *buffer, int count, MPI_Datatype datatype, int root, \
    MPI_Comm comm
#define MPICOLL_ARGS_vblock const void *sendbuf, int sendcount, MPI_Datatype sendtype, \
    void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, \
    MPI_Comm comm
#define MPICOLL_ARGS_vreduction const void *sendbuf, void *recvbuf, const int recvcounts[], \
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm
#define MPICOLL_ARGS_rooted_block const void *sendbuf, int sendcount, MPI_Datatype sendtype, \
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm
#define MPICOLL_ARGS_barrier MPI_Comm comm
#define MPICOLL_ARGS_rooted_vblock const void *sendbuf, int sendcount, MPI_Datatype sendtype, \
    void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, \
    int root, MPI_Comm comm
#define MPICOLL_ARGS_vscatter const void *sendbuf, const int sendcounts[], const int displs[], \
    MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, \
    MPI_Comm comm
#define MPICOLL_ARGS_vexchange const void *sendbuf, const int sendcounts[], \
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], \
    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm

/* Requests of the non-blocking and persistent collectives. The same
 * algorithms and selection as the blocking calls (MPICOLL_<COLL>, rules,
 * fallbacks). A request advances when it is tested or waited on, or
 * through mpicoll_progress(); no helper thread. Collectives on one
 * communicator must be started in the same order on every rank (MPI's
 * rule); any number may be outstanding, completed in any order. Errors of
 * the request calls go to MPI_COMM_WORLD's error handler. Persistent
 * (MPI-4 style): the plan is built and the buffers bound once; each
 * mpicoll_start runs it with no allocation and no re-planning. */
typedef struct mpicoll_request_s *mpicoll_request;
#define MPICOLL_REQUEST_NULL ((mpicoll_request)0)

/* The entry points of every collective (the expanded forms are above). */
#define MPICOLL_DECLARE_(name, Name, family)                                              \
    int mpicoll_##name(MPICOLL_ARGS_##family);                                             \
    int mpicoll_##name##_with(const char *algorithm, MPICOLL_ARGS_##family);               \
    int mpicoll_i##name(MPICOLL_ARGS_##family, mpicoll_request *request);                  \
    int mpicoll_i##name##_with(const char *algorithm, MPICOLL_ARGS_##family,               \
                               mpicoll_request *request);                                  \
    int mpicoll_##name##_init(MPICOLL_ARGS_##family, mpicoll_request *request);            \
    int mpicoll_##name##_init_with(const char *algorithm, MPICOLL_ARGS_##family,           \
                                   mpicoll_request *request);
MPICOLL_COLLECTIVES(MPICOLL_DECLARE_)
#undef MPICOLL_DECLARE_

int mpicoll_start(mpicoll_request *request);
int mpicoll_test(mpicoll_request *request, int *flag);
int mpicoll_wait(mpicoll_request *request);
int mpicoll_testall(int count, mpicoll_request requests[], int *flag);
int mpicoll_waitall(int count, mpicoll_request requests[]);
/* Frees an inactive request (a persistent one, or one not yet started). */
int mpicoll_request_free(mpicoll_request *request);
/* Advances every active request one step, without blocking. */
int mpicoll_progress(void);

/* ---- Introspection (tools, benchmarks, tests) ---------------------------
 * `collective` is a collective's name: "allgather", "alltoall", "allreduce",
 * "reduce", "bcast", "reduce_scatter_block", "barrier". */

/* Number of algorithms of a collective, or -1 if the collective is unknown. */
int mpicoll_algorithm_count(const char *collective);

/* Name of algorithm i (0-based, table order), or NULL. */
const char *mpicoll_algorithm_name(const char *collective, int i);

/* 1 if the algorithm named by `spec` runs as itself on a communicator of
 * comm_size ranks (its declared restrictions hold), 0 if the selector would
 * replace it by its fallback, -1 if `spec` is not a valid algorithm spec. */
int mpicoll_algorithm_applicable(const char *collective, const char *spec,
                                 int comm_size);

/* The algorithm the automatic selection (rules file or built-in rules,
 * without MPICOLL_<COLL> forcing) runs for comm_size ranks and `bytes`
 * (the bytes of one rank's block for allgather and alltoall, of the whole
 * vector for the others) on one node, for a commutative operation,
 * written as "name[:param=value,...]" into buf. Returns 0, or -1 on a bad
 * argument. */
int mpicoll_auto_choice(const char *collective, int comm_size, size_t bytes,
                        char *buf, size_t buflen);

/* The number of nodes `comm` spans, as mpicoll's selection sees them
 * (nodes of MPICOLL_RANKS_PER_NODE consecutive ranks when it is set),
 * into *nnodes. Collective over comm the first time (an mpicoll
 * collective on comm may already have asked). Returns an MPI error code. */
int mpicoll_comm_nodes(MPI_Comm comm, int *nnodes);

/* 1 when the launcher says this node runs more ranks than it has
 * processors: mpicoll's blocking waits then test and yield the processor
 * instead of blocking in the MPI library (whose waits may spin), and a
 * program's own waits should do the same. */
int mpicoll_node_oversubscribed(void);

/* The time of the shared-memory plans' phases, summed over this process's
 * calls while recording (mpicoll bench --evidence): copies into and out of
 * the node's segment, single-copy pulls, and waits (node barriers and the
 * rounds' messages). Off by default, and then no clock is read. Not
 * thread-safe: a diagnostic. */
typedef struct mpicoll_phases {
    long calls;                 /* calls of plans with a segment, completed */
    double copy_in, copy_out, pull, wait;   /* seconds */
    void *seg;                  /* the last call's copy of the segment */
} mpicoll_phases;
/* on: zeroes the sums and records; 0: stops. */
void mpicoll_phases_record(int on);
void mpicoll_phases_get(mpicoll_phases *out);

/* The algorithm the last mpicoll collective on `comm` ran (after the
 * selection and any fallback), as "name[:param=value,...]" into buf: local,
 * no communication. Returns 0, or -1 when no mpicoll collective has run on
 * comm (or on a bad argument). */
int mpicoll_last_choice(MPI_Comm comm, char *buf, size_t buflen);

#ifdef __cplusplus
}
#endif
#endif
