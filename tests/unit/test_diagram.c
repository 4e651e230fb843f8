/*
 * The reductions' diagrams (`mpicoll show`, src/model/diagram.c) end with
 * the contributions the collective defines: for every algorithm of every
 * reduction at p = 5 (every root of the rooted ones; the algorithms that
 * read the node layout also on nodes of 2 ranks), the last table of
 * the printed diagram is read back, and each element of each rank's result
 * must show the ranks the checker expects there (coll_desc expect_label
 * and expect_ranks: all p, "*", or scan's and exscan's prefixes). And
 * allreduce rabenseifner at p = 4 shows its reduce-scatter: after the
 * halving rounds each rank holds one fully reduced quarter, a different
 * one on each rank.
 */
#include "model/diagram.h"
#include "model/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P = 5, MAXROWS = 64 };

/* The cells of table `which` (the last: -1) of a printed diagram:
 * cell[row][rank], trimmed. Returns its rows, or -1. */
static int read_table(const char *text, int which, int p, char cell[][DIAGRAM_MAX_P][32])
{
    const char *t = NULL;
    int k = 0;
    for (const char *s = strstr(text, "after round "); s; s = strstr(s + 1, "after round "))
        if (which < 0 || k++ == which)
            t = s;
    if (!t || !(t = strchr(t, '\n')) || !(t = strchr(t + 1, '\n')))   /* the "#" line */
        return -1;
    int rows = 0;
    for (t++; *t == ' ' && rows < MAXROWS; rows++) {
        for (int r = 0; r < p; r++) {
            const char *a = strchr(t, '['), *b = a ? strchr(a, ']') : NULL;
            if (!b)
                return -1;
            size_t n = 0;
            for (a++; a < b && n < 31; a++)
                if (*a != ' ')
                    cell[rows][r][n++] = *a;
            cell[rows][r][n] = '\0';
            t = b + 1;
        }
        if (!(t = strchr(t, '\n')))
            break;
        t++;
    }
    return rows;
}

static char *render(const coll_desc *c, const diagram_opts *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    int rc = diagram_print(f, c, o);
    fclose(f);
    if (rc != 0) {
        printf("FAIL %s %s root %d: the diagram fails:\n%s", c->name, o->a->name, o->root,
               text);
        free(text);
        return NULL;
    }
    return text;
}

/* Algorithm a of c at p = P with root `root`, on nodes of rpn ranks (0:
 * one node): 0 when its last table shows every rank's result as the
 * checker defines it. */
static int final_sets(const coll_desc *c, const coll_algo *a, const int *params, int root,
                      int rpn)
{
    static char cell[MAXROWS][DIAGRAM_MAX_P][32];
    int node_of[P];
    for (int r = 0; r < P; r++)
        node_of[r] = rpn ? r / rpn : 0;
    const diagram_opts o = { .a = a, .params = params, .p = P, .root = root,
                             .node_of = node_of };
    plan_args call;
    size_t counts[2 * DIAGRAM_MAX_P];
    char *text = render(c, &o);
    if (!text || diagram_call(c, &o, &call, counts)) {
        free(text);
        return 1;
    }
    const int rows = read_table(text, -1, P, cell);
    int fails = 0;
    expect_args e = { .call = call };
    for (int r = 0; r < P; r++) {
        e.call.rank = r;
        e.stride = c->send_bytes(&e.call) > e.stride ? c->send_bytes(&e.call) : e.stride;
    }
    for (int r = 0; r < P && rows > 0; r++) {
        e.call.rank = r;
        int lo = 0, hi = P - 1;
        if (c->expect_ranks)
            c->expect_ranks(&e.call, &lo, &hi);
        char want[32];
        if (lo == 0 && hi == P - 1)
            snprintf(want, sizeof want, "*");
        else if (lo == hi)
            snprintf(want, sizeof want, "%d", lo);
        else
            snprintf(want, sizeof want, "%d-%d", lo, hi);
        for (size_t i = 0; i < c->recv_bytes(&e.call); i++) {
            const int64_t l = c->expect_label(&e, i);
            if (l == EXPECT_ANY)
                continue;
            if (l < 0 || l >= rows || strcmp(cell[l][r], want) != 0) {
                printf("FAIL %s %s root %d, nodes of %d: rank %d's element %lld shows [%s], "
                       "expected [%s]\n", c->name, a->name, root, rpn, r, (long long)l,
                       l >= 0 && l < rows ? cell[l][r] : "no such row", want);
                fails++;
            }
        }
    }
    if (rows <= 0) {
        printf("FAIL %s %s root %d: no table in:\n%s", c->name, a->name, root, text);
        fails++;
    }
    free(text);
    return fails;
}

/* Rabenseifner's reduce-scatter at p = 4 (round 0 copies the vector,
 * rounds 1 and 2 halve, 3 and 4 double): after round 2 each rank holds
 * one element reduced over all ranks, each a different one. */
static int rabenseifner_quarters(void)
{
    static char cell[MAXROWS][DIAGRAM_MAX_P][32];
    const coll_algo *a;
    int params[PLAN_MAX_PARAMS];
    char err[256];
    if (spec_parse(&allreduce_desc, "rabenseifner", &a, params, err, sizeof err)) {
        printf("FAIL rabenseifner: %s\n", err);
        return 1;
    }
    const diagram_opts o = { .a = a, .params = params, .p = 4 };
    char *text = render(&allreduce_desc, &o);
    if (!text)
        return 1;
    int rows = read_table(text, 2, 4, cell), fails = rows != 4, owner[4] = { -1, -1, -1, -1 };
    for (int b = 0; b < rows; b++)
        for (int r = 0; r < 4; r++)
            if (strcmp(cell[b][r], "*") == 0) {
                fails += owner[b] >= 0;
                owner[b] = r;
            }
    for (int b = 0; b < 4; b++)
        fails += owner[b] < 0;
    if (fails)
        printf("FAIL allreduce rabenseifner p=4: after round 2 each rank must hold one "
               "quarter of the vector fully reduced:\n%s", text);
    free(text);
    return fails != 0;
}

int main(void)
{
    int fails = 0, cases = 0;
    for (int k = 0; k < NCOLLS; k++) {
        const coll_desc *c = mpicoll_colls[k];
        if (!c->reduction)
            continue;
        for (int j = 0; j < c->nalgos; j++) {
            const coll_algo *a = &c->algos[j];
            const call_info ci = { .p = P, .nnodes = 1, .commutative = 1 };
            if (coll_algo_native(a))
                continue;
            int params[PLAN_MAX_PARAMS];
            char err[256];
            if (!coll_algo_applies(a, &ci) || spec_parse(c, a->name, &a, params, err,
                                                         sizeof err)) {
                printf("FAIL %s %s: not drawn at p = %d\n", c->name, a->name, P);
                fails++;
                continue;
            }
            /* the algorithms that read the node layout also on nodes of 2 ranks */
            for (int rpn = 0; rpn <= (a->restrictions & R_NODES ? 2 : 0); rpn += 2)
                for (int root = 0; root < (c->rooted ? P : 1); root++, cases++)
                    fails += final_sets(c, a, params, root, rpn) != 0;
        }
    }
    fails += rabenseifner_quarters();
    printf("%d diagrams, %d failed\n", cases + 1, fails);
    return fails != 0;
}
