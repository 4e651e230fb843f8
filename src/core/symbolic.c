/* The symbolic executor (see symbolic.h). No MPI here. */
#include "symbolic.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REG_SEND, REG_RECV, REG_TMP };
#define UNSET (-1)

typedef struct qnode {
    int rank;
    int next;
    size_t op;
} qnode;

typedef struct sim {
    const coll_desc *c;
    const coll_algo *a;
    int p;
    size_t block, send_len, recv_len;
    int inplace;
    const int *node_of;
    plan *plans;
    int64_t **send, **recv, **tmp;  /* per rank; send aliases recv in place */
    size_t *round, *pending;
    char *done;
    int *qhead, *qtail;             /* per (sender, receiver) pair */
    char *qkind;
    qnode *nodes;
    size_t nnodes;
    int *ready;                     /* FIFO of ranks whose round is complete */
    struct span *spans;             /* check_races' work area */
    int64_t *wire;                  /* a message in flight */
    size_t nwire;
    size_t nspans;
    size_t rhead, rtail;
    int *starting;                  /* ranks to start on their next round */
    size_t nstarting;
    sym_snapshot_fn snap;
    void *ctx;
    sym_result *res;
} sim;

static int fail(sim *s, const char *fmt, ...)
{
    if (!s->res->ok)
        return -1;
    s->res->ok = 0;
    int n = snprintf(s->res->why, sizeof s->res->why, "%s p=%d block=%zu%s: ", s->a->name,
                     s->p, s->block, s->inplace ? " in-place" : "");
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof s->res->why)
        vsnprintf(s->res->why + n, sizeof s->res->why - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *buf_name(int b)
{
    return b == BUF_SEND ? "SEND" : b == BUF_RECV ? "RECV" : "TMP";
}

/* Memory a (rank, buffer, offset, bytes) reference names, with its region
 * and absolute offset for overlap checks; NULL (after fail) when out of
 * bounds. */
static int64_t *resolve(sim *s, int r, int buf, size_t off, size_t bytes, int *region,
                        size_t *abs)
{
    size_t len = buf == BUF_SEND ? s->send_len
               : buf == BUF_RECV ? s->recv_len : s->plans[r].tmp_bytes;
    if (off > len || bytes > len - off) {
        fail(s, "rank %d round %zu: %s[%zu..%zu) is outside the buffer of %zu bytes", r,
             s->round[r], buf_name(buf), off, off + bytes, len);
        return NULL;
    }
    *abs = off;
    *region = buf == BUF_RECV ? REG_RECV : buf == BUF_TMP ? REG_TMP : REG_SEND;
    if (buf == BUF_SEND && s->inplace) {
        *region = REG_RECV;
        *abs += s->c->inplace_offset(s->p, r, s->block);
    }
    int64_t *base = *region == REG_RECV ? s->recv[r] : *region == REG_TMP ? s->tmp[r] : s->send[r];
    return base + *abs;
}

typedef struct span {
    int region;
    int write;
    size_t lo, hi;
} span;

static int span_cmp(const void *x, const void *y)
{
    const span *a = x, *b = y;
    if (a->region != b->region)
        return a->region - b->region;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

static int grow_spans(sim *s, size_t n)
{
    if (n < 2 * s->nspans)
        n = 2 * s->nspans;
    span *grown = realloc(s->spans, n * sizeof *grown);
    if (!grown)
        return -1;
    s->spans = grown;
    s->nspans = n;
    return 0;
}

/* A send or receive is one piece of its buffer, or its segments. */
static uint32_t pieces(const plan_op *op) { return op->nseg ? op->nseg : 1; }

static void piece(const plan *pl, const plan_op *op, uint32_t k, size_t *off, size_t *bytes)
{
    if (op->nseg) {
        *off = pl->segs[op->off + k].off;
        *bytes = pl->segs[op->off + k].bytes;
    } else {
        *off = op->off;
        *bytes = op->bytes;
    }
}

/* Within a round, a receive may not overlap any other send or receive. */
static int check_races(sim *s, int r, const plan_round *rd)
{
    const plan_op *ops = s->plans[r].ops + rd->first;
    if (rd->nops > s->nspans && grow_spans(s, rd->nops))
        return fail(s, "out of memory");
    span *sp = s->spans;
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < rd->nops; i++) {
        if (ops[i].kind == OP_COPY)
            continue;
        if (ops[i].kind == OP_RECV && ops[i].buf == BUF_SEND) {
            rc = fail(s, "rank %d round %zu receives into the send buffer", r, s->round[r]);
            goto out;
        }
        for (uint32_t k = 0; k < pieces(&ops[i]); k++) {
            size_t off, bytes, abs;
            piece(&s->plans[r], &ops[i], k, &off, &bytes);
            if (n == s->nspans && grow_spans(s, n + 1)) {
                rc = fail(s, "out of memory");
                goto out;
            }
            sp = s->spans;
            if (!resolve(s, r, ops[i].buf, off, bytes, &sp[n].region, &abs)) {
                rc = -1;
                goto out;
            }
            sp[n].lo = abs;
            sp[n].hi = abs + bytes;
            sp[n].write = ops[i].kind == OP_RECV;
            n++;
        }
    }
    if (n > 1)
        qsort(sp, n, sizeof *sp, span_cmp);
    size_t end_any = 0, end_write = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && sp[i].region != sp[i - 1].region)
            end_any = end_write = 0;
        if (sp[i].lo < end_write || (sp[i].write && sp[i].lo < end_any)) {
            rc = fail(s, "rank %d round %zu: a receive overlaps another operation of the round "
                      "at byte %zu", r, s->round[r], sp[i].lo);
            goto out;
        }
        if (sp[i].hi > end_any)
            end_any = sp[i].hi;
        if (sp[i].write && sp[i].hi > end_write)
            end_write = sp[i].hi;
    }
out:
    return rc;
}

static void make_ready(sim *s, int r)
{
    s->ready[s->rtail++ % ((size_t)s->p + 1)] = r;
}

static int transfer(sim *s, int rs, size_t is, int rv, size_t iv)
{
    const plan_op *so = &s->plans[rs].ops[is], *ro = &s->plans[rv].ops[iv];
    if (so->bytes != ro->bytes)
        return fail(s, "rank %d sends %zu bytes to rank %d, which receives %zu bytes from it",
                    rs, so->bytes, rv, ro->bytes);
    /* the message: the sender's pieces in order, into the receiver's */
    if (so->bytes > s->nwire) {
        int64_t *w = realloc(s->wire, so->bytes * sizeof *w);
        if (!w)
            return fail(s, "out of memory");
        s->wire = w;
        s->nwire = so->bytes;
    }
    int reg;
    size_t at = 0, abs, off, bytes;
    for (uint32_t k = 0; k < pieces(so); k++, at += bytes) {
        piece(&s->plans[rs], so, k, &off, &bytes);
        int64_t *src = resolve(s, rs, so->buf, off, bytes, &reg, &abs);
        if (!src)
            return -1;
        memcpy(s->wire + at, src, bytes * sizeof *src);
    }
    at = 0;
    for (uint32_t k = 0; k < pieces(ro); k++, at += bytes) {
        piece(&s->plans[rv], ro, k, &off, &bytes);
        int64_t *dst = resolve(s, rv, ro->buf, off, bytes, &reg, &abs);
        if (!dst)
            return -1;
        memcpy(dst, s->wire + at, bytes * sizeof *dst);
    }
    if (--s->pending[rs] == 0)
        make_ready(s, rs);
    if (--s->pending[rv] == 0)
        make_ready(s, rv);
    return 0;
}

/* Posts one send or receive: it matches the oldest unmatched operation of
 * the other kind between the same two ranks, or waits in their queue. */
static int post(sim *s, int r, size_t i)
{
    const plan_op *op = &s->plans[r].ops[i];
    if (op->peer < 0 || op->peer >= s->p)
        return fail(s, "rank %d round %zu names peer %d", r, s->round[r], op->peer);
    size_t pair = op->kind == OP_SEND ? (size_t)r * (size_t)s->p + (size_t)op->peer
                                      : (size_t)op->peer * (size_t)s->p + (size_t)r;
    int h = s->qhead[pair];
    if (h >= 0 && s->qkind[pair] != op->kind) {
        qnode *m = &s->nodes[h];
        s->qhead[pair] = m->next;
        if (m->next < 0)
            s->qtail[pair] = -1;
        return op->kind == OP_SEND ? transfer(s, r, i, m->rank, m->op)
                                   : transfer(s, m->rank, m->op, r, i);
    }
    int n = (int)s->nnodes++;
    s->nodes[n] = (qnode){ .rank = r, .next = -1, .op = i };
    if (h < 0)
        s->qhead[pair] = n;
    else
        s->nodes[s->qtail[pair]].next = n;
    s->qtail[pair] = n;
    s->qkind[pair] = (char)op->kind;
    return 0;
}

/* Starts rank r's current round, or marks r done after its last one. */
static int start_round(sim *s, int r)
{
    const plan *pl = &s->plans[r];
    if (s->round[r] == pl->nrounds) {
        s->done[r] = 1;
        return 0;
    }
    const plan_round *rd = &pl->rounds[s->round[r]];
    if (check_races(s, r, rd))
        return -1;
    size_t comm = 0;
    for (size_t i = 0; i < rd->nops; i++)
        comm += pl->ops[rd->first + i].kind != OP_COPY;
    s->pending[r] = comm;
    if (comm == 0)
        make_ready(s, r);
    for (size_t i = 0; i < rd->nops; i++)
        if (pl->ops[rd->first + i].kind != OP_COPY && post(s, r, rd->first + i))
            return -1;
    return 0;
}

/* Rank r's round is complete: run its local operations; r starts its next
 * round with the next superstep. */
static int finish_round(sim *s, int r)
{
    const plan *pl = &s->plans[r];
    const plan_round *rd = &pl->rounds[s->round[r]];
    for (size_t i = 0; i < rd->nops; i++) {
        const plan_op *op = &pl->ops[rd->first + i];
        if (op->kind != OP_COPY)
            continue;
        if (op->dst_buf == BUF_SEND)
            return fail(s, "rank %d round %zu copies into the send buffer", r, s->round[r]);
        int reg;
        size_t abs;
        int64_t *src = resolve(s, r, op->buf, op->off, op->bytes, &reg, &abs);
        int64_t *dst = resolve(s, r, op->dst_buf, op->dst_off, op->bytes, &reg, &abs);
        if (!src || !dst)
            return -1;
        memmove(dst, src, op->bytes * sizeof *dst);
    }
    s->round[r]++;
    s->starting[s->nstarting++] = r;
    return 0;
}

static int verify(sim *s)
{
    for (int r = 0; r < s->p; r++) {
        if (!s->done[r]) {
            const plan *pl = &s->plans[r];
            const plan_round *rd = &pl->rounds[s->round[r]];
            for (size_t i = 0; i < rd->nops; i++) {
                const plan_op *op = &pl->ops[rd->first + i];
                if (op->kind != OP_COPY)
                    return fail(s, "deadlock: rank %d waits in round %zu (of %zu) with %zu "
                                "operation(s) unmatched, e.g. a %s of %zu bytes %s rank %d",
                                r, s->round[r], pl->nrounds, s->pending[r],
                                op->kind == OP_SEND ? "send" : "receive", op->bytes,
                                op->kind == OP_SEND ? "to" : "from", op->peer);
            }
        }
    }
    for (int r = 0; r < s->p; r++) {
        for (size_t i = 0; i < s->recv_len; i++) {
            int64_t want = s->c->expect_label(s->p, r, s->block, i);
            int64_t got = s->recv[r][i];
            if (got == want)
                continue;
            int64_t sl = (int64_t)s->send_len;
            if (got == UNSET)
                return fail(s, "rank %d: receive byte %zu was never written (expected rank "
                            "%lld's byte %lld)", r, i, (long long)(want / sl),
                            (long long)(want % sl));
            return fail(s, "rank %d: receive byte %zu holds rank %lld's byte %lld, expected "
                        "rank %lld's byte %lld", r, i, (long long)(got / sl),
                        (long long)(got % sl), (long long)(want / sl), (long long)(want % sl));
        }
    }
    return 0;
}

static void count(sim *s)
{
    plan_stats *w = &s->res->worst;
    for (int r = 0; r < s->p; r++) {
        plan_stats st;
        plan_count(&s->plans[r], &st);
#define KEEP_MAX(f) if (st.f > w->f) w->f = st.f
        KEEP_MAX(rounds);
        KEEP_MAX(msgs);
        KEEP_MAX(bytes_sent);
        KEEP_MAX(bytes_recv);
        KEEP_MAX(copy_bytes);
#undef KEEP_MAX
        if (st.alpha_terms > s->res->alpha_max)
            s->res->alpha_max = st.alpha_terms;
        if (st.beta_bytes > s->res->beta_max)
            s->res->beta_max = st.beta_bytes;
    }
}

static void sim_free(sim *s)
{
    for (int r = 0; s->plans && r < s->p; r++)
        plan_free(&s->plans[r]);
    for (int r = 0; r < s->p; r++) {
        if (s->send)
            free(s->send[r]);
        if (s->recv)
            free(s->recv[r]);
        if (s->tmp)
            free(s->tmp[r]);
    }
    free(s->plans);
    free(s->send);
    free(s->recv);
    free(s->tmp);
    free(s->round);
    free(s->pending);
    free(s->done);
    free(s->qhead);
    free(s->qtail);
    free(s->qkind);
    free(s->nodes);
    free(s->ready);
    free(s->starting);
    free(s->spans);
    free(s->wire);
}

static int64_t *labels(size_t n)
{
    int64_t *m = malloc((n ? n : 1) * sizeof *m);
    for (size_t i = 0; m && i < n; i++)
        m[i] = UNSET;
    return m;
}

static int sim_setup(sim *s, const int *params)
{
    size_t p = (size_t)s->p, pairs = p * p;
    s->plans = calloc(p, sizeof *s->plans);
    s->send = calloc(p, sizeof *s->send);
    s->recv = calloc(p, sizeof *s->recv);
    s->tmp = calloc(p, sizeof *s->tmp);
    s->round = calloc(p, sizeof *s->round);
    s->pending = calloc(p, sizeof *s->pending);
    s->done = calloc(p, 1);
    s->qhead = malloc(pairs * sizeof *s->qhead);
    s->qtail = malloc(pairs * sizeof *s->qtail);
    s->qkind = calloc(pairs, 1);
    s->ready = malloc((p + 1) * sizeof *s->ready);
    s->starting = malloc(p * sizeof *s->starting);
    if (!s->starting || !s->plans || !s->send || !s->recv || !s->tmp || !s->round || !s->pending ||
        !s->done || !s->qhead || !s->qtail || !s->qkind || !s->ready)
        return -1;
    memset(s->qhead, -1, pairs * sizeof *s->qhead);
    memset(s->qtail, -1, pairs * sizeof *s->qtail);
    size_t total_ops = 0;
    for (int r = 0; r < s->p; r++) {
        plan_args a = { .p = s->p, .rank = r, .block = s->block, .inplace = s->inplace,
                        .node_of = s->node_of };
        memcpy(a.param, params, sizeof a.param);
        if (plan_build(&s->plans[r], s->a->build, &a))
            return -1;
        total_ops += s->plans[r].nops;
        s->recv[r] = labels(s->recv_len);
        s->send[r] = labels(s->send_len);
        s->tmp[r] = labels(s->plans[r].tmp_bytes);
        if (!s->recv[r] || !s->send[r] || !s->tmp[r])
            return -1;
        int64_t *src = s->send[r];
        if (s->inplace)
            src = s->recv[r] + s->c->inplace_offset(s->p, r, s->block);
        for (size_t i = 0; i < s->send_len; i++)
            src[i] = (int64_t)r * (int64_t)s->send_len + (int64_t)i;
    }
    s->nodes = malloc((total_ops ? total_ops : 1) * sizeof *s->nodes);
    return s->nodes ? 0 : -1;
}

int sym_run(const coll_desc *c, const coll_algo *a, const int *params, int p, size_t block,
            int inplace, const int *node_of, sym_snapshot_fn snap, void *ctx, sym_result *res)
{
    memset(res, 0, sizeof *res);
    res->ok = 1;
    sim s = { .c = c, .a = a, .p = p, .block = block, .inplace = inplace, .snap = snap,
              .ctx = ctx, .res = res };
    s.send_len = c->send_bytes(p, block);
    s.recv_len = c->recv_bytes(p, block);
    int rc = -1;
    int *one_node = NULL;
    if (!node_of) {
        one_node = calloc((size_t)p, sizeof *one_node);
        if (!one_node)
            return -1;
        node_of = one_node;
    }
    s.node_of = node_of;
    if (sim_setup(&s, params))
        goto out;
    count(&s);
    for (int r = 0; r < p && res->ok; r++)
        start_round(&s, r);
    /* Supersteps: every round that can complete does, then every rank that
     * completed one starts its next. Matching does not depend on the order
     * (it is per pair and in posting order, and races are checked), so
     * this one legal schedule proves them all. */
    for (int step = 0; res->ok; step++) {
        while (res->ok && s.rhead != s.rtail)
            finish_round(&s, s.ready[s.rhead++ % ((size_t)p + 1)]);
        if (!res->ok || s.nstarting == 0)
            break;
        if (snap)
            snap(ctx, step, p, s.recv, s.recv_len);
        size_t n = s.nstarting;
        s.nstarting = 0;
        for (size_t i = 0; i < n && res->ok; i++)
            start_round(&s, s.starting[i]);
    }
    if (res->ok)
        verify(&s);
    rc = 0;
out:
    sim_free(&s);
    free(one_node);
    return rc;
}
