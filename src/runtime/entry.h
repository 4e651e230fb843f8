/*
 * The whole call of a collective, with MPI's semantics: one skeleton
 * (entry.c: coll_entry) and the path of each signature family, its own
 * argument checks and run (blockcoll.c, veccoll.c, vcoll.c, vxcoll.c,
 * barriercoll.c).
 */
#ifndef MPICOLL_RUNTIME_ENTRY_H
#define MPICOLL_RUNTIME_ENTRY_H

#include "call.h"
#include "args.h"

/* What differs from one signature family to another; coll_entry does the
 * rest (the mode, the communicator's check, the request, the
 * communicator's state, the end of the call, the error raised). */
typedef struct entry_path {
    /* MPI's argument checks of the family, all local, once the
     * communicator's passed (p ranks, this rank me): MPI_SUCCESS or an
     * error class. NULL: none (barrier). */
    int (*check)(const coll_args *a, int p, int me);
    /* The call on the communicator's state st, once checked and its
     * request (if any) made: selection, the plan, datatypes, in place, run
     * now or handed to the request (call_launch, call_empty); or, when the
     * selection chose native, the MPI library's own (call_native). */
    int (*run)(const coll_args *a, const call_mode *mode, comm_state *st);
    /* 1 if mpicoll's own algorithms take the call's datatype and
     * operation; NULL: all that pass the checks. */
    int (*supported)(const coll_args *a);
} entry_path;

/* block, rooted_block: equal blocks per rank (allgather, alltoall; gather
 * and scatter at a root) */
extern const entry_path blockcoll_path;
/* reduction, rooted_reduction, bcast, vreduction: one vector per rank,
 * with or without an operation and a root (allreduce, reduce, bcast,
 * reduce_scatter_block, scan, exscan; reduce_scatter's counts per rank) */
extern const entry_path veccoll_path;
/* vblock, rooted_vblock, vscatter: counts per rank on one side
 * (allgatherv, gatherv: the receive side; scatterv: the send side),
 * significant on every rank or at the root only */
extern const entry_path vcoll_path;
/* vexchange: counts per pair of ranks on both sides (alltoallv) */
extern const entry_path vxcoll_path;
/* barrier: the communicator alone, a plan of synchronisation messages
 * (no data, no buffers) */
extern const entry_path barrier_path;

/* The whole call a: checks, selection, datatypes, in place, errors raised
 * on a->comm; run now or as a request (mode: blocking, non-blocking or
 * persistent). */
int coll_entry(const coll_args *a, const call_mode *mode);

/* coll_entry without raising: the error is returned only (a front end
 * whose caller raises it: the Open MPI component, under Open MPI's own
 * MPI_ layer). */
int coll_run(const coll_args *a, const call_mode *mode);

/* 1 if mpicoll's own algorithms take a's datatype and operation (the
 * entry path's `supported`): else the vector path fails with
 * MPI_ERR_TYPE, or runs the library's own collective (op_for_library). */
int coll_supported(const coll_args *a);

/* 1 if mpicoll takes the call a in a front end over the MPI library's
 * entry points (the preload library, the Open MPI component): on an
 * intracommunicator, with a datatype and operation its algorithms take
 * (coll_supported). Else the library's own collective runs, and, with
 * MPICOLL_VERBOSE and not `quiet`, rank 0 of a->comm says why. An invalid
 * communicator goes to the library, which reports it; MPI_COMM_NULL to
 * mpicoll when it would take the call, whose checks report it. */
int coll_takes(const coll_args *a, int quiet);

/* A collective's last call on the communicator again (kept by coll_run
 * when its handles are predefined and it has no arrays of counts): run
 * (blocking) or started (non-blocking) as it was, its code in *rc;
 * returns 1. 2 when that call ran the library's own collective with the
 * user's arguments: the caller runs it again (call_native_again, or a
 * front end its own way; a request only for a front end that said it
 * would, call_mode.lib_direct). 0 when a is not that call (nothing done):
 * coll_run's whole path is needed. A front end may try it before
 * coll_takes, whose answer it implies. */
int coll_again(const coll_args *a, const call_mode *mode, int *rc);

/* What coll_again would return, nothing else done (the choice restored
 * for mpicoll_last_choice when 2): for a front end that must prepare its
 * request before coll_again may start one (the preload library's
 * generalized request), and starts the library's own itself
 * (call_mode.lib_direct). 1 also says mpicoll takes the call (as
 * coll_takes would). */
int coll_again_kind(const coll_args *a, const call_mode *mode);

/* The blocks of counts[r] elements at displs[r] (elements of a type of
 * view cv, p of them) in bytes: count[r], and displ[r] from the lowest
 * block when they tile a range of the user's buffer with a contiguous
 * type (returns 1, *first: the lowest block's offset in bytes), else
 * packed in rank order (returns 0; -1: out of memory). A block of no
 * bytes lies at 0. vcoll.c's, shared with vxcoll.c. */
struct dt_view;
int vcoll_layout(const int *counts, const int *displs, int p, const struct dt_view *cv,
                 size_t *count, size_t *displ, MPI_Aint *first);

#endif
