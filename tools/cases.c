/*
 * What bench and tune measure (measure.h): the list of cases, every
 * algorithm of a collective with its parameter sweep, and which
 * parameter values make the same plan.
 */
#include "measure.h"

#include "model/choose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cases_add(struct caselist *cl, int native, const char *spec, int mode)
{
    char label[sizeof cl->v->label];
    struct mcase *k;

    /* the native column and the table's native algorithm are one case */
    native = native || strcmp(spec, "native") == 0;
    snprintf(label, sizeof label, "%s%s", native ? "native" : spec,
             mode == MODE_PERSISTENT ? "/persistent" : "");
    for (int i = 0; i < cl->n; i++)
        if (strcmp(cl->v[i].label, label) == 0)
            return 0;
    if (cl->n == cl->cap) {
        int cap = cl->cap ? 2 * cl->cap : 16;
        struct mcase *v = realloc(cl->v, (size_t)cap * sizeof *v);

        if (v == NULL)
            return -1;
        cl->v = v;
        cl->cap = cap;
    }
    k = &cl->v[cl->n++];
    memset(k, 0, sizeof *k);
    k->native = native;
    snprintf(k->spec, sizeof k->spec, "%s", native ? "native" : spec);
    k->mode = mode;
    memcpy(k->label, label, sizeof label);
    return 0;
}

void cases_free(struct caselist *cl)
{
    free(cl->v);
    *cl = (struct caselist){ 0 };
}

/* The sweep of a parameter: its default times 1/4, 1/2, 1, 2 and 4, and
 * the whole numbers from the default / 4 up to 4 (so a radix of 4 also
 * tries 2 and 3; a segment size of 64 KiB tries 16 KiB to 256 KiB), within
 * the parameter's declared range. */
int measure_sweep_values(const char *coll, const char *algo, int param, int *out, int max)
{
    const coll_desc *d = coll_find(coll);
    const coll_algo *a = d ? coll_algo_find(d, algo) : NULL;
    const algo_param *p;
    long long cand[16];
    int n = 0, kept = 0;

    if (a == NULL || param < 0 || param >= coll_algo_nparams(a))
        return 0;
    p = &a->params[param];
    for (int j = -2; j <= 2; j++)
        cand[n++] = j < 0 ? (long long)p->def >> -j : (long long)p->def << j;
    for (long long v = p->def / 4; v <= 4 && n < (int)(sizeof cand / sizeof cand[0]); v++)
        cand[n++] = v;
    for (long long v = p->min; v <= p->max && kept < max; v++) {
        /* ascending, each once: the smallest candidate above the last */
        long long next = -1;

        for (int i = 0; i < n; i++)
            if (cand[i] >= v && cand[i] <= p->max && (next < 0 || cand[i] < next))
                next = cand[i];
        if (next < 0)
            break;
        out[kept++] = (int)next;
        v = next;
    }
    return kept;
}

int cases_default_params(const char *coll, const char *spec)
{
    const coll_desc *d = coll_find(coll);
    const coll_algo *a;
    int params[PLAN_MAX_PARAMS];
    char err[256];

    if (d == NULL || spec_parse(d, spec, &a, params, err, sizeof err) != 0)
        return 0;
    for (int k = 0; k < coll_algo_nparams(a); k++)
        if (params[k] != a->params[k].def)
            return 0;
    return 1;
}

int cases_spec(const char *coll, const char *spec, char *out, size_t outlen, char *err,
               size_t errlen)
{
    const coll_desc *d = coll_find(coll);
    const coll_algo *a;
    int params[PLAN_MAX_PARAMS];
    const char *colon = strchr(spec, ':');

    if (d == NULL) {
        snprintf(err, errlen, "unknown collective '%s'", coll);
        return -1;
    }
    if (spec_parse(d, spec, &a, params, err, errlen) != 0)
        return -1;
    snprintf(out, outlen, "%s%s", a->name, colon ? colon : "");
    return 0;
}

/* The selector's own check (restrictions), for a call in this mode: the
 * public mpicoll_algorithm_applicable knows neither the nodes nor whether
 * the call is a request. */
int cases_applicable(const char *coll, const char *spec, int nranks, int nnodes, int mode)
{
    const coll_desc *d = coll_find(coll);
    const coll_algo *a;
    int params[PLAN_MAX_PARAMS];
    char err[256];
    call_info ci = { .p = nranks, .nnodes = nnodes, .commutative = 1,
                     .request = mode != MODE_BLOCKING };

    if (d == NULL || spec_parse(d, spec, &a, params, err, sizeof err) != 0)
        return -1;
    return coll_algo_applies(a, &ci);
}

int cases_add_all(struct caselist *cl, const char *coll, int nranks, int nnodes, int sweep,
                  int mode)
{
    const coll_desc *d = coll_find(coll);

    for (int i = 0; d && i < d->nalgos; i++) {
        const coll_algo *a = &d->algos[i];
        int np = sweep ? coll_algo_nparams(a) : 0;

        if (cases_applicable(coll, a->name, nranks, nnodes, mode) != 1)
            continue;
        if (np == 0 && cases_add(cl, 0, a->name, mode) != 0)
            return -1;
        for (int k = 0; k < np; k++) {
            int vals[16], nv = measure_sweep_values(coll, a->name, k, vals, 16);

            for (int v = 0; v < nv; v++) {
                char spec[sizeof cl->v->spec];

                snprintf(spec, sizeof spec, "%s:%s=%d", a->name, a->params[k].name, vals[v]);
                if (cases_add(cl, 0, spec, mode) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

int cases_same_plan(const char *coll, const char *spec_a, const char *spec_b, int nranks,
                    size_t count, size_t esize)
{
    const coll_desc *d = coll_find(coll);
    const coll_algo *a, *b;
    plan_args args = { .p = nranks, .block = count * esize, .esize = esize, .commutative = 1 };
    int pb[PLAN_MAX_PARAMS], same = 1;
    char err[256];

    if (d == NULL || spec_parse(d, spec_a, &a, args.param, err, sizeof err) != 0
        || spec_parse(d, spec_b, &b, pb, err, sizeof err) != 0 || a != b
        || (a->restrictions & R_NODES))
        return 0;
    if (coll_algo_native(a) || coll_algo_native(b))
        return a == b;  /* native has no plan: the same only as itself */
    for (int r = 0; r < nranks && same; r++) {
        plan x, y;
        plan_args argb = args;

        args.rank = argb.rank = r;
        memcpy(argb.param, pb, sizeof pb);
        if (plan_build(&x, a->build, &args) != 0)
            return 0;
        same = plan_build(&y, b->build, &argb) == 0;
        if (same) {
            same = plan_equal(&x, &y);
            plan_free(&y);
        }
        plan_free(&x);
    }
    return same;
}
