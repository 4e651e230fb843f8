/*
 * The variants a sweep runs: every algorithm of the collective by the name
 * mpicoll_algorithm_name gives, "auto", the shared-memory algorithms again
 * with a 64 KiB segment (messages in chunks) and, those with the single
 * copy (pat_segment_cma_params), with it at every size (cma=1,cma_min=0),
 * and each algorithm once by
 * its Open MPI id. What the API does not say (restrictions, ids) comes
 * from the collective's .def, the table the library is built from: only
 * its first two columns (name, id) are read by position, the rest as text.
 */
#include "sweep.h"

#include <mpicoll.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

struct def_entry {
    const char *name;
    int id;
    const char *rest;   /* the other columns, as written */
};

/* d_<coll> of every collective, and defs[], the table of them */
#define MPICOLL_ALGO(name, id, ...) { #name, id, #__VA_ARGS__ },
#include "sweep_defs.h"
#undef MPICOLL_ALGO

static const struct def_entry *def_of(const char *coll)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (strcmp(coll, defs[i].coll) == 0)
            return defs[i].d;
    return NULL;
}

static const struct def_entry *def_find(const struct def_entry *d, const char *name)
{
    for (; d && d->name; d++)
        if (strcmp(d->name, name) == 0)
            return d;
    return NULL;
}

/* `flag` (R_SHM, ...) among the entry's restrictions, as a whole word. */
static int has_flag(const struct def_entry *e, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *s = strstr(e->rest, flag); s; s = strstr(s + 1, flag)) {
        if ((s == e->rest || !(isalnum((unsigned char)s[-1]) || s[-1] == '_'))
            && !(isalnum((unsigned char)s[n]) || s[n] == '_'))
            return 1;
    }
    return 0;
}

/* Keeps name when `only` (a comma-separated list, or NULL) has it. */
static int wanted(const char *only, const char *name)
{
    size_t n = strlen(name);
    if (!only)
        return 1;
    for (const char *s = only; *s; s += strcspn(s, ",") + (s[strcspn(s, ",")] == ',')) {
        if (strcspn(s, ",") == n && strncmp(s, name, n) == 0)
            return 1;
    }
    return 0;
}

static struct variant *add(struct variant *out, int *n, int max)
{
    if (*n >= max)
        return NULL;
    memset(&out[*n], 0, sizeof out[*n]);
    return &out[(*n)++];
}

int sweep_variants(const char *coll, int rpn, int quick, const char *only,
                   struct variant *out, int max)
{
    const struct def_entry *d = def_of(coll);
    int count = mpicoll_algorithm_count(coll), n = 0;
    struct variant *v;

    if (!d || count < 1) {
        fprintf(stderr, "sweep: unknown collective '%s'\n", coll);
        return -1;
    }
    if (rpn == 0 && wanted(only, "auto")) {
        if (!(v = add(out, &n, max)))
            goto full;
        snprintf(v->label, sizeof v->label, "auto");
    }
    for (int i = 0; i < count; i++) {
        const char *name = mpicoll_algorithm_name(coll, i);
        const struct def_entry *e = name ? def_find(d, name) : NULL;
        if (!e) {
            fprintf(stderr, "sweep: %s algorithm %d (%s) is not in %s.def\n", coll, i,
                    name ? name : "NULL", coll);
            return -1;
        }
        if (!wanted(only, name) || (rpn > 0 && !has_flag(e, "R_NODES")))
            continue;
        /* shared memory: also with a small segment, and those that may copy
         * once from the peers' buffers with it at every size (the sweep's
         * counts are all below cma_min's default) */
        static const char *const shm_specs[] = { "", ":segment=65536", ":cma=1,cma_min=0" };
        int nspecs = !has_flag(e, "R_SHM") || quick ? 1
                     : has_flag(e, "pat_segment_cma_params") ? 3 : 2;
        for (int seg = 0; seg < nspecs; seg++) {
            if (!(v = add(out, &n, max)))
                goto full;
            snprintf(v->name, sizeof v->name, "%s", name);
            snprintf(v->spec, sizeof v->spec, "%s%s", name, shm_specs[seg]);
            snprintf(v->label, sizeof v->label, "%s", v->spec);
            v->commutative = has_flag(e, "R_COMMUTATIVE");
            v->one_node = has_flag(e, "R_ONE_NODE");
        }
        /* forcing by Open MPI's numeric id, as coll_tuned_*_algorithm users do */
        if (e->id > 0 && rpn == 0) {
            if (!(v = add(out, &n, max)))
                goto full;
            snprintf(v->name, sizeof v->name, "%s", name);
            snprintf(v->spec, sizeof v->spec, "%d", e->id);
            snprintf(v->label, sizeof v->label, "%d(=%s)", e->id, name);
            v->commutative = has_flag(e, "R_COMMUTATIVE");
            v->one_node = has_flag(e, "R_ONE_NODE");
            v->quick_only = 1;
        }
    }
    return n;
full:
    fprintf(stderr, "sweep: more than %d variants of %s\n", max, coll);
    return -1;
}
