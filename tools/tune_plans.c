/*
 * tune's questions to the plans and the selection (tune_plans.h).
 */
#include "tune_plans.h"

#include "model/choose.h"

#include <stdlib.h>
#include <string.h>

int tune_same_plan(const char *coll, const char *spec_a, const char *spec_b, int np,
                   int nnodes, size_t count, size_t esize)
{
    const coll_desc *d = coll_find(coll);
    const coll_algo *a, *b;
    plan_args args = { .p = np, .block = count * esize, .esize = esize, .commutative = 1 };
    plan_args argb = args;
    int *one_node = NULL, same = 1;
    char err[256];

    if (d == NULL || spec_parse(d, spec_a, &a, args.param, err, sizeof err) != 0
        || spec_parse(d, spec_b, &b, argb.param, err, sizeof err) != 0)
        return 0;
    if (coll_algo_native(a) || coll_algo_native(b))
        return a == b;  /* native has no plan: the same only as itself */
    if ((a->restrictions | b->restrictions) & R_NODES) {
        /* the layout of one node: every rank on node 0 */
        if (nnodes != 1 || (one_node = calloc((size_t)np, sizeof *one_node)) == NULL)
            return 0;
        args.node_of = argb.node_of = one_node;
    }
    for (int r = 0; r < np && same; r++) {
        plan x, y;

        args.rank = argb.rank = r;
        if (plan_build(&x, a->build, &args) != 0) {
            same = 0;
            break;
        }
        same = plan_build(&y, b->build, &argb) == 0;
        if (same) {
            same = plan_equal(&x, &y);
            plan_free(&y);
        }
        plan_free(&x);
    }
    free(one_node);
    return same;
}

static const coll_algo *algorithm(const char *coll, const char *spec, int *params)
{
    const coll_desc *d = coll_find(coll);
    const coll_algo *a;
    char err[256];

    return d && spec_parse(d, spec, &a, params, err, sizeof err) == 0 ? a : NULL;
}

int tune_same_algorithm(const char *coll, const char *a, const char *b)
{
    int pa[PLAN_MAX_PARAMS], pb[PLAN_MAX_PARAMS];
    const coll_algo *x = algorithm(coll, a, pa);

    return x != NULL && x == algorithm(coll, b, pb);
}

/* 1 if case x names what runs better than case y (both make one plan). */
static int names_better(const char *coll, const char *x, const char *y)
{
    int px[PLAN_MAX_PARAMS], py[PLAN_MAX_PARAMS];
    const coll_algo *a = algorithm(coll, x, px), *b = algorithm(coll, y, py);
    int nodes_a = a && (a->restrictions & R_NODES), nodes_b = b && (b->restrictions & R_NODES);

    if (nodes_a != nodes_b)
        return nodes_b;
    return cases_default_params(coll, x) > cases_default_params(coll, y);
}

int tune_plan_groups(const char *coll, const struct caselist *all, int np, int nnodes,
                     size_t count, size_t esize, int *group)
{
    int *reps = malloc((size_t)(all->n > 0 ? all->n : 1) * sizeof *reps), nreps = 0;

    if (reps == NULL)
        return -1;
    for (int i = 0; i < all->n; i++) {
        int g = -1;

        for (int j = 0; j < nreps && g < 0; j++)
            if (tune_same_plan(coll, all->v[reps[j]].spec, all->v[i].spec, np, nnodes, count,
                               esize))
                g = j;
        if (g < 0)
            reps[g = nreps++] = i;
        group[i] = g;   /* a group number for now */
    }
    /* each group measured under its best name */
    for (int j = 0; j < nreps; j++)
        for (int i = 0; i < all->n; i++)
            if (group[i] == j && names_better(coll, all->v[i].spec, all->v[reps[j]].spec))
                reps[j] = i;
    for (int i = 0; i < all->n; i++)
        group[i] = reps[group[i]];
    free(reps);
    return 0;
}

int tune_auto_choice(const char *coll, int np, int nnodes, size_t bytes, char *buf,
                     size_t len)
{
    const coll_desc *d = coll_find(coll);
    call_info ci = { .p = np, .nnodes = nnodes, .bytes = bytes, .commutative = 1 };
    choice ch;
    char err[256];

    if (d == NULL || select_choose(d, NULL, 0, &ci, &ch, err, sizeof err) != SELECT_OK)
        return -1;
    spec_format(ch.algo, ch.params, buf, len);
    return 0;
}
