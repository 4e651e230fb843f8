/*
 * Per-communicator state, cached on the user's communicator with an
 * attribute: the private duplicate (so mpicoll's messages can never match
 * the application's), a small plan cache (set up once, run many) and
 * scratch memory. The attribute's delete callback frees it all with the
 * communicator; MPI_COMM_WORLD's is freed at MPI_Finalize through an
 * attribute on MPI_COMM_SELF, which MPI deletes first.
 */
#include "runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_CACHE 8

typedef struct cached_plan {
    const coll_desc *coll;      /* NULL: empty slot */
    const coll_algo *algo;
    plan_args args;             /* the key, with the algorithm */
    unsigned long long used;
    ready_plan rp;
} cached_plan;

struct comm_state {
    MPI_Comm comm;
    int size, rank;
    void *scratch;
    size_t scratch_len;
    unsigned long long tick;
    cached_plan cache[PLAN_CACHE];
    int *node_of;               /* made when an algorithm or a rule first needs it */
    int nnodes;
    unsigned seq;               /* collectives started on the communicator */
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int state_key = MPI_KEYVAL_INVALID, final_key = MPI_KEYVAL_INVALID;
static int keys_rc = MPI_SUCCESS;

void ready_plan_free(ready_plan *rp)
{
    exec_types_free(&rp->pl, rp->types);
    plan_free(&rp->pl);
    free(rp->reqs);
    memset(rp, 0, sizeof *rp);
}

static void drop_plan(cached_plan *c)
{
    if (c->coll)
        ready_plan_free(&c->rp);
    memset(c, 0, sizeof *c);
}

static int state_delete(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)extra;
    comm_state *st = val;
    for (int i = 0; i < PLAN_CACHE; i++)
        drop_plan(&st->cache[i]);
    free(st->scratch);
    free(st->node_of);
    int rc = PMPI_Comm_free(&st->comm);
    free(st);
    return rc;
}

static int at_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)val, (void)extra;
    void *st;
    int found = 0, rc = PMPI_Comm_get_attr(MPI_COMM_WORLD, state_key, &st, &found);
    /* Open MPI fails the deletion of an attribute that is not set */
    if (rc == MPI_SUCCESS && found)
        rc = PMPI_Comm_delete_attr(MPI_COMM_WORLD, state_key);
    PMPI_Comm_free_keyval(&state_key);
    PMPI_Comm_free_keyval(&final_key);
    return rc;
}

static void make_keys(void)
{
    keys_rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, state_delete, &state_key, NULL);
    if (keys_rc == MPI_SUCCESS)
        keys_rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &final_key, NULL);
    if (keys_rc == MPI_SUCCESS)
        keys_rc = PMPI_Comm_set_attr(MPI_COMM_SELF, final_key, NULL);
}

int comm_state_get(MPI_Comm comm, comm_state **out)
{
    pthread_once(&once, make_keys);
    if (keys_rc != MPI_SUCCESS)
        return keys_rc;
    int found = 0;
    void *val;
    int rc = PMPI_Comm_get_attr(comm, state_key, &val, &found);
    if (rc != MPI_SUCCESS)
        return rc;
    if (found) {
        *out = val;
        return MPI_SUCCESS;
    }
    comm_state *st = calloc(1, sizeof *st);
    if (!st)
        return MPI_ERR_NO_MEM;
    st->comm = MPI_COMM_NULL;
    rc = PMPI_Comm_dup(comm, &st->comm);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_set_errhandler(st->comm, MPI_ERRORS_RETURN);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_size(st->comm, &st->size);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_rank(st->comm, &st->rank);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_set_attr(comm, state_key, st);
    if (rc != MPI_SUCCESS)
        goto fail;
    *out = st;
    return MPI_SUCCESS;
fail:
    if (st->comm != MPI_COMM_NULL)
        PMPI_Comm_free(&st->comm);
    free(st);
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
    free(st->scratch);
    st->scratch = n;
    st->scratch_len = bytes;
    return n;
}

/* The node of every rank: nodes of MPICOLL_RANKS_PER_NODE consecutive
 * ranks when it is set (to emulate nodes on one machine), else the
 * shared-memory domains of MPI_Comm_split_type. Nodes are numbered in the
 * order of their lowest rank. Collective over the communicator. */
static int node_layout(comm_state *st)
{
    if (st->node_of)
        return MPI_SUCCESS;
    int *node = malloc((size_t)st->size * sizeof *node);
    MPI_Comm shm = MPI_COMM_NULL;
    int rc = node ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    const char *v = getenv("MPICOLL_RANKS_PER_NODE");
    if (rc == MPI_SUCCESS && v && *v) {
        char *end;
        long k = strtol(v, &end, 10);
        if (*end || k < 1) {
            if (st->rank == 0)
                mpicoll_print_error("MPICOLL_RANKS_PER_NODE must be a positive integer");
            rc = MPI_ERR_ARG;
        }
        for (int i = 0; rc == MPI_SUCCESS && i < st->size; i++)
            node[i] = (int)(i / k);
    } else if (rc == MPI_SUCCESS) {
        int lead = st->rank;    /* the node's lowest rank, from its local rank 0 */
        rc = PMPI_Comm_split_type(st->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Bcast(&lead, 1, MPI_INT, 0, shm);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Allgather(&lead, 1, MPI_INT, node, 1, MPI_INT, st->comm);
        for (int i = 0, n = 0; rc == MPI_SUCCESS && i < st->size; i++)
            node[i] = node[i] == i ? n++ : node[node[i]];
    }
    if (shm != MPI_COMM_NULL)
        PMPI_Comm_free(&shm);
    if (rc != MPI_SUCCESS) {
        free(node);
        return rc;
    }
    st->node_of = node;
    st->nnodes = 0;
    for (int i = 0; i < st->size; i++)
        if (node[i] + 1 > st->nnodes)
            st->nnodes = node[i] + 1;
    return MPI_SUCCESS;
}

int comm_state_nodes(comm_state *st, int *nnodes)
{
    int rc = node_layout(st);
    if (rc == MPI_SUCCESS)
        *nnodes = st->nnodes;
    return rc;
}

static int same(const cached_plan *e, const coll_desc *c, const choice *ch,
                const plan_args *a)
{
    return e->coll == c && e->algo == ch->algo && e->args.block == a->block &&
           e->args.esize == a->esize && e->args.root == a->root &&
           e->args.commutative == a->commutative && e->args.inplace == a->inplace &&
           memcmp(e->args.param, a->param, sizeof a->param) == 0;
}

/* Builds the plan of a->(p, rank, params...) into rp, with its request
 * array and datatypes. */
static int ready_plan_make(comm_state *st, const choice *ch, plan_args *a, ready_plan *rp)
{
    memset(rp, 0, sizeof *rp);
    if (ch->algo->restrictions & R_NODES) {
        int rc = node_layout(st);
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

static int comm_state_plan(comm_state *st, const coll_desc *c, const choice *ch, plan_args a,
                           const ready_plan **rp, ready_plan *own)
{
    a.p = st->size;
    a.rank = st->rank;
    memcpy(a.param, ch->params, sizeof a.param);
    a.node_of = NULL;
    if (own) {
        int rc = ready_plan_make(st, ch, &a, own);
        *rp = own;
        return rc;
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
    int rc = ready_plan_make(st, ch, &a, &slot->rp);
    if (rc != MPI_SUCCESS)
        return rc;
    slot->coll = c;
    slot->algo = ch->algo;
    slot->args = a;
    slot->used = st->tick;
    *rp = &slot->rp;
    return MPI_SUCCESS;
}

int comm_state_prepare(comm_state *st, const coll_desc *c, const char *spec, call_info *ci,
                       plan_args pa, const ready_plan **rp, ready_plan *own)
{
    int rc = MPI_SUCCESS;
    if (select_needs_nodes(c) && (rc = comm_state_nodes(st, &ci->nnodes)) != MPI_SUCCESS)
        return rc;
    choice ch;
    char err[512];
    rc = select_choose(c, spec, 1, ci, &ch, err, sizeof err);
    if (rc != MPI_SUCCESS) {
        if (st->rank == 0)
            mpicoll_print_error(err);
        return rc;
    }
    select_log(c, &ch, ci, st->rank);
    return comm_state_plan(st, c, &ch, pa, rp, own);
}

/* Tags 1 .. 30000, in turn (MPI guarantees tags up to 32767). */
int comm_state_next_tag(comm_state *st)
{
    return 1 + (int)(st->seq++ % 30000u);
}
