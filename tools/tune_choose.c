/*
 * tune's rules from its measurements (tune_choose.h): which candidate
 * wins which sizes, and what the file says about how sure each rule is.
 */
#include "tune_choose.h"

#include <math.h>
#include <stdlib.h>

/* The cost of covering sizes with winners, compared in this order. */
struct cost {
    int not_builtin;    /* sizes where the winner is not auto's own choice */
    int not_default;    /* sizes won by swept parameter values */
    int rules;
    double slow;        /* sum of the winners' medians over the fastest's */
};

static const struct tc_cell *cell(const struct tc_table *t, int s, int k)
{
    return &t->cell[(size_t)s * (size_t)t->ncands + (size_t)k];
}

static int usable(const struct tc_cell *c)
{
    return (c->flags & TC_ELIGIBLE) && isfinite(c->median);
}

int tc_within_noise(double m, double best)
{
    return m - best <= fmax(TC_NOISE_REL * best, TC_NOISE_US);
}

/* 1 if median m ties with the fastest, `best`, in table t's noise. */
static int tie(const struct tc_table *t, double m, double best)
{
    if (t->noise_rel == 0 && t->noise_us == 0)
        return tc_within_noise(m, best);
    return m - best <= fmax(t->noise_rel * best, t->noise_us);
}

/* The fastest usable median at size s, or INFINITY. */
static double fastest(const struct tc_table *t, int s)
{
    double best = INFINITY;

    for (int k = 0; k < t->ncands; k++)
        if (usable(cell(t, s, k)))
            best = fmin(best, cell(t, s, k)->median);
    return best;
}

/* 1 if candidate k may win size s (any may where none is usable). */
static int may_win(const struct tc_table *t, const double *best, int s, int k)
{
    const struct tc_cell *c = cell(t, s, k);

    if (!isfinite(best[s]))
        return 1;
    return usable(c) && tie(t, c->median, best[s]);
}

static int cheaper(const struct cost *a, const struct cost *b)
{
    if (a->not_builtin != b->not_builtin)
        return a->not_builtin < b->not_builtin;
    if (a->not_default != b->not_default)
        return a->not_default < b->not_default;
    if (a->rules != b->rules)
        return a->rules < b->rules;
    return a->slow < b->slow;
}

/* The evidence of a rule over its sizes. */
static void evidence(const struct tc_table *t, const double *best, struct tc_rule *r)
{
    r->lo = INFINITY;
    r->hi = 0;
    r->fastest = r->clear = r->builtin = 0;
    r->margin_min = r->margin_max = INFINITY;
    r->margin_at = r->first;
    r->runner_up = -1;
    for (int s = r->first; s <= r->last; s++) {
        const struct tc_cell *w = cell(t, s, r->cand);
        double runner = INFINITY, margin;
        int who = -1;

        r->builtin += (w->flags & TC_BUILTIN) != 0;
        if (!usable(w))
            continue;
        r->lo = fmin(r->lo, w->median);
        r->hi = fmax(r->hi, w->median);
        r->fastest += w->median <= best[s];
        for (int k = 0; k < t->ncands; k++) {
            const struct tc_cell *c = cell(t, s, k);

            if (usable(c) && c->group != w->group && c->median < runner) {
                runner = c->median;
                who = c->group; /* the name it was measured under */
            }
        }
        if (who < 0)
            continue;
        margin = runner / w->median - 1;
        r->clear += runner > w->median && !tie(t, runner, w->median);
        if (r->runner_up < 0 || margin < r->margin_min) {
            r->margin_min = margin;
            r->margin_at = s;
            r->runner_up = who;
        }
        if (r->margin_max == INFINITY || margin > r->margin_max)
            r->margin_max = margin;
    }
}

int tc_choose(const struct tc_table *t, struct tc_rule *rules)
{
    int n = t->nsizes, nrules = 0;
    double *best = malloc((size_t)n * sizeof *best);
    struct cost *from = malloc((size_t)(n + 1) * sizeof *from);
    int *cand = malloc((size_t)n * sizeof *cand), *last = malloc((size_t)n * sizeof *last);

    if (best == NULL || from == NULL || cand == NULL || last == NULL) {
        nrules = -1;
        goto out;
    }
    for (int s = 0; s < n; s++)
        best[s] = fastest(t, s);
    /* from[i]: the cheapest cover of sizes i..n-1, whose first rule is
     * cand[i] over sizes i..last[i] */
    from[n] = (struct cost){ 0 };
    for (int i = n - 1; i >= 0; i--) {
        cand[i] = -1;
        for (int k = 0; k < t->ncands; k++) {
            struct cost run = { .rules = 1 };

            for (int j = i; j < n && may_win(t, best, j, k); j++) {
                const struct tc_cell *c = cell(t, j, k);
                struct cost total;

                run.not_builtin += !(c->flags & TC_BUILTIN);
                run.not_default += !t->defaults[k];
                run.slow += isfinite(best[j]) ? c->median / best[j] : 1;
                total = (struct cost){ run.not_builtin + from[j + 1].not_builtin,
                                       run.not_default + from[j + 1].not_default,
                                       run.rules + from[j + 1].rules,
                                       run.slow + from[j + 1].slow };
                if (cand[i] < 0 || cheaper(&total, &from[i])) {
                    from[i] = total;
                    cand[i] = k;
                    last[i] = j;
                }
            }
        }
    }
    for (int i = 0; i < n; i = last[i] + 1) {
        struct tc_rule *r = &rules[nrules++];

        r->first = i;
        r->last = last[i];
        r->cand = cand[i];
        evidence(t, best, r);
    }
out:
    free(best);
    free(from);
    free(cand);
    free(last);
    return nrules;
}

/* Where a range ends between two measured sizes: their geometric mean. */
static unsigned long long boundary(size_t a, size_t b)
{
    return (unsigned long long)floor(sqrt((double)a * (double)b));
}

static void comment(FILE *f, const struct tc_table *t, const struct tc_rule *r)
{
    int sizes = r->last - r->first + 1;

    fprintf(f, "   # %zu-%zu B: ", t->bytes[r->first], t->bytes[r->last]);
    if (isfinite(r->lo))
        fprintf(f, "%.2f-%.2f us; ", r->lo, r->hi);
    fprintf(f, "the fastest at %d of %d sizes, by more than the noise at %d; ", r->fastest,
            sizes, r->clear);
    if (r->runner_up < 0)
        fprintf(f, "no other plan measured");
    else
        fprintf(f, "margin over the runner-up %+.1f%% (%s at %zu B) to %+.1f%%",
                100 * r->margin_min, t->specs[r->runner_up], t->bytes[r->margin_at],
                100 * r->margin_max);
    if (r->builtin == sizes)
        fprintf(f, "; auto's own choice");
    else if (r->builtin > 0)
        fprintf(f, "; auto's own choice at %d", r->builtin);
    fputc('\n', f);
}

int tc_write_rules(FILE *f, const struct tc_table *t)
{
    struct tc_rule *rules = malloc((size_t)(t->nsizes > 0 ? t->nsizes : 1) * sizeof *rules);
    int n = rules ? tc_choose(t, rules) : -1;
    unsigned long long lo = 0;

    for (int i = 0; i < n; i++) {
        const struct tc_rule *r = &rules[i];

        fprintf(f, "%s np=%d bytes=%llu-", t->coll, t->np, lo);
        if (i + 1 < n) {
            lo = boundary(t->bytes[r->last], t->bytes[r->last + 1]);
            fprintf(f, "%llu", lo++);
        }
        fprintf(f, " %s", t->specs[r->cand]);
        comment(f, t, r);
    }
    free(rules);
    return n;
}
