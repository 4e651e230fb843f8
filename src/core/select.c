/*
 * Selection: configuration read once from the environment, the choice of
 * an algorithm for a call, the fallback policy and the verbose log.
 */
#include "runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum policy { FALLBACK_ERROR, FALLBACK_WARN, FALLBACK_SILENT };

#define MAX_COLLS 16

static struct config {
    int verbose;
    enum policy policy;
    char error[512];            /* a bad setting: every call fails with it */
    ruleset builtin, file;
    int have_file;
    /* MPICOLL_<COLL>, parsed: */
    const coll_algo *forced[MAX_COLLS];
    int nb[MAX_COLLS];          /* MPICOLL_<COLL>=nb */
    int mode;                   /* MPICOLL_MODE: 0 blocking, 1 nb, 2 persistent */
    int needs_nodes[MAX_COLLS]; /* a rule of the collective has nodes= */
    int forced_params[MAX_COLLS][PLAN_MAX_PARAMS];
    char forced_error[MAX_COLLS][320];
} cfg;

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

static int coll_index(const coll_desc *c)
{
    for (int i = 0; mpicoll_colls[i]; i++)
        if (mpicoll_colls[i] == c)
            return i;
    return -1;
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

static void load_file(const char *path)
{
    char *text = read_file(path);
    if (!text) {
        snprintf(cfg.error, sizeof cfg.error, "MPICOLL_RULES=%s: cannot read the file", path);
        return;
    }
    if (rules_parse(text, path, &cfg.file, cfg.error, sizeof cfg.error, keep_warning) == 0)
        cfg.have_file = 1;
    free(text);
}

static void load_config(void)
{
    const char *v = getenv("MPICOLL_VERBOSE");
    cfg.verbose = v && *v && strcmp(v, "0") != 0;
    cfg.policy = FALLBACK_WARN;
    v = getenv("MPICOLL_FALLBACK");
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
    v = getenv("MPICOLL_MODE");
    if (v && *v) {
        if (strcmp(v, "nb") == 0)
            cfg.mode = 1;
        else if (strcmp(v, "persistent") == 0)
            cfg.mode = 2;
        else if (strcmp(v, "blocking") != 0)
            snprintf(cfg.error, sizeof cfg.error,
                     "MPICOLL_MODE=%s: expected blocking, nb or persistent", v);
    }
    load_builtin();
    v = getenv("MPICOLL_RULES");
    if (v && *v && !cfg.error[0])
        load_file(v);
    for (int i = 0; mpicoll_colls[i] && i < MAX_COLLS; i++) {
        const coll_desc *c = mpicoll_colls[i];
        cfg.needs_nodes[i] = (cfg.have_file && rules_use_nodes(&cfg.file, c))
                             || rules_use_nodes(&cfg.builtin, c);
        v = getenv(c->env);
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

int select_nb(const coll_desc *c)
{
    pthread_once(&cfg_once, load_config);
    int i = coll_index(c);
    return cfg.mode ? cfg.mode : i >= 0 && cfg.nb[i];
}

int select_verbose(void)
{
    pthread_once(&cfg_once, load_config);
    return cfg.verbose;
}

static const char needs_shm[] = "ranks that share memory on each node";

/* The first restriction of a that the call breaks, or NULL; *on_p: it is
 * one on the number of ranks. */
static const char *broken_why(const coll_algo *a, const call_info *ci, int *on_p)
{
    unsigned r = a->restrictions;
    int p = ci->p;
    *on_p = 1;
    if ((r & R_TWO) && p != 2)
        return "exactly 2 ranks";
    if ((r & R_POW2) && (p & (p - 1)) != 0)
        return "a power-of-two number of ranks";
    if ((r & R_EVEN) && p % 2 != 0)
        return "an even number of ranks";
    *on_p = 0;
    if ((r & R_COMMUTATIVE) && !ci->commutative)
        return "a commutative operation";
    if ((r & R_SHM) && ci->shm_missing)
        return needs_shm;
    if ((r & R_ONE_NODE) && ci->nnodes > 1)
        return "a communicator within one node";
    if ((r & R_ORDERED_NODES) && !ci->commutative && ci->scattered_nodes)
        return "nodes of consecutive ranks for a non-commutative operation";
    return NULL;
}

/* A rule naming an algorithm that needs what this call cannot give (shared
 * memory where the ranks cannot share a segment) is passed over; so is a
 * shared-memory algorithm for a request (the rules were measured on
 * blocking calls; a forced one runs as a request, in a channel of the
 * communicator's pool: src/core/shm.h); a restriction of shape (the number
 * of ranks, the operation, the nodes) makes the algorithm run its
 * fallback instead, as in Open MPI's decision tree. */
static int unavailable(const coll_algo *a, const call_info *ci)
{
    return (a->restrictions & R_SHM) && (ci->request || ci->shm_missing);
}

static const char *broken(const coll_algo *a, const call_info *ci)
{
    int on_p;
    return broken_why(a, ci, &on_p);
}

int coll_algo_applies(const coll_algo *a, const call_info *ci)
{
    return broken(a, ci) == NULL;
}

static void warn_once(const coll_desc *c, const coll_algo *a, const char *msg)
{
    int ci = coll_index(c), ai = (int)(a - c->algos);
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
    int on_p;
    const char *needs = broken_why(a, ci, &on_p);
    if (!needs)
        return MPI_SUCCESS;
    char why[240];
    if (on_p)
        snprintf(why, sizeof why, "%s %s needs %s, not %d", c->name, a->name, needs, ci->p);
    else if (needs == needs_shm)
        snprintf(why, sizeof why, "%s %s needs %s (%s)", c->name, a->name, needs,
                 ci->shm_missing);
    else
        snprintf(why, sizeof why, "%s %s needs %s", c->name, a->name, needs);
    if (forced && cfg.policy == FALLBACK_ERROR) {
        snprintf(err, errlen, "%s (MPICOLL_FALLBACK=error)", why);
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    for (int hops = 0; !coll_algo_applies(a, ci); hops++) {
        const coll_algo *next = a->fallback ? coll_algo_find(c, a->fallback) : NULL;
        if (!next || hops == c->nalgos) {
            snprintf(err, errlen, "%s and no fallback applies", why);
            return MPI_ERR_UNSUPPORTED_OPERATION;
        }
        a = next;
    }
    snprintf(ch->detail, sizeof ch->detail, "%s; running %s", why, a->name);
    if (forced && cfg.policy == FALLBACK_WARN)
        ch->warn_from = ch->algo;
    ch->algo = a;
    for (int i = 0; i < PLAN_MAX_PARAMS; i++)
        ch->params[i] = i < coll_algo_nparams(a) ? a->params[i].def : 0;
    ch->reason = "fallback";
    return MPI_SUCCESS;
}

int select_needs_nodes(const coll_desc *c)
{
    pthread_once(&cfg_once, load_config);
    int i = coll_index(c);
    return i >= 0 && cfg.needs_nodes[i];
}

int select_choose(const coll_desc *c, const char *spec, int use_env, const call_info *ci,
                  choice *ch, char *err, size_t errlen)
{
    const int p = ci->p, nnodes = ci->nnodes;
    const size_t bytes = ci->bytes;
    pthread_once(&cfg_once, load_config);
    int cx = coll_index(c);
    ch->algo = NULL;
    ch->by = NULL;
    ch->line = 0;
    ch->detail[0] = '\0';
    ch->warn_from = NULL;
    if (cfg.error[0]) {
        snprintf(err, errlen, "%s", cfg.error);
        return MPI_ERR_ARG;
    }
    int forced = 1;
    if (spec && *spec && strcmp(spec, "auto") != 0) {
        if (spec_parse(c, spec, &ch->algo, ch->params, err, errlen))
            return MPI_ERR_ARG;
        ch->by = "the call";
    } else if (use_env && cfg.forced_error[cx][0]) {
        snprintf(err, errlen, "%s", cfg.forced_error[cx]);
        return MPI_ERR_ARG;
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
            for (const rule *m = sets[s] ? rules_match(sets[s], c, p, nnodes, bytes) : NULL; m;
                 m = rules_match_after(sets[s], m, c, p, nnodes, bytes)) {
                if (!r || !unavailable(m->algo, ci)) {
                    r = m;
                    from = sets[s];
                }
                if (!unavailable(m->algo, ci))
                    break;
            }
        }
        if (!r) {
            snprintf(err, errlen, "no %s rule matches np=%d bytes=%zu (%s)", c->name, p, bytes,
                     cfg.have_file ? "rules file and built-in rules" : "built-in rules");
            return MPI_ERR_INTERN;
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

void select_log(const coll_desc *c, const choice *ch, const call_info *ci, int rank)
{
    /* the common case, on every call: nothing to print (no lock taken) */
    if (rank != 0
        || (!cfg.verbose && !ch->warn_from && !__atomic_load_n(&cfg_warnings[0], __ATOMIC_RELAXED)))
        return;
    int world_rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
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
