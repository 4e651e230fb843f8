/*
 * The node's shared segment of a communicator (plans' BUF_SHM): MPI-3
 * shared memory, MPI_Win_allocate_shared over the ranks of one node, with
 * a barrier of those ranks in it.
 *
 * A *channel* is a barrier of the node's ranks (one flag per rank, a
 * generation count) and a segment in two copies. Calls on one channel
 * alternate between its copies (shm_begin_call): a call's first writes
 * cannot race with the previous call's last reads, because every plan
 * that uses the segment passes at least one barrier (the checker enforces
 * it), and a rank that passes call k + 1's first barrier knows every rank
 * has finished call k. This holds as long as each rank runs the calls of
 * a channel one after the other, in the same order as the others.
 *
 * A communicator has two windows of channels:
 * - the blocking calls' channel, made by the probe (shm_state_make) with
 *   SHM_FIRST_SEGMENT bytes a copy, or taken over from a freed
 *   communicator of the same processes (its window, node communicator and
 *   channel state, kept idle by shm_state_free), and grown, collectively
 *   over the node, when a plan declares more (shm_reserve): blocking calls
 *   run one after the other;
 * - the requests' pool of SHM_REQ_CHANNELS channels of SHM_REQ_SEGMENT
 *   bytes a copy, made collectively over the node with the blocking
 *   channel's first growth (the selection: src/runtime/select.c), or the
 *   first time a forced request needs one (shm_requests_ready), never
 *   grown. A request is given the next channel in turn when it starts
 *   (shm_request_channel), and a ticket: its place among that channel's
 *   requests; every rank starts collectives on a communicator in the same
 *   order, so all give it the same channel and ticket. It runs on the
 *   channel when its ticket's turn comes (shm_chan_turn), once the
 *   requests given the channel before it have finished on this rank
 *   (shm_chan_done): a request whose channel is busy waits its turn
 *   without blocking the call that started it (src/runtime/request.c).
 *
 * Layout of a window, allocated by the node's first rank and seen by
 * every rank of the node at its own address: the channels' flags, one
 * cache line per rank and channel, then each channel's two copies.
 *
 * The barrier: each rank publishes its generation number in its flag
 * (C11 release store after MPI_Win_sync) and waits until every flag of
 * the channel holds at least that number (acquire loads, then
 * MPI_Win_sync), the MPI-3 shared-memory model's pattern with the window
 * locked for its whole life (MPI_Win_lock_all, MPI_MODE_NOCHECK). A
 * waiting rank yields the processor between polls, so that runs with more
 * ranks than cores do not crawl.
 */
#ifndef MPICOLL_SHM_H
#define MPICOLL_SHM_H

#include <mpi.h>

#include <stddef.h>

typedef struct shm_state shm_state;

/* Collective over comm (p ranks, this one `rank`, node_of: the node of
 * every rank; emulated: the nodes are MPICOLL_RANKS_PER_NODE's, not the
 * shared-memory domains): the ranks of each node get a node communicator
 * and a window, or take over an idle one that held the same processes
 * (shm_state_free) when the ranks of every node took the same (one
 * allreduce; else a second one, after the windows are made). Returns
 * MPI_SUCCESS with *st made, or an MPI error (out of memory, a failing
 * split). When the communicator cannot have segments, *st says why
 * (shm_missing), the same on every rank: under SMPI; a node (as
 * MPICOLL_RANKS_PER_NODE emulates it) that spans several shared-memory
 * domains; MPI_Win_allocate_shared failing on some node. `domain`:
 * MPI_COMM_NULL, or this rank's shared-memory domain of comm
 * (MPI_Comm_split_type, ranks in comm's order) when the node layout made
 * one, which then serves as the node's communicator (freed here when not
 * needed). */
int shm_state_make(MPI_Comm comm, int rank, int p, const int *node_of, int emulated,
                   MPI_Comm domain, shm_state **st);

/* The bytes of each copy of the blocking channel's segment when the probe
 * makes it (it grows when a plan needs more). */
#define SHM_FIRST_SEGMENT ((size_t)64 << 10)

/* Collective over the node's ranks: frees the requests' pool; keeps the
 * blocking channel's window (up to 1 MiB a copy; not on nodes emulated by
 * MPICOLL_RANKS_PER_NODE) and node communicator idle, for the next
 * communicator of the same processes to take; frees what it does not
 * keep. */
void shm_state_free(shm_state *st);

/* Frees the idle windows (MPI_Finalize; collective over their nodes). */
void shm_idle_free(void);

/* Why the communicator has no segments, or NULL. */
const char *shm_missing(const shm_state *st);

/* The blocking calls' channel. */
typedef struct shm_chan shm_chan;
shm_chan *shm_blocking(shm_state *st);

/* Makes each copy of the blocking channel's segment at least `bytes`
 * long. Collective over the node's ranks when it must grow: all of them
 * ask for the same bytes in the same call (their plans declare the same
 * size; the checker proves it). */
int shm_reserve(shm_state *st, size_t bytes);

/* Requests: channels in a pool, of fixed size. */
#define SHM_REQ_CHANNELS 4
#define SHM_REQ_SEGMENT ((size_t)1 << 20)   /* bytes of each copy of a channel */

/* Makes the requests' pool, collectively over the node's ranks, the first
 * time (then nothing). */
int shm_requests_ready(shm_state *st);

/* 1 when the requests' pool is made. */
int shm_requests_made(const shm_state *st);

/* The channel of the next request started on the communicator (they take
 * the pool's channels in turn) and the request's ticket on it, or NULL
 * when there is no pool. Only the thread that starts the communicator's
 * collectives calls it. */
shm_chan *shm_request_channel(shm_state *st, unsigned *ticket);

/* 1 when it is the ticket's turn on the channel: every request given the
 * channel before it is done (shm_chan_done, from any thread). */
int shm_chan_turn(shm_chan *c, unsigned ticket);
void shm_chan_done(shm_chan *c);

/* 1 when every request given a channel of the pool is done. */
int shm_requests_idle(const shm_state *st);

/* The copy of the channel's segment this call uses (they alternate). */
char *shm_begin_call(shm_chan *c);

/* Single copy (plans' plan_publish and plan_pull). shm_cma: 1 when the
 * node's ranks may read each other's memory with cross-memory attach
 * (process_vm_readv), as the probe found when the node's window was made
 * (collectively: the same answer on all the node's ranks; for tests,
 * MPICOLL_CMA_REFUSE=1 makes every rank's probe fail, =last the last
 * rank's of MPI_COMM_WORLD). shm_publish writes
 * this rank's record (PLAN_PUB_BYTES at rec): its process and its buffers
 * bufs[0..2] (plans' SEND, RECV, TMP). shm_pull copies `bytes` from buffer
 * `buf` of the rank whose record is at rec, at byte off, to dst:
 * MPI_SUCCESS, or MPI_ERR_OTHER when the kernel refuses. */
int shm_cma(const shm_state *st);
void shm_publish(void *rec, void *const *bufs);
int shm_pull(const void *rec, int buf, size_t off, void *dst, size_t bytes);

/* The channel's barrier: arrive once, then test until it is passed
 * (shm_passed, never blocks) or wait (shm_wait). */
void shm_arrive(shm_chan *c);
int shm_passed(shm_chan *c);
void shm_wait(shm_chan *c);
/* After shm_passed found the barrier not passed: 1 while the poller
 * should poll again at once rather than yield the processor, as shm_wait
 * does (its first polls, when the node's ranks have a core each). A
 * request's step tells the MPI library's progress loop (which yields when
 * idle, with Open MPI's mpi_yield_when_idle) through request_progress. */
int shm_spin_more(shm_chan *c);
/* A call that has nothing left to do after its last barrier (the root of
 * a two-copy bcast, the others of a reduce) arrives there, tests it once
 * and, not passed, leaves it (shm_leave) without waiting for the others:
 * the barrier only guards the copy of the segment that the channel's next
 * call writes (the one the call before this one used). The
 * channel's next call, before its first round, passes the barrier left
 * (shm_left: one was left), unless that round begins with a barrier of
 * its own, whose passing passes the one left. */
void shm_leave(shm_chan *c);
int shm_left(const shm_chan *c);

#endif
