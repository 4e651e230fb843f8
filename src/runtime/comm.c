/*
 * Per-communicator state, cached on the user's communicator with an
 * attribute: the private duplicate (so mpicoll's messages can never match
 * the application's), a small plan cache (set up once, run many) and
 * scratch memory. Its creation first checks that every rank has the same
 * settings (comm_settings_agree), in the allreduce that also says whether
 * the node layout is known from MPI_COMM_WORLD's (world_domain). The attribute's delete callback frees it all with the
 * communicator; MPI_COMM_WORLD's is freed at MPI_Finalize through an
 * attribute on MPI_COMM_SELF, which MPI deletes first. Requests hold
 * references to the state, so a communicator freed while they live keeps
 * its private duplicate until the last one is freed.
 *
 * Threads: a state serves one communicator, on which MPI requires the
 * application to order its collectives, so only one thread at a time
 * uses a state's plan cache and scratch (collectives on different
 * communicators run at once, each on its own state). What states share
 * (the keys, the references, the count of live states) is set up once or
 * guarded by state_lock.
 */
#include "comm.h"
#include "../../include/mpicoll.h"
#include "errors.h"
#include "entry.h"
#include "shm.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int state_key = MPI_KEYVAL_INVALID, final_key = MPI_KEYVAL_INVALID;
static int agreed_key = MPI_KEYVAL_INVALID;     /* comm_settings_native */
static int keys_rc = MPI_SUCCESS;
/* 1 once make_keys has run: before, no communicator has a state, and a
 * lookup that makes none (comm_state_find's make 0) need not make the
 * keys, whose duplicate of MPI_COMM_SELF agrees on a context id: from
 * inside Open MPI's own agreement (the MPI_Iallreduce of an MPI_Comm_dup
 * that is the program's first collective, which reaches the component)
 * that would wait forever for the agreement it is inside of. */
static atomic_int keys_made;
static MPI_Comm self = MPI_COMM_NULL;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static int live;                /* states not yet destroyed (state_lock) */
/* The shared-memory domain of every process of MPI_COMM_WORLD, by world
 * rank, from the first node layout of a communicator of all of them
 * (state_lock; freed at MPI_Finalize): later communicators' layouts need
 * no split (layout_known). */
static int *world_domain;

void ready_plan_free(ready_plan *rp)
{
    exec_types_free(&rp->pl, rp->types);
    plan_free(&rp->pl);
    free(rp->reqs);
    free(rp->scratch);
    memset(rp, 0, sizeof *rp);
}

static void drop_plan(cached_plan *c)
{
    if (c->coll)
        ready_plan_free(&c->rp);
    free(c->counts);
    memset(c, 0, sizeof *c);
}

/* The communicator found last and its state, without threads (one thread
 * in MPI at a time): a program's calls on the same communicator again
 * skip the attribute's lookup. Forgotten when that state is deleted, before
 * the handle can name another communicator. */
static MPI_Comm last_comm = MPI_COMM_NULL;
static comm_state *last_state;

/* Drops one reference; the last one frees the state and its duplicate. */
static int state_unref(comm_state *st)
{
    if (atomic_fetch_sub(&st->refs, 1) != 1)
        return MPI_SUCCESS;
    pthread_mutex_lock(&state_lock);
    live--;
    pthread_mutex_unlock(&state_lock);
    for (int i = 0; i < PLAN_CACHE; i++) {
        drop_plan(&st->cache[i]);
        drop_plan(&st->lent[i].e);  /* all idle: every request held a reference */
    }
    free(st->scratch);
    for (int i = 0; i < 2 * NCOLLS; i++) {
        if (st->memo[i])
            free(st->memo[i]->counts);
        free(st->memo[i]);
    }
    free(st->node_of);
    if (st->domain != MPI_COMM_NULL)
        PMPI_Comm_free(&st->domain);
    int rc = PMPI_Comm_free(&st->comm);
    free(st);
    return rc;
}

static int state_delete(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)extra;
    comm_state *st = val;
    if (st->watch)
        *st->watch = NULL;
    if (last_state == st) {
        last_comm = MPI_COMM_NULL;
        last_state = NULL;
    }
    /* MPI_Win_free is collective: here, where the communicator is freed on
     * every rank, not with the last request; the requests outstanding on
     * the pool's channels complete first (MPI: pending operations complete
     * normally), and a persistent one started later fails (MPI_ERR_COMM) */
    if (st->shm)
        request_drain_shm(st->shm);
    shm_state_free(st->shm);
    st->shm = NULL;
    st->deleted = 1;
    for (int i = 0; i < 2 * NCOLLS; i++)   /* the requests parked, with their references */
        if (st->memo[i])
            call_memo_unpark(st->memo[i], st);
    return state_unref(st);
}

void comm_state_retain(comm_state *st)
{
    atomic_fetch_add(&st->refs, 1);
}

void comm_state_release(comm_state *st)
{
    state_unref(st);
}

int comm_state_live(void)
{
    pthread_mutex_lock(&state_lock);
    int n = live;
    pthread_mutex_unlock(&state_lock);
    return n;
}

static int at_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)val, (void)extra;
    void *st;
    int found = 0, rc;
    CHECK(PMPI_Comm_get_attr(MPI_COMM_WORLD, state_key, &st, &found));
    /* Open MPI fails the deletion of an attribute that is not set */
    if (found)
        CHECK(PMPI_Comm_delete_attr(MPI_COMM_WORLD, state_key));
out:
    shm_idle_free();
    request_spare_free();
    pthread_mutex_lock(&state_lock);
    free(world_domain);
    world_domain = NULL;
    pthread_mutex_unlock(&state_lock);
    PMPI_Comm_free_keyval(&state_key);
    PMPI_Comm_free_keyval(&final_key);
    PMPI_Comm_free_keyval(&agreed_key);
    if (self != MPI_COMM_NULL)
        PMPI_Comm_free(&self);
    return rc;
}

static RUNTIME_TLS int busy;

void runtime_enter(void) { busy++; }
void runtime_leave(void) { busy--; }
int runtime_busy(void) { return busy > 0; }

static int create_keys(void)
{
    int rc;
    CHECK(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, state_delete, &state_key, NULL));
    CHECK(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &final_key, NULL));
    CHECK(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &agreed_key,
                                  NULL));
    CHECK(PMPI_Comm_dup(MPI_COMM_SELF, &self));
    CHECK(PMPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN));
    CHECK(PMPI_Comm_set_attr(MPI_COMM_SELF, final_key, NULL));
out:
    return rc;
}

/* (its duplicate of MPI_COMM_SELF is collective: runtime_busy) */
static void make_keys(void)
{
    runtime_enter();
    keys_rc = create_keys();
    runtime_leave();
    atomic_store(&keys_made, 1);
}

int comm_self(MPI_Comm *out)
{
    pthread_once(&once, make_keys);
    *out = self;
    return keys_rc;
}

#define SETTINGS 32

/* The variable's text on this rank, quoted, or "unset". */
static void setting_text(const char *name, char *out, size_t len)
{
    const char *v = getenv(name);
    if (v)
        snprintf(out, len, "\"%.100s\"", v);
    else
        snprintf(out, len, "unset");
}

/* Every rank knows that some setting differs: all find the first one (in
 * the order of names) and the first rank where it differs from rank 0,
 * and rank 0 says it. Collective over comm; only on an error. */
static int settings_differ(MPI_Comm comm, const char **names, const uint64_t *d, int n)
{
    int rank, size, rc;
    uint64_t d0[SETTINGS];
    memcpy(d0, d, (size_t)n * sizeof *d);
    CHECK(PMPI_Comm_rank(comm, &rank));
    CHECK(PMPI_Comm_size(comm, &size));
    CHECK(PMPI_Bcast(d0, n, MPI_UINT64_T, 0, comm));
    int v = 0;
    while (v < n && d[v] == d0[v])
        v++;
    long long key = v < n ? (long long)v * size + rank : LLONG_MAX;
    CHECK(PMPI_Allreduce(MPI_IN_PLACE, &key, 1, MPI_LONG_LONG, MPI_MIN, comm));
    if (key == LLONG_MAX)       /* not a setting: different builds of mpicoll? */
        return PMPI_Barrier(comm) == MPI_SUCCESS ? MPI_ERR_ARG : MPI_ERR_INTERN;
    v = (int)(key / size);
    const int other = (int)(key % size);
    char theirs[120] = "";
    if (rank == other)
        setting_text(names[v], theirs, sizeof theirs);
    if (other != 0)
        CHECK(PMPI_Bcast(theirs, sizeof theirs, MPI_CHAR, other, comm));
    if (rank == 0) {
        char mine[120], msg[512];
        setting_text(names[v], mine, sizeof mine);
        snprintf(msg, sizeof msg, "%s is %s on rank 0 but %s%s on rank %d of the "
                 "communicator: every rank must have the same MPICOLL_ settings "
                 "(docs/selection.md)", names[v], mine,
                 strcmp(mine, theirs) ? "" : "means something else (the file's content)",
                 strcmp(mine, theirs) ? theirs : "", other);
        mpicoll_print_error(msg);
    }
    /* the message is out before any rank's error handler can end the job */
    CHECK(PMPI_Barrier(comm));
    rc = MPI_ERR_ARG;   /* the settings differ */
out:
    return rc;
}

int comm_settings_agree(MPI_Comm comm, int disabled, int *known)
{
    const char *names[SETTINGS];
    uint64_t d[SETTINGS];
    int n = 0;
    names[n] = "MPICOLL_DISABLE";
    d[n++] = (uint64_t)disabled;
    n += select_settings(names + n, d + n, SETTINGS - 1);
    /* a disabled rank runs none of it: where all are, nothing else counts */
    for (int i = 1; disabled && i < n; i++)
        d[i] = 0;
    /* all equal exactly when the AND of every hash and of every
     * complement leaves no bit unset in one or the other */
    const uint64_t h = settings_digest(DIGEST_INIT, d, (size_t)n * sizeof *d);
    uint64_t both[3] = { h, ~h, known && *known ? ~(uint64_t)0 : 0 };
    int rc = PMPI_Allreduce(MPI_IN_PLACE, both, 3, MPI_UINT64_T, MPI_BAND, comm);
    if (known)
        *known = both[2] == ~(uint64_t)0;
    if (rc != MPI_SUCCESS || (both[0] | both[1]) == ~(uint64_t)0)
        return rc;
    return settings_differ(comm, names, d, n);
}

int comm_settings_native(MPI_Comm comm)
{
    int found = 0, rc;
    void *val;
    pthread_once(&once, make_keys);
    CHECK(keys_rc);
    CHECK(PMPI_Comm_get_attr(comm, agreed_key, &val, &found));
    if (found)
        return MPI_SUCCESS;     /* agreed before, on this communicator */
    CHECK(comm_settings_agree(comm, 1, NULL));
    CHECK(PMPI_Comm_set_attr(comm, agreed_key, NULL));
out:
    return rc;
}

/* The world ranks of comm's p ranks; MPI_ERR_OTHER if one is not in
 * MPI_COMM_WORLD (spawned processes). */
static int world_ranks(MPI_Comm comm, int p, int *w)
{
    MPI_Group g = MPI_GROUP_NULL, wg = MPI_GROUP_NULL;
    int *r = malloc((size_t)p * sizeof *r), rc;
    CHECK(r ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    CHECK(PMPI_Comm_group(comm, &g));
    CHECK(PMPI_Comm_group(MPI_COMM_WORLD, &wg));
    for (int i = 0; i < p; i++)
        r[i] = i;
    CHECK(PMPI_Group_translate_ranks(g, p, r, wg, w));
    for (int i = 0; i < p; i++)
        if (w[i] == MPI_UNDEFINED)
            rc = MPI_ERR_OTHER;
out:
    if (g != MPI_GROUP_NULL)
        PMPI_Group_free(&g);
    if (wg != MPI_GROUP_NULL)
        PMPI_Group_free(&wg);
    free(r);
    return rc;
}

/* The node of every rank of comm from world_domain (nodes numbered in the
 * order of their lowest rank), or NULL when it is not known here. */
static int *layout_known(MPI_Comm comm, int p)
{
    int wsize;
    if (select_ranks_per_node(NULL) != 0 || PMPI_Comm_size(MPI_COMM_WORLD, &wsize) != MPI_SUCCESS)
        return NULL;
    pthread_mutex_lock(&state_lock);
    const int have = world_domain != NULL;
    pthread_mutex_unlock(&state_lock);
    int *node = have ? malloc((size_t)p * sizeof *node) : NULL;
    int *number = node ? malloc((size_t)wsize * sizeof *number) : NULL;
    if (!number || world_ranks(comm, p, node) != MPI_SUCCESS) {
        free(node);
        free(number);
        return NULL;
    }
    for (int i = 0; i < wsize; i++)
        number[i] = -1;
    pthread_mutex_lock(&state_lock);
    for (int i = 0, n = 0; i < p; i++) {
        int d = world_domain[node[i]];
        node[i] = number[d] >= 0 ? number[d] : (number[d] = n++);
    }
    pthread_mutex_unlock(&state_lock);
    free(number);
    return node;
}

/* Keeps node (the node of every rank) as st's layout. */
static void set_layout(comm_state *st, int *node)
{
    st->node_of = node;
    st->nnodes = 0;
    st->scattered_nodes = 0;
    for (int i = 0; i < st->size; i++) {
        if (node[i] + 1 > st->nnodes)
            st->nnodes = node[i] + 1;
        st->scattered_nodes |= i > 0 && node[i] < node[i - 1];
    }
}

/* After a split found the layout of a communicator of every world
 * process: world_domain, if not known yet. */
static void learn_world(const comm_state *st)
{
    int wsize, *w;
    if (PMPI_Comm_size(MPI_COMM_WORLD, &wsize) != MPI_SUCCESS || wsize != st->size)
        return;
    pthread_mutex_lock(&state_lock);
    const int have = world_domain != NULL;
    pthread_mutex_unlock(&state_lock);
    if (have || !(w = malloc((size_t)wsize * sizeof *w)))
        return;
    int *d = malloc((size_t)wsize * sizeof *d);
    if (d && world_ranks(st->comm, wsize, w) == MPI_SUCCESS) {
        for (int i = 0; i < wsize; i++)
            d[w[i]] = st->node_of[i];
        pthread_mutex_lock(&state_lock);
        if (!world_domain) {
            world_domain = d;
            d = NULL;
        }
        pthread_mutex_unlock(&state_lock);
    }
    free(d);
    free(w);
}

static int state_make(MPI_Comm comm, comm_state **out);

int comm_state_find(MPI_Comm comm, int make, comm_state **out)
{
    if (comm == last_comm && comm != MPI_COMM_NULL && !request_threaded()) {
        *out = last_state;
        return MPI_SUCCESS;
    }
    if (!make && !atomic_load(&keys_made)) {
        *out = NULL;
        return MPI_SUCCESS;
    }
    pthread_once(&once, make_keys);
    if (keys_rc != MPI_SUCCESS)
        return keys_rc;
    int found = 0;
    void *val;
    int rc = PMPI_Comm_get_attr(comm, state_key, &val, &found);
    if (rc != MPI_SUCCESS)
        return rc;
    *out = found ? val : NULL;
    if (found && !request_threaded()) {
        last_comm = comm;
        last_state = val;
    }
    if (found || !make)
        return MPI_SUCCESS;
    runtime_enter();
    rc = state_make(comm, out);
    runtime_leave();
    return rc;
}

void comm_state_watch(comm_state *st, comm_state **slot)
{
    st->watch = slot;
    *slot = st;
}

int comm_state_get(MPI_Comm comm, comm_state **out)
{
    return comm_state_find(comm, 1, out);
}

/* The state of comm, made (collectively) at its first call. */
static int state_make(MPI_Comm comm, comm_state **out)
{
    int rc;
    /* before anything else collective: a rank with other settings could
     * choose other algorithms, and would hang the others. The same
     * allreduce says whether every rank knows the node layout already. */
    int p;
    if ((rc = PMPI_Comm_size(comm, &p)) != MPI_SUCCESS)
        return rc;
    int *node = layout_known(comm, p), known = node != NULL;
    if ((rc = comm_settings_agree(comm, 0, &known)) != MPI_SUCCESS || !known) {
        free(node);
        node = NULL;
    }
    if (rc != MPI_SUCCESS)
        return rc;
    comm_state *st = calloc(1, sizeof *st);
    CHECK(st ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    st->comm = st->domain = MPI_COMM_NULL;
    st->refs = 1;
    CHECK(PMPI_Comm_dup(comm, &st->comm));
    CHECK(PMPI_Comm_set_errhandler(st->comm, MPI_ERRORS_RETURN));
    CHECK(PMPI_Comm_size(st->comm, &st->size));
    CHECK(PMPI_Comm_rank(st->comm, &st->rank));
    CHECK(PMPI_Comm_set_attr(comm, state_key, st));
    pthread_mutex_lock(&state_lock);
    live++;
    pthread_mutex_unlock(&state_lock);
    if (node)
        set_layout(st, node);   /* st keeps it */
    node = NULL;
    *out = st;
    st = NULL;
out:
    if (st && st->comm != MPI_COMM_NULL)
        PMPI_Comm_free(&st->comm);
    free(st);
    free(node);
    return rc;
}

MPI_Comm comm_state_comm(const comm_state *st) { return st->comm; }
int comm_state_size(const comm_state *st) { return st->size; }
int comm_state_rank(const comm_state *st) { return st->rank; }

void *comm_state_scratch(comm_state *st, size_t bytes)
{
    if (bytes == 0)
        bytes = 1;      /* so that NULL always means out of memory */
    if (bytes <= st->scratch_len)
        return st->scratch;
    void *n = malloc(bytes);
    if (!n)
        return NULL;
    st->memo_epoch++;       /* kept calls' views may be in the old scratch */
    free(st->scratch);
    st->scratch = n;
    st->scratch_len = bytes;
    return n;
}

/* The node of every rank: nodes of MPICOLL_RANKS_PER_NODE consecutive
 * ranks when it is set (to emulate nodes on one machine), else the
 * shared-memory domains of MPI_Comm_split_type. Nodes are numbered in the
 * order of their lowest rank. Collective over the communicator. */
int comm_state_layout(comm_state *st)
{
    if (st->node_of)
        return MPI_SUCCESS;
    int *node = malloc((size_t)st->size * sizeof *node), rc;
    MPI_Comm shm = MPI_COMM_NULL;
    const char *rpn;
    const long k = select_ranks_per_node(&rpn);
    CHECK(node ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    if (k < 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "MPICOLL_RANKS_PER_NODE=%.64s: expected a positive "
                 "integer up to %d", rpn, INT_MAX);
        if (st->rank == 0)
            mpicoll_print_error(msg);
        CHECK(MPI_ERR_ARG);
    } else if (k) {
        for (int i = 0; i < st->size; i++)
            node[i] = (int)(i / k);
    } else {
        int lead = st->rank;    /* the node's lowest rank, from its local rank 0 */
        CHECK(PMPI_Comm_split_type(st->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
        CHECK(PMPI_Bcast(&lead, 1, MPI_INT, 0, shm));
        CHECK(PMPI_Allgather(&lead, 1, MPI_INT, node, 1, MPI_INT, st->comm));
        for (int i = 0, n = 0; i < st->size; i++)
            node[i] = node[i] == i ? n++ : node[node[i]];
    }
    set_layout(st, node);   /* st keeps it */
    node = NULL;
    st->domain = shm;   /* the probe's node communicator, if it comes: one split saved */
    if (shm != MPI_COMM_NULL)
        learn_world(st);
    shm = MPI_COMM_NULL;
out:
    if (shm != MPI_COMM_NULL)
        PMPI_Comm_free(&shm);
    free(node);
    return rc;
}

int comm_state_nodes(comm_state *st, int *nnodes)
{
    int rc;
    CHECK(comm_state_layout(st));
    *nnodes = st->nnodes;
out:
    return rc;
}

/* Two keys' counts and displacements (either may be NULL: none). */
static int same_counts(const size_t *c1, const size_t *d1, const size_t *c2, const size_t *d2,
                       int p)
{
    return !c1 == !c2 && (!c2 || (memcmp(c1, c2, (size_t)p * sizeof *c2) == 0 &&
                                  memcmp(d1, d2, (size_t)p * sizeof *d2) == 0));
}

static int same(const cached_plan *e, const coll_desc *c, const choice *ch,
                const plan_args *a)
{
    return e->coll == c && e->algo == ch->algo && e->args.block == a->block &&
           e->args.esize == a->esize && e->args.root == a->root &&
           e->args.commutative == a->commutative && e->args.inplace == a->inplace &&
           memcmp(e->args.param, a->param, sizeof a->param) == 0 &&
           same_counts(e->args.count, e->args.displ, a->count, a->displ, a->p) &&
           same_counts(e->args.scount, e->args.sdispl, a->scount, a->sdispl, a->p);
}

/* Builds the plan of a->(p, rank, params...) into rp, with its request
 * array and datatypes. */
static int ready_plan_make(comm_state *st, const choice *ch, plan_args *a, ready_plan *rp)
{
    memset(rp, 0, sizeof *rp);
    if (ch->algo->restrictions & R_NODES) {
        int rc = comm_state_layout(st);
        if (rc != MPI_SUCCESS)
            return rc;
        a->node_of = st->node_of;
    }
    if (plan_build(&rp->pl, ch->algo->build, a))
        return MPI_ERR_NO_MEM;
    size_t nreq = exec_requests(&rp->pl);
    rp->reqs = malloc((nreq ? nreq : 1) * sizeof *rp->reqs);
    int rc = rp->reqs ? exec_types_make(&rp->pl, &rp->types) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS)
        ready_plan_free(rp);
    return rc;
}

/* A shared-memory algorithm's single copy (its parameter `cma`) off when
 * the node's kernel refuses cross-memory attach (shm_cma, the same on all
 * the node's ranks): the two-copy plan, on every rank alike. */
void comm_cma_fallback(const comm_state *st, const coll_algo *algo, int *param)
{
    if (!st->shm || shm_cma(st->shm))
        return;
    for (int k = 0; k < coll_algo_nparams(algo); k++)
        if (strcmp(algo->params[k].name, "cma") == 0)
            param[k] = 0;
}

/* Sets a free slot's key: the call, with its own copy of the counts. */
static int key_set(cached_plan *slot, const coll_desc *c, const choice *ch, plan_args *a)
{
    size_t *counts = NULL;
    const size_t np = (size_t)a->p;
    if (a->count || a->scount) {    /* both sides */
        if (!(counts = malloc(4 * np * sizeof *counts)))
            return MPI_ERR_NO_MEM;
        if (a->count) {
            memcpy(counts, a->count, np * sizeof *counts);
            memcpy(counts + np, a->displ, np * sizeof *counts);
            a->count = counts;
            a->displ = counts + np;
        }
        if (a->scount) {
            memcpy(counts + 2 * np, a->scount, np * sizeof *counts);
            memcpy(counts + 3 * np, a->sdispl, np * sizeof *counts);
            a->scount = counts + 2 * np;
            a->sdispl = counts + 3 * np;
        }
    }
    slot->counts = counts;
    slot->coll = c;
    slot->algo = ch->algo;
    slot->args = *a;
    return MPI_SUCCESS;
}

/* A request's plan: the idle one of the same call, or built, its slot
 * taken when one is empty or idle (the least recently used). Only the
 * thread that makes the communicator's collectives (MPI orders them)
 * takes slots, so an idle slot stays idle until it does; the owners of
 * requests give them back from any thread: the slot's key and plan are
 * written before `out` is cleared (release), read after it is seen
 * clear (acquire). */
static int request_plan(comm_state *st, const coll_desc *c, const choice *ch, plan_args *a,
                        ready_plan *own)
{
    lent_plan *slot = NULL;
    st->lent_tick++;
    for (int i = 0; i < PLAN_CACHE; i++) {
        lent_plan *e = &st->lent[i];
        if (atomic_load_explicit(&e->out, memory_order_acquire))
            continue;
        if (same(&e->e, c, ch, a)) {
            *own = e->e.rp;
            own->lease = i + 1;
            e->e.used = st->lent_tick;
            atomic_store_explicit(&e->out, 1, memory_order_relaxed);
            return MPI_SUCCESS;
        }
        if (!slot || e->e.used < slot->e.used)
            slot = e;
    }
    int rc = ready_plan_make(st, ch, a, own);
    if (rc != MPI_SUCCESS || !slot)
        return rc;
    drop_plan(&slot->e);
    slot->gen++;
    if (key_set(&slot->e, c, ch, a) == MPI_SUCCESS) {
        slot->e.used = st->lent_tick;
        own->lease = (int)(slot - st->lent) + 1;
        atomic_store_explicit(&slot->out, 1, memory_order_relaxed);
    }
    return MPI_SUCCESS;
}

int comm_state_plan_again(comm_state *st, int lease, unsigned gen, ready_plan *own)
{
    lent_plan *e = &st->lent[lease - 1];
    if (atomic_load_explicit(&e->out, memory_order_acquire) || e->gen != gen || !e->e.coll)
        return 0;
    *own = e->e.rp;
    own->lease = lease;
    e->e.used = ++st->lent_tick;
    atomic_store_explicit(&e->out, 1, memory_order_relaxed);
    return 1;
}

unsigned comm_state_plan_gen(const comm_state *st, int lease)
{
    return st->lent[lease - 1].gen;
}

void comm_state_plan_drop(comm_state *st, ready_plan *rp)
{
    if (!rp->lease) {
        ready_plan_free(rp);
        return;
    }
    lent_plan *e = &st->lent[rp->lease - 1];
    e->e.rp = *rp;
    e->e.rp.lease = 0;
    atomic_store_explicit(&e->out, 0, memory_order_release);
    memset(rp, 0, sizeof *rp);
}

int comm_state_plan(comm_state *st, const coll_desc *c, const choice *ch, plan_args a,
                           const ready_plan **rp, ready_plan *own)
{
    a.p = st->size;
    a.rank = st->rank;
    memcpy(a.param, ch->params, sizeof a.param);
    comm_cma_fallback(st, ch->algo, a.param);
    a.node_of = NULL;
    if (own) {
        *rp = own;
        return request_plan(st, c, ch, &a, own);
    }
    cached_plan *slot = &st->cache[0];
    st->tick++;
    for (int i = 0; i < PLAN_CACHE; i++) {
        cached_plan *e = &st->cache[i];
        if (same(e, c, ch, &a)) {
            e->used = st->tick;
            *rp = &e->rp;
            return MPI_SUCCESS;
        }
        if (e->used < slot->used)
            slot = e;
    }
    drop_plan(slot);
    st->memo_epoch++;       /* a kept call's plan may have been this slot's */
    int rc = ready_plan_make(st, ch, &a, &slot->rp);
    if (rc == MPI_SUCCESS && (rc = key_set(slot, c, ch, &a)) != MPI_SUCCESS)
        ready_plan_free(&slot->rp);
    if (rc != MPI_SUCCESS)
        return rc;
    slot->used = st->tick;
    *rp = &slot->rp;
    return MPI_SUCCESS;
}

struct shm_state *comm_state_shm(const comm_state *st) { return st->shm; }

int mpicoll_comm_nodes(MPI_Comm comm, int *nnodes)
{
    comm_state *st;
    int rc;
    runtime_enter();
    CHECK(nnodes ? check_comm(comm) : MPI_ERR_ARG);
    CHECK(comm_state_get(comm, &st));
    CHECK(comm_state_nodes(st, nnodes));
out:
    runtime_leave();
    return rc;
}

int mpicoll_last_choice(MPI_Comm comm, char *buf, size_t buflen)
{
    void *val = NULL;
    int found = 0;
    if (keys_rc != MPI_SUCCESS || !atomic_load(&keys_made) || comm == MPI_COMM_NULL || !buf || buflen == 0
        || PMPI_Comm_get_attr(comm, state_key, &val, &found) != MPI_SUCCESS || !found
        || !((comm_state *)val)->last_algo)
        return -1;
    const comm_state *st = val;
    spec_format(st->last_algo, st->last_params, buf, buflen);
    return 0;
}

/* Tags 1 .. 30000, in turn (MPI guarantees tags up to 32767). */
int comm_state_next_tag(comm_state *st)
{
    return 1 + (int)(st->seq++ % 30000u);
}
