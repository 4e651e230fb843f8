/*
 * The diagrams of `mpicoll show`: diagram.h.
 */
#include "diagram.h"

#include "rules.h"
#include "symbolic.h"

#include <stdlib.h>
#include <string.h>

static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

/* The snapshots, kept to be printed once the run is over (a reduction's
 * cells are as wide as the longest set of any round). */
typedef struct show_ctx {
    const coll_desc *c;
    int p, root;
    size_t stride;      /* the checker's: byte i of rank r's send data is r * stride + i */
    int from_root;      /* the data are the root's (bcast, scatter): show its block */
    int nsteps;
    size_t nrows, words;
    int64_t *shown;     /* not a reduction: [step][row][rank], -1: nothing there */
    uint64_t *held;     /* a reduction: [step][row][rank][word], sym_snapshot.held */
    int oom;
} show_ctx;

static int64_t label_at(unsigned char *const *recv, int r, size_t i, size_t cell)
{
    int64_t l;
    memcpy(&l, recv[r] + i * cell, sizeof l);
    return l;
}

/* What a cell of a collective that moves data shows: the rank whose block
 * it is, or the block of the root's data. */
static int64_t shown_of(const show_ctx *s, int64_t l)
{
    if (l < 0)
        return -1;
    if (s->c->synchronizing)
        return l;
    return s->from_root ? l - (int64_t)s->root * (int64_t)s->stride : l / (int64_t)s->stride;
}

static void keep(void *ctx, const sym_snapshot *v)
{
    show_ctx *s = ctx;
    const size_t p = (size_t)v->p, k = (size_t)v->step;
    if (s->oom)
        return;
    if (v->held) {
        s->nrows = v->vec;
        s->words = v->words;
        const size_t per = v->vec * p * v->words;
        uint64_t *h = realloc(s->held, (k + 1) * (per ? per : 1) * sizeof *h);
        if (!h) {
            s->oom = 1;
            return;
        }
        s->held = h;
        /* held is rank-major, the table row-major */
        for (size_t i = 0; i < v->vec; i++)
            for (size_t r = 0; r < p; r++)
                memcpy(h + k * per + (i * p + r) * v->words,
                       v->held + (r * v->vec + i) * v->words, v->words * sizeof *h);
    } else {
        size_t len = 0;
        for (size_t r = 0; r < p; r++)
            len = v->recv_len[r] > len ? v->recv_len[r] : len;
        s->nrows = len;
        int64_t *g = realloc(s->shown, (k + 1) * (len ? len : 1) * p * sizeof *g);
        if (!g) {
            s->oom = 1;
            return;
        }
        s->shown = g;
        for (size_t i = 0; i < len; i++)
            for (size_t r = 0; r < p; r++)
                g[(k * len + i) * p + r] =
                    i < v->recv_len[r] ? shown_of(s, label_at(v->recv, (int)r, i, v->cell)) : -1;
    }
    s->nsteps = v->step + 1;
}

static const uint64_t *held_at(const show_ctx *s, int step, size_t row, int r)
{
    return s->held + (((size_t)step * s->nrows + row) * (size_t)s->p + (size_t)r) * s->words;
}

static int64_t shown_at(const show_ctx *s, int step, size_t row, int r)
{
    return s->shown[((size_t)step * s->nrows + row) * (size_t)s->p + (size_t)r];
}

static int set_count(const show_ctx *s, const uint64_t *set)
{
    int n = 0;
    for (size_t w = 0; w < s->words; w++)
        n += __builtin_popcountll(set[w]);
    return n;
}

static int set_has(const uint64_t *set, int q)
{
    return (int)(set[q / 64] >> (q % 64) & 1);
}

/* A set of ranks as runs: "0-2,4", "*" for all p, "" for none. */
static void set_text(const show_ctx *s, const uint64_t *set, char *buf, size_t len)
{
    buf[0] = '\0';
    if (s->p > 1 && set_count(s, set) == s->p) {
        snprintf(buf, len, "*");
        return;
    }
    size_t n = 0;
    for (int q = 0; q < s->p && n < len; q++) {
        if (!set_has(set, q))
            continue;
        int e = q;
        while (e + 1 < s->p && set_has(set, e + 1))
            e++;
        int w = e > q ? snprintf(buf + n, len - n, "%s%d-%d", n ? "," : "", q, e)
                      : snprintf(buf + n, len - n, "%s%d", n ? "," : "", q);
        n += w > 0 ? (size_t)w : 0;
        q = e;
    }
}

/* The compact diagram of the algorithms' header comments: rounds side by
 * side, a column per rank, a row per block of the receive buffer (a
 * reduction: per element of the vector, the number of ranks whose
 * contributions it holds). */
static void print_compact(FILE *out, const show_ctx *s)
{
    int w = s->p > 6 ? s->p : 6;
    fprintf(out, "round");
    for (int k = 0; k < s->nsteps; k++)
        fprintf(out, "  %-*d", w, k);
    fprintf(out, "\nrank ");
    for (int k = 0; k < s->nsteps; k++) {
        fprintf(out, "  ");
        for (int r = 0; r < w; r++)
            fputc(r < s->p ? digits[r % 36] : ' ', out);
    }
    fprintf(out, "\n");
    for (size_t b = 0; b < s->nrows; b++) {
        fprintf(out, "%-5zu", b);
        for (int k = 0; k < s->nsteps; k++) {
            fprintf(out, "  ");
            for (int r = 0; r < s->p; r++) {
                int64_t v = s->held ? set_count(s, held_at(s, k, b, r)) : shown_at(s, k, b, r);
                fputc(v < 0 || (s->held && v == 0) ? '.' : digits[v % 36], out);
            }
            fprintf(out, "%*s", w - s->p, "");
        }
        fprintf(out, "\n");
    }
}

/* The table of the data after each round: [k] = rank k's block (or block
 * k of the root's data), or for a reduction the set of ranks whose
 * contributions the element holds, each row headed by its element. */
static void print_tables(FILE *out, const show_ctx *s)
{
    char text[4 * DIAGRAM_MAX_P];
    int w = 2;
    for (int k = 0; s->held && k < s->nsteps; k++)
        for (size_t b = 0; b < s->nrows; b++)
            for (int r = 0; r < s->p; r++) {
                set_text(s, held_at(s, k, b, r), text, sizeof text);
                w = (int)strlen(text) > w ? (int)strlen(text) : w;
            }
    for (int k = 0; k < s->nsteps; k++) {
        fprintf(out, "after round %d:\n   #", k);
        for (int r = 0; r < s->p; r++)
            fprintf(out, " %*d", w + 2, r);
        fprintf(out, "\n");
        for (size_t b = 0; b < s->nrows; b++) {
            if (s->held)
                fprintf(out, "%4zu", b);
            else
                fprintf(out, "    ");
            for (int r = 0; r < s->p; r++) {
                if (s->held) {
                    set_text(s, held_at(s, k, b, r), text, sizeof text);
                    fprintf(out, " [%-*s]", w, text);
                    continue;
                }
                int64_t v = shown_at(s, k, b, r);
                if (v < 0)
                    fprintf(out, " [  ]");
                else
                    fprintf(out, " [%2lld]", (long long)v);
            }
            fprintf(out, "\n");
        }
    }
}

static void print_rounds(FILE *out, const coll_algo *a, const plan_args *call)
{
    for (int r = 0; r < call->p; r++) {
        plan pl;
        plan_args args = *call;
        args.rank = r;
        if (plan_build(&pl, a->build, &args))
            return;
        fprintf(out, "rank %d:", r);
        for (size_t k = 0; k < pl.nrounds; k++) {
            fprintf(out, pl.rounds[k].sync ? " | barrier" : " |");
            for (size_t i = 0; i < pl.rounds[k].nops; i++) {
                const plan_op *op = &pl.ops[pl.rounds[k].first + i];
                if (op->kind == OP_SEND)
                    fprintf(out, " ->%d(%zu)", op->peer, op->bytes);
                else if (op->kind == OP_RECV)
                    fprintf(out, " <-%d(%zu)", op->peer, op->bytes);
                else if (op->kind == OP_PUBLISH)
                    fprintf(out, " publish");
                else if (op->kind == OP_PULL)
                    fprintf(out, " pull<-%d(%zu)", op->peer, op->bytes);
                else if (op->kind == OP_REDUCE)
                    fprintf(out, " reduce(%zu)", op->bytes);
                else
                    fprintf(out, " copy(%zu)", op->bytes);
            }
        }
        fprintf(out, "\n");
        plan_free(&pl);
    }
}

int diagram_call(const coll_desc *c, const diagram_opts *o, plan_args *call, size_t *counts)
{
    const int p = o->p;
    const size_t n = c->reduction ? (o->blocks ? o->blocks : (size_t)p) : 1;
    *call = (plan_args){ .p = p, .block = 1, .esize = 1, .root = o->root, .commutative = 1,
                         .node_of = o->node_of };
    memcpy(call->param, o->params, sizeof call->param);
    if (!c->reduction)
        return 0;
    if (c->counts) {    /* p counts in rank order, the first n mod p one longer */
        size_t off = 0;
        for (int r = 0; r < p; r++) {
            counts[r] = n / (size_t)p + ((size_t)r < n % (size_t)p);
            counts[p + r] = off;
            off += counts[r];
        }
        call->count = counts;
        call->displ = counts + p;
    } else if (c->send_bytes(call) != 1) {      /* p blocks (reduce_scatter_block) */
        call->block = n / (size_t)p;
    } else {
        call->block = n;
    }
    return c->send_bytes(call) == n ? 0 : -1;
}

int diagram_print(FILE *out, const coll_desc *c, const diagram_opts *o)
{
    const int p = o->p;
    size_t counts[2 * DIAGRAM_MAX_P];
    sym_opts so = { .snap = keep };
    if (p < 1 || p > DIAGRAM_MAX_P || diagram_call(c, o, &so.call, counts))
        return -1;
    show_ctx ctx = { .c = c, .p = p, .root = o->root };
    for (int r = 0; r < p; r++) {
        plan_args a = so.call;
        a.rank = r;
        ctx.stride = c->send_bytes(&a) > ctx.stride ? c->send_bytes(&a) : ctx.stride;
        /* only the root sends: the data are its own */
        ctx.from_root = c->rooted && r != o->root && c->send_bytes(&a) == 0 ? 1 : ctx.from_root;
    }
    ctx.stride = ctx.stride ? ctx.stride : 1;
    so.ctx = &ctx;
    if (!o->compact) {
        char spec[128], root[32] = "";
        spec_format(o->a, o->params, spec, sizeof spec);
        if (c->rooted)
            snprintf(root, sizeof root, ", root %d", o->root);
        if (c->synchronizing)
            fprintf(out, "%s %s on %d ranks: column = rank, row k = rank k, [k] = rank k's "
                    "entry has\nreached the column's rank. Operations per rank and round "
                    "(bytes):\n", c->name, spec, p);
        else if (c->reduction)
            fprintf(out, "%s %s on %d ranks%s, a vector of %zu elements: column = rank, row =\n"
                    "element, [0-2,4] = the ranks whose contributions the rank holds in it "
                    "(* = all)\n(in its receive buffer, else its fullest copy in scratch or "
                    "send buffer).\nOperations per rank and round (bytes = elements):\n",
                    c->name, spec, p, root, c->send_bytes(&so.call));
        else
            fprintf(out, "%s %s on %d ranks%s: column = rank, row = block of the receive "
                    "buffer,\n[k] = %s is there. Operations per rank and round (bytes in "
                    "blocks):\n", c->name, spec, p, root,
                    ctx.from_root ? "block k of the root's data" : "rank k's block");
        print_rounds(out, o->a, &so.call);
    }
    sym_result r;
    int rc = 0;
    if (sym_run(c, o->a, &so, &r) || ctx.oom) {
        fprintf(out, "FAILED: out of memory\n");
        rc = 1;
    } else {
        if (o->compact && r.ok)
            print_compact(out, &ctx);
        else if (!o->compact)
            print_tables(out, &ctx);
        if (!r.ok) {
            fprintf(out, "FAILED: %s\n", r.why);
            rc = 1;
        }
    }
    free(ctx.shown);
    free(ctx.held);
    return rc;
}
