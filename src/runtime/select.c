/*
 * Selection of one call: the node count when the rules need it, the
 * shared-memory probe, the choice (src/model/choose.c) through the
 * communicator's memory of the last choice of each collective, the
 * channel a request's shared-memory plan needs, the log, and the plan.
 */
#include "select.h"
#include "errors.h"
#include "shm.h"

#include <stdlib.h>
#include <string.h>

/* select_choose's result as an MPI error class */
static int select_error(int rc)
{
    return rc == SELECT_OK ? MPI_SUCCESS : rc == SELECT_BAD_ARG ? MPI_ERR_ARG
         : rc == SELECT_UNSUPPORTED ? MPI_ERR_UNSUPPORTED_OPERATION : MPI_ERR_INTERN;
}

/* What the selection knows once the segments were probed. */
static void shm_describe(const comm_state *st, call_info *ci)
{
    ci->nnodes = st->nnodes;
    ci->shm_missing = shm_missing(st->shm);
    ci->scattered_nodes = st->scattered_nodes;
}

/* Collective, the first time an R_SHM algorithm is chosen on the
 * communicator (every rank chooses the same): the node layout and the
 * segments, or why there can be none. */
static int shm_probe(comm_state *st, call_info *ci)
{
    int rc;
    CHECK(comm_state_layout(st));
    MPI_Comm domain = st->domain;
    st->domain = MPI_COMM_NULL;
    CHECK(shm_state_make(st->comm, st->rank, st->size, st->node_of,
                         select_ranks_per_node(NULL) != 0, domain, &st->shm));
    shm_describe(st, ci);
out:
    return rc;
}

/* The shared-memory need of a request's plan on every rank: its own, and
 * on a hierarchical algorithm that of the largest node (node areas grow
 * with the node's ranks; chunks are the same everywhere), so that all
 * ranks decide alike whether the plan fits a pool channel. */
static int request_shm_need(comm_state *st, const choice *ch, plan_args a, const plan *mine,
                            size_t *need)
{
    *need = mine->shm_bytes;
    if (!(ch->algo->restrictions & R_NODES) || !st->node_of)
        return MPI_SUCCESS;
    int *size = calloc((size_t)st->nnodes, sizeof *size), big = 0;
    if (!size)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < st->size; i++)
        size[st->node_of[i]]++;
    for (int n = 1; n < st->nnodes; n++)
        big = size[n] > size[big] ? n : big;
    int other = size[st->node_of[st->rank]] < size[big];
    free(size);
    if (!other)
        return MPI_SUCCESS;
    for (a.rank = 0; st->node_of[a.rank] != big; a.rank++)
        ;
    a.p = st->size;
    memcpy(a.param, ch->params, sizeof a.param);
    comm_cma_fallback(st, ch->algo, a.param);
    a.node_of = st->node_of;
    plan pl;
    if (plan_build(&pl, ch->algo->build, &a))
        return MPI_ERR_NO_MEM;
    if (pl.shm_bytes > *need)
        *need = pl.shm_bytes;
    plan_free(&pl);
    return MPI_SUCCESS;
}

static const char no_channel_fit[] =
    "a request's shared-memory channel cannot hold one element per slot";

static int same_info(const call_info *a, const call_info *b)
{
    return a->p == b->p && a->nnodes == b->nnodes && a->bytes == b->bytes
           && a->commutative == b->commutative && a->request == b->request
           && a->shm_unready == b->shm_unready
           && a->shm_missing == b->shm_missing && a->scattered_nodes == b->scattered_nodes;
}

/* select_choose, through the communicator's memory of the last choice of
 * each collective. */
static int choose(comm_state *st, const coll_desc *c, const char *spec, const call_info *ci,
                  choice *ch, char *err, size_t errlen)
{
    if (!spec)
        spec = "";
    chosen *slot = NULL;
    for (int i = 0; i < CHOICE_CACHE && !slot; i++)
        if (st->choices[i].c == c || !st->choices[i].c)
            slot = &st->choices[i];
    const int keep = slot && strlen(spec) < CHOICE_SPEC;
    if (keep && slot->c == c && same_info(&slot->ci, ci) && strcmp(slot->spec, spec) == 0) {
        *ch = slot->ch;
        return MPI_SUCCESS;
    }
    int rc = select_error(select_choose(c, spec, 1, ci, ch, err, errlen));
    if (rc == MPI_SUCCESS && keep) {
        slot->c = c;
        strcpy(slot->spec, spec);
        slot->ci = *ci;
        slot->ch = *ch;
    }
    return rc;
}

int select_prepare(comm_state *st, const coll_desc *c, const char *spec, call_info *ci,
                       plan_args pa, const ready_plan **rp, ready_plan *own)
{
    int rc = MPI_SUCCESS;
    if (select_needs_nodes(c) && (rc = comm_state_nodes(st, &ci->nnodes)) != MPI_SUCCESS)
        return rc;
    ci->request = own != NULL;
    if (st->shm)
        shm_describe(st, ci);
    ci->shm_unready = ci->request && !(st->shm && shm_requests_made(st->shm));
    choice ch;
    char err[512];
    rc = choose(st, c, spec, ci, &ch, err, sizeof err);
    /* chosen before the segments were probed: probe, and choose again */
    if (rc == MPI_SUCCESS && !st->shm && (ch.algo->restrictions & R_SHM)) {
        if ((rc = shm_probe(st, ci)) != MPI_SUCCESS)
            return rc;
        rc = choose(st, c, spec, ci, &ch, err, sizeof err);
    }
    /* a request runs in a pool channel of fixed size: its segment parameter
     * is at most the channel's (chunks of the message pipelined; results do
     * not depend on the chunk), and its plan must fit */
    int planned = 0;
    if (rc == MPI_SUCCESS && ci->request && (ch.algo->restrictions & R_SHM)) {
        if (coll_algo_nparams(ch.algo) > 0 && strcmp(ch.algo->params[0].name, "segment") == 0
            && ch.params[0] > (int)SHM_REQ_SEGMENT)
            ch.params[0] = (int)SHM_REQ_SEGMENT;
        size_t need = 0;
        if ((rc = comm_state_plan(st, c, &ch, pa, rp, own)) == MPI_SUCCESS)
            rc = request_shm_need(st, &ch, pa, &own->pl, &need);
        if (rc != MPI_SUCCESS) {
            comm_state_plan_drop(st, own);
            return rc;
        }
        planned = 1;
        if (need > SHM_REQ_SEGMENT) {
            comm_state_plan_drop(st, own);
            planned = 0;
            ci->shm_missing = no_channel_fit;
            rc = choose(st, c, spec, ci, &ch, err, sizeof err);
        }
    }
    if (rc != MPI_SUCCESS) {
        if (st->rank == 0)
            mpicoll_print_error(err);
        return rc;
    }
    int world_rank = 0;
    if (st->rank == 0)
        PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    select_log(c, &ch, ci, st->rank, world_rank);
    st->last_algo = ch.algo;
    memcpy(st->last_params, ch.params, sizeof st->last_params);
    if (coll_algo_native(ch.algo)) {
        *rp = NULL;     /* the MPI library's own collective: no plan */
        return MPI_SUCCESS;
    }
    if (!planned)
        rc = comm_state_plan(st, c, &ch, pa, rp, own);
    if (rc != MPI_SUCCESS || !(*rp)->pl.shm_bytes)
        return rc;
    if (!st->shm)
        return MPI_ERR_INTERN;
    /* collective over the node: a forced request's pool, the first time;
     * the blocking channel when it grows; and with the first blocking call,
     * the requests' pool, so that no request needs a collective to start
     * (ci.shm_unready) */
    if (ci->request)
        return shm_requests_ready(st->shm);
    if ((rc = shm_reserve(st->shm, (*rp)->pl.shm_bytes)) != MPI_SUCCESS)
        return rc;
    return shm_requests_ready(st->shm);
}

