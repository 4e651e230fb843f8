/* Rules and algorithm specs (see rules.h). No MPI here. */
#include "rules.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_num(const char *s, const char **end, unsigned long long *v)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *e;
    unsigned long long x = strtoull(s, &e, 10);
    if (errno)
        return -1;
    unsigned shift = *e == 'K' || *e == 'k' ? 10 : *e == 'M' || *e == 'm' ? 20
                   : *e == 'G' || *e == 'g' ? 30 : 0;
    if (shift) {
        if (x > (~0ULL >> shift))
            return -1;
        x <<= shift;
        e++;
    }
    *v = x;
    *end = e;
    return 0;
}

/* "*", "N", "N-M", "N-" */
static int parse_range(const char *s, unsigned long long *lo, unsigned long long *hi)
{
    const char *e;
    if (strcmp(s, "*") == 0) {
        *lo = 0;
        *hi = ~0ULL;
        return 0;
    }
    if (parse_num(s, &e, lo))
        return -1;
    if (*e == '\0') {
        *hi = *lo;
        return 0;
    }
    if (*e != '-')
        return -1;
    if (e[1] == '\0') {
        *hi = ~0ULL;
        return 0;
    }
    if (parse_num(e + 1, &e, hi) || *e != '\0' || *hi < *lo)
        return -1;
    return 0;
}

int coll_algo_has_alias(const coll_algo *a, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = a->aliases; p && *p; p += strspn(p, " ")) {
        size_t n = strcspn(p, " ");
        if (n == len && strncmp(p, name, len) == 0)
            return 1;
        p += n;
    }
    return 0;
}

const coll_algo *coll_algo_find(const coll_desc *c, const char *s)
{
    char *e;
    long id = strtol(s, &e, 10);
    int numeric = *s && *e == '\0';
    for (int i = 0; i < c->nalgos; i++) {
        const coll_algo *a = &c->algos[i];
        if (numeric ? (a->ompi_id != 0 && a->ompi_id == id)
                    : strcmp(a->name, s) == 0 || coll_algo_has_alias(a, s))
            return a;
    }
    return NULL;
}

int coll_algo_native(const coll_algo *a)
{
    return (a->restrictions & R_NATIVE) != 0;
}

int coll_algo_nparams(const coll_algo *a)
{
    int n = 0;
    while (a->params && a->params[n].name)
        n++;
    return n;
}

int spec_parse(const coll_desc *c, const char *spec, const coll_algo **algo, int *params,
               char *err, size_t errlen)
{
    char buf[256];
    if (strlen(spec) >= sizeof buf) {
        snprintf(err, errlen, "algorithm spec too long");
        return -1;
    }
    strcpy(buf, spec);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = '\0';
    const coll_algo *a = coll_algo_find(c, buf);
    if (!a) {
        /* a number: say which numbers are ids; a name: which names are known */
        int numeric = buf[0] && buf[strspn(buf, "0123456789")] == '\0';
        int n = snprintf(err, errlen, "unknown %s algorithm '%s' (%s:", c->name, buf,
                         numeric ? "Open MPI 4.1's ids" : "known");
        for (int i = 0; !numeric && i < c->nalgos && n > 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, " %s", c->algos[i].name);
        for (int id = 1; numeric && id < 100 && n > 0 && (size_t)n < errlen; id++) {
            int i = 0;
            while (i < c->nalgos && c->algos[i].ompi_id != id)
                i++;
            if (i < c->nalgos)
                n += snprintf(err + n, errlen - (size_t)n, " %d", id);
        }
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, ")");
        return -1;
    }
    int np = coll_algo_nparams(a);
    unsigned given = 0;         /* the parameters named so far */
    for (int i = 0; i < PLAN_MAX_PARAMS; i++)
        params[i] = i < np ? a->params[i].def : 0;
    if (colon && colon[1] == '\0') {
        if (np)
            snprintf(err, errlen, "%s: nothing after ':' (expected %s:param=value[,...])",
                     a->name, a->name);
        else
            snprintf(err, errlen, "%s: nothing after ':' (it takes no parameter)", a->name);
        return -1;
    }
    for (char *tok = colon ? colon + 1 : NULL, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        if (*tok == '\0') {
            snprintf(err, errlen, "%s: an empty parameter in '%s' (expected param=value, "
                     "comma-separated)", a->name, spec);
            return -1;
        }
        char *eq = strchr(tok, '=');
        int i = 0;
        if (eq)
            *eq = '\0';
        while (i < np && strcmp(a->params[i].name, tok) != 0)
            i++;
        if (!eq && i < np) {
            snprintf(err, errlen, "%s: parameter %s has no value (expected %s=value)",
                     a->name, tok, tok);
            return -1;
        }
        if (!eq || i == np) {
            snprintf(err, errlen, "%s: unknown parameter '%s'%s", a->name, tok,
                     np ? "" : " (it takes none)");
            return -1;
        }
        if (given & 1u << i) {
            snprintf(err, errlen, "%s: parameter %s given twice in '%s'", a->name, tok, spec);
            return -1;
        }
        given |= 1u << i;
        char *e;
        errno = 0;
        long v = strtol(eq + 1, &e, 10);
        const algo_param *d = &a->params[i];
        if (errno || e == eq + 1 || *e != '\0' || v < d->min || v > d->max) {
            snprintf(err, errlen, "%s: parameter %s=%s must be an integer in [%d, %d]%s",
                     a->name, d->name, eq + 1, d->min, d->max,
                     strpbrk(eq + 1, ":=") ? " (parameters go after one colon, separated by"
                                             " commas: name:a=1,b=2)" : "");
            return -1;
        }
        params[i] = (int)v;
    }
    *algo = a;
    return 0;
}

void spec_format(const coll_algo *a, const int *params, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s", a->name);
    for (int i = 0; i < coll_algo_nparams(a) && n > 0 && (size_t)n < len; i++)
        n += snprintf(buf + n, len - (size_t)n, "%c%s=%d", i ? ',' : ':', a->params[i].name,
                      params[i]);
}

static int add_rule(ruleset *rs, const rule *r)
{
    rule *n = realloc(rs->rules, (rs->n + 1) * sizeof *n);
    if (!n)
        return -1;
    rs->rules = n;
    rs->rules[rs->n++] = *r;
    return 0;
}

#define RULE_FORM "<collective> np=<range> [nodes=<range>] [rpn=<range>] " \
                  "[form=blocking|request] bytes=<range>|total=<range> " \
                  "<algorithm>[:param=value,...]"

static long long clamp_ll(unsigned long long v)
{
    return v > (unsigned long long)1 << 62 ? 1LL << 62 : (long long)v;
}

/* One non-empty line, comments stripped. 0 ok, 1 skipped, -1 error. */
static int parse_line(char *line, int lineno, const char *source, rule *r, char *err,
                      size_t errlen, void (*warn)(const char *))
{
    char *f[7];
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
        if (n == 7) {
            snprintf(err, errlen, "%s:%d: too many fields (expected: " RULE_FORM ")", source,
                     lineno);
            return -1;
        }
        f[n++] = t;
    }
    /* the optional nodes=, rpn= and form= fields, after np=: moved out,
     * so f[] is the fixed form */
    char *nodes = NULL, *rpn = NULL, *form = NULL;
    while (n > 4 && (strncmp(f[2], "nodes=", 6) == 0 || strncmp(f[2], "rpn=", 4) == 0 ||
                     strncmp(f[2], "form=", 5) == 0)) {
        char **slot = f[2][0] == 'n' ? &nodes : f[2][0] == 'r' ? &rpn : &form;
        if (*slot)
            break;      /* the same field twice: the form's error below */
        *slot = f[2];
        for (int k = 2; k + 1 < n; k++)
            f[k] = f[k + 1];
        n--;
    }
    if (n != 4 || strncmp(f[1], "np=", 3) != 0 ||
        (strncmp(f[2], "bytes=", 6) != 0 && strncmp(f[2], "total=", 6) != 0)) {
        snprintf(err, errlen, "%s:%d: expected " RULE_FORM, source, lineno);
        return -1;
    }
    r->form = RULE_FORM_ANY;
    if (form) {
        if (strcmp(form + 5, "blocking") == 0) {
            r->form = RULE_FORM_BLOCKING;
        } else if (strcmp(form + 5, "request") == 0) {
            r->form = RULE_FORM_REQUEST;
        } else {
            snprintf(err, errlen, "%s:%d: bad '%s' (expected form=blocking or form=request)",
                     source, lineno, form);
            return -1;
        }
    }
    unsigned long long nlo, nhi, dlo = 1, dhi = ~0ULL, rlo = 1, rhi = ~0ULL;
    if (parse_range(f[1] + 3, &nlo, &nhi) || parse_range(f[2] + 6, &r->lo, &r->hi) ||
        (nodes && parse_range(nodes + 6, &dlo, &dhi)) ||
        (rpn && parse_range(rpn + 4, &rlo, &rhi))) {
        snprintf(err, errlen, "%s:%d: bad range in '%s%s%s%s%s %s' (expected *, N, N-M or N-)",
                 source, lineno, f[1], nodes ? " " : "", nodes ? nodes : "", rpn ? " " : "",
                 rpn ? rpn : "", f[2]);
        return -1;
    }
    r->np_lo = clamp_ll(nlo);
    r->np_hi = clamp_ll(nhi);
    r->nodes_lo = clamp_ll(dlo);
    r->nodes_hi = clamp_ll(dhi);
    r->rpn_lo = clamp_ll(rlo);
    r->rpn_hi = clamp_ll(rhi);
    r->metric = f[2][0] == 't' ? METRIC_TOTAL : METRIC_BYTES;
    r->line = lineno;
    char msg[512];
    r->coll = coll_find(f[0]);
    if (!r->coll) {
        snprintf(msg, sizeof msg, "%s:%d: unknown collective '%s'; rule skipped", source, lineno,
                 f[0]);
        if (warn)
            warn(msg);
        return 1;
    }
    char why[256];
    if (spec_parse(r->coll, f[3], &r->algo, r->params, why, sizeof why)) {
        snprintf(msg, sizeof msg, "%s:%d: %s; rule skipped", source, lineno, why);
        if (warn)
            warn(msg);
        return 1;
    }
    snprintf(r->text, sizeof r->text, "%s %s%s%s%s%s%s%s %s %s", f[0], f[1], nodes ? " " : "",
             nodes ? nodes : "", rpn ? " " : "", rpn ? rpn : "", form ? " " : "",
             form ? form : "", f[2], f[3]);
    return 0;
}

int rules_parse(const char *text, const char *source, ruleset *rs, char *err, size_t errlen,
                void (*warn)(const char *msg))
{
    memset(rs, 0, sizeof *rs);
    snprintf(rs->source, sizeof rs->source, "%s", source);
    int lineno = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        lineno++;
        if (len >= sizeof line) {
            snprintf(err, errlen, "%s:%d: line longer than %zu characters", source, lineno,
                     sizeof line - 1);
            goto fail;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        p = nl ? nl + 1 : p + len;
        if (strspn(line, " \t\r") == strlen(line))
            continue;
        rule r;
        memset(&r, 0, sizeof r);
        int rc = parse_line(line, lineno, source, &r, err, errlen, warn);
        if (rc < 0)
            goto fail;
        if (rc == 0 && add_rule(rs, &r)) {
            snprintf(err, errlen, "%s: out of memory", source);
            goto fail;
        }
    }
    return 0;
fail:
    rules_free(rs);
    return -1;
}

void rules_free(ruleset *rs)
{
    free(rs->rules);
    rs->rules = NULL;
    rs->n = 0;
}

const rule *rules_match(const ruleset *rs, const coll_desc *c, int np, int nnodes,
                        size_t bytes, int request)
{
    return rules_match_after(rs, NULL, c, np, nnodes, bytes, request);
}

const rule *rules_match_after(const ruleset *rs, const rule *prev, const coll_desc *c, int np,
                              int nnodes, size_t bytes, int request)
{
    const int form = request ? RULE_FORM_REQUEST : RULE_FORM_BLOCKING;
    const long long rpn = nnodes > 0 ? ((long long)np + nnodes - 1) / nnodes : np;
    for (size_t i = prev ? (size_t)(prev - rs->rules) + 1 : 0; i < rs->n; i++) {
        const rule *r = &rs->rules[i];
        unsigned long long m = bytes;
        if (r->metric == METRIC_TOTAL)
            m = (unsigned long long)bytes * (unsigned long long)np;
        if (r->coll == c && np >= r->np_lo && np <= r->np_hi && nnodes >= r->nodes_lo &&
            nnodes <= r->nodes_hi && rpn >= r->rpn_lo && rpn <= r->rpn_hi && m >= r->lo &&
            m <= r->hi &&
            (r->form == RULE_FORM_ANY || r->form == form))
            return r;
    }
    return NULL;
}

int rules_use_nodes(const ruleset *rs, const coll_desc *c)
{
    for (size_t i = 0; i < rs->n; i++)
        if (rs->rules[i].coll == c &&
            (rs->rules[i].nodes_lo > 1 || rs->rules[i].nodes_hi < 1LL << 62 ||
             rs->rules[i].rpn_lo > 1 || rs->rules[i].rpn_hi < 1LL << 62))
            return 1;
    return 0;
}
