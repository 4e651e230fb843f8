/*
 * The selection by the cost model (no MPI): every candidate's plans
 * replayed (cost.c) as `mpicoll bench` measures a call (cost_bench: a
 * barrier, then the call, timed from each rank's exit of the barrier,
 * which is also what the simulations measure), the cheapest chosen.
 *
 * A function of the collective, the call_info and the parameters only
 * (never of the rank), so every rank of a communicator chooses the same
 * without a message: nodes are taken as blocks of consecutive ranks
 * (rank r on node r * nnodes / p), the operation as commutative when the
 * call_info says so, elements of one byte.
 */
#include "cost.h"

#include <stdlib.h>
#include <string.h>

/* The values tried of a radix parameter (k, radix), besides its default. */
static const int radixes[] = { 2, 4, 8 };
#define TRIED_MAX (1 + (int)(sizeof radixes / sizeof radixes[0]))

/* The values of parameter ap that the model tries, into v (at most
 * TRIED_MAX; the default first): a radix (k, radix) also at radixes[]
 * within its range, a switch (range 0..1, e.g. prepost, multiport) at
 * both, any other at its default only. Returns how many. */
static int tried(const algo_param *ap, int *v)
{
    int n = 0;
    v[n++] = ap->def;
    if (strcmp(ap->name, "k") == 0 || strcmp(ap->name, "radix") == 0) {
        for (size_t i = 0; i < sizeof radixes / sizeof radixes[0]; i++)
            if (radixes[i] != ap->def && radixes[i] >= ap->min && radixes[i] <= ap->max)
                v[n++] = radixes[i];
    } else if (ap->min == 0 && ap->max == 1) {
        v[n++] = !ap->def;
    }
    return n;
}

/* The candidate's time (cost_bench), or < 0 if it holds more than `budget` messages in
 * all (from rank 0's plan times p) or its plans cannot be made. */
static double predict(const coll_algo *a, const int *params,
                      const call_info *ci, const int *node_of, const cost_params *cp,
                      size_t budget, plan *plans)
{
    const int p = ci->p;
    int built = 0;
    double t = -1;
    for (; built < p; built++) {
        plan_args pa = { .p = p, .rank = built, .block = ci->bytes, .esize = 1,
                         .commutative = ci->commutative, .node_of = node_of };
        memcpy(pa.param, params, sizeof pa.param);
        if (plan_build(&plans[built], a->build, &pa))
            goto out;
        if (built == 0) {
            plan_stats st;
            plan_count(&plans[0], &st);
            if ((double)(st.msgs + 1) * p > (double)budget) {
                built = 1;
                goto out;
            }
        }
    }
    if (cost_bench(plans, p, node_of, cp, &t) != 0)
        t = -1;
out:
    for (int r = 0; r < built; r++)
        plan_free(&plans[r]);
    return t;
}

/* A lower bound of the candidate's time from rank 0's plan: its CPU work
 * (overheads, copies, reductions) and the bytes through its link each
 * way, at the cheapest link's rates. 0 if the plan cannot be made. */
static double lower_bound(const coll_algo *a, const int *params, const call_info *ci,
                          const int *node_of, const cost_params *cp)
{
    plan_args pa = { .p = ci->p, .rank = 0, .block = ci->bytes, .esize = 1,
                     .commutative = ci->commutative, .node_of = node_of };
    memcpy(pa.param, params, sizeof pa.param);
    plan pl;
    if (plan_build(&pl, a->build, &pa))
        return 0;
    plan_stats st;
    plan_count(&pl, &st);
    size_t recvs = 0;
    for (size_t i = 0; i < pl.nops; i++)
        recvs += pl.ops[i].kind == OP_RECV;
    plan_free(&pl);
    const cost_link *l[3] = { &cp->node, &cp->net, &cp->far };
    double beta = l[0]->beta, os = l[0]->send_overhead, orr = l[0]->recv_overhead;
    for (int i = 1; i < 3; i++) {
        beta = l[i]->beta < beta ? l[i]->beta : beta;
        os = l[i]->send_overhead < os ? l[i]->send_overhead : os;
        orr = l[i]->recv_overhead < orr ? l[i]->recv_overhead : orr;
    }
    double cpu = (double)st.msgs * os + (double)recvs * orr + (double)st.copy_bytes * cp->copy +
                 (double)st.reduce_bytes * cp->reduce;
    double out = (double)st.bytes_sent * beta, in = (double)st.bytes_recv * beta;
    return cpu > out ? (cpu > in ? cpu : in) : (out > in ? out : in);
}

/* Keeps x among the two cheapest of best and second. */
static void rank_pick(const cost_pick *x, cost_pick *best, cost_pick *second)
{
    if (best->seconds < 0 || x->seconds < best->seconds) {
        *second = *best;
        *best = *x;
    } else if (second->seconds < 0 || x->seconds < second->seconds) {
        *second = *x;
    }
}

/* Candidates in a growing array. */
static int add(cost_pick **v, size_t *n, size_t *cap, const cost_pick *x)
{
    if (*n == *cap) {
        size_t want = *cap ? 2 * *cap : 16;
        cost_pick *grown = realloc(*v, want * sizeof **v);
        if (!grown)
            return -1;
        *v = grown;
        *cap = want;
    }
    (*v)[(*n)++] = *x;
    return 0;
}

/* By lower bound, then table order (qsort is not stable: the index
 * decides ties, so every rank sorts alike). */
static int by_seconds(const void *x, const void *y)
{
    const cost_pick *a = x, *b = y;
    if (a->seconds != b->seconds)
        return a->seconds < b->seconds ? -1 : 1;
    if (a->algo != b->algo)
        return a->algo < b->algo ? -1 : 1;
    return memcmp(a->params, b->params, sizeof a->params);
}

int cost_choose(const coll_desc *c, const call_info *ci, const cost_params *cp, size_t budget,
                int (*applies)(const coll_algo *, const call_info *), cost_pick *best,
                cost_pick *second)
{
    const int p = ci->p;
    /* predict and lower_bound build plans of ci->bytes: the builders' block */
    call_info blk = *ci;
    blk.bytes = coll_block_of(c, p, ci->bytes);
    int *node_of = malloc((size_t)p * sizeof *node_of);
    plan *plans = calloc((size_t)p, sizeof *plans);
    cost_pick *cands = NULL;
    size_t ncands = 0, cap = 0;
    int rc = -1;
    *best = *second = (cost_pick){ .algo = NULL, .seconds = -1 };   /* none yet, params 0 */
    if (!node_of || !plans)
        goto out;
    for (int r = 0; r < p; r++)
        node_of[r] = (int)((long)r * (ci->nnodes > 0 ? ci->nnodes : 1) / p);
    /* the candidates: each algorithm at every combination of the values
     * tried of its parameters (tried()) */
    for (int i = 0; i < c->nalgos; i++) {
        const coll_algo *a = &c->algos[i];
        if (!a->build || (a->restrictions & (R_SHM | R_ONE_NODE)) || !applies(a, ci))
            continue;
        int np = coll_algo_nparams(a), nv[PLAN_MAX_PARAMS], v[PLAN_MAX_PARAMS][TRIED_MAX];
        int at[PLAN_MAX_PARAMS] = { 0 };
        for (int k = 0; k < np; k++)
            nv[k] = tried(&a->params[k], v[k]);
        for (;;) {
            cost_pick x = { .algo = a };
            for (int k = 0; k < np; k++)
                x.params[k] = v[k][at[k]];
            if (add(&cands, &ncands, &cap, &x))
                goto out;
            int k = 0;  /* the next combination: an odometer over at[] */
            while (k < np && ++at[k] == nv[k])
                at[k++] = 0;
            if (k == np)
                break;
        }
    }
    /* replayed in the order of their lower bounds (seconds holds the
     * bound until then); one whose bound is within 2% of the best's time
     * cannot beat it by more than the model's precision: not replayed */
    for (size_t i = 0; i < ncands; i++)
        cands[i].seconds = lower_bound(cands[i].algo, cands[i].params, &blk, node_of, cp);
    qsort(cands, ncands, sizeof *cands, by_seconds);
    for (size_t i = 0; i < ncands; i++) {
        cost_pick x = cands[i];
        if (best->seconds >= 0 && x.seconds >= 0.98 * best->seconds)
            continue;
        x.seconds = predict(x.algo, x.params, &blk, node_of, cp, budget, plans);
        if (x.seconds >= 0)
            rank_pick(&x, best, second);
    }
    rc = 0;
out:
    free(node_of);
    free(plans);
    free(cands);
    return rc;
}
