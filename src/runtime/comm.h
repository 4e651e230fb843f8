/*
 * Per-communicator state: the private duplicate on which all of mpicoll's
 * traffic runs, the settings check, the node layout, the plan cache, the
 * memory of the last choices, scratch and the tag sequence (comm.c). The
 * struct is open to the runtime's modules (select.c reads and fills the
 * choice memory); nothing outside src/runtime/ sees it.
 */
#ifndef MPICOLL_RUNTIME_COMM_H
#define MPICOLL_RUNTIME_COMM_H

#include <mpi.h>
#include <stdatomic.h>
#include "exec.h"
#include "../model/choose.h"

struct shm_state;
typedef struct shm_state shm_state;
struct call_memo;

#define PLAN_CACHE 8
#define CHOICE_CACHE NCOLLS     /* the last choice of every collective is remembered */
#define CHOICE_SPEC 64          /* longest algorithm named by a call that is remembered */

/* The last choice of one collective on the communicator and what it was
 * made from. select_choose is a function of the call_info and of settings
 * fixed at the first call, so the same inputs give the same choice:
 * repeated calls (the common case: the same size again and again) skip
 * the rules. */
typedef struct chosen {
    const coll_desc *c;         /* NULL: empty */
    char spec[CHOICE_SPEC];     /* the call's algorithm ("" for none) */
    call_info ci;
    choice ch;
} chosen;

typedef struct cached_plan {
    const coll_desc *coll;      /* NULL: empty slot */
    const coll_algo *algo;
    plan_args args;             /* the key, with the algorithm */
    size_t *counts;             /* with counts per rank: the key's count and displ,
                                 * scount and sdispl (args points here), owned */
    unsigned long long used;
    ready_plan rp;
} cached_plan;

/* A plan of the request cache: idle (its request was released), or out
 * with a live request, which gives it back when released. */
typedef struct lent_plan {
    cached_plan e;
    atomic_int out;
    unsigned gen;               /* keys the slot has had (a kept call names its plan by it) */
} lent_plan;

struct comm_state {
    MPI_Comm comm;
    int size, rank;
    void *scratch;
    size_t scratch_len;
    unsigned long long tick;
    cached_plan cache[PLAN_CACHE];
    lent_plan lent[PLAN_CACHE]; /* requests' plans, kept between requests */
    unsigned long long lent_tick;
    int *node_of;               /* made when an algorithm or a rule first needs it */
    MPI_Comm domain;            /* with node_of, when the shared-memory domains are the
                                 * nodes: this rank's, kept for the probe */
    int nnodes;
    int scattered_nodes;        /* a node's ranks are not consecutive */
    shm_state *shm;             /* the nodes' shared segments: made when an R_SHM
                                 * algorithm is first chosen */
    unsigned seq;               /* collectives started on the communicator */
    chosen choices[CHOICE_CACHE];
    const coll_algo *last_algo; /* what the last call chose (mpicoll_last_choice) */
    int last_params[PLAN_MAX_PARAMS];
    atomic_int refs;            /* the attribute's, and one per request */
    struct call_memo *memo[2 * NCOLLS];     /* each collective's last call in each form
                                             * (blocking, non-blocking: memo_index), to
                                             * run again (call.h), made when first kept */
    struct call_memo *armed;    /* the call under way keeps itself there (call_launch) */
    unsigned memo_epoch;        /* moves when what kept calls use changes: a cached plan
                                 * evicted, the scratch moved */
    int deleted;                /* its communicator freed (state_delete): kept by requests */
    struct comm_state **watch;  /* a front end's copy of this pointer (comm_state_watch) */
};

typedef struct comm_state comm_state;

/* The state of `comm` (created on first use): the private duplicate on which
 * all of mpicoll's traffic runs, size and rank. Its creation is collective
 * and checks first that every rank has the same settings
 * (comm_settings_agree). */
int comm_state_get(MPI_Comm comm, comm_state **st);

/* The state of comm in *st, made if `make` (comm_state_get), else NULL
 * when comm has none yet. */
int comm_state_find(MPI_Comm comm, int make, comm_state **st);

/* A front end keeps st in *slot (the Open MPI component's module of the
 * communicator, to skip the attribute's lookup): set to NULL when the
 * communicator's state is deleted (one slot a state). */
void comm_state_watch(comm_state *st, comm_state **slot);

/* The runtime is inside a call on this thread: a collective's
 * (coll_run), or the making of a communicator's state. The collectives it
 * makes itself meanwhile (the settings check, the private duplicate, the
 * node split, native) are the MPI library's own: a front end below the MPI
 * layer (the Open MPI component, whose collectives PMPI_ reaches) hands
 * them to the library's module instead of re-entering mpicoll, and takes
 * none of the communicators made meanwhile. Counted, since calls nest. */
void runtime_enter(void);
void runtime_leave(void);
int runtime_busy(void);

/* A thread's variable of the runtime's, read in every call: the initial
 * exec model (an offset from the thread pointer, no __tls_get_addr call),
 * which a library loaded by dlopen (the Open MPI component's) takes from
 * the static TLS the loader keeps spare: the runtime's are a few words.
 * Not under SMPI, which loads a copy of the program per rank. */
#ifdef SMPI_H
#define RUNTIME_TLS _Thread_local
#else
#define RUNTIME_TLS _Thread_local __attribute__((tls_model("initial-exec")))
#endif

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
 * src/runtime/shm.h), made when the selection first asked, or NULL. */
struct shm_state *comm_state_shm(const comm_state *st);

/* Scratch memory of at least `bytes` owned by the state (grows, never
 * shrinks; valid until the next call). NULL if out of memory. */
void *comm_state_scratch(comm_state *st, size_t bytes);

/* The tag of the next collective started on the communicator. Every rank
 * starts collectives on a communicator in the same order, so outstanding
 * collectives between the same ranks never match each other's messages. */
int comm_state_next_tag(comm_state *st);

/* The node of every rank (st->node_of, st->nnodes): see comm.c. */
int comm_state_layout(comm_state *st);

/* A shared-memory algorithm's parameter `cma` off when the node's kernel
 * refuses cross-memory attach (the same on all the node's ranks). */
void comm_cma_fallback(const comm_state *st, const coll_algo *algo, int *param);

/* This rank's plan for the choice: the cached one (*rp), or a request's
 * own (*own, and *rp = own): the idle plan of the same call the
 * communicator kept from an earlier request, with that request's scratch,
 * or one built now (and kept when the request is released, if a slot is
 * free or idle). A non-blocking call made again and again builds its plan
 * once. */
int comm_state_plan(comm_state *st, const coll_desc *c, const choice *ch, plan_args a,
                    const ready_plan **rp, ready_plan *own);

/* A request's plan given back: idle in its slot again (lent), or freed;
 * *rp is left empty. st may be NULL (nothing was lent). */
void comm_state_plan_drop(comm_state *st, ready_plan *rp);

/* The idle plan of slot `lease` (1 + its index) lent into *own, if the
 * slot still holds the key it had at generation `gen` (the plan of a call
 * kept to run again: call_memo): 1, else 0. */
int comm_state_plan_again(comm_state *st, int lease, unsigned gen, ready_plan *own);
unsigned comm_state_plan_gen(const comm_state *st, int lease);

#endif
