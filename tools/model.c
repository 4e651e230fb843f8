/*
 * mpicoll model: the cost model's prediction for a collective, a
 * communicator size and a message size, per algorithm, and the algorithm
 * the selection would run there. No mpirun, no MPI_Init.
 *
 * For each rank the algorithm's builder makes the plan that rank would run
 * (as the library does at a call: no in-place, commutative operation,
 * default parameters, nodes of --ranks-per-node consecutive ranks), and
 * cost_plans (src/model/cost.c) replays all of them on the machine of
 * --params (a file of `mpicoll calibrate`, else cost_defaults): per-message
 * overheads, latency, shared link bandwidth, copy and reduction rates,
 * inside a node and between nodes. docs/scale.md compares it with
 * simulated times.
 *
 * The selection's choice is the library's own: MPICOLL_RULES when set,
 * else the built-in rules, then the restriction check and fallback
 * (forcing through MPICOLL_<COLLECTIVE> is ignored, as for calls naming
 * "auto").
 */
#include "cli.h"
#include "model/coll.h"
#include "model/cost.h"
#include "model/rules.h"
#include "options.h"
#include "model/choose.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Element size of the reductions' vectors (float, as `mpicoll bench`). */
#define REDUCTION_ESIZE 4
#define MAX_LIST 64

typedef struct model_opts {
    const coll_desc *c;
    int width;                  /* of the algorithm and runs columns */
    long np[MAX_LIST], bytes[MAX_LIST];
    int nnp, nbytes;
    const char *algos;          /* comma-separated specs, or "all" */
    int ranks_per_node;
    cost_params cp;
    int together;               /* --start together */
    int csv;
    int group;                  /* --group: nodes a group, 0: no far_bytes column */
} model_opts;

typedef struct cost {
    size_t rounds, msgs;        /* max over ranks */
    double seconds;             /* the replay's */
    size_t far_bytes;           /* sent between groups of --group nodes, all ranks */
} cost;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: mpicoll model COLLECTIVE --np P[,P...] --bytes B[,B...] [options]\n"
        "The cost model's time for every algorithm (or -a's) at each (np, bytes),\n"
        "from the plans of all ranks, and what the selection (MPICOLL_RULES, else the\n"
        "built-in rules) would run. bytes: one rank's block for allgather, alltoall,\n"
        "gather, scatter and reduce_scatter_block, the whole vector for allreduce and reduce, the\n"
        "buffer for bcast (reductions: float elements); K, M, G suffixes are powers\n"
        "of 1024.\n"
        "  -a LIST              algorithms (NAME[:p=v,...]), comma-separated (default all)\n"
        "  --params FILE        the machine's parameters (`mpicoll calibrate`; default:\n"
        "                       platforms/flat.xml's network, docs/selection.md)\n"
        "  --ranks-per-node K   nodes of K consecutive ranks (default 1)\n"
        "  --start WHEN         barrier: as `mpicoll bench` measures, iterations of a\n"
        "                       barrier and the call, the slowest rank's time from its\n"
        "                       own exit of the barrier (default); together: all ranks\n"
        "                       start at 0, the last one's finish\n"
        "  --group G            groups of G consecutive nodes (a fat tree's leaf, a\n"
        "                       dragonfly's group): also the bytes all ranks' plans send\n"
        "                       from one group to another (column far_bytes)\n"
        "  --csv                one CSV line per (np, bytes, algorithm), then 'auto'\n");
}

/* "8,1K,64K" (or one number) into v; sizes may carry K, M or G. */
static int parse_list(const char *s, long *v, int *n, long lo)
{
    char *copy = strdup(s), *save = NULL;
    int rc = copy ? 0 : -1;
    *n = 0;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && rc == 0;
         t = strtok_r(NULL, ",", &save)) {
        char *e;
        errno = 0;
        long x = strtol(t, &e, 10);
        long mult = *e == 'K' ? 1L << 10 : *e == 'M' ? 1L << 20 : *e == 'G' ? 1L << 30 : 1;
        if (mult > 1)
            e++;
        if (*e || errno || x < lo || x > (1L << 40) / mult || *n == MAX_LIST)
            rc = -1;
        else
            v[(*n)++] = x * mult;
    }
    free(copy);
    return rc || *n == 0 ? -1 : 0;
}

/* One number from 1 to 2^20 into *x. */
static int parse_one(const char *s, int *x)
{
    long v[MAX_LIST];
    int n;
    if (parse_list(s, v, &n, 1) || n != 1 || v[0] > 1 << 20)
        return -1;
    *x = (int)v[0];
    return 0;
}

static int parse_args(int argc, char **argv, model_opts *o)
{
    *o = (model_opts){ .algos = "all", .ranks_per_node = 1 };
    cost_defaults(&o->cp);
    if (argc < 2 || argv[1][0] == '-')
        return -1;
    o->c = coll_find(argv[1]);
    if (!o->c) {
        fprintf(stderr, "mpicoll model: unknown collective '%s'\n", argv[1]);
        return -1;
    }
    for (int i = 2; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (strcmp(k, "--csv") == 0) {
            o->csv = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "mpicoll model: '%s' needs a value or is unknown\n", k);
            return -1;
        }
        i++;
        if (strcmp(k, "--np") == 0)
            bad = parse_list(v, o->np, &o->nnp, 1) || o->np[o->nnp - 1] > 1 << 20;
        else if (strcmp(k, "--bytes") == 0)
            bad = parse_list(v, o->bytes, &o->nbytes, 0);
        else if (strcmp(k, "-a") == 0)
            o->algos = v;
        else if (strcmp(k, "--start") == 0) {
            o->together = strcmp(v, "together") == 0;
            bad = !o->together && strcmp(v, "barrier") != 0;
        } else if (strcmp(k, "--params") == 0) {
            char err[512];
            if (cost_read(v, &o->cp, err, sizeof err)) {
                fprintf(stderr, "mpicoll model: %s\n", err);
                return -1;
            }
        }
        else if (strcmp(k, "--group") == 0)
            bad = parse_one(v, &o->group);
        else if (strcmp(k, "--ranks-per-node") == 0)
            bad = parse_one(v, &o->ranks_per_node);
        else {
            fprintf(stderr, "mpicoll model: unknown option '%s'\n", k);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "mpicoll model: bad value '%s' for %s\n", v, k);
            return -1;
        }
    }
    if (o->nnp == 0 || o->nbytes == 0) {
        fprintf(stderr, "mpicoll model: --np and --bytes are required\n");
        return -1;
    }
    return 0;
}

/* The cost of algorithm a at p ranks: all p plans, replayed together. */
static int model_cost(const model_opts *o, const coll_algo *a, const int *params, int p,
                      size_t bytes, const int *node_of, cost *out)
{
    plan *plans = calloc((size_t)p, sizeof *plans);
    int built = 0, rc = -1;
    memset(out, 0, sizeof *out);
    if (!plans)
        return -1;
    for (; built < p; built++) {
        plan_args pa = { .p = p, .rank = built, .block = bytes, .commutative = 1,
                         .esize = o->c->reduction ? REDUCTION_ESIZE : 1,
                         .node_of = a->restrictions & R_NODES ? node_of : NULL };
        memcpy(pa.param, params, sizeof pa.param);
        plan_stats st;
        if (plan_build(&plans[built], a->build, &pa))
            goto out;
        plan_count(&plans[built], &st);
        for (size_t i = 0; o->group > 0 && i < plans[built].nops; i++) {
            const plan_op *op = &plans[built].ops[i];
            if (op->kind == OP_SEND && node_of[built] / o->group != node_of[op->peer] / o->group)
                out->far_bytes += op->bytes;
        }
        if (st.rounds > out->rounds)
            out->rounds = st.rounds;
        if (st.msgs > out->msgs)
            out->msgs = st.msgs;
    }
    if (o->together) {
        double *finish = malloc((size_t)p * sizeof *finish);
        rc = finish ? cost_replay(plans, p, node_of, &o->cp, NULL, finish) : -1;
        for (int r = 0; r < p && rc == 0; r++)
            out->seconds = finish[r] > out->seconds ? finish[r] : out->seconds;
        free(finish);
    } else {
        rc = cost_bench(plans, p, node_of, &o->cp, &out->seconds);
    }
out:
    for (int r = 0; r < built; r++)
        plan_free(&plans[r]);
    free(plans);
    return rc;
}

static void print_row(const model_opts *o, int p, size_t bytes, const char *name,
                      const char *runs, const cost *k)
{
    /* a spec with several parameters has commas: quoted in CSV */
#define Q(s) strchr(s, ',') ? "\"" : "", s, strchr(s, ',') ? "\"" : ""
    if (o->csv)
        printf("%s,%d,%zu,%s%s%s,%s%s%s,%zu,%zu,%.4f", o->c->name, p, bytes, Q(name), Q(runs),
               k->rounds, k->msgs, k->seconds * 1e6);
#undef Q
    else
        printf("%6d %10zu  %-*s %-*s %7zu %8zu %12.2f", p, bytes, o->width, name, o->width,
               runs, k->rounds, k->msgs, k->seconds * 1e6);
    if (o->group > 0)
        printf(o->csv ? ",%zu" : " %12zu", k->far_bytes);
    printf("\n");
}

/* A row for native, which has no plan to model: dashes, and the reason
 * once (not in CSV). */
static void print_native(const model_opts *o, int p, size_t bytes, const char *name)
{
    static int said;
    if (o->csv)
        return;
    if (!said++)
        printf("# native: %s (no model)\n", NATIVE_NO_PLAN);
    printf("%6d %10zu  %-*s %-*s %7s %8s %12s\n", p, bytes, o->width, name, o->width,
           "native", "-", "-", "-");
}

/* One (p, bytes): each requested algorithm that applies, then the choice. */
static int model_point(const model_opts *o, int p, size_t bytes, const int *node_of, int nnodes)
{
    call_info ci = { .p = p, .nnodes = nnodes, .bytes = coll_call_bytes(o->c, p, bytes),
                     .commutative = 1 };
    char err[512], spec[128];
    int params[PLAN_MAX_PARAMS];
    const coll_algo *a;
    cost k;
    int all = strcmp(o->algos, "all") == 0;
    const char *tok = o->algos;
    for (int i = 0; all ? i < o->c->nalgos : *tok != '\0'; i++) {
        char name[128];
        size_t len = all ? 0 : opt_spec_len(tok);
        if (!all && len >= sizeof name) {
            fprintf(stderr, "mpicoll model: -a: a too long name in '%s'\n", o->algos);
            return -1;
        }
        if (!all) {
            memcpy(name, tok, len);
            name[len] = '\0';
            tok += len + (tok[len] == ',');
        }
        if (spec_parse(o->c, all ? o->c->algos[i].name : name, &a, params, err, sizeof err)) {
            fprintf(stderr, "mpicoll model: %s\n", err);
            return -1;
        }
        if (!coll_algo_applies(a, &ci))
            continue;   /* as `mpicoll bench`: not measured under another's name */
        spec_format(a, params, spec, sizeof spec);
        if (coll_algo_native(a)) {
            print_native(o, p, bytes, all ? spec : name);
            continue;
        }
        if (model_cost(o, a, params, p, bytes, node_of, &k))
            return -1;
        /* the algorithm as asked (its parameters at their defaults not
         * spelled out), and the spec that runs */
        print_row(o, p, bytes, all ? spec : name, spec, &k);
    }
    choice ch;
    if (select_choose(o->c, NULL, 0, &ci, &ch, err, sizeof err) != 0) {
        fprintf(stderr, "mpicoll model: %s\n", err);
        return -1;
    }
    spec_format(ch.algo, ch.params, spec, sizeof spec);
    if (coll_algo_native(ch.algo)) {
        print_native(o, p, bytes, "auto");
        return 0;
    }
    if (model_cost(o, ch.algo, ch.params, p, bytes, node_of, &k))
        return -1;
    print_row(o, p, bytes, "auto", spec, &k);
    return 0;
}

/* The longest spec an algorithm of c can print: its name and every
 * parameter at the value with the most digits (values are not negative). */
static int spec_width(const coll_desc *c)
{
    int w = 9;  /* "algorithm" */
    for (int i = 0; i < c->nalgos; i++) {
        const coll_algo *a = &c->algos[i];
        char spec[128];
        int params[PLAN_MAX_PARAMS] = { 0 };
        for (int k = 0; k < coll_algo_nparams(a); k++)
            params[k] = a->params[k].max;
        spec_format(a, params, spec, sizeof spec);
        w = (int)strlen(spec) > w ? (int)strlen(spec) : w;
    }
    return w;
}

int mpicoll_cli_model(int argc, char **argv)
{
    model_opts o;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
    if (parse_args(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    o.width = spec_width(o.c);
    if (o.csv)
        printf("collective,np,bytes,algorithm,runs,rounds,msgs,model_us%s\n",
               o.group > 0 ? ",far_bytes" : "");
    else
        printf("# %s: all ranks' plans replayed (net: %.3g s latency, %.3g s/B, %.3g s per message"
               " sent, %.3g received)\n%6s %10s  %-*s %-*s %7s %8s %12s%s\n", o.c->name,
               o.cp.net.latency, o.cp.net.beta, o.cp.net.send_overhead, o.cp.net.recv_overhead,
               "np", "bytes", o.width, "algorithm", o.width, "runs", "rounds", "msgs", "model_us",
               o.group > 0 ? "    far_bytes" : "");
    int rc = 0;
    for (int i = 0; i < o.nnp && rc == 0; i++) {
        int p = (int)o.np[i];
        int *node_of = malloc((size_t)p * sizeof *node_of);
        if (!node_of) {
            rc = 1;
            break;
        }
        for (int r = 0; r < p; r++)
            node_of[r] = r / o.ranks_per_node;
        int nnodes = (p + o.ranks_per_node - 1) / o.ranks_per_node;
        for (int j = 0; j < o.nbytes && rc == 0; j++)
            if (model_point(&o, p, (size_t)o.bytes[j], node_of, nnodes))
                rc = 1;
        free(node_of);
    }
    return rc;
}
