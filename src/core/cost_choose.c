/*
 * The selection by the cost model (no MPI): every candidate's plans
 * replayed (cost.c) for one call, the cheapest chosen.
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

static int is_radix(const algo_param *ap)
{
    return strcmp(ap->name, "k") == 0 || strcmp(ap->name, "radix") == 0;
}

/* The candidate's time, or < 0 if it holds more than `budget` messages in
 * all (from rank 0's plan times p) or its plans cannot be made. */
static double predict(const coll_algo *a, const int *params,
                      const call_info *ci, const int *node_of, const cost_params *cp,
                      size_t budget, plan *plans, double *finish)
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
    if (cost_replay(plans, p, node_of, cp, NULL, finish) == 0) {
        t = 0;
        for (int r = 0; r < p; r++)
            t = finish[r] > t ? finish[r] : t;
    }
out:
    for (int r = 0; r < built; r++)
        plan_free(&plans[r]);
    return t;
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

int cost_choose(const coll_desc *c, const call_info *ci, const cost_params *cp, size_t budget,
                int (*applies)(const coll_algo *, const call_info *), cost_pick *best,
                cost_pick *second)
{
    const int p = ci->p;
    int *node_of = malloc((size_t)p * sizeof *node_of);
    plan *plans = calloc((size_t)p, sizeof *plans);
    double *finish = malloc((size_t)p * sizeof *finish);
    int rc = -1;
    best->algo = second->algo = NULL;
    best->seconds = second->seconds = -1;
    if (!node_of || !plans || !finish)
        goto out;
    for (int r = 0; r < p; r++)
        node_of[r] = (int)((long)r * (ci->nnodes > 0 ? ci->nnodes : 1) / p);
    for (int i = 0; i < c->nalgos; i++) {
        const coll_algo *a = &c->algos[i];
        if (!a->build || (a->restrictions & (R_SHM | R_ONE_NODE)) || !applies(a, ci))
            continue;
        /* the defaults, then each radix parameter at each value of radixes[] */
        int np = coll_algo_nparams(a);
        cost_pick x = { .algo = a };
        for (int k = 0; k < np; k++)
            x.params[k] = a->params[k].def;
        x.seconds = predict(a, x.params, ci, node_of, cp, budget, plans, finish);
        if (x.seconds >= 0)
            rank_pick(&x, best, second);
        for (int k = 0; k < np; k++) {
            if (!is_radix(&a->params[k]))
                continue;
            for (size_t v = 0; v < sizeof radixes / sizeof radixes[0]; v++) {
                cost_pick y = x;
                y.params[k] = radixes[v];
                if (y.params[k] == a->params[k].def || y.params[k] < a->params[k].min ||
                    y.params[k] > a->params[k].max)
                    continue;
                y.seconds = predict(a, y.params, ci, node_of, cp, budget, plans, finish);
                if (y.seconds >= 0)
                    rank_pick(&y, best, second);
            }
        }
    }
    rc = 0;
out:
    free(node_of);
    free(plans);
    free(finish);
    return rc;
}
