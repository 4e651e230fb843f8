/*
 * The diagrams of `mpicoll show`: diagram.h.
 */
#include "diagram.h"

#include "rules.h"
#include "symbolic.h"

#include <stdlib.h>
#include <string.h>

typedef struct show_ctx {
    FILE *out;
    size_t block;
    size_t send_len;    /* a label divided by this is the sending rank */
    int reduction;
    int compact;
    int nsteps;
    char *grid;         /* compact: [step][block row][rank] */
    int p;
} show_ctx;

static int64_t label_at(unsigned char *const *recv, int r, size_t i, size_t cell)
{
    int64_t l;
    memcpy(&l, recv[r] + i * cell, sizeof l);
    return l;
}

static void draw(void *ctx, int step, int p, unsigned char *const *recv,
                 const size_t *recv_len, size_t cell)
{
    show_ctx *s = ctx;
    size_t len = 0;
    for (int r = 0; r < p; r++)
        len = recv_len[r] > len ? recv_len[r] : len;
    size_t nblocks = len / s->block;
    if (s->compact) {
        char *g = realloc(s->grid, (size_t)(step + 1) * nblocks * (size_t)p + 1);
        if (!g)
            return;
        s->grid = g;
        s->nsteps = step + 1;
        for (size_t b = 0; b < nblocks; b++)
            for (int r = 0; r < p; r++) {
                int64_t l = b < recv_len[r] ? label_at(recv, r, b * s->block, cell) : -1;
                /* a reduction shows how many ranks an element holds */
                int64_t k = l < 0 ? -1 : s->reduction
                    ? sym_cell_contributions(recv[r] + b * s->block * cell, cell)
                    : l / (int64_t)s->send_len;
                s->grid[((size_t)step * nblocks + b) * (size_t)p + (size_t)r] =
                    k < 0 || (s->reduction && k == 0) ? '.'
                                                      : "0123456789abcdefghijklmnopqrstuvwxyz"[k % 36];
            }
        return;
    }
    fprintf(s->out, "after round %d:\n   #", step);
    for (int r = 0; r < p; r++)
        fprintf(s->out, " %4d", r);
    fprintf(s->out, "\n");
    for (size_t b = 0; b < nblocks; b++) {
        fprintf(s->out, "    ");
        for (int r = 0; r < p; r++) {
            int64_t l = b < recv_len[r] ? label_at(recv, r, b * s->block, cell) : -1;
            if (l < 0)
                fprintf(s->out, " [  ]");
            else
                fprintf(s->out, " [%2lld]", (long long)(l / (int64_t)s->send_len));
        }
        fprintf(s->out, "\n");
    }
}

/* The compact diagram of the algorithms' header comments: rounds side by
 * side, a column per rank, a row per block of the receive buffer. */
static void print_compact(const show_ctx *s, size_t nblocks)
{
    FILE *out = s->out;
    int w = s->p > 6 ? s->p : 6;
    fprintf(out, "round");
    for (int k = 0; k < s->nsteps; k++)
        fprintf(out, "  %-*d", w, k);
    fprintf(out, "\nrank ");
    for (int k = 0; k < s->nsteps; k++) {
        fprintf(out, "  ");
        for (int r = 0; r < w; r++)
            fputc(r < s->p ? "0123456789abcdefghijklmnopqrstuvwxyz"[r % 36] : ' ', out);
    }
    fprintf(out, "\n");
    for (size_t b = 0; b < nblocks; b++) {
        fprintf(out, "%-5zu", b);
        for (int k = 0; k < s->nsteps; k++)
            fprintf(out, "  %.*s%*s", s->p, s->grid + ((size_t)k * nblocks + b) * (size_t)s->p,
                    w - s->p, "");
        fprintf(out, "\n");
    }
}

static void print_rounds(FILE *out, const coll_algo *a, const int *params, int p,
                         const int *node_of)
{
    for (int r = 0; r < p; r++) {
        plan pl;
        plan_args args = { .p = p, .rank = r, .block = 1, .esize = 1, .node_of = node_of };
        memcpy(args.param, params, sizeof args.param);
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
                else
                    fprintf(out, " copy(%zu)", op->bytes);
            }
        }
        fprintf(out, "\n");
        plan_free(&pl);
    }
}

int diagram_print(FILE *out, const coll_desc *c, const coll_algo *a, const int *params, int p,
                  const int *node_of, int compact)
{
    const plan_args shape = { .p = p, .block = 1 };
    size_t nblocks = 0;
    for (int r = 0; r < p; r++) {
        plan_args sr = { .p = p, .rank = r, .block = 1 };
        nblocks = c->recv_bytes(&sr) > nblocks ? c->recv_bytes(&sr) : nblocks;
    }
    show_ctx ctx = { .out = out, .block = 1, .send_len = c->send_bytes(&shape),
                     .compact = compact, .p = p, .reduction = c->reduction };
    if (c->rooted)  /* root 0: a label is a rank's block (gather), or a block of the root's
                     * data (bcast, scatter) */
        ctx.send_len = 1;
    if (c->synchronizing) {     /* the checker's view: a row per rank, [k] once k's entry
                                 * has reached the column's rank */
        nblocks = (size_t)p;
        ctx.send_len = 1;
    }
    if (!compact) {
        char spec[128];
        spec_format(a, params, spec, sizeof spec);
        if (c->synchronizing)
            fprintf(out, "%s %s on %d ranks: column = rank, row k = rank k, [k] = rank k's "
                    "entry has\nreached the column's rank. Operations per rank and round "
                    "(bytes):\n", c->name, spec, p);
        else
            fprintf(out, "%s %s on %d ranks: column = rank, row = block of the receive buffer,\n"
                    "[k] = rank k's block is there. Operations per rank and round (bytes in "
                    "blocks):\n", c->name, spec, p);
        print_rounds(out, a, params, p, node_of);
    }
    sym_result r;
    int rc = 0;
    sym_opts o = { .call = { .p = p, .block = 1, .esize = 1, .commutative = 1,
                             .node_of = node_of },
                   .snap = draw, .ctx = &ctx };
    memcpy(o.call.param, params, sizeof o.call.param);
    if (sym_run(c, a, &o, &r) || !r.ok) {
        fprintf(out, "FAILED: %s\n", r.why);
        rc = 1;
    } else if (compact) {
        print_compact(&ctx, nblocks);
    }
    free(ctx.grid);
    return rc;
}
