/*
 * mpicoll: MPI collective algorithms on any MPI's point-to-point layer.
 *
 * Every entry point has the semantics of the MPI collective it is named
 * after and returns an MPI error code; errors go through the
 * communicator's error handler, as MPI's own collectives do.
 *
 * Algorithm selection (see docs/selection.md):
 *   1. per call: the `algorithm` argument of the *_with entry points;
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

int mpicoll_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      MPI_Comm comm);

/* As mpicoll_allgather, with the algorithm named for this call:
 * "name[:param=value,...]" or an Open MPI numeric id ("4").
 * NULL or "auto" means the normal selection. */
int mpicoll_allgather_with(const char *algorithm,
                           const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm);

int mpicoll_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm);

/* As mpicoll_alltoall, with the algorithm named for this call (see
 * mpicoll_allgather_with). */
int mpicoll_alltoall_with(const char *algorithm,
                          const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm);

int mpicoll_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm);
int mpicoll_allreduce_with(const char *algorithm, const void *sendbuf, void *recvbuf,
                           int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

int mpicoll_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm);
int mpicoll_reduce_with(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);

int mpicoll_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int mpicoll_bcast_with(const char *algorithm, void *buffer, int count, MPI_Datatype datatype,
                       int root, MPI_Comm comm);

int mpicoll_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int mpicoll_reduce_scatter_block_with(const char *algorithm, const void *sendbuf,
                                      void *recvbuf, int recvcount, MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm);

/* ---- Introspection (tools, benchmarks, tests) ---------------------------
 * `collective` is a collective's name: "allgather", "alltoall", "allreduce",
 * "reduce", "bcast", "reduce_scatter_block". */

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

#ifdef __cplusplus
}
#endif
#endif
