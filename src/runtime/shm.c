/* The node's shared segment and its barrier (see shm.h). */
#define _GNU_SOURCE     /* process_vm_readv */
#include "shm.h"
#include "native.h"
#include "errors.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/uio.h>
#endif

/* Under valgrind, a byte of the segment that another process wrote keeps,
 * in this process's shadow memory, the state of this process's own last
 * store there (valgrind cannot see the other process's): data copied out
 * would be reported as uninitialised where this process last stored
 * uninitialised bytes (the gaps of a scratch buffer). Past a barrier every
 * byte of the segment is what the node's ranks wrote: defined. Outside
 * valgrind the client request is a few instructions. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define SEGMENT_WRITTEN(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED(p, n))
#endif
#endif
#ifndef SEGMENT_WRITTEN
#define SEGMENT_WRITTEN(p, n) ((void)(p), (void)(n))
#endif

/* A barrier flag per rank, each on its own pair of cache lines (the
 * adjacent-line prefetcher pulls lines in pairs). */
#define LINE 128
/* Copies of the segment grow to at least twice their size, in steps of
 * this many bytes, so that a ladder of sizes reallocates a few times. */
#define GROW_STEP ((size_t)64 << 10)
/* Polls of a barrier before its first yield, when the node's ranks have a
 * core each. */
#define SPIN 2000

static int spin_polls(int q)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 && q <= cpus ? SPIN : 0;
}

/* A hint to the core that this is a polling loop. */
static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

struct shm_chan {
    MPI_Win win;
    char *flags;                /* q cache lines, one a rank */
    char *seg;                  /* two copies of `half` bytes */
    size_t half;
    int q, me;
    int spin;                   /* polls before the first yield */
    int polls;                  /* of the barrier under way, by shm_spin_more */
    uint64_t gen;               /* barriers begun */
    int next;                   /* the first flag not yet seen at gen */
    int left;                   /* gen was arrived at and left unpassed (shm_leave) */
    int parity;
    unsigned issued;            /* a pool's channel: requests given it (their tickets) */
    atomic_uint turn;           /* the ticket whose turn it is: requests done with it */
};

/* A window of channels (see shm.h). */
typedef struct window {
    MPI_Win win;
    int locked;
    char *base;                 /* at this rank's address */
} window;

struct shm_state {
    const char *missing;
    MPI_Comm node;              /* the node's ranks */
    int q, me;                  /* their number, this rank among them */
    window bw, pw;              /* the blocking channel's, the requests' pool */
    shm_chan blocking;
    shm_chan pool[SHM_REQ_CHANNELS];
    int pool_made;
    unsigned started;           /* requests started on a pool channel */
    uint64_t id;                /* of the windows of the communicator that made them,
                                 * the same on all its ranks */
    MPI_Group members;          /* the node's processes (idle windows are matched on it);
                                 * MPI_GROUP_NULL: not to be kept idle (emulated nodes,
                                 * which take no idle window either) */
    shm_state *next_idle;
    int cma;                    /* the node's ranks read each other's memory (cma_probe) */
};

/* The blocking windows of freed communicators, with their node
 * communicators and channel states, for the next communicator of the same
 * processes to take (shm_state_make): making a window costs more than
 * the four collectives a short-lived communicator may run. Freed at
 * MPI_Finalize (shm_idle_free), or with the communicator when larger than
 * IDLE_MAX bytes a copy. */
#define IDLE_MAX ((size_t)1 << 20)
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static shm_state *idle;

static const char *const reasons[] = {
    NULL,
    "a node of MPICOLL_RANKS_PER_NODE ranks spans several shared-memory domains",
    "MPI_Win_allocate_shared failed",
    "SMPI simulates its ranks in one process: a rank polling shared memory would stop "
    "the simulation",
};

static _Atomic uint64_t *flag(const shm_chan *c, int i)
{
    return (_Atomic uint64_t *)(void *)(c->flags + (size_t)i * LINE);
}

static void window_free(window *w)
{
    if (w->locked)
        PMPI_Win_unlock_all(w->win);
    if (w->win != MPI_WIN_NULL)
        PMPI_Win_free(&w->win);
    w->locked = 0;
    w->win = MPI_WIN_NULL;
    w->base = NULL;
}

/* Collective over the node: a window of n channels of `half` bytes a
 * copy, flags at zero on every rank before anyone uses them. */
static int window_make(shm_state *st, window *w, shm_chan *chans, int n, size_t half)
{
    size_t ctl = (size_t)n * (size_t)st->q * LINE, all = ctl + (size_t)n * 2 * half;
    MPI_Aint size = st->me == 0 ? (MPI_Aint)all : 0, got;
    int unit, rc;
    void *mine;
    w->win = MPI_WIN_NULL;
    CHECK(PMPI_Win_allocate_shared(size, 1, MPI_INFO_NULL, st->node, &mine, &w->win));
    CHECK(PMPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN));
    CHECK(PMPI_Win_shared_query(w->win, 0, &got, &unit, &w->base));
    CHECK((size_t)got < all ? MPI_ERR_WIN : MPI_SUCCESS);
    CHECK(PMPI_Win_lock_all(MPI_MODE_NOCHECK, w->win));
    w->locked = 1;
    for (int k = 0; k < n; k++) {
        shm_chan *c = &chans[k];
        c->win = w->win;
        c->flags = w->base + (size_t)k * (size_t)st->q * LINE;
        c->seg = w->base + ctl + (size_t)k * 2 * half;
        c->half = half;
        c->q = st->q;
        c->me = st->me;
        c->spin = spin_polls(st->q);
        c->gen = 0;
        c->next = 0;
        c->left = 0;
        c->parity = 0;
        c->issued = 0;
        atomic_store_explicit(&c->turn, 0, memory_order_relaxed);
        atomic_store_explicit(flag(c, st->me), 0, memory_order_relaxed);
    }
    PMPI_Win_sync(w->win);
    CHECK(PMPI_Barrier(st->node));
out:
    if (rc != MPI_SUCCESS)
        window_free(w);
    return rc;
}

/* Takes the idle state of the lowest id whose node holds the processes of
 * group g, or NULL. */
static shm_state *idle_take(MPI_Group g)
{
    pthread_mutex_lock(&idle_lock);
    shm_state **best = NULL;
    for (shm_state **s = &idle; *s; s = &(*s)->next_idle) {
        int cmp = MPI_UNEQUAL;
        PMPI_Group_compare(g, (*s)->members, &cmp);
        if ((cmp == MPI_IDENT || cmp == MPI_SIMILAR) && (!best || (*s)->id < (*best)->id))
            best = s;
    }
    shm_state *st = best ? *best : NULL;
    if (best)
        *best = st->next_idle;
    pthread_mutex_unlock(&idle_lock);
    return st;
}

static void idle_put(shm_state *st)
{
    pthread_mutex_lock(&idle_lock);
    st->next_idle = idle;
    idle = st;
    pthread_mutex_unlock(&idle_lock);
}

/* The processes of this rank's node (ranks of comm with its node number). */
static int node_group(MPI_Comm comm, int rank, int p, const int *node_of, MPI_Group *out)
{
    MPI_Group all = MPI_GROUP_NULL;
    int *in = malloc((size_t)p * sizeof *in), n = 0, rc;
    CHECK(in ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    CHECK(PMPI_Comm_group(comm, &all));
    for (int i = 0; i < p; i++)
        if (node_of[i] == node_of[rank])
            in[n++] = i;
    CHECK(PMPI_Group_incl(all, n, in, out));
out:
    if (all != MPI_GROUP_NULL)
        PMPI_Group_free(&all);
    free(in);
    return rc;
}

/* Collective over comm: idle states that the ranks of every node took
 * together (the same id everywhere: ids are agreed over the communicator
 * that made them), or NULL (and the ones taken go back). The channel goes
 * on where the freed communicator left it: its ranks finished their calls
 * on it, in the same order, so the next call writes to the copy that no
 * rank still reads (shm.h). */
static int idle_reuse(MPI_Comm comm, MPI_Group members, shm_state **out)
{
    shm_state *st = idle_take(members);
    uint64_t id = st ? st->id : 0, both[2] = { id, ~id };
    int rc;
    *out = NULL;
    CHECK(PMPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_UINT64_T, MPI_BAND, comm));
    if (id && (both[0] | both[1]) == ~(uint64_t)0) {    /* every rank took it */
        *out = st;
        st = NULL;
    }
out:
    if (st)
        idle_put(st);
    return rc;
}

/* The node's ranks: `domain` when it is given (it becomes the state's);
 * else comm split by node number, when the nodes are the shared-memory
 * domains; else (nodes emulated by MPICOLL_RANKS_PER_NODE) the
 * shared-memory domain split by node number. 0, or the reason (1) when
 * this rank's node spans several domains. */
static int node_comm(shm_state *st, MPI_Comm comm, int rank, int p, const int *node_of,
                     int emulated, MPI_Comm domain, int *reason)
{
    MPI_Comm dom = MPI_COMM_NULL;
    int rc, members = 0;
    if (domain != MPI_COMM_NULL) {
        st->node = domain;
    } else if (!emulated) {
        CHECK(PMPI_Comm_split(comm, node_of[rank], rank, &st->node));
    } else {
        CHECK(PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &dom));
        CHECK(PMPI_Comm_split(dom, node_of[rank], rank, &st->node));
    }
    CHECK(PMPI_Comm_set_errhandler(st->node, MPI_ERRORS_RETURN));
    CHECK(PMPI_Comm_size(st->node, &st->q));
    CHECK(PMPI_Comm_rank(st->node, &st->me));
    for (int i = 0; i < p; i++)
        members += node_of[i] == node_of[rank];
    *reason = members == st->q ? 0 : 1;
out:
    if (dom != MPI_COMM_NULL)
        PMPI_Comm_free(&dom);
    return rc;
}

static void state_free(shm_state *st)
{
    window_free(&st->pw);
    window_free(&st->bw);
    if (st->node != MPI_COMM_NULL)
        PMPI_Comm_free(&st->node);
    if (st->members != MPI_GROUP_NULL)
        PMPI_Group_free(&st->members);
    free(st);
}

static shm_state *state_new(void)
{
    shm_state *st = calloc(1, sizeof *st);
    if (st) {
        st->node = MPI_COMM_NULL;
        st->bw.win = st->pw.win = MPI_WIN_NULL;
        st->members = MPI_GROUP_NULL;
    }
    return st;
}

/* ---- single copy: cross-memory attach ------------------------------------ */

/* A rank's record (plans' plan_publish, PLAN_PUB_BYTES in the segment):
 * its process and the addresses of its buffers. */
typedef struct record {
    int64_t pid;
    uint64_t buf[3];            /* plans' BUF_SEND, BUF_RECV, BUF_TMP */
} record;

void shm_publish(void *rec, void *const *bufs)
{
    record r = { .pid = (int64_t)getpid() };
    for (int b = 0; b < 3; b++)
        r.buf[b] = (uint64_t)(uintptr_t)bufs[b];
    memcpy(rec, &r, sizeof r);
}

/* Copies `bytes` at `from` in process pid to `to`: 0, or an errno. */
static int read_peer(int64_t pid, uint64_t from, void *to, size_t bytes)
{
#ifdef __linux__
    char *dst = to;
    while (bytes) {
        struct iovec l = { dst, bytes }, r = { (void *)(uintptr_t)from, bytes };
        ssize_t n = process_vm_readv((pid_t)pid, &l, 1, &r, 1, 0);
        if (n <= 0)
            return n < 0 ? errno : EIO;
        dst += n;
        from += (uint64_t)n;
        bytes -= (size_t)n;
    }
    return 0;
#else
    (void)pid, (void)from, (void)to, (void)bytes;
    return ENOSYS;
#endif
}

int shm_pull(const void *rec, int buf, size_t off, void *dst, size_t bytes)
{
    record r;
    memcpy(&r, rec, sizeof r);
    if (buf < 0 || buf > 2 || !r.buf[buf])
        return MPI_ERR_INTERN;
    return read_peer(r.pid, r.buf[buf] + off, dst, bytes) ? MPI_ERR_OTHER : MPI_SUCCESS;
}

int shm_cma(const shm_state *st) { return st->cma; }

/* Whether this rank plays a kernel that refuses cross-memory attach, for
 * tests: MPICOLL_CMA_REFUSE=1 on every rank, =last on the last rank of
 * MPI_COMM_WORLD only (its node's other ranks must then agree with it). */
static int refuse_simulated(void)
{
    const enum select_cma_refuse how = select_cma_refuse();
    if (how == CMA_REFUSE_NONE)
        return 0;
    int me = 0, n = 1;
    if (how == CMA_REFUSE_LAST && PMPI_Comm_rank(MPI_COMM_WORLD, &me) == MPI_SUCCESS
        && PMPI_Comm_size(MPI_COMM_WORLD, &n) == MPI_SUCCESS)
        return me == n - 1;
    return 1;
}

/* The probe's word: its process id xor this. */
#define PROBE_MARK 0x5bd1e995

/* Collective over the node, once per node communicator (a state taken
 * over from an idle one keeps its answer): whether its ranks may read
 * each other's memory with process_vm_readv, which the kernel refuses
 * under a Yama ptrace scope that forbids it, in containers without
 * CAP_SYS_PTRACE, or without the system call. Each rank puts its process
 * id and the address of a word in the second half of its flag line, and
 * reads the next rank's word; the node agrees on the minimum, so that its
 * ranks build the same plans. The word lives until the allreduce, which
 * no rank leaves before every rank has read. */
static int cma_probe(shm_state *st)
{
    int64_t word = (int64_t)getpid() ^ PROBE_MARK;
    int ok = !refuse_simulated(), err = ok ? 0 : EPERM;
#if defined(__linux__) && defined(PR_SET_PTRACER)
    /* Yama's scope 1 lets only ancestors read a process: let the node's
     * processes read this one, as Open MPI's vader transport does */
    if (ok)
        prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
    char *mine = st->blocking.flags + (size_t)st->me * LINE + LINE / 2;
    record r = { .pid = (int64_t)getpid(), .buf = { (uint64_t)(uintptr_t)&word } };
    memcpy(mine, &r, sizeof r);
    PMPI_Win_sync(st->bw.win);
    int rc, all = ok;
    st->cma = 0;
    CHECK(PMPI_Barrier(st->node));
    if (ok && st->q > 1) {
        PMPI_Win_sync(st->bw.win);
        record peer;
        memcpy(&peer, st->blocking.flags + (size_t)((st->me + 1) % st->q) * LINE + LINE / 2,
               sizeof peer);
        int64_t got = 0;
        err = read_peer(peer.pid, peer.buf[0], &got, sizeof got);
        ok = err == 0 && got == (peer.pid ^ PROBE_MARK);
    }
    CHECK(PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, st->node));
    st->cma = all;
    static atomic_int told;
    if (!all && select_verbose() && st->me == 0 && !atomic_exchange(&told, 1))
        fprintf(stderr, "mpicoll: cross-memory attach (process_vm_readv) refused on this "
                "node (%s%s): the shared-memory algorithms copy through the segment (cma=0)\n",
                err ? "here: " : "by another of its ranks", err ? strerror(err) : "");
out:
    return rc;
}

int shm_state_make(MPI_Comm comm, int rank, int p, const int *node_of, int emulated,
                   MPI_Comm domain, shm_state **out)
{
#ifdef SMPI_H
    const int smpi = 1;
#else
    const int smpi = 0;
#endif
    shm_state *st = NULL;
    MPI_Group members = MPI_GROUP_NULL;
    int rc, reason = 3;
    /* emulated nodes (the same on every rank) neither take nor keep idle
     * windows */
    if (!smpi && !emulated) {
        CHECK(node_group(comm, rank, p, node_of, &members));
        CHECK(idle_reuse(comm, members, &st));
        if (st) {
            if (domain != MPI_COMM_NULL)
                PMPI_Comm_free(&domain);    /* the idle state's node: the same processes */
            PMPI_Group_free(&members);
            *out = st;
            return MPI_SUCCESS;
        }
    }
    st = state_new();
    CHECK(st ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    if (!smpi) {
        rc = node_comm(st, comm, rank, p, node_of, emulated, domain, &reason);
        domain = MPI_COMM_NULL;         /* the state's now */
        CHECK(rc);
        /* sized for small messages at once: a window less to make */
        if (reason == 0
            && window_make(st, &st->bw, &st->blocking, 1, SHM_FIRST_SEGMENT) != MPI_SUCCESS)
            reason = 2;
        if (reason == 0)
            CHECK(cma_probe(st));
        /* the reason, and an id for the windows, agreed: from the first
         * rank (its process id, count of window sets and clock, so that
         * ids from ranks on other machines do not meet) */
        static _Atomic uint64_t made;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t id = ((uint64_t)getpid() << 32 | (atomic_fetch_add(&made, 1) + 1))
                      ^ ((uint64_t)ts.tv_sec << 20 ^ (uint64_t)ts.tv_nsec) * 0x9e3779b97f4a7c15u;
        uint64_t agree[2] = { (uint64_t)reason, rank == 0 ? (id ? id : 1) : 0 };
        CHECK(PMPI_Allreduce(MPI_IN_PLACE, agree, 2, MPI_UINT64_T, MPI_MAX, comm));
        reason = (int)agree[0];
        st->id = agree[1];
    }
    if (reason == 0) {
        st->members = members;          /* kept idle after the communicator */
        members = MPI_GROUP_NULL;
    }
out:
    if (domain != MPI_COMM_NULL)
        PMPI_Comm_free(&domain);
    if (members != MPI_GROUP_NULL)
        PMPI_Group_free(&members);
    if (rc != MPI_SUCCESS) {
        if (st)
            state_free(st);     /* its window and node communicator */
        return rc;
    }
    if (reason != 0) {          /* no shared memory: neither window nor node communicator */
        window_free(&st->bw);
        if (st->node != MPI_COMM_NULL)
            PMPI_Comm_free(&st->node);
    }
    st->missing = reasons[reason];
    *out = st;
    return MPI_SUCCESS;
}

void shm_state_free(shm_state *st)
{
    if (!st)
        return;
    window_free(&st->pw);
    st->pool_made = 0;
    st->started = 0;
    if (!st->missing && st->bw.win != MPI_WIN_NULL && st->members != MPI_GROUP_NULL
        && st->blocking.half <= IDLE_MAX)
        idle_put(st);
    else
        state_free(st);
}

void shm_idle_free(void)
{
    /* in the order of their ids, the same on every rank of a node */
    for (;;) {
        pthread_mutex_lock(&idle_lock);
        shm_state **low = NULL;
        for (shm_state **s = &idle; *s; s = &(*s)->next_idle)
            if (!low || (*s)->id < (*low)->id)
                low = s;
        shm_state *st = low ? *low : NULL;
        if (low)
            *low = st->next_idle;
        pthread_mutex_unlock(&idle_lock);
        if (!st)
            return;
        state_free(st);
    }
}

const char *shm_missing(const shm_state *st) { return st->missing; }

shm_chan *shm_blocking(shm_state *st) { return &st->blocking; }

int shm_reserve(shm_state *st, size_t bytes)
{
    size_t have = st->blocking.half;
    if (bytes <= have)
        return MPI_SUCCESS;
    size_t half = have * 2 > bytes ? have * 2 : bytes;
    half = (half + GROW_STEP - 1) / GROW_STEP * GROW_STEP;
    /* the node's ranks may still read the previous call's data */
    int rc = PMPI_Barrier(st->node);
    if (rc != MPI_SUCCESS)
        return rc;
    window_free(&st->bw);
    st->blocking.half = 0;      /* a failure below: the next call tries again */
    return window_make(st, &st->bw, &st->blocking, 1, half);
}

int shm_requests_ready(shm_state *st)
{
    if (st->pool_made)
        return MPI_SUCCESS;
    int rc = window_make(st, &st->pw, st->pool, SHM_REQ_CHANNELS, SHM_REQ_SEGMENT);
    st->pool_made = rc == MPI_SUCCESS;
    return rc;
}

int shm_requests_made(const shm_state *st)
{
    return st->pool_made;
}

shm_chan *shm_request_channel(shm_state *st, unsigned *ticket)
{
    if (!st->pool_made)
        return NULL;
    shm_chan *c = &st->pool[st->started++ % SHM_REQ_CHANNELS];
    *ticket = c->issued++;
    return c;
}

int shm_chan_turn(shm_chan *c, unsigned ticket)
{
    return atomic_load_explicit(&c->turn, memory_order_acquire) == ticket;
}

void shm_chan_done(shm_chan *c)
{
    /* one begun request a channel (on this rank) calls it: no locked
     * instruction */
    atomic_store_explicit(&c->turn, atomic_load_explicit(&c->turn, memory_order_relaxed) + 1,
                          memory_order_release);
}

int shm_requests_idle(const shm_state *st)
{
    for (int k = 0; st->pool_made && k < SHM_REQ_CHANNELS; k++)
        if (atomic_load_explicit(&st->pool[k].turn, memory_order_acquire) != st->pool[k].issued)
            return 0;
    return 1;
}

char *shm_begin_call(shm_chan *c)
{
    c->parity ^= 1;
    return c->seg + (size_t)c->parity * c->half;
}

void shm_arrive(shm_chan *c)
{
    c->gen++;
    c->next = 0;
    c->left = 0;    /* passing this barrier passes the one left */
    c->polls = 0;
    PMPI_Win_sync(c->win);      /* this rank's stores to the segment before its flag */
    atomic_store_explicit(flag(c, c->me), c->gen, memory_order_release);
}

int shm_passed(shm_chan *c)
{
    for (; c->next < c->q; c->next++)
        if (atomic_load_explicit(flag(c, c->next), memory_order_acquire) < c->gen)
            return 0;
    PMPI_Win_sync(c->win);      /* the others' stores, before this rank's loads */
    SEGMENT_WRITTEN(c->seg, 2 * c->half);
    c->left = 0;
    return 1;
}

void shm_leave(shm_chan *c)
{
    c->left = 1;
}

int shm_left(const shm_chan *c)
{
    return c->left;
}

int shm_spin_more(shm_chan *c)
{
    return c->polls++ < c->spin;
}

/* Waits for the node's other ranks: polls, then yields the processor
 * between polls. With a core per rank (no more ranks on the node than
 * online processors) it polls SPIN times first: a yield is a system call,
 * longer than the cache-line transfer that ends a barrier. With more ranks
 * than cores (the tests: 8 ranks on 2 cores) the rank being waited for may
 * need this one's core: it yields at once, as Open MPI does with
 * mpi_yield_when_idle. */
void shm_wait(shm_chan *c)
{
    for (int i = 0; i < c->spin; i++) {
        if (shm_passed(c))
            return;
        relax();
    }
    while (!shm_passed(c))
        sched_yield();
}
