/*
 * Selection: configuration read once from the environment, the choice of
 * an algorithm for a call, the fallback policy and the verbose log.
 */
#include "choose.h"
#include "cost.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum policy { FALLBACK_ERROR, FALLBACK_WARN, FALLBACK_SILENT };

#define MAX_COLLS NCOLLS

static struct config {
    int verbose;
    enum policy policy;
    char error[512];            /* a bad setting: every call fails with it */
    ruleset builtin, file;
    int have_file;
    /* MPICOLL_<COLL>, parsed: */
    const coll_algo *forced[MAX_COLLS];
    int nb[MAX_COLLS];          /* MPICOLL_<COLL>=nb */
    enum select_mode mode;      /* MPICOLL_MODE */
    long ranks_per_node;        /* MPICOLL_RANKS_PER_NODE: 0 unset, -1 bad */
    char ranks_per_node_text[72];
    enum select_cma_refuse cma_refuse;  /* MPICOLL_CMA_REFUSE */
    int needs_nodes[MAX_COLLS]; /* a rule of the collective has nodes= */
    int forced_params[MAX_COLLS][PLAN_MAX_PARAMS];
    char forced_error[MAX_COLLS][320];
    /* what MPICOLL_FALLBACK, MPICOLL_MODE and MPICOLL_RULES mean, for
     * select_settings: the value read, or a hash of a bad setting's text */
    uint64_t fallback_digest, mode_digest, rules_digest, model_digest, rpn_digest;
    /* MPICOLL_MODEL: the selection by the cost model across nodes */
    int have_model;
    cost_params model;
} cfg;

/* The model's choices, by (collective, p, nodes, operation, size class):
 * the same on every rank, computed once per process. */
#define MODEL_CACHE 64
static struct model_choice {
    const coll_desc *c;
    int p, nnodes, commutative;
    size_t bytes;               /* the class: a power of two (or 0) */
    cost_pick best, second;
} model_cache[MODEL_CACHE];
static int model_cached;
static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;

/* Candidates of more messages than this (all ranks together) are not
 * replayed: about 0.5 s of this machine each (alltoall's pairwise at 1024
 * ranks has 2^20, and is the one to choose there at 1 MiB). */
#define MODEL_BUDGET ((size_t)1 << 21)

static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int rules_logged;
static unsigned char warned[MAX_COLLS][64];

void mpicoll_print_error(const char *msg)
{
    fprintf(stderr, "mpicoll: error: %s\n", msg);
    fflush(stderr);
}

static void print_warning(const char *msg)
{
    fprintf(stderr, "mpicoll: warning: %s\n", msg);
}

/* Warnings found while reading the configuration (every process reads
 * it): kept, and printed once, by rank 0 of MPI_COMM_WORLD. */
static char cfg_warnings[2048];

static void keep_warning(const char *msg)
{
    size_t n = strlen(cfg_warnings);
    snprintf(cfg_warnings + n, sizeof cfg_warnings - n, "mpicoll: warning: %s\n", msg);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long len;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
        goto out;
    text = malloc((size_t)len + 1);
    if (text && fread(text, 1, (size_t)len, f) != (size_t)len) {
        free(text);
        text = NULL;
    }
    if (text)
        text[len] = '\0';
out:
    fclose(f);
    return text;
}

static void load_builtin(void)
{
    /* All collectives' built-in rules form one ruleset, "built-in". */
    size_t len = 1;
    for (int i = 0; mpicoll_colls[i]; i++)
        len += strlen(mpicoll_colls[i]->builtin_rules) + 1;
    char *all = malloc(len);
    if (!all) {
        snprintf(cfg.error, sizeof cfg.error, "out of memory");
        return;
    }
    all[0] = '\0';
    for (int i = 0; mpicoll_colls[i]; i++) {
        strcat(all, mpicoll_colls[i]->builtin_rules);
        strcat(all, "\n");
    }
    rules_parse(all, "built-in", &cfg.builtin, cfg.error, sizeof cfg.error, keep_warning);
    free(all);
}

uint64_t settings_digest(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211u;
    return h;
}

static uint64_t digest_str(const char *s)
{
    return settings_digest(DIGEST_INIT, s, strlen(s));
}

static void load_file(const char *path)
{
    char *text = read_file(path);
    /* the content, not the path: the same file must say the same everywhere */
    cfg.rules_digest = text ? digest_str(text) ^ 1 : digest_str(path);
    if (!text) {
        snprintf(cfg.error, sizeof cfg.error, "MPICOLL_RULES=%s: cannot read the file", path);
        return;
    }
    if (rules_parse(text, path, &cfg.file, cfg.error, sizeof cfg.error, keep_warning) == 0)
        cfg.have_file = 1;
    free(text);
}

/* The MPICOLL_ variables read outside the collectives' table (which gives
 * MPICOLL_<COLL>): an unknown one in the environment is most likely one of
 * these, or a collective's, misspelled. */
static const char *const other_vars[] = {
    "MPICOLL_VERBOSE", "MPICOLL_FALLBACK", "MPICOLL_MODE", "MPICOLL_RULES", "MPICOLL_MODEL",
    "MPICOLL_RANKS_PER_NODE", "MPICOLL_CMA_REFUSE",     /* read here too */
    "MPICOLL_DISABLE",          /* src/preload/preload.c */
    "MPICOLL_GNUPLOT",          /* tools/report.c */
    "MPICOLL_TEST_FAULT",       /* tests/bench/fault.c */
};
#define NOTHER_VARS (sizeof other_vars / sizeof other_vars[0])

extern char **environ;

/* The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of neighbours), for names under 64 characters; else a large one. */
static size_t edit_distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b), d[3][64];
    if (la >= 64 || lb >= 64)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t *row = d[i % 3], *up = d[(i - 1) % 3], *up2 = d[(i + 1) % 3];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = up[j - 1] + (a[i - 1] != b[j - 1]);
            if (up[j] + 1 < best)
                best = up[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && up2[j - 2] + 1 < best)
                best = up2[j - 2] + 1;
            row[j] = best;
        }
    }
    return d[la % 3][lb];
}

static const char *known_var(int i)
{
    int ncolls = 0;
    while (mpicoll_colls[ncolls])
        ncolls++;
    return i < ncolls ? mpicoll_colls[i]->env
         : (size_t)(i - ncolls) < NOTHER_VARS ? other_vars[i - ncolls] : NULL;
}

/* A warning for every MPICOLL_ variable of the environment that mpicoll
 * does not read, naming the nearest one it does when that is close. */
static void check_env_names(void)
{
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "MPICOLL_", 8) != 0)
            continue;
        size_t len = strcspn(*e, "="), best = (size_t)-1;
        const char *nearest = NULL, *k;
        int known = 0;
        for (int i = 0; (k = known_var(i)) != NULL && !known; i++) {
            size_t d = edit_distance(*e, len, k);
            known = d == 0;
            if (d < best) {
                best = d;
                nearest = k;
            }
        }
        if (known)
            continue;
        char msg[320];
        /* close: at most 2 edits, or 3 in a name of 15 characters or more */
        if (nearest && best <= (len >= 15 ? 3u : 2u))
            snprintf(msg, sizeof msg, "%.*s is not a variable mpicoll reads: ignored (did you "
                     "mean %s?)", (int)(len < 64 ? len : 64), *e, nearest);
        else
            snprintf(msg, sizeof msg, "%.*s is not a variable mpicoll reads: ignored (see "
                     "'mpicoll --help' and docs/selection.md)", (int)(len < 64 ? len : 64), *e);
        keep_warning(msg);
    }
}

/* MPICOLL_MODEL=FILE (a file of `mpicoll calibrate`) or `default`. A file
 * that cannot be read is an error under MPICOLL_FALLBACK=error, else a
 * warning and the defaults. */
static void load_model(const char *v)
{
    char why[480];
    cfg.have_model = 1;
    cost_defaults(&cfg.model);
    if (strcmp(v, "default") == 0) {
        cfg.model_digest = digest_str(v);
        return;
    }
    char *text = read_file(v);
    cfg.model_digest = text ? digest_str(text) ^ 2 : digest_str(v);
    free(text);
    if (cost_read(v, &cfg.model, why, sizeof why) == 0)
        return;
    if (cfg.policy == FALLBACK_ERROR) {
        snprintf(cfg.error, sizeof cfg.error, "MPICOLL_MODEL: %s", why);
        return;
    }
    char msg[700];
    snprintf(msg, sizeof msg, "MPICOLL_MODEL: %s: the model takes its defaults", why);
    keep_warning(msg);
}

static const char *env_setting(const char *name)
{
    return getenv(name);
}

/* Where the settings come from (select_set_source): the environment. */
static const char *(*setting)(const char *name) = env_setting;

void select_set_source(const char *(*get)(const char *name))
{
    setting = get ? get : env_setting;
}

static void load_config(void)
{
    const char *v = setting("MPICOLL_VERBOSE");
    cfg.verbose = v && *v && strcmp(v, "0") != 0;
    cfg.policy = FALLBACK_WARN;
    v = setting("MPICOLL_FALLBACK");
    if (v && *v) {
        if (strcasecmp(v, "error") == 0)
            cfg.policy = FALLBACK_ERROR;
        else if (strcasecmp(v, "warn") == 0)
            cfg.policy = FALLBACK_WARN;
        else if (strcasecmp(v, "silent") == 0)
            cfg.policy = FALLBACK_SILENT;
        else
            snprintf(cfg.error, sizeof cfg.error,
                     "MPICOLL_FALLBACK=%s: expected error, warn or silent", v);
    }
    cfg.fallback_digest = cfg.error[0] ? digest_str(v) : (uint64_t)cfg.policy;
    v = setting("MPICOLL_MODE");
    if (v && *v) {
        if (strcmp(v, "nb") == 0)
            cfg.mode = SELECT_MODE_NB;
        else if (strcmp(v, "persistent") == 0)
            cfg.mode = SELECT_MODE_PERSISTENT;
        else if (strcmp(v, "blocking") != 0) {
            snprintf(cfg.error, sizeof cfg.error,
                     "MPICOLL_MODE=%s: expected blocking, nb or persistent", v);
            cfg.mode_digest = digest_str(v);
        }
    }
    if (!cfg.mode_digest)
        cfg.mode_digest = (uint64_t)cfg.mode;
    v = setting("MPICOLL_RANKS_PER_NODE");
    if (v && *v) {
        char *end;
        errno = 0;
        long k = strtol(v, &end, 10);
        cfg.ranks_per_node = *end || errno || k < 1 || k > INT_MAX ? -1 : k;
        snprintf(cfg.ranks_per_node_text, sizeof cfg.ranks_per_node_text, "%.64s", v);
    }
    cfg.rpn_digest = cfg.ranks_per_node >= 0 ? (uint64_t)cfg.ranks_per_node : digest_str(v);
    v = setting("MPICOLL_CMA_REFUSE");
    if (v && *v && strcmp(v, "0") != 0)
        cfg.cma_refuse = strcmp(v, "last") == 0 ? CMA_REFUSE_LAST : CMA_REFUSE_ALL;
    check_env_names();
    load_builtin();
    v = setting("MPICOLL_RULES");
    if (v && *v && !cfg.error[0])
        load_file(v);
    else if (v && *v)
        cfg.rules_digest = digest_str(v);
    v = setting("MPICOLL_MODEL");
    if (v && *v && !cfg.error[0])
        load_model(v);
    for (int i = 0; mpicoll_colls[i] && i < MAX_COLLS; i++) {
        const coll_desc *c = mpicoll_colls[i];
        cfg.needs_nodes[i] = cfg.have_model || (cfg.have_file && rules_use_nodes(&cfg.file, c))
                             || rules_use_nodes(&cfg.builtin, c);
        v = setting(c->env);
        /* "0" is Open MPI's "ignore": use the decision rules */
        if (!v || !*v || strcmp(v, "auto") == 0 || strcmp(v, "0") == 0)
            continue;
        if (strcmp(v, "nb") == 0) {
            cfg.nb[i] = 1;      /* MPICH's "nb": the non-blocking path, then a wait */
            continue;
        }
        char why[256];
        if (spec_parse(c, v, &cfg.forced[i], cfg.forced_params[i], why, sizeof why))
            snprintf(cfg.forced_error[i], sizeof cfg.forced_error[i], "%s=%s: %s", c->env, v,
                     why);
    }
}

enum select_mode select_nb(const coll_desc *c)
{
    pthread_once(&cfg_once, load_config);
    int i = c->index;
    return cfg.mode ? cfg.mode : i >= 0 && cfg.nb[i] ? SELECT_MODE_NB : SELECT_MODE_BLOCKING;
}

long select_ranks_per_node(const char **text)
{
    pthread_once(&cfg_once, load_config);
    if (text)
        *text = cfg.ranks_per_node_text;
    return cfg.ranks_per_node;
}

enum select_cma_refuse select_cma_refuse(void)
{
    pthread_once(&cfg_once, load_config);
    return cfg.cma_refuse;
}

int select_verbose(void)
{
    pthread_once(&cfg_once, load_config);
    return cfg.verbose;
}

/* Is p of the form 2^a 3^b 5^c 7^d? (R_SMOOTH) */
static int smooth7(int p)
{
    for (int f = 2; f <= 7 && p > 1; f++)
        while (p % f == 0)
            p /= f;
    return p == 1;
}

/* How a fallback message goes on after what the algorithm needs. */
enum { WHY_PLAIN, WHY_P, WHY_SHM };

/* The first restriction of a that the call breaks (restrictions.def), or
 * NULL; *kind: how its message goes on. */
static const char *broken_why(const coll_algo *a, const call_info *ci, int *kind)
{
    const unsigned r = a->restrictions;
#define MPICOLL_RESTRICTION(flag, bit, shown, broken, needs, why) \
    if ((r & (flag)) && (broken)) {                               \
        *kind = why;                                              \
        return needs;                                             \
    }
#include "restrictions.def"
#undef MPICOLL_RESTRICTION
    return NULL;
}

/* A rule naming an algorithm that needs what this call cannot give (shared
 * memory where the ranks cannot share a segment) is passed over; so is a
 * shared-memory algorithm for a request while the communicator's pool of
 * request channels is not made (making it is collective over the node,
 * which a start must not wait for; a forced one makes it and runs, in a
 * channel of the pool: src/runtime/shm.h); a restriction of shape (the
 * number of ranks, the operation, the nodes) makes the algorithm run its
 * fallback instead, as in Open MPI's decision tree. */
static int unavailable(const coll_algo *a, const call_info *ci)
{
    return (a->restrictions & R_SHM) && (ci->shm_missing || (ci->request && ci->shm_unready));
}

int coll_algo_applies(const coll_algo *a, const call_info *ci)
{
    int kind;
    return broken_why(a, ci, &kind) == NULL;
}

static void warn_once(const coll_desc *c, const coll_algo *a, const char *msg)
{
    int ci = c->index, ai = (int)(a - c->algos);
    pthread_mutex_lock(&log_lock);
    if (ci >= 0 && ai < 64 && !warned[ci][ai]) {
        warned[ci][ai] = 1;
        print_warning(msg);
    }
    pthread_mutex_unlock(&log_lock);
}

/* The restriction check and fallback policy. */
static int apply_fallback(const coll_desc *c, int forced, const call_info *ci, choice *ch,
                          char *err, size_t errlen)
{
    const coll_algo *a = ch->algo;
    int kind;
    const char *needs = broken_why(a, ci, &kind);
    if (!needs)
        return SELECT_OK;
    char why[240];
    if (kind == WHY_P)
        snprintf(why, sizeof why, "%s %s needs %s, not %d", c->name, a->name, needs, ci->p);
    else if (kind == WHY_SHM)
        snprintf(why, sizeof why, "%s %s needs %s (%s)", c->name, a->name, needs,
                 ci->shm_missing);
    else
        snprintf(why, sizeof why, "%s %s needs %s", c->name, a->name, needs);
    if (forced && cfg.policy == FALLBACK_ERROR) {
        snprintf(err, errlen, "%s (MPICOLL_FALLBACK=error)", why);
        return SELECT_UNSUPPORTED;
    }
    for (int hops = 0; !coll_algo_applies(a, ci); hops++) {
        const coll_algo *next = a->fallback ? coll_algo_find(c, a->fallback) : NULL;
        if (!next || hops == c->nalgos) {
            snprintf(err, errlen, "%s and no fallback applies", why);
            return SELECT_UNSUPPORTED;
        }
        a = next;
    }
    snprintf(ch->detail, sizeof ch->detail, "%s; running %s", why, a->name);
    if (forced && cfg.policy == FALLBACK_WARN)
        ch->warn_from = ch->algo;
    /* a parameter the fallback has by the same name (a radix k, a segment)
     * keeps its value, within the fallback's range; the others their
     * defaults */
    int params[PLAN_MAX_PARAMS] = { 0 };
    for (int i = 0; i < coll_algo_nparams(a); i++) {
        const algo_param *q = &a->params[i];
        params[i] = q->def;
        for (int j = 0; j < coll_algo_nparams(ch->algo); j++)
            if (strcmp(ch->algo->params[j].name, q->name) == 0)
                params[i] = ch->params[j] < q->min ? q->min
                          : ch->params[j] > q->max ? q->max : ch->params[j];
    }
    ch->algo = a;
    memcpy(ch->params, params, sizeof params);
    ch->reason = "fallback";
    return SELECT_OK;
}

int select_needs_nodes(const coll_desc *c)
{
    pthread_once(&cfg_once, load_config);
    int i = c->index;
    return i >= 0 && cfg.needs_nodes[i];
}

/* The model's choice for the call (cached per class), into ch: 1 if it
 * made one. The class of n bytes is the power of two at or above n, and
 * the model is asked at that size, so every rank decides the same
 * whatever sizes each called before. */
static int model_choose(const coll_desc *c, const call_info *ci, choice *ch)
{
    size_t cls = 1;
    while (cls < ci->bytes)
        cls *= 2;
    if (ci->bytes == 0)
        cls = 0;
    struct model_choice *m = NULL;
    pthread_mutex_lock(&model_lock);
    for (int i = 0; i < model_cached && !m; i++) {
        struct model_choice *x = &model_cache[i];
        if (x->c == c && x->p == ci->p && x->nnodes == ci->nnodes &&
            x->commutative == ci->commutative && x->bytes == cls)
            m = x;
    }
    if (!m) {
        call_info at = *ci;
        at.bytes = cls;
        m = &model_cache[model_cached < MODEL_CACHE ? model_cached++ : MODEL_CACHE - 1];
        *m = (struct model_choice){ .c = c, .p = ci->p, .nnodes = ci->nnodes,
                                    .commutative = ci->commutative, .bytes = cls };
        if (cost_choose(c, &at, &cfg.model, MODEL_BUDGET, coll_algo_applies, &m->best,
                        &m->second) != 0)
            m->best.algo = NULL;
    }
    struct model_choice got = *m;
    pthread_mutex_unlock(&model_lock);
    if (!got.best.algo)
        return 0;
    ch->algo = got.best.algo;
    memcpy(ch->params, got.best.params, sizeof ch->params);
    ch->by = "the model";
    ch->line = 0;
    char s1[128], s2[128] = "none";
    spec_format(got.best.algo, got.best.params, s1, sizeof s1);
    if (got.second.algo)
        spec_format(got.second.algo, got.second.params, s2, sizeof s2);
    snprintf(ch->detail, sizeof ch->detail,
             "the model at %zu bytes: %s %.2f us, runner-up %s %.2f us", cls, s1,
             got.best.seconds * 1e6, s2, got.second.algo ? got.second.seconds * 1e6 : 0.0);
    return 1;
}

int select_choose(const coll_desc *c, const char *spec, int use_env, const call_info *ci,
                  choice *ch, char *err, size_t errlen)
{
    const int p = ci->p, nnodes = ci->nnodes;
    const size_t bytes = ci->bytes;
    pthread_once(&cfg_once, load_config);
    int cx = c->index;
    ch->algo = NULL;
    ch->by = NULL;
    ch->line = 0;
    ch->detail[0] = '\0';
    ch->warn_from = NULL;
    if (cfg.error[0]) {
        snprintf(err, errlen, "%s", cfg.error);
        return SELECT_BAD_ARG;
    }
    int forced = 1;
    if (spec && *spec && strcmp(spec, "auto") != 0) {
        if (spec_parse(c, spec, &ch->algo, ch->params, err, errlen))
            return SELECT_BAD_ARG;
        ch->by = "the call";
    } else if (use_env && cfg.forced_error[cx][0]) {
        snprintf(err, errlen, "%s", cfg.forced_error[cx]);
        return SELECT_BAD_ARG;
    } else if (use_env && cfg.forced[cx]) {
        ch->algo = cfg.forced[cx];
        memcpy(ch->params, cfg.forced_params[cx], sizeof ch->params);
        ch->by = c->env;
    } else {
        forced = 0;
        /* the first matching rule whose algorithm is available for this
         * call (unavailable() below); if none is, the first matching rule */
        const ruleset *sets[2] = { cfg.have_file ? &cfg.file : NULL, &cfg.builtin };
        const ruleset *from = NULL;
        const rule *r = NULL;
        for (int s = 0; s < 2 && !(r && !unavailable(r->algo, ci)); s++) {
            for (const rule *m = sets[s] ? rules_match(sets[s], c, p, nnodes, bytes, ci->request) : NULL;
                 m; m = rules_match_after(sets[s], m, c, p, nnodes, bytes, ci->request)) {
                if (!r || !unavailable(m->algo, ci)) {
                    r = m;
                    from = sets[s];
                }
                if (!unavailable(m->algo, ci))
                    break;
            }
        }
        /* across nodes, the model comes after a rules file's rule */
        if (cfg.have_model && nnodes >= 2 && from != &cfg.file && model_choose(c, ci, ch)) {
            ch->reason = "model";
            return apply_fallback(c, 0, ci, ch, err, errlen);
        }
        if (!r) {
            snprintf(err, errlen, "no %s rule matches np=%d bytes=%zu (%s)", c->name, p, bytes,
                     cfg.have_file ? "rules file and built-in rules" : "built-in rules");
            return SELECT_NO_RULE;
        }
        ch->algo = r->algo;
        memcpy(ch->params, r->params, sizeof ch->params);
        ch->by = from->source;
        ch->line = r->line;
    }
    ch->reason = forced ? "forced" : "rule";
    return apply_fallback(c, forced, ci, ch, err, errlen);
}

static void log_rules(void)
{
    fprintf(stderr, "mpicoll: fallback policy: %s\n",
            cfg.policy == FALLBACK_ERROR ? "error" : cfg.policy == FALLBACK_WARN ? "warn" : "silent");
    for (int i = 0; mpicoll_colls[i]; i++) {
        if (cfg.forced[i]) {
            char s[128];
            spec_format(cfg.forced[i], cfg.forced_params[i], s, sizeof s);
            fprintf(stderr, "mpicoll: forced: %s=%s\n", mpicoll_colls[i]->env, s);
        }
    }
    const ruleset *sets[2] = { cfg.have_file ? &cfg.file : NULL, &cfg.builtin };
    for (int s = 0; s < 2; s++) {
        if (!sets[s])
            continue;
        fprintf(stderr, "mpicoll: rules from %s (%zu, first match wins):\n", sets[s]->source,
                sets[s]->n);
        for (size_t i = 0; i < sets[s]->n; i++)
            fprintf(stderr, "mpicoll:   %s:%d  %s\n", sets[s]->source, sets[s]->rules[i].line,
                    sets[s]->rules[i].text);
    }
}

void select_log(const coll_desc *c, const choice *ch, const call_info *ci, int rank,
                int world_rank)
{
    /* the common case, on every call: nothing to print (no lock taken) */
    if (rank != 0
        || (!cfg.verbose && !ch->warn_from && !__atomic_load_n(&cfg_warnings[0], __ATOMIC_RELAXED)))
        return;
    pthread_mutex_lock(&log_lock);
    if (cfg_warnings[0] && world_rank == 0)
        fputs(cfg_warnings, stderr);
    __atomic_store_n(&cfg_warnings[0], '\0', __ATOMIC_RELAXED);
    pthread_mutex_unlock(&log_lock);
    if (ch->warn_from) {
        char msg[520];
        snprintf(msg, sizeof msg, "%s (set MPICOLL_FALLBACK=silent to hide this, =error to "
                 "fail instead)", ch->detail);
        warn_once(c, ch->warn_from, msg);
    }
    if (!cfg.verbose)
        return;
    char s[128], by[sizeof ch->detail];
    spec_format(ch->algo, ch->params, s, sizeof s);
    const char *params = strchr(s, ':');
    if (ch->detail[0])
        snprintf(by, sizeof by, "%s", ch->detail);
    else if (ch->line > 0)
        snprintf(by, sizeof by, "%s:%d", ch->by, ch->line);
    else
        snprintf(by, sizeof by, "by %s", ch->by);
    pthread_mutex_lock(&log_lock);
    if (!rules_logged) {
        rules_logged = 1;
        log_rules();
    }
    fprintf(stderr, "mpicoll: %s algorithm=%s params=%s reason=%s np=%d bytes=%zu (%s)\n",
            c->name, ch->algo->name, params ? params + 1 : "-", ch->reason, ci->p, ci->bytes,
            by);
    fflush(stderr);
    pthread_mutex_unlock(&log_lock);
}

int select_settings(const char **names, uint64_t *d, int max)
{
    pthread_once(&cfg_once, load_config);
    int n = 0;
    for (int i = 0; mpicoll_colls[i] && i < MAX_COLLS && n < max; i++, n++) {
        names[n] = mpicoll_colls[i]->env;
        if (cfg.forced_error[i][0])
            d[n] = digest_str(cfg.forced_error[i]);
        else if (cfg.nb[i])
            d[n] = 1;
        else if (cfg.forced[i])
            d[n] = settings_digest(digest_str(cfg.forced[i]->name), cfg.forced_params[i],
                          sizeof cfg.forced_params[i]);
        else
            d[n] = 0;   /* unset, auto or 0: the rules decide */
    }
    const char *other[] = { "MPICOLL_RULES", "MPICOLL_MODE", "MPICOLL_FALLBACK", "MPICOLL_MODEL",
                            "MPICOLL_RANKS_PER_NODE" };
    const uint64_t val[] = { cfg.rules_digest, cfg.mode_digest, cfg.fallback_digest,
                             cfg.model_digest, cfg.rpn_digest };
    for (int i = 0; i < 5 && n < max; i++, n++) {
        names[n] = other[i];
        d[n] = val[i];
    }
    return n;
}
