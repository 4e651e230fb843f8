/*
 * mpicoll list / check: the table and the symbolic checker (show, the
 * diagrams: show.c and src/model/diagram.c). None of these needs mpirun or
 * MPI_Init.
 */
#include "cli.h"
#include "model/coll.h"
#include "model/rules.h"
#include "model/symbolic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const coll_desc *cli_need_coll(const char *name)
{
    const coll_desc *c = name ? coll_find(name) : NULL;
    if (!c) {
        fprintf(stderr, "mpicoll: unknown collective '%s' (known:", name ? name : "");
        for (int i = 0; mpicoll_colls[i]; i++)
            fprintf(stderr, " %s", mpicoll_colls[i]->name);
        fprintf(stderr, ")\n");
    }
    return c;
}

/* An algorithm's restrictions as `mpicoll list` shows them: every one
 * restrictions.def names, joined with ", "; "-" for none. */
void cli_restriction_text(unsigned r, char *buf, size_t len)
{
    size_t n = 0;
    snprintf(buf, len, "-");
#define MPICOLL_RESTRICTION(flag, bit, shown, broken, needs, kind)                       \
    if ((r & (flag)) && *(shown) && n < len) {                                          \
        int w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", shown);               \
        n += w > 0 ? (size_t)w : 0;                                                    \
    }
#include "model/restrictions.def"
#undef MPICOLL_RESTRICTION
}

/* An algorithm's parameters as `mpicoll list` shows them. */
static void param_text(const coll_algo *a, char *buf, size_t len)
{
    size_t n = 0;
    snprintf(buf, len, "-");
    for (int k = 0; k < coll_algo_nparams(a) && n < len; k++) {
        int w = snprintf(buf + n, len - n, "%s%s=%d [%d..%d]", k ? "," : "", a->params[k].name,
                         a->params[k].def, a->params[k].min, a->params[k].max);
        if (w < 0)
            break;
        n += (size_t)w;
    }
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

/* The table, its columns as wide as their longest entry. */
static void list_coll(const coll_desc *c)
{
    int wname = 4, walias = 5, wrestr = 11, wfall = 8, wparams = 10;
    char params[160], restr[160];
    for (int i = 0; i < c->nalgos; i++) {
        const coll_algo *a = &c->algos[i];
        param_text(a, params, sizeof params);
        cli_restriction_text(a->restrictions, restr, sizeof restr);
        wname = max_int(wname, (int)strlen(a->name));
        walias = max_int(walias, a->aliases ? (int)strlen(a->aliases) : 1);
        wrestr = max_int(wrestr, (int)strlen(restr));
        wfall = max_int(wfall, a->fallback ? (int)strlen(a->fallback) : 1);
        wparams = max_int(wparams, (int)strlen(params));
    }
    printf("%s (force with %s=name[:param=value,...]; id: Open MPI 4.1's)\n", c->name, c->env);
    printf("  %-*s %4s  %-*s  %-*s  %-*s  %-*s  %s\n", wname, "name", "id", walias, "alias",
           wrestr, "restriction", wfall, "fallback", wparams, "parameters", "what");
    for (int i = 0; i < c->nalgos; i++) {
        const coll_algo *a = &c->algos[i];
        char id[8] = "-";
        if (a->ompi_id)
            snprintf(id, sizeof id, "%d", a->ompi_id);
        param_text(a, params, sizeof params);
        cli_restriction_text(a->restrictions, restr, sizeof restr);
        printf("  %-*s %4s  %-*s  %-*s  %-*s  %-*s  %s\n", wname, a->name, id, walias,
               a->aliases ? a->aliases : "-", wrestr, restr, wfall,
               a->fallback ? a->fallback : "-", wparams, params, a->summary);
    }
}

int cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

int mpicoll_cli_list(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        printf("usage: mpicoll list [COLLECTIVE]\n"
               "The algorithms of COLLECTIVE (default: of every collective): name, Open MPI\n"
               "4.1's id and other names (MPICOLL_<COLLECTIVE>, rules files and bench -a\n"
               "take any of the three), restriction, fallback, parameters (default\n"
               "[min..max]), summary.\ncollectives:");
        for (int i = 0; mpicoll_colls[i]; i++)
            printf(" %s", mpicoll_colls[i]->name);
        printf("\n");
        return 0;
    }
    if (argc > 2) {
        fprintf(stderr, "mpicoll list: unexpected argument '%s' (usage: mpicoll list "
                        "[COLLECTIVE])\n", argv[2]);
        return 2;
    }
    if (argc > 1) {
        const coll_desc *c = cli_need_coll(argv[1]);
        if (!c)
            return 2;
        list_coll(c);
        return 0;
    }
    for (int i = 0; mpicoll_colls[i]; i++)
        list_coll(mpicoll_colls[i]);
    return 0;
}

/* "1:256,1000,1024" into a list of sizes. */
static int parse_np(const char *s, int **out, int *n)
{
    char *copy = strdup(s), *save = NULL;
    int *v = NULL, cnt = 0, rc = 0;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
        char *e;
        long lo = strtol(t, &e, 10), hi = lo;
        if (*e == ':')
            hi = strtol(e + 1, &e, 10);
        if (*e || lo < 1 || hi < lo || hi > 1 << 16) {
            rc = -1;
            break;
        }
        int *nv = realloc(v, (size_t)(cnt + hi - lo + 1) * sizeof *v);
        if (!nv) {
            rc = -1;
            break;
        }
        v = nv;
        for (long p = lo; p <= hi; p++)
            v[cnt++] = (int)p;
    }
    free(copy);
    if (rc || cnt == 0) {
        free(v);
        return -1;
    }
    *out = v;
    *n = cnt;
    return 0;
}

/* Node layouts an algorithm that reads them is proven on, for every p:
 * one node (layout 0); nodes of k consecutive ranks for k = 1..16, the
 * last node smaller when k does not divide p (layout k); nodes of unequal
 * sizes 3, 1, 2, 3, 1, 2, ... (layout 17). */
#define MAX_PER_NODE 16
#define NLAYOUTS (MAX_PER_NODE + 2)

static void layout_name(int which, char *buf, size_t len)
{
    if (which == 0)
        snprintf(buf, len, "one node");
    else if (which <= MAX_PER_NODE)
        snprintf(buf, len, "%d rank%s per node", which, which > 1 ? "s" : "");
    else
        snprintf(buf, len, "nodes of 3, 1, 2, ... ranks");
}

static void layout(int which, int p, int *node_of)
{
    static const int uneven[] = { 3, 1, 2 };
    const int unequal = which > MAX_PER_NODE;
    int node = 0, left = unequal ? uneven[0] : which;
    for (int r = 0; r < p; r++) {
        if (which == 0) {
            node_of[r] = 0;
            continue;
        }
        if (left == 0) {
            node++;
            left = unequal ? uneven[node % 3] : which;
        }
        node_of[r] = node;
        left--;
    }
}

/* The calls an algorithm is proven on at p ranks, most thorough for small
 * p. Moving data: blocks of 1 byte in and out of place up to p = 256, of 3
 * bytes (an offset counted in blocks where bytes were meant shows) up to
 * p = 64, of 7 bytes (chunks of a pipeline that do not divide the block)
 * up to p = 16. Reductions: vectors of 1, p + 1, p - 1 and 3p + 2 elements of 1
 * byte (and of 3 bytes up to p = 16), fewer beyond p = 16; commutative and
 * not. Rooted collectives: roots 0, p - 1 and p / 2. */
#define MAXV 96

/* Counts per rank (coll_desc counts), pattern k of NPATTERNS in units of
 * `unit` bytes: 0: 0, 1, 2, 0, 1, 2, ... in rank order; 1: 3, 0, 1, 2,
 * ... with the blocks in reverse rank order; 2: one rank (p / 2) with 3
 * units, the others none; 3: 1, 2, 3, 4, 5, 1, ... with the blocks interleaved
 * (even ranks first); in rank order for a collective whose blocks are
 * (ordered). Blocks lie apart, with no gap. */
#define NPATTERNS 4
static void count_pattern(int k, int p, size_t unit, int ordered, size_t *count, size_t *displ)
{
    for (int r = 0; r < p; r++)
        count[r] = unit * (size_t)(k == 0 ? r % 3 : k == 1 ? (r + 3) % 4
                                   : k == 2 ? 3 * (r == p / 2) : 1 + r % 5);
    size_t off = 0;
    const int even = (p + 1) / 2;
    for (int i = 0; i < p; i++) {
        int r = ordered ? i : k == 1 ? p - 1 - i
                          : k == 3 ? (i < even ? 2 * i : 2 * (i - even) + 1) : i;
        displ[r] = off;
        off += count[r];
    }
}

/* The i-th block placed: in rank order (0), reverse (1), or interleaved,
 * even ranks first (2). */
static int placed_rank(int order, int i, int p)
{
    const int even = (p + 1) / 2;
    return order == 1 ? p - 1 - i : order == 2 ? (i < even ? 2 * i : 2 * (i - even) + 1) : i;
}

/* Counts per pair of ranks (COUNTS_MATRIX), pattern k of NPATTERNS in
 * units of `unit` bytes, as p × p matrices (row r: rank r's): M(s, d), the
 * bytes rank s sends rank d, is 0: (s + 2d) mod 3, blocks in rank order on
 * both sides; 1: 0 on the diagonal, else 1 + (3s + d) mod 4, blocks in
 * reverse rank order on both sides; 2: rank p / 2 sends nothing and gets 3
 * from every other rank, the others (s + d) mod 2, send blocks reversed,
 * receive blocks interleaved; 3: 1 + (s + d) mod 5, send blocks
 * interleaved, receive blocks reversed. Blocks lie apart, with no gap. */
static size_t matrix_count(int k, int p, int s, int d)
{
    return (size_t)(k == 0 ? (s + 2 * d) % 3 : k == 1 ? (s == d ? 0 : 1 + (3 * s + d) % 4)
                    : k == 2 ? (s == p / 2 ? 0 : d == p / 2 ? 3 : (s + d) % 2)
                    : 1 + (s + d) % 5);
}

static void matrix_pattern(int k, int p, size_t unit, size_t *rcount, size_t *rdispl,
                           size_t *scount, size_t *sdispl)
{
    static const int sorder[NPATTERNS] = { 0, 1, 1, 2 }, rorder[NPATTERNS] = { 0, 1, 2, 1 };
    for (int r = 0; r < p; r++) {
        size_t *rc = rcount + (size_t)r * (size_t)p, *rd = rdispl + (size_t)r * (size_t)p;
        size_t *sc = scount + (size_t)r * (size_t)p, *sd = sdispl + (size_t)r * (size_t)p;
        for (int q = 0; q < p; q++) {
            rc[q] = unit * matrix_count(k, p, q, r);
            sc[q] = unit * matrix_count(k, p, r, q);
        }
        size_t roff = 0, soff = 0;
        for (int i = 0; i < p; i++) {
            int qr = placed_rank(rorder[k], i, p), qs = placed_rank(sorder[k], i, p);
            rd[qr] = roff;
            roff += rc[qr];
            sd[qs] = soff;
            soff += sc[qs];
        }
    }
}

static int variants(const coll_desc *c, const coll_algo *a, int p, sym_opts *v,
                    size_t *counts_buf)
{
    int n = 0, roots[3] = { 0, p - 1, p / 2 }, nroots = c->rooted ? (p > 2 ? 3 : p) : 1;
    if (c->synchronizing) {     /* no data: one call, proven by causality */
        v[0] = (sym_opts){ .call = { .p = p, .block = 1, .esize = 1, .commutative = 1 } };
        return 1;
    }
    if (p > 64 && nroots > 1)
        nroots = 2;
    int orders = c->reduction && !(a->restrictions & R_COMMUTATIVE) ? 2 : 1;
    /* beyond p = 64 one element only: a reduce_scatter_block of p + 1
     * elements per block would hold p(p + 1) cells on every rank */
    size_t counts[4] = { 1, (size_t)p + 1, p > 1 ? (size_t)p - 1 : 2, 3 * (size_t)p + 2 };
    int ncounts = !c->reduction ? 1 : p <= 16 ? 4 : p <= 64 ? 2 : 1;
    for (int ri = 0; ri < nroots; ri++)
        for (int ord = 0; ord < orders; ord++)
            for (int k = 0; k < ncounts; k++)
                for (int e = 0; e < 3; e++)
                    for (int inplace = 0; inplace < 2; inplace++) {
                        size_t esize = e == 2 ? 7 : e ? 3 : 1;
                        if (e == 2 && (c->reduction || p > 16))
                            continue;
                        if (e && (c->reduction ? p > 16 : p > 64))
                            continue;
                        if (inplace && (p > 256 || !c->inplace_offset))
                            continue;
                        size_t block = c->reduction ? counts[k] * esize : esize;
                        v[n++] = (sym_opts){ .call = { .p = p, .block = block,
                                                       .esize = c->reduction ? esize : 1,
                                                       .root = roots[ri], .commutative = !ord,
                                                       .inplace = inplace } };
                    }
    /* counts per rank: each pattern in units of 1 byte (and of 3 up to
     * p = 64), in and out of place (beyond p = 64: the first two patterns,
     * out of place), for the first root */
    for (int k = 0; c->counts && k < NPATTERNS; k++)
        for (int e = 0; e < 2; e++)
            for (int inplace = 0; inplace < 2; inplace++) {
                if ((e && p > 64) || (inplace && (!c->inplace_offset || p > 64)) ||
                    (k >= 2 && p > 64))
                    continue;
                if (c->counts == COUNTS_MATRIX) {
                    const size_t pp = (size_t)p * (size_t)p;
                    size_t *m = counts_buf + (size_t)(4 * (k * 2 + e)) * pp;
                    matrix_pattern(k, p, e ? 3 : 1, m, m + pp, m + 2 * pp, m + 3 * pp);
                    v[n++] = (sym_opts){ .call = { .p = p, .block = e ? 3 : 1, .esize = 1,
                                                   .root = roots[0], .commutative = 1,
                                                   .inplace = inplace },
                                         .all_count = m, .all_displ = m + pp,
                                         .all_scount = m + 2 * pp, .all_sdispl = m + 3 * pp };
                    continue;
                }
                size_t *count = counts_buf + (size_t)(2 * (k * 2 + e)) * (size_t)p;
                count_pattern(k, p, e ? 3 : 1, c->counts == COUNTS_RANK_ORDER, count, count + p);
                v[n++] = (sym_opts){ .call = { .p = p, .block = e ? 3 : 1, .esize = 1,
                                               .root = roots[0], .commutative = 1,
                                               .inplace = inplace, .count = count,
                                               .displ = count + p } };
            }
    return n;
}

static int check_algo(const coll_desc *c, const coll_algo *a, const int *params, const int *nps,
                      int nnp)
{
    int lo = 0, hi = 0, proven = 0, skipped = 0, maxp = 1, rc = 0;
    for (int i = 0; i < nnp; i++)
        maxp = nps[i] > maxp ? nps[i] : maxp;
    int *node_of = malloc((size_t)maxp * sizeof *node_of);
    /* per pattern and unit: count and displ (p each), or for COUNTS_MATRIX
     * the four p × p matrices */
    const size_t per = c->counts == COUNTS_MATRIX ? 4 * (size_t)maxp * (size_t)maxp
                                                  : 2 * (size_t)maxp;
    size_t *counts_buf = malloc((size_t)(2 * NPATTERNS) * per * sizeof *counts_buf);
    int nlayouts = a->restrictions & R_NODES ? NLAYOUTS : 1;
    sym_result last = { 0 }, r;
    size_t last_count = 0;
    sym_opts v[MAXV];
    if (coll_algo_native(a)) {
        printf("%-20s skipped: %s\n", a->name, NATIVE_NO_PLAN);
        free(node_of);
        free(counts_buf);
        return 0;
    }
    if (!node_of || !counts_buf) {
        free(node_of);
        free(counts_buf);
        return 1;
    }
    for (int i = 0; i < nnp && rc == 0; i++) {
        int p = nps[i];
        call_info ci = { .p = p, .nnodes = 1, .commutative = 1 };
        if (!coll_algo_applies(a, &ci)) {
            skipped++;
            continue;
        }
        int nv = variants(c, a, p, v, counts_buf);
        for (int l = 0; l < nlayouts && rc == 0; l++) {
            layout(l, p, node_of);
            for (int k = 0; k < nv && rc == 0; k++) {
                plan_args *call = &v[k].call;
                call->node_of = node_of;
                memcpy(call->param, params, sizeof call->param);
                if (sym_run(c, a, &v[k], &r)) {
                    fprintf(stderr, "mpicoll check: out of memory at p=%d\n", p);
                    rc = 1;
                } else if (!r.ok) {
                    char lname[40] = "";
                    if (nlayouts > 1)
                        layout_name(l, lname, sizeof lname);
                    printf("%-20s FAILED %s%s%s\n", a->name, r.why, nlayouts > 1 ? "; " : "",
                           lname);
                    rc = 1;
                } else if (l == 0 && (k == 0 || (c->reduction && call->block == ((size_t)p + 1) *
                                                     call->esize && call->esize == 1 &&
                                                     !call->inplace && call->commutative))) {
                    last = r;   /* reductions: the vector of p + 1 elements when it ran */
                    last_count = c->reduction ? call->block : 0;
                }
            }
        }
        if (!proven++)
            lo = p;
        hi = p;
    }
    free(node_of);
    free(counts_buf);
    if (rc)
        return rc;
    char spec[128];
    spec_format(a, params, spec, sizeof spec);
    if (!proven) {
        printf("%-20s no p in range satisfies its restriction (%d skipped)\n", spec, skipped);
        return 0;
    }
    printf("%-20s proven for %d value(s) of p in %d..%d", spec, proven, lo, hi);
    if (skipped)
        printf(" (%d skipped: restriction)", skipped);
    if (nlayouts > 1)
        printf(" x %d node layouts", nlayouts);
    if (c->reduction)
        printf(a->restrictions & R_COMMUTATIVE ? " (commutative operations)"
                                               : " (commutative or not)");
    printf("\n%-20s at p=%d: rounds=%zu msgs=%zu sent=%zun recv=%zun copied=%zun", "", hi,
           last.worst.rounds, last.worst.msgs, last.worst.bytes_sent, last.worst.bytes_recv,
           last.worst.copy_bytes);
    if (last.worst.syncs)
        printf(" barriers=%zu", last.worst.syncs);
    if (last.worst.pulls)
        printf(" pulls=%zu", last.worst.pulls);
    if (c->reduction)
        printf(" reduced=%zun", last.worst.reduce_bytes);
    if (c->synchronizing) {
        printf("  cost=%.0fα   (messages of 0 bytes; max over ranks%s)\n", last.alpha_max,
               nlayouts > 1 ? "; one node" : "");
        return 0;
    }
    char unit[64] = "block bytes";
    if (c->reduction)
        snprintf(unit, sizeof unit, "one element's bytes, vectors of %zu", last_count);
    printf("  cost=%.0fα + %.0fnβ%s   (n = %s; max over ranks%s)\n", last.alpha_max,
           last.beta_max, c->reduction ? " + reducedγ" : "", unit,
           nlayouts > 1 ? "; one node" : "");
    return 0;
}

int mpicoll_cli_check(int argc, char **argv)
{
    const char *alg = "all", *np = "1:64";
    int help = cli_wants_help(argc, argv);
    if (argc < 2 || help) {
        fprintf(help ? stdout : stderr, "usage: mpicoll check COLLECTIVE [--algorithm "
                "NAME[:p=v]|all] [--np A:B[,N...]]\n");
        if (help)
            printf("Proves the algorithms of COLLECTIVE (default all) with the symbolic "
                   "checker for\nevery communicator size of --np (default 1:64), without "
                   "MPI: data in the\nright place, every contribution once and in rank "
                   "order, no deadlock.\n");
        return help ? 0 : 2;
    }
    const coll_desc *c = cli_need_coll(argv[1]);
    if (!c)
        return 2;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--algorithm") == 0 && i + 1 < argc)
            alg = argv[++i];
        else if (strcmp(argv[i], "--np") == 0 && i + 1 < argc)
            np = argv[++i];
        else {
            fprintf(stderr, "mpicoll check: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    int *nps, nnp, failed = 0;
    if (parse_np(np, &nps, &nnp)) {
        fprintf(stderr, "mpicoll check: --np takes A:B or N, comma-separated, 1 <= N <= 65536\n");
        return 2;
    }
    int params[PLAN_MAX_PARAMS];
    char err[512];
    if (strcmp(alg, "all") == 0) {
        for (int i = 0; i < c->nalgos; i++) {
            const coll_algo *a;
            spec_parse(c, c->algos[i].name, &a, params, err, sizeof err);
            failed |= check_algo(c, a, params, nps, nnp);
        }
    } else {
        const coll_algo *a;
        if (spec_parse(c, alg, &a, params, err, sizeof err)) {
            fprintf(stderr, "mpicoll check: %s\n", err);
            free(nps);
            return 2;
        }
        failed = check_algo(c, a, params, nps, nnp);
    }
    free(nps);
    return failed;
}
