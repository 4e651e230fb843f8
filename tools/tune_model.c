/*
 * mpicoll tune --model: the rules of tune (tune.c) from the cost model
 * (src/model/cost.h) instead of measurements, for communicator sizes that
 * need not exist here: FFTW's estimate beside tune's measure. No mpirun,
 * no MPI_Init.
 *
 * For each collective, communicator size np (nodes of --ranks-per-node K
 * consecutive ranks, ceil(np / K) of them) and size of the ladder, the
 * candidates are tune's own: every algorithm that runs as itself there
 * (the restriction check; native has no plan and is left out, the
 * one-node algorithms only where np <= K) with every value of its
 * parameter sweep (cases_add_all), grouped by plan (tune_plan_groups: one
 * prediction for the values that make the same plan). Each group's time
 * is cost_bench's: the plans of all np ranks replayed after a barrier, as
 * `mpicoll bench` and tune time a call (cost_replay with all ranks
 * starting together would be four times cheaper, but on a network of
 * unequal links the barrier's skewed exits change which algorithm wins,
 * and the built-in rules rest on bench's figures). tc_choose
 * (tune_choose.h) picks the rules as for measurements, with a tie of 3%
 * and no absolute noise: within 3% of the fastest, auto's own choice,
 * then default parameters, then the fewest rules win.
 *
 * Rules (written by tune_model_file.c): a measured np holds from itself
 * to the next np - 1 (the largest np above it too), with nodes= the nodes
 * those sizes span; a one-node algorithm's rule stops at np = K
 * (nodes=1). Below the first np and on other layouts, the built-in rules
 * decide.
 */
#include "tune.h"

#include "model/cost.h"
#include "model/choose.h"
#include "measure.h"
#include "options.h"
#include "tune_choose.h"
#include "tune_model.h"
#include "tune_options.h"
#include "tune_plans.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_OUTPUT "mpicoll.rules"
#define DEFAULT_MAX_BYTES (1L << 20)
#define MAX_NP (1 << 20)

/* The default ladder: the powers of two from 2 to 256. At 1024 ranks one
 * size of alltoall takes some 10 s to replay (linear: 1M messages, four
 * times over), hours for the whole ladder; 512 and 1024 are for --np. */
static const int default_nps[] = { 2, 4, 8, 16, 32, 64, 128, 256 };

static void usage(FILE *f)
{
    fprintf(f,
        "usage: mpicoll tune --model [--params FILE] [--ranks-per-node K] [--np LIST]\n"
        "                    [-m SIZES] [-o FILE] [COLLECTIVE...]\n"
        "Writes rules as tune does, from the cost model's predictions (mpicoll model)\n"
        "instead of measurements: no mpirun, any communicator size. For each\n"
        "COLLECTIVE (default: every collective), np and size, every algorithm that runs as\n"
        "itself with tune's parameter sweep is replayed as bench times it; the fastest\n"
        "wins (within %.0f%%: auto's own choice, then default parameters).\n"
        "  --params FILE        the machine (`mpicoll calibrate`; default: the network\n"
        "                       of platforms/flat.xml, docs/selection.md)\n"
        "  --ranks-per-node K   nodes of K consecutive ranks (default 1); rules say\n"
        "                       nodes=ceil(np/K)\n"
        "  --np LIST            communicator sizes, comma-separated (default:\n"
        "                       2,4,...,256: 512 and more take long); each rule holds\n"
        "                       up to the next size, the largest's above it too\n"
        "  -m SIZES             [MIN:]MAX as tune (powers of two times MIN, default\n"
        "                       1:%ld), or a comma-separated list (8,1K,64K)\n"
        "  -o FILE              the rules file (default %s), written whole at\n"
        "                       the end\n"
        "Exit status: 0; 1 if a prediction failed (left out) or FILE could not be\n"
        "written; 2 for a bad command line or parameter file.\n",
        100 * MODEL_TIE, DEFAULT_MAX_BYTES, DEFAULT_OUTPUT);
}

/* ---- command line ------------------------------------------------------- */

static int compare_ints(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static int compare_longs(const void *a, const void *b)
{
    return (*(const long *)a > *(const long *)b) - (*(const long *)a < *(const long *)b);
}

static int parse_nps(const char *val, struct mopts *o)
{
    const char *tok = val;
    long n;
    int k = 0;

    for (o->nnps = 0;; tok += strcspn(tok, ",") + 1) {
        size_t len = strcspn(tok, ",");

        if (o->nnps == MODEL_MAX_NPS || !opt_long(tok, tok + len, 2, MAX_NP, &n))
            return opt_error(CMD, 0, "--np: expected up to %d comma-separated sizes from 2"
                             " to %d, got '%s'", MODEL_MAX_NPS, MAX_NP, val);
        o->nps[o->nnps++] = (int)n;
        if (tok[len] == '\0')
            break;
    }
    qsort(o->nps, (size_t)o->nnps, sizeof o->nps[0], compare_ints);
    for (int i = 0; i < o->nnps; i++)
        if (k == 0 || o->nps[i] != o->nps[k - 1])
            o->nps[k++] = o->nps[i];
    o->nnps = k;
    return 0;
}

/* -m: tune's [MIN:]MAX, or a list of sizes (each a MAX of opt_sizes). */
static int parse_sizes(const char *val, struct mopts *o)
{
    char tok[64];
    const char *t = val;
    long lo, v;
    int k = 0;

    if (strchr(val, ',') == NULL)
        return opt_sizes(CMD, val, &o->min_bytes, &o->max_bytes, 0);
    for (o->nlist = 0;; t += strcspn(t, ",") + 1) {
        size_t len = strcspn(t, ",");

        if (len >= sizeof tok || memchr(t, ':', len) || o->nlist == MODEL_MAX_SIZES)
            return opt_error(CMD, 0, "-m: expected [MIN:]MAX or up to %d comma-separated"
                             " sizes, got '%s'", MODEL_MAX_SIZES, val);
        memcpy(tok, t, len);
        tok[len] = '\0';
        if (opt_sizes(CMD, tok, &lo, &v, 0) != 0)
            return EXIT_USAGE;
        o->list[o->nlist++] = v;
        if (t[len] == '\0')
            break;
    }
    qsort(o->list, (size_t)o->nlist, sizeof o->list[0], compare_longs);
    for (int i = 0; i < o->nlist; i++)
        if (k == 0 || o->list[i] != o->list[k - 1])
            o->list[k++] = o->list[i];
    o->nlist = k;
    return 0;
}

static int add_collective(const char *name, struct mopts *o)
{
    return tune_add_collective(name, o->colls, &o->ncolls,
                               (int)(sizeof o->colls / sizeof o->colls[0]), 0);
}

static int parse_options(int argc, char **argv, struct mopts *o)
{
    const char *val;
    char err[512];
    long n;
    int rc = 0;

    *o = (struct mopts){ .output = DEFAULT_OUTPUT, .rpn = 1, .min_bytes = 1,
                         .max_bytes = DEFAULT_MAX_BYTES };
    cost_defaults(&o->cp);
    for (int i = 1; i < argc && rc == 0; i++) {
        if (strcmp(argv[i], "--model") == 0)
            continue;
        if (opt_is_help(argv[i]))
            o->help = 1;
        else if (opt_match(argc, argv, &i, "-o", &val))
            rc = val ? (o->output = val, 0) : opt_error(CMD, 0, "-o needs a value");
        else if (opt_match(argc, argv, &i, "-m", &val))
            rc = val ? parse_sizes(val, o) : opt_error(CMD, 0, "-m needs a value");
        else if (opt_match(argc, argv, &i, "--np", &val))
            rc = val ? parse_nps(val, o) : opt_error(CMD, 0, "--np needs a value");
        else if (opt_match(argc, argv, &i, "--ranks-per-node", &val)) {
            if (val == NULL || !opt_long(val, val + strlen(val), 1, MAX_NP, &n))
                rc = opt_error(CMD, 0, "--ranks-per-node: expected a number from 1 to %d",
                               MAX_NP);
            else
                o->rpn = (int)n;
        } else if (opt_match(argc, argv, &i, "--params", &val)) {
            if (val == NULL)
                rc = opt_error(CMD, 0, "--params needs a value");
            else if (cost_read(val, &o->cp, err, sizeof err) != 0)
                rc = opt_error(CMD, 0, "--params: %s", err);
            else
                o->params = val;
        } else if (argv[i][0] == '-')
            rc = opt_error(CMD, 0, "unknown option '%s' (with --model)", argv[i]);
        else
            rc = add_collective(argv[i], o);
    }
    for (int i = 0, all = o->ncolls == 0; rc == 0 && all && mcolls[i]; i++)
        rc = add_collective(mcolls[i]->name, o);
    if (rc == 0 && o->nnps == 0) {
        o->nnps = (int)(sizeof default_nps / sizeof default_nps[0]);
        memcpy(o->nps, default_nps, sizeof default_nps);
    }
    return rc;
}

/* ---- predicting --------------------------------------------------------- */

/* The call counts of the sizes for collective c on np ranks (sizes that
 * hold no element, or the count of the size before, are left out). */
static int ladder(const struct mopts *o, const struct mcoll *c, int np, size_t *counts)
{
    const struct etype *t = &etypes[c->default_type];
    int n = 0;

    if (c->no_data) {       /* one point: the call itself */
        counts[0] = 0;
        return 1;
    }
    for (int i = 0; n < MODEL_MAX_SIZES; i++) {
        long bytes = o->nlist ? (i < o->nlist ? o->list[i] : -1)
                              : (o->min_bytes << i <= o->max_bytes && i < 40
                                 ? o->min_bytes << i : -1);
        size_t count;

        if (bytes < 0)
            break;
        count = mcoll_count_for(c, t, np, (size_t)bytes);
        if (count > 0 && (n == 0 || counts[n - 1] != count))
            counts[n++] = count;
    }
    return n;
}

/* The model's time of case `spec` in microseconds (cost_bench), or
 * INFINITY when its plans cannot be replayed (*big: 1 if they send more
 * than MAX_REPLAY_MSGS); -1 out of memory. */
static int predict(const struct mtable *tb, const cost_params *cp, const int *node_of,
                   const char *spec, size_t count, size_t esize, double *us, int *big)
{
    const coll_desc *d = coll_find(tb->coll->name);
    const coll_algo *a;
    plan_args pa = { .p = tb->np, .block = count * esize, .esize = esize, .commutative = 1 };
    plan *plans = calloc((size_t)tb->np, sizeof *plans);
    char err[256];
    double s = 0;
    long msgs = 0;
    int built = 0, rc = 0;

    *us = INFINITY;
    *big = 0;
    if (plans == NULL)
        return -1;
    if (d == NULL || spec_parse(d, spec, &a, pa.param, err, sizeof err) != 0)
        goto out;
    pa.node_of = a->restrictions & R_NODES ? node_of : NULL;
    for (; built < tb->np; built++) {
        plan_stats st;

        pa.rank = built;
        if (plan_build(&plans[built], a->build, &pa) != 0)
            goto out;
        plan_count(&plans[built], &st);
        msgs += (long)st.msgs;
        if (msgs > MAX_REPLAY_MSGS) {
            *big = 1;
            built++;
            goto out;
        }
    }
    if (cost_bench(plans, tb->np, node_of, cp, &s) == 0)
        *us = s * 1e6;
out:
    for (int r = 0; r < built; r++)
        plan_free(&plans[r]);
    free(plans);
    return rc;
}

/* Appends "what from N B" to a list in buf, unless `what` is there. */
static void note(char *buf, size_t size, const char *what, size_t bytes)
{
    size_t n = strlen(buf);
    char item[128];

    snprintf(item, sizeof item, "%s from ", what);
    if (strstr(buf, item) == NULL)
        snprintf(buf + n, size - n, "%s%s%zu B", n ? ", " : "", item, bytes);
}

/* One size: the groups of same-plan candidates, one prediction each, and
 * the cells tc_choose reads. 0, or -1 out of memory. */
static int predict_size(const struct mopts *o, struct mtable *tb, const int *node_of,
                        size_t count, int *group)
{
    const struct mcoll *c = tb->coll;
    const struct etype *t = &etypes[c->default_type];
    size_t esize = c->vector ? t->size : 1, bytes = mcoll_row_bytes(c, t, tb->np, count);
    int n = tb->all.n, rc = -1, big;
    struct tc_cell *cells = calloc((size_t)n + 1, sizeof *cells);
    char builtin[64] = "";

    if (cells == NULL || tune_plan_groups(c->name, &tb->all, tb->np, tb->nnodes, count, esize,
                                          group) != 0)
        goto out;
    if (tune_auto_choice(c->name, tb->np, tb->nnodes, bytes, builtin, sizeof builtin) != 0)
        builtin[0] = '\0';
    /* each group's predicted member (group[k] == k), then the others */
    for (int k = 0; k < n; k++) {
        const char *spec = tb->all.v[k].spec;

        if (group[k] != k)
            continue;
        cells[k].group = k;
        if (predict(tb, &o->cp, node_of, spec, count, esize, &cells[k].median, &big) != 0)
            goto out;
        if (big)
            note(tb->skipped, sizeof tb->skipped, spec, bytes);
        else if (!isfinite(cells[k].median))
            note(tb->failed, sizeof tb->failed, spec, bytes);
        cells[k].flags = TC_ELIGIBLE;
        if (builtin[0] && tune_same_plan(c->name, spec, builtin, tb->np, tb->nnodes, count,
                                         esize))
            cells[k].flags |= TC_BUILTIN;
    }
    for (int k = 0; k < n; k++) {
        const struct tc_cell *g = &cells[group[k]];

        if (group[k] == k)
            continue;
        cells[k] = (struct tc_cell){ .median = g->median, .group = group[k],
                                     .flags = g->flags & TC_BUILTIN };
        /* named only if no algorithm of another name makes its plan */
        if (tune_same_algorithm(c->name, tb->all.v[k].spec, tb->all.v[group[k]].spec))
            cells[k].flags |= TC_ELIGIBLE;
    }
    tb->bytes[tb->npts] = bytes;
    tb->cells[tb->npts++] = cells;
    cells = NULL;
    rc = 0;
out:
    free(cells);
    return rc;
}

/* Every candidate of a collective at one np, over its sizes. 0, or -1. */
static int predict_table(const struct mopts *o, struct mtable *tb, struct progress *pg,
                         double units)
{
    const struct mcoll *c = tb->coll;
    size_t counts[MODEL_MAX_SIZES];
    int n = ladder(o, c, tb->np, counts), rc = -1, k = 0;
    int *node_of = malloc((size_t)tb->np * sizeof *node_of), *group = NULL;
    struct caselist cands = { 0 };
    char what[128];

    tb->nnodes = (tb->np + o->rpn - 1) / o->rpn;
    if (node_of == NULL
        || cases_add_all(&cands, c->name, tb->np, tb->nnodes, 1, MODE_BLOCKING) != 0)
        goto out;
    for (int i = 0; i < tb->np; i++)
        node_of[i] = i / o->rpn;
    /* native has no plan to replay */
    for (int i = 0; i < cands.n; i++)
        if (!cands.v[i].native && cases_add(&tb->all, 0, cands.v[i].spec, MODE_BLOCKING) != 0)
            goto out;
    if ((group = calloc((size_t)tb->all.n + 1, sizeof *group)) == NULL)
        goto out;
    for (; k < n; k++) {
        snprintf(what, sizeof what, "tune --model %s np=%d %zu B", c->name, tb->np,
                 mcoll_row_bytes(c, &etypes[c->default_type], tb->np, counts[k]));
        progress_show(pg, what);
        if (predict_size(o, tb, node_of, counts[k], group) != 0)
            goto out;
        pg->done += units / n;
    }
    rc = 0;
out:
    if (k < n)
        pg->done += units * (n - k) / n;
    cases_free(&cands);
    free(node_of);
    free(group);
    return rc;
}


/* ---- the run ------------------------------------------------------------ */

int tune_model(int argc, char **argv)
{
    struct mopts o;
    struct mtable *tbs = NULL;
    struct progress pg;
    int code = parse_options(argc, argv, &o), ntbs, failed = 0;
    double total = 0;

    if (code != 0 || o.help) {
        if (code == 0)
            usage(stdout);
        return code;
    }
    if (!tune_output_writable(o.output)) {
        fprintf(stderr, "mpicoll " CMD ": -o %s: its directory is not writable; nothing was"
                " predicted\n", o.output);
        return EXIT_FAILED;
    }
    ntbs = o.ncolls * o.nnps;
    tbs = calloc((size_t)ntbs, sizeof *tbs);
    code = EXIT_FAILED;
    if (tbs == NULL)
        goto out;
    progress_init(&pg, 0);
    /* a replay's work grows about as np^2 (alltoall linear, np messages a rank) */
    for (int q = 0; q < o.nnps; q++)
        total += (double)o.nps[q] * o.nps[q];
    pg.total = total * o.ncolls;
    for (int i = 0; i < o.ncolls; i++)
        for (int q = 0; q < o.nnps; q++) {
            struct mtable *tb = &tbs[i * o.nnps + q];

            tb->coll = o.colls[i];
            tb->np = o.nps[q];
            if (predict_table(&o, tb, &pg, (double)tb->np * tb->np) != 0) {
                progress_end(&pg);
                fprintf(stderr, "mpicoll " CMD ": out of memory; %s not written\n", o.output);
                goto out;
            }
            failed |= tb->failed[0] != '\0';
        }
    progress_end(&pg);
    if (tune_model_write_file(&o, tbs, argc, argv) != 0)
        goto out;
    fprintf(stderr, "mpicoll " CMD ": wrote %s%s\n", o.output,
            failed ? " (some predictions failed and were left out: see its comments)" : "");
    code = failed ? EXIT_FAILED : EXIT_SUCCESS;
out:
    for (int i = 0; tbs && i < ntbs; i++) {
        for (int s = 0; s < tbs[i].npts; s++)
            free(tbs[i].cells[s]);
        cases_free(&tbs[i].all);
    }
    free(tbs);
    return code;
}
