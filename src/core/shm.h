/*
 * The node's shared segment of a communicator (plans' BUF_SHM): MPI-3
 * shared memory, MPI_Win_allocate_shared over the ranks of one node, with
 * a barrier of those ranks in it.
 *
 * Layout of the window, allocated by the node's first rank and seen by
 * every rank of the node at its own address: one cache line per rank (its
 * barrier flag), then two copies of the segment. Calls alternate between
 * the copies (shm_begin_call): a call's first writes cannot race with the
 * previous call's last reads, because every plan that uses the segment
 * passes at least one barrier (the checker enforces it), and a rank that
 * passes call k + 1's first barrier knows every rank has finished call k.
 *
 * The barrier: each rank publishes its generation number in its flag
 * (C11 release store after MPI_Win_sync) and waits until every flag of
 * the node holds at least that number (acquire loads, then MPI_Win_sync),
 * the MPI-3 shared-memory model's pattern with the window locked for its
 * whole life (MPI_Win_lock_all, MPI_MODE_NOCHECK). A waiting rank yields
 * the processor between polls, so that runs with more ranks than cores do
 * not crawl.
 */
#ifndef MPICOLL_SHM_H
#define MPICOLL_SHM_H

#include <mpi.h>

#include <stddef.h>

typedef struct shm_state shm_state;

/* Collective over comm (p ranks, this one `rank`, node_of: the node of
 * every rank): the ranks of each node get a node communicator and a
 * window. Returns MPI_SUCCESS with *st made, or an MPI error (out of
 * memory, a failing split). When the communicator cannot have segments,
 * *st says why (shm_missing), the same on every rank: under SMPI; a node
 * (as MPICOLL_RANKS_PER_NODE emulates it) that spans several
 * shared-memory domains; MPI_Win_allocate_shared failing on some node. */
int shm_state_make(MPI_Comm comm, int rank, int p, const int *node_of, shm_state **st);

/* Collective over the node's ranks (frees the window). */
void shm_state_free(shm_state *st);

/* Why the communicator has no segments, or NULL. */
const char *shm_missing(const shm_state *st);

/* Makes each copy of the segment at least `bytes` long. Collective over
 * the node's ranks when it must grow: all of them ask for the same bytes in
 * the same call (their plans declare the same size; the checker proves
 * it). */
int shm_reserve(shm_state *st, size_t bytes);

/* The copy of the segment this call uses (they alternate). */
char *shm_begin_call(shm_state *st);

/* The node's barrier: arrive once, then test until it is passed
 * (shm_passed, never blocks) or wait (shm_wait). */
void shm_arrive(shm_state *st);
int shm_passed(shm_state *st);
void shm_wait(shm_state *st);

#endif
