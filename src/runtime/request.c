/*
 * Calls and requests: a collective runs now (blocking) or as a request
 * (non-blocking, or persistent), from the same plan and the same executor.
 *
 * A request owns what must outlive the call: its plan (its own while it
 * lives, so no cache eviction can pull it away; lent by the communicator's
 * cache of request plans when an earlier request made the same call, and
 * given back, with the scratch, when it is released: comm_state_plan), its
 * scratch, its copies of the user's datatypes, and the executor's state. It advances when it is tested or
 * waited on, or by mpicoll_progress(); it never needs a helper thread and
 * never blocks inside a test. A persistent request builds all of this once:
 * mpicoll_start only takes a tag and runs the copies and the plan.
 *
 * A request whose plan uses the node's shared segment (R_SHM algorithms)
 * is given a channel of the communicator's pool when it starts
 * (src/runtime/shm.h): the next one in turn, the same on every rank, with
 * a ticket. It begins on the channel at its ticket's turn, once the request
 * given the channel before it is done on this rank: with more than
 * SHM_REQ_CHANNELS such requests outstanding on a communicator, a request
 * waits, active but not begun, for the one SHM_REQ_CHANNELS starts
 * earlier; its start returns at once, and its steps (tests, progress)
 * check its turn. That earlier request began on every rank before this
 * one, and a rank that is further on has finished it, so a wait for it
 * (mpicoll_wait advances the others meanwhile) needs nothing from ranks
 * that are not also waiting for it or past it.
 *
 * A request of the MPI library's own collective (native, R_NATIVE) has no
 * plan: it wraps the MPI request of PMPI_I<coll> (native.c), and testing,
 * waiting and progress test or wait on that request. A persistent one
 * keeps the call's arguments (its derived types duplicated) and starts a
 * new PMPI_I<coll> at each mpicoll_start: Open MPI 4.1 has no
 * MPI_Allgather_init (MPI-4). A reduction of a predefined operation on a
 * derived type runs on a view of predefined elements (native_prepare):
 * the request owns its scratch, copies in at each start and copies the
 * result out when the MPI request completes.
 *
 * Threads: a request's lock is held while it advances, so that
 * mpicoll_progress in one thread (which skips requests busy elsewhere)
 * and mpicoll_test or mpicoll_wait in another never run it at once.
 */
#include "call.h"
#include "native.h"
#include "errors.h"
#include "dtype.h"
#include "shm.h"
#include "../../include/mpicoll.h"

#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

struct mpicoll_request_s {
    coll_call call;
    ready_plan plan;            /* with the request's scratch */
    MPI_Datatype types[4];      /* the user's types, duplicated */
    int ntypes;
    exec_state x;
    int persistent, active, done;
    int started;                /* started and its completion not yet told: by a test
                                 * or wait, or to the front end (done_fn) */
    int uses_shm;               /* its plan uses the node's segment: a channel a start */
    shm_chan *chan;             /* the pool's channel of this start, and its ticket */
    unsigned ticket;
    int waiting;                /* started, not yet its turn on the channel: not begun */
    int err;                    /* an error met by mpicoll_progress, for its owner */
    comm_state *held;           /* the reference the request holds */
    int native;                 /* the MPI library's own collective: nat, mreq */
    native_call nat;
    int *counts;                /* the native call's counts and displacements (allgatherv;
                                 * alltoallv: then the send side's), a copy: each start
                                 * of a persistent one reads them */
    MPI_Request mreq;
    req_done_fn done_fn;        /* the front end's completion (call_mode.done) */
    void *done_arg;
    struct mpicoll_request_s *next, *prev;  /* active requests, for mpicoll_progress */
    struct mpicoll_request_s *completed;    /* request_progress: done_fn to call */
    call_memo *memo;            /* the memo that kept its call (serial: at the time), where */
    unsigned memo_serial;       /* it may be parked when released (park) */
    int stepping;               /* req_lock */
    pthread_mutex_t lock;       /* last: a reused request keeps it (request_new) */
};

/* The locks below are taken only when several threads may be inside MPI
 * at once (MPI_THREAD_MULTIPLE, asked once: a program's thread level is
 * fixed at MPI_Init); otherwise MPI's rule (one thread at a time in MPI,
 * and so in mpicoll) makes them useless, and the loops that poll a
 * request (Open MPI's progress loop, through request_progress) would pay
 * them at every turn. */
static int threaded = -1;

static int multi(void)
{
    if (threaded < 0) {
        int level = MPI_THREAD_MULTIPLE;
        PMPI_Query_thread(&level);
        threaded = level == MPI_THREAD_MULTIPLE;
    }
    return threaded;
}

static void lock(pthread_mutex_t *m)
{
    if (multi())
        pthread_mutex_lock(m);
}

static void unlock(pthread_mutex_t *m)
{
    if (multi())
        pthread_mutex_unlock(m);
}

static int trylock(pthread_mutex_t *m)
{
    return multi() ? pthread_mutex_trylock(m) : 0;
}

int request_threaded(void)
{
    return multi();
}

/* A request's lock, and `stepping`: the step under way in this thread
 * (with threads, the lock itself tells: a thread's trylock of a lock it
 * holds fails), which progress reached from inside the step (a test of
 * its messages entering a front end's progress callback) passes over. */
static void req_lock(req_t *r)
{
    lock(&r->lock);
    r->stepping = 1;
}

static int req_trylock(req_t *r)
{
    if (trylock(&r->lock) != 0)
        return -1;
    if (r->stepping) {
        unlock(&r->lock);
        return -1;
    }
    r->stepping = 1;
    return 0;
}

static void req_unlock(req_t *r)
{
    r->stepping = 0;
    unlock(&r->lock);
}

static pthread_mutex_t active_lock = PTHREAD_MUTEX_INITIALIZER;
static req_t *active_head;
/* how many are active: request_progress returns at once without a lock
 * when none is (it runs in every turn of Open MPI's progress loop) */
static atomic_int nactive;

/* nactive changes only under active_lock (or in the one thread in MPI):
 * no locked instruction for it */
static void nactive_add(int d)
{
    atomic_store_explicit(&nactive, atomic_load_explicit(&nactive, memory_order_relaxed) + d,
                          memory_order_relaxed);
}

int copy_step_run(const copy_step *c)
{
    int pos = 0;
    switch (c->kind) {
    case COPY_BYTES:
        memcpy(c->dst, c->src, c->bytes);
        return MPI_SUCCESS;
    case COPY_PACK:
        return c->bytes > INT_MAX || c->n1 > INT_MAX ? MPI_ERR_COUNT
             : PMPI_Pack(c->src, (int)c->n1, c->t1, c->dst, (int)c->bytes, &pos, MPI_COMM_SELF);
    case COPY_UNPACK:
        return c->bytes > INT_MAX || c->n1 > INT_MAX ? MPI_ERR_COUNT
             : PMPI_Unpack(c->src, (int)c->bytes, &pos, c->dst, (int)c->n1, c->t2, MPI_COMM_SELF);
    case COPY_TYPED:
        return c->n1 > INT_MAX || c->n2 > INT_MAX ? MPI_ERR_COUNT
             : PMPI_Sendrecv(c->src, (int)c->n1, c->t1, 0, 0, c->dst, (int)c->n2, c->t2, 0, 0,
                             MPI_COMM_SELF, MPI_STATUS_IGNORE);
    default:
        return MPI_SUCCESS;
    }
}

ready_plan *call_own_plan(const call_mode *m)
{
    return m->req ? &(*m->req)->plan : NULL;
}

char *call_scratch(const call_mode *m, comm_state *st, size_t bytes)
{
    if (!m->req)
        return comm_state_scratch(st, bytes);
    ready_plan *rp = &(*m->req)->plan;     /* the scratch of a reused plan, if it fits */
    if (rp->scratch && rp->scratch_len >= bytes)
        return rp->scratch;
    free(rp->scratch);
    rp->scratch = malloc(bytes ? bytes : 1);
    rp->scratch_len = rp->scratch ? bytes : 0;
    return rp->scratch;
}

int call_empty(const call_mode *m, comm_state *st, const coll_desc *c)
{
    if (!m->req)
        return MPI_SUCCESS;
    req_t *r = *m->req;
    plan_init(&r->plan.pl, comm_state_size(st), comm_state_rank(st));
    r->plan.reqs = malloc(sizeof *r->plan.reqs);
    if (!r->plan.reqs)
        return MPI_ERR_NO_MEM;
    coll_call call = { .coll = c, .st = st, .rp = &r->plan };
    return call_launch(m, &call);
}

/* One released request a thread keeps for its next one (a call made
 * again and again allocates nothing); freed when the thread ends (the
 * key's destructor runs in the ending thread, which still sees its own
 * `spare`), and the main thread's at MPI_Finalize (request_spare_free). */
static RUNTIME_TLS req_t *spare;
static RUNTIME_TLS int spare_watched;     /* the key is set in this thread */
static pthread_key_t spare_key;
static int spare_key_ok;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

static void spare_drop(req_t *r)
{
    pthread_mutex_destroy(&r->lock);
    free(r);
}

static void spare_at_exit(void *unused)
{
    (void)unused;
    request_spare_free();
}

static void spare_key_make(void)
{
    spare_key_ok = pthread_key_create(&spare_key, spare_at_exit) == 0;
}

void request_spare_free(void)
{
    if (spare) {
        spare_drop(spare);
        spare = NULL;
    }
}

/* A released request kept whole in the memo of its call (call_memo.parked)
 * for the same call again (call_again), when that memo still keeps the
 * call it made, with the request's plan: a plan of its own and no types
 * (predefined handles only), completed, not failed. It keeps its
 * reference to the state, which unparks it when the communicator goes
 * (state_delete; not parked after). */
static int park(req_t *r)
{
    call_memo *mm = r->memo;
    if (!mm || mm->parked || !mm->valid || !mm->request || mm->serial != r->memo_serial ||
        !r->done || r->persistent || r->native || r->active || r->ntypes || r->counts ||
        !r->plan.lease || r->plan.lease != mm->lease || r->plan.scratch != mm->scratch ||
        !r->held || r->held->deleted || multi())
        return 0;
    mm->parked = r;
    return 1;
}

static void release(req_t *r)
{
    if (park(r))
        return;
    for (int i = 0; i < r->ntypes; i++)
        PMPI_Type_free(&r->types[i]);
    comm_state_plan_drop(r->held, &r->plan);  /* before the state may go */
    if (r->held)
        comm_state_release(r->held);
    free(r->counts);
    if (!spare_watched) {
        pthread_once(&spare_once, spare_key_make);
        spare_watched = spare_key_ok && pthread_setspecific(spare_key, &spare_watched) == 0;
    }
    if (spare || !spare_watched) {
        spare_drop(r);
        return;
    }
    spare = r;
}

void call_memo_unpark(call_memo *mm, comm_state *st)
{
    req_t *r = mm->parked;
    if (!r)
        return;
    mm->parked = NULL;
    comm_state_plan_drop(st, &r->plan);
    comm_state *held = r->held;
    spare_drop(r);
    comm_state_release(held);
}

void call_abandon(const call_mode *m)
{
    if (m->req && *m->req) {
        release(*m->req);
        *m->req = MPICOLL_REQUEST_NULL;
    }
}

int call_finish(const call_mode *m, const call_mode *nb, int rc)
{
    if (rc != MPI_SUCCESS)
        call_abandon(m);
    else if (m == nb)
        rc = request_run_once(nb->req);
    return rc;
}

static int run_now(coll_call *c, exec_state *x, int blocking, int *done)
{
    int rc;
    if (x->round == 0 && !x->posted)
        CHECK(copy_step_run(&c->pre));
    CHECK(exec_progress(x, blocking, done));
    if (*done)
        CHECK(copy_step_run(&c->post));
out:
    return rc;
}

static int progress_all(void);

static int (*lib_done)(MPI_Request q);

void request_set_lib_done(int (*fn)(MPI_Request q))
{
    lib_done = fn;
}

/* One step (or, blocking, all) of an active request: its plan, or the
 * MPI request of a native one. */
static int step(req_t *r, int blocking, int *done)
{
    if (r->waiting) {   /* its channel's turn, then its plan begins */
        while (!shm_chan_turn(r->chan, r->ticket)) {
            if (!blocking) {
                *done = 0;
                return MPI_SUCCESS;
            }
            progress_all();     /* the requests before it, which this one's lock does
                                 * not hold back */
            sched_yield();
        }
        r->waiting = 0;
        exec_begin(&r->x);
    }
    if (!r->native)
        return run_now(&r->call, &r->x, blocking, done);
    int rc;
    if (blocking) {
        *done = 1;
        CHECK(exec_waitall(1, &r->mreq));   /* yields on an oversubscribed node */
    } else if (lib_done && !lib_done(r->mreq)) {
        *done = 0;
        return MPI_SUCCESS;
    } else {
        CHECK(PMPI_Test(&r->mreq, done, MPI_STATUS_IGNORE));
    }
    /* the result out of the view's scratch (native_prepare), once there */
    if (*done)
        CHECK(copy_step_run(&r->nat.post));
out:
    return rc;
}

static void set_exec(req_t *r)
{
    coll_call *c = &r->call;
    exec_state *x = &r->x;
    x->pl = &c->rp->pl;
    memcpy(x->bufs, c->bufs, sizeof x->bufs);
    x->comm = comm_state_comm(c->st);
    x->reqs = c->rp->reqs;
    x->types = c->rp->types;
    x->red = c->reduces ? &c->red : NULL;
}

static int is_dup(const req_t *r, MPI_Datatype t)
{
    for (int k = 0; k < r->ntypes; k++)
        if (r->types[k] == t)
            return 1;
    return 0;
}

/* The user's (derived) types in the copy steps and the reduction, kept
 * alive: the user may free them while the request lives. */
static int keep_slots(req_t *r, MPI_Datatype **slots, size_t nslots);

static int keep_types(req_t *r)
{
    MPI_Datatype *slots[5];
    size_t nslots = 0;
    copy_step *steps[2] = { &r->call.pre, &r->call.post };
    for (int k = 0; k < 2; k++) {   /* the types each kind of step uses */
        int kind = steps[k]->kind;
        if (kind == COPY_PACK || kind == COPY_TYPED)
            slots[nslots++] = &steps[k]->t1;
        if (kind == COPY_UNPACK || kind == COPY_TYPED)
            slots[nslots++] = &steps[k]->t2;
    }
    if (r->call.reduces)
        slots[nslots++] = &r->call.red.type;
    return keep_slots(r, slots, nslots);
}

/* A native request's types: the library's, kept alive between starts of
 * a persistent one, and the user's in the view's copies, which run at each
 * start and at completion (the user may free the type before). */
static int keep_native_types(req_t *r)
{
    native_call *n = &r->nat;
    MPI_Datatype *slots[4] = { &n->lib.rtype };
    size_t nslots = 1;
    if (n->lib.sbuf != MPI_IN_PLACE)
        slots[nslots++] = &n->lib.stype;
    if (n->pre.kind == COPY_TYPED)
        slots[nslots++] = &n->pre.t1;
    if (n->post.kind == COPY_TYPED)
        slots[nslots++] = &n->post.t2;
    return keep_slots(r, slots, nslots);
}

/* Replaces each derived type in *slots[] by a duplicate the request owns. */
static int keep_slots(req_t *r, MPI_Datatype **slots, size_t nslots)
{
    for (size_t i = 0; i < nslots; i++) {
        MPI_Datatype t = *slots[i], d;
        int ni, na, nd, combiner;
        if (t == MPI_DATATYPE_NULL || is_dup(r, t) || dt_named_slot(t) >= 0 ||
            PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS ||
            combiner == MPI_COMBINER_NAMED)
            continue;       /* predefined types live as long as MPI */
        if (r->ntypes == (int)(sizeof r->types / sizeof r->types[0]))
            return MPI_ERR_INTERN;
        int rc = PMPI_Type_dup(t, &d);
        if (rc != MPI_SUCCESS)
            return rc;
        r->types[r->ntypes++] = d;
        for (size_t j = i; j < nslots; j++)
            if (*slots[j] == t)
                *slots[j] = d;
    }
    return MPI_SUCCESS;
}

static void first_step(req_t *r);

/* Starts a request: its pool channel given (it begins when its turn comes
 * there: step), the plan begun otherwise, and the request put among the
 * active ones; then its first step, as a test would make it (its first
 * messages out, its arrival at the node's barrier), so that the other
 * ranks need not wait until this one first tests or waits. */
static int activate(req_t *r)
{
    if (r->native) {
        int rc = native_start(&r->nat, &r->mreq);
        if (rc != MPI_SUCCESS)
            return rc;
    } else {
        if (r->uses_shm) {
            struct shm_state *shm = comm_state_shm(r->call.st);
            if (!shm || !(r->chan = shm_request_channel(shm, &r->ticket)))
                return MPI_ERR_COMM;    /* the communicator was freed, and its segments */
            r->x.shm = r->chan;
            r->waiting = 1;
        }
        r->x.tag = comm_state_next_tag(r->call.st);
        if (!r->waiting)
            exec_begin(&r->x);
    }
    r->done = 0;
    r->err = MPI_SUCCESS;
    lock(&active_lock);
    r->active = 1;
    r->started = 1;
    r->prev = NULL;
    r->next = active_head;
    if (active_head)
        active_head->prev = r;
    active_head = r;
    nactive_add(1);
    unlock(&active_lock);
    first_step(r);
    return MPI_SUCCESS;
}

static void unlink_active(req_t *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else if (active_head == r)
        active_head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    r->next = r->prev = NULL;
    r->active = 0;
    nactive_add(-1);
    /* the channel's next request may begin (a request leaves the active
     * ones only once begun: a waiting one's steps cannot fail) */
    if (r->chan && !r->waiting)
        shm_chan_done(r->chan);
    r->chan = NULL;
}

static void deactivate(req_t *r)
{
    lock(&active_lock);
    unlink_active(r);
    unlock(&active_lock);
}

/* One step of a request just started, as request_progress makes it: an
 * error stays with the request, and a request done already is completed
 * for its front end (done_fn). Under the request's lock, so that progress
 * reached from inside the step (a test of its messages entering a front
 * end's progress callback) passes it over. */
static void first_step(req_t *r)
{
    int completed = 0;
    req_lock(r);
    if (r->active) {
        const int rc = step(r, 0, &r->done);
        if (rc != MPI_SUCCESS || r->done) {
            deactivate(r);
            completed = 1;
        }
        r->err = rc;
    }
    req_unlock(r);
    if (completed && r->done_fn) {
        const int err = r->err;
        r->err = MPI_SUCCESS;
        r->started = 0;
        r->done_fn(r->done_arg, err);
    }
}

/* The ready call c (NULL: the library's own collective) kept in mm, valid
 * in the state's present epoch, with what the selection chose for it. */
static void memo_keep(call_memo *mm, comm_state *st, const coll_call *c)
{
    if (c)
        mm->call = *c;
    mm->serial++;
    mm->native = 0;
    mm->request = 0;
    mm->valid = 1;
    mm->epoch = st->memo_epoch;
    mm->algo = st->last_algo;
    memcpy(mm->params, st->last_params, sizeof mm->params);
}

/* The memo armed for the call (disarmed), if it may keep mpicoll's own
 * run of it: not a call with arrays of counts, whose plan is made from
 * what they hold. */
static call_memo *armed_for_plan(comm_state *st)
{
    call_memo *mm = st->armed;
    st->armed = NULL;
    return mm && !mm->a.rcounts && !mm->a.scounts ? mm : NULL;
}

int call_launch(const call_mode *m, coll_call *c)
{
    if (!m->req) {
        call_memo *mm = armed_for_plan(c->st);
        if (mm)                 /* kept to run again (coll_run) */
            memo_keep(mm, c->st, c);
        exec_state x = { .pl = &c->rp->pl, .comm = comm_state_comm(c->st),
                         .tag = comm_state_next_tag(c->st), .reqs = c->rp->reqs,
                         .types = c->rp->types, .red = c->reduces ? &c->red : NULL,
                         .shm = c->rp->pl.shm_bytes ? shm_blocking(comm_state_shm(c->st)) : NULL };
        memcpy(x.bufs, c->bufs, sizeof x.bufs);
        exec_begin(&x);
        int done;
        return run_now(c, &x, 1, &done);
    }
    req_t *r = *m->req;
    call_memo *mm = armed_for_plan(c->st);
    if (mm && !m->persistent && r->plan.lease) {    /* kept to start again */
        memo_keep(mm, c->st, c);
        mm->request = 1;
        mm->lease = r->plan.lease;
        mm->gen = comm_state_plan_gen(c->st, r->plan.lease);
        mm->scratch = r->plan.scratch;
        r->memo = mm;
        r->memo_serial = mm->serial;
    }
    r->call = *c;
    r->persistent = m->persistent;
    comm_state_retain(c->st);
    r->held = c->st;
    int rc = keep_types(r);
    if (rc != MPI_SUCCESS)
        return rc;
    set_exec(r);
    r->uses_shm = c->rp->pl.shm_bytes > 0;
    return r->persistent ? MPI_SUCCESS : activate(r);
}

int call_again(const call_mode *m, call_memo *mm)
{
    comm_state *st = mm->call.st;
    req_t *r = mm->parked;
    int rc;
    if (r) {            /* its last request, parked whole: started again */
        mm->parked = NULL;
        r->done_fn = m->done;
        r->done_arg = m->done_arg;
        *m->req = r;
        if ((rc = activate(r)) != MPI_SUCCESS)
            call_abandon(m);
        return rc;
    }
    ready_plan plan;
    if (!comm_state_plan_again(st, mm->lease, mm->gen, &plan))
        return -1;
    if (plan.scratch != mm->scratch) {  /* its views were in the scratch it had */
        comm_state_plan_drop(st, &plan);
        return -1;
    }
    rc = request_new(m);
    if (rc != MPI_SUCCESS) {
        comm_state_plan_drop(st, &plan);
        return rc;
    }
    r = *m->req;
    r->plan = plan;
    r->memo = mm;
    r->memo_serial = mm->serial;
    coll_call c = mm->call;
    c.rp = &r->plan;
    rc = call_launch(m, &c);
    if (rc != MPI_SUCCESS)
        call_abandon(m);
    return rc;
}

/* The blocking native call. MPICH's blocking collectives spin in their
 * waits, so on an oversubscribed node (8 ranks on 2 cores: MPI_Barrier
 * 34 ms, against 54 us for MPI_Ibarrier waited with yields) its
 * non-blocking form runs, waited with yields as mpicoll's own algorithms
 * are; elsewhere, and under Open MPI (whose waits yield with
 * mpi_yield_when_idle), the blocking call. */
static int native_blocking(const native_call *nc)
{
#ifdef MPICH_NUMVERSION
    if (exec_wait_yields()) {
        MPI_Request q = MPI_REQUEST_NULL;
        int rc = native_start(nc, &q);
        return rc == MPI_SUCCESS ? exec_waitall(1, &q) : rc;
    }
#endif
    return native_start(nc, NULL);
}

int call_native_again(const coll_args *a)
{
    const native_call nc = { .lib = *a };
    return native_blocking(&nc);
}

int call_native(const call_mode *m, comm_state *st, const coll_args *a)
{
    native_call nc;
    int rc;
    CHECK(native_prepare(a, m, st, &nc));
    call_memo *mm = st->armed;
    st->armed = NULL;
    /* kept when the library takes the user's arguments as they are, and
     * a request when the front end starts the library's itself */
    if (mm && (!m->req || (m->lib_direct && !m->persistent)) && nc.pre.kind == COPY_NONE &&
        nc.post.kind == COPY_NONE && nc.lib.sbuf == a->sbuf && nc.lib.scount == a->scount &&
        nc.lib.stype == a->stype && nc.lib.rcount == a->rcount && nc.lib.rtype == a->rtype &&
        nc.lib.rcounts == a->rcounts && nc.lib.rdispls == a->rdispls &&
        nc.lib.scounts == a->scounts && nc.lib.sdispls == a->sdispls) {
        memo_keep(mm, st, NULL);
        mm->native = 1;
        mm->request = m->req != NULL;
    }
    if (!m->req) {
        CHECK(native_blocking(&nc));
        return copy_step_run(&nc.post);
    }
    req_t *r = *m->req;
    r->native = 1;
    r->nat = nc;
    r->mreq = MPI_REQUEST_NULL;
    r->call = (coll_call){ .coll = a->coll, .st = st };
    r->persistent = m->persistent;
    comm_state_retain(st);
    r->held = st;
    /* the counts (significant at a root only: the others may pass anything;
     * alltoallv's send side, but in place) */
    if (a->rcounts && (a->root < 0 || a->root == comm_state_rank(st))) {
        const size_t p = (size_t)comm_state_size(st);
        const int sends = a->scounts && a->sbuf != MPI_IN_PLACE;
        r->counts = malloc((sends ? 4 : 2) * p * sizeof *r->counts);
        CHECK(r->counts ? MPI_SUCCESS : MPI_ERR_NO_MEM);
        memcpy(r->counts, r->nat.lib.rcounts, p * sizeof *r->counts);
        if (a->rdispls)
            memcpy(r->counts + p, a->rdispls, p * sizeof *r->counts);
        r->nat.lib.rcounts = r->counts;
        r->nat.lib.rdispls = a->rdispls ? r->counts + p : NULL;
        if (sends) {
            memcpy(r->counts + 2 * p, a->scounts, p * sizeof *r->counts);
            memcpy(r->counts + 3 * p, a->sdispls, p * sizeof *r->counts);
            r->nat.lib.scounts = r->counts + 2 * p;
            r->nat.lib.sdispls = r->counts + 3 * p;
        }
        /* in place with a send side apart (native_prepare): the receive counts */
        if (r->nat.lib.scounts == a->rcounts)
            r->nat.lib.scounts = r->counts;
    }
    if (r->persistent || nc.post.kind != COPY_NONE)
        CHECK(keep_native_types(r));
    if (!r->persistent)
        CHECK(activate(r));
out:
    return rc;
}

/* ---- the public request calls ------------------------------------------- */

int request_new(const call_mode *m)
{
    req_t *r = spare;
    if (r) {
        spare = NULL;
        memset(r, 0, offsetof(req_t, lock));
    } else {
        if (!(r = calloc(1, sizeof *r)))
            return MPI_ERR_NO_MEM;
        pthread_mutex_init(&r->lock, NULL);
    }
    r->done_fn = m->done;
    r->done_arg = m->done_arg;
    *m->req = r;
    return MPI_SUCCESS;
}

/* One step (or, blocking, all) of an active request. */
static int advance(req_t *r, int blocking, int *flag)
{
    int rc = MPI_SUCCESS;
    req_lock(r);
    *flag = 1;
    if (r->active) {
        rc = step(r, blocking, &r->done);
        *flag = r->done;
        if (rc != MPI_SUCCESS || r->done)
            deactivate(r);
    } else if (r->err != MPI_SUCCESS) {
        rc = r->err;    /* failed in mpicoll_progress */
        r->err = MPI_SUCCESS;
    }
    req_unlock(r);
    return rc;
}

/* A finished request: freed unless persistent. */
static void finished(mpicoll_request *req)
{
    (*req)->started = 0;
    if (!(*req)->persistent) {
        release(*req);
        *req = MPICOLL_REQUEST_NULL;
    }
}

/* Requests have no communicator argument: errors go to MPI_COMM_WORLD's
 * handler, as MPI's own request calls report to MPI_COMM_WORLD's. */
static int raised(int rc)
{
    return mpicoll_raise(MPI_COMM_WORLD, rc);
}

int request_start(req_t *r)
{
    if (!r || !r->persistent || r->started)
        return MPI_ERR_REQUEST;
    return activate(r);
}

int mpicoll_start(mpicoll_request *req)
{
    if (!req)
        return mpicoll_raise(MPI_COMM_WORLD, MPI_ERR_ARG);
    return raised(request_start(*req));
}

int mpicoll_test(mpicoll_request *req, int *flag)
{
    if (!req || !flag)
        return mpicoll_raise(MPI_COMM_WORLD, MPI_ERR_ARG);
    if (!*req) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    int rc = advance(*req, 0, flag);
    if (rc != MPI_SUCCESS || *flag)
        finished(req);
    return raised(rc);
}

int request_complete(req_t **req)
{
    if (!*req)
        return MPI_SUCCESS;
    int flag, rc = advance(*req, 1, &flag);
    finished(req);
    return rc;
}

int request_run_once(req_t **req)
{
    int flag, rc;
    if ((*req)->persistent)
        CHECK(activate(*req));  /* MPICOLL_MODE=persistent: init, start, wait, free */
    CHECK(advance(*req, 1, &flag));
out:
    release(*req);
    *req = MPICOLL_REQUEST_NULL;
    return rc;
}

const call_mode *call_mode_for(const coll_desc *c, const char *spec, const call_mode *m,
                               call_mode *nb)
{
    /* the program's handle holds anything until the call sets it, and a
     * call that fails its checks must leave it null (call_abandon reads
     * it) */
    if (m->req)
        *m->req = NULL;
    const enum select_mode how = m->req ? SELECT_MODE_BLOCKING : select_nb(c);
    (void)spec;
    nb->persistent = how == SELECT_MODE_PERSISTENT;
    return how != SELECT_MODE_BLOCKING ? nb : m;
}

int mpicoll_wait(mpicoll_request *req)
{
    if (!req)
        return mpicoll_raise(MPI_COMM_WORLD, MPI_ERR_ARG);
    return raised(request_complete(req));
}

int mpicoll_testall(int n, mpicoll_request reqs[], int *flag)
{
    if (n < 0)
        return mpicoll_raise(MPI_COMM_WORLD, MPI_ERR_COUNT);
    if ((n > 0 && !reqs) || !flag)
        return mpicoll_raise(MPI_COMM_WORLD, MPI_ERR_ARG);
    int all = 1, rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int f = 1;
        if (reqs[i] && reqs[i]->active)
            rc = advance(reqs[i], 0, &f);
        all &= f;
    }
    /* MPI's rule: completed requests are released only when all are */
    for (int i = 0; all && rc == MPI_SUCCESS && i < n; i++)
        if (reqs[i])
            finished(&reqs[i]);
    *flag = all;
    return raised(rc);
}

int mpicoll_waitall(int n, mpicoll_request reqs[])
{
    if (n < 0)
        return mpicoll_raise(MPI_COMM_WORLD, MPI_ERR_COUNT);
    if (n > 0 && !reqs)
        return mpicoll_raise(MPI_COMM_WORLD, MPI_ERR_ARG);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++)
        CHECK(mpicoll_wait(&reqs[i]));
out:
    return rc;
}

void request_release(req_t *r)
{
    release(r);
}

void request_set_done(req_t *r, req_done_fn done, void *done_arg)
{
    r->done_fn = done;
    r->done_arg = done_arg;
}

int mpicoll_request_free(mpicoll_request *req)
{
    if (!req)
        return mpicoll_raise(MPI_COMM_WORLD, MPI_ERR_ARG);
    if (!*req || (*req)->started)
        return mpicoll_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    release(*req);
    *req = MPICOLL_REQUEST_NULL;
    return MPI_SUCCESS;
}

/* set while this thread advances the active requests: a step that enters
 * the MPI library's progress (a test of the messages) may come back here
 * through a front end's progress callback */
static RUNTIME_TLS int progressing_tls;
static int progressing_one;     /* the same, without threads (a plain global is cheaper) */

int request_progress(int *rc_out)
{
    int rc = MPI_SUCCESS, completed = 0, spinning = 0;
    req_t *finished_list = NULL;
    *rc_out = rc;
    if (atomic_load_explicit(&nactive, memory_order_relaxed) == 0)
        return 0;
    int *progressing = multi() ? &progressing_tls : &progressing_one;
    if (*progressing)
        return 0;
    *progressing = 1;
    lock(&active_lock);
    for (req_t *r = active_head, *next; r && rc == MPI_SUCCESS; r = next) {
        next = r->next;
        if (req_trylock(r) != 0)
            continue;   /* advancing in another thread */
        rc = step(r, 0, &r->done);
        spinning |= !r->done && !r->native && !r->waiting && r->x.spinning;
        if (rc != MPI_SUCCESS || r->done) {
            unlink_active(r);
            completed++;
            if (r->done_fn) {
                r->completed = finished_list;
                finished_list = r;
            }
        }
        r->err = rc;
        req_unlock(r);
    }
    unlock(&active_lock);
    *progressing = 0;
    /* the front end's completions, outside the locks: its owner may
     * release the request as soon as it learns */
    for (req_t *r = finished_list, *next; r; r = next) {
        next = r->completed;
        int err = r->err;
        r->err = MPI_SUCCESS;
        r->started = 0;
        r->done_fn(r->done_arg, err);
    }
    *rc_out = rc;
    return completed + spinning;
}

/* Each active request one step; a request completed here stays until its
 * owner tests or waits on it (with its error, if it failed). */
static int progress_all(void)
{
    int rc;
    request_progress(&rc);
    return rc;
}

int mpicoll_progress(void)
{
    return raised(progress_all());
}

void request_drain_shm(struct shm_state *shm)
{
    for (;;) {
        lock(&active_lock);
        int idle = shm_requests_idle(shm);
        unlock(&active_lock);
        if (idle)
            return;
        progress_all();
        sched_yield();
    }
}
