/*
 * The rules file of mpicoll tune --model (tune_model.h): a header saying
 * how the rules were predicted and from which parameters, then per
 * collective and communicator size the rules tc_choose picks from the
 * predictions, each holding up to the next size predicted (a one-node
 * algorithm's up to one node), with its evidence. Written whole to a
 * temporary file beside the target, renamed over it.
 */
#include "tune_model.h"

#include "model/choose.h"
#include "tune_options.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* "lo-hi", "lo" or "lo-" (hi < 0: open). */
static void range(char *buf, size_t len, long long lo, long long hi)
{
    if (hi < 0)
        snprintf(buf, len, "%lld-", lo);
    else if (hi == lo)
        snprintf(buf, len, "%lld", lo);
    else
        snprintf(buf, len, "%lld-%lld", lo, hi);
}

/* The rules of one table; np_hi: the last np it holds for (-1: open).
 * 0, or -1 out of memory. */
static int write_rules(FILE *f, const struct mopts *o, const struct mtable *tb, int np_hi)
{
    int n = tb->all.n, nr, rc = -1;
    const char **specs = calloc((size_t)n + 1, sizeof *specs);
    int *defaults = calloc((size_t)n + 1, sizeof *defaults);
    struct tc_cell *cells = calloc((size_t)(n * tb->npts) + 1, sizeof *cells);
    struct tc_rule *rules = calloc((size_t)tb->npts + 1, sizeof *rules);
    struct tc_table t = { .coll = tb->coll->name, .np = tb->np, .nsizes = tb->npts,
                          .ncands = n, .bytes = tb->bytes, .specs = specs,
                          .defaults = defaults, .cell = cells, .noise_rel = MODEL_TIE };
    unsigned long long lo = 0;
    char nps[48];

    range(nps, sizeof nps, tb->np, np_hi);
    fprintf(f, "\n# %s on %d ranks, %d node%s of up to %d (np=%s)\n", tb->coll->name, tb->np,
            tb->nnodes, tb->nnodes == 1 ? "" : "s", o->rpn, nps);
    if (tb->failed[0])
        fprintf(f, "# no prediction (plans the model cannot replay), left out: %s\n",
                tb->failed);
    if (tb->skipped[0])
        fprintf(f, "# more than %ld messages to replay, left out: %s\n", MAX_REPLAY_MSGS,
                tb->skipped);
    if (specs == NULL || defaults == NULL || cells == NULL || rules == NULL)
        goto out;
    for (int k = 0; k < n; k++) {
        specs[k] = tb->all.v[k].spec;
        defaults[k] = cases_default_params(tb->coll->name, specs[k]);
    }
    for (int s = 0; s < tb->npts; s++)
        memcpy(&cells[s * n], tb->cells[s], (size_t)n * sizeof *cells);
    nr = tc_choose(&t, rules);
    if (nr < 0)
        goto out;
    for (int i = 0; i < nr; i++) {
        const struct tc_rule *r = &rules[i];
        const coll_desc *d = coll_find(tb->coll->name);
        const coll_algo *a;
        int params[PLAN_MAX_PARAMS], hi = np_hi;
        char err[256], nodes[48];

        /* a one-node algorithm: only where the communicator fits one node */
        if (spec_parse(d, specs[r->cand], &a, params, err, sizeof err) == 0
            && (a->restrictions & R_ONE_NODE) && (hi < 0 || hi > o->rpn))
            hi = o->rpn;
        range(nps, sizeof nps, tb->np, hi);
        range(nodes, sizeof nodes, (tb->np + o->rpn - 1) / o->rpn,
              hi < 0 ? -1 : (hi + o->rpn - 1) / o->rpn);
        fprintf(f, "%s np=%s nodes=%s bytes=%llu-", tb->coll->name, nps, nodes, lo);
        if (i + 1 < nr) {
            lo = (unsigned long long)floor(sqrt((double)tb->bytes[r->last]
                                                * (double)tb->bytes[r->last + 1]));
            fprintf(f, "%llu", lo++);
        }
        if (r->first == r->last)
            fprintf(f, " %s   # %zu B: %.2f us predicted", specs[r->cand],
                    tb->bytes[r->first], r->lo);
        else
            fprintf(f, " %s   # %zu-%zu B: %.2f-%.2f us predicted", specs[r->cand],
                    tb->bytes[r->first], tb->bytes[r->last], r->lo, r->hi);
        if (r->runner_up < 0)
            fprintf(f, "; no other plan");
        else
            fprintf(f, "; runner-up %s %.2f us at %zu B (%+.1f%%", specs[r->runner_up],
                    cells[r->margin_at * n + r->runner_up].median, tb->bytes[r->margin_at],
                    100 * r->margin_min);
        if (r->runner_up >= 0)
            fprintf(f, r->first == r->last ? ")" : ", up to %+.1f%%)", 100 * r->margin_max);
        if (r->builtin == r->last - r->first + 1)
            fprintf(f, "; auto's own choice");
        else if (r->builtin > 0)
            fprintf(f, "; auto's own choice at %d", r->builtin);
        fputc('\n', f);
    }
    rc = 0;
out:
    free(specs);
    free(defaults);
    free(cells);
    free(rules);
    return rc;
}

static void write_header(FILE *f, const struct mopts *o, int argc, char **argv)
{
    char date[64], *params = NULL;
    size_t len = 0;
    time_t now = time(NULL);
    const struct tm *tm = localtime(&now);
    FILE *m = open_memstream(&params, &len);

    if (tm == NULL || strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", tm) == 0)
        snprintf(date, sizeof date, "unknown");
    fprintf(f, "# mpicoll rules, predicted by mpicoll tune --model from the cost model;\n"
            "#   nothing was run (use: MPICOLL_RULES=this file)\n"
            "# mpicoll: %s\n# date: %s\n# command: mpicoll", MPICOLL_VERSION, date);
    for (int i = 0; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n# parameters: %s\n", o->params ? o->params : "defaults (cost_defaults)");
    if (m != NULL && cost_write(m, &o->cp, NULL) == 0 && fclose(m) == 0) {
        for (char *line = params; line && *line; line += strcspn(line, "\n") + 1) {
            int l = (int)strcspn(line, "\n");

            fprintf(f, "#   %.*s\n", l, line);
            if (line[l] == '\0')
                break;
        }
    } else if (m != NULL) {
        fclose(m);
    }
    free(params);
    fprintf(f, "# nodes: %d consecutive ranks a node; np ranks span ceil(np/%d) nodes\n"
            "# communicator sizes:", o->rpn, o->rpn);
    for (int i = 0; i < o->nnps; i++)
        fprintf(f, " %d", o->nps[i]);
    fprintf(f, "; each holds up to the next one, the last above it too;\n"
            "#   smaller ones and other layouts (nodes=) fall through to the built-in rules\n"
            "# how: at each size, every algorithm that runs as itself there (native has\n"
            "#   no plan: never named), with every value of tune's parameter sweep\n"
            "#   (values that make one plan: one candidate), predicted as mpicoll bench\n"
            "#   times it (cost_bench: every rank's plan replayed after a barrier, the\n"
            "#   slowest rank's time from its exit). Within %.0f%% of the fastest: auto's\n"
            "#   own choice (the built-in rules, or MPICOLL_RULES then), then default\n"
            "#   parameters, then the fewest rules. A range ends halfway (geometric\n"
            "#   mean) between two sizes; bytes= as in tune's files (docs/selection.md).\n"
            "#   A rule's comment: the sizes it was predicted at, the winner's times,\n"
            "#   the runner-up (the fastest other plan) where it comes closest, and the\n"
            "#   margin's range.\n", 100 * MODEL_TIE);
}

struct file_args {
    const struct mopts *o;
    const struct mtable *tbs;
    int argc;
    char **argv;
};

/* The rules file's contents (tune_write_file's body). */
static int file_body(FILE *f, void *arg)
{
    const struct file_args *x = arg;
    const struct mopts *o = x->o;
    write_header(f, o, x->argc, x->argv);
    for (int i = 0; i < o->ncolls; i++)
        for (int q = 0; q < o->nnps; q++)
            if (write_rules(f, o, &x->tbs[i * o->nnps + q],
                            q + 1 < o->nnps ? o->nps[q + 1] - 1 : -1) != 0)
                return -1;
    return 0;
}

int tune_model_write_file(const struct mopts *o, const struct mtable *tbs, int argc,
                          char **argv)
{
    struct file_args fa = { o, tbs, argc, argv };
    return tune_write_file(o->output, file_body, &fa);
}
