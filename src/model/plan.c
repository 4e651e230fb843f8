/* Plan building: no MPI here (see plan.h). */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

void plan_init(plan *pl, int p, int rank)
{
    memset(pl, 0, sizeof *pl);
    pl->p = p;
    pl->rank = rank;
}

void plan_group(plan *pl, const int *members)
{
    pl->group = members;
}

void plan_free(plan *pl)
{
    free(pl->ops);
    free(pl->rounds);
    free(pl->segs);
    plan_init(pl, pl->p, pl->rank);
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    void *n = realloc(*arr, ncap * elem);
    if (!n)
        return -1;
    *arr = n;
    *cap = ncap;
    return 0;
}

static void push(plan *pl, const plan_op *op)
{
    if (pl->err)
        return;
    plan_op mapped;
    if (pl->group && op->peer >= 0) {
        mapped = *op;
        mapped.peer = pl->group[op->peer];
        op = &mapped;
    }
    if (grow((void **)&pl->ops, &pl->cap_ops, pl->nops + 1, sizeof *op)) {
        pl->err = 1;
        return;
    }
    pl->ops[pl->nops++] = *op;
}

static void push_comm(plan *pl, int kind, int buf, size_t off, size_t bytes, int peer)
{
    if (bytes == 0)
        return;
    plan_op op = { .kind = (uint8_t)kind, .buf = (uint8_t)buf, .peer = peer,
                   .off = off, .bytes = bytes };
    push(pl, &op);
}

void plan_send(plan *pl, int buf, size_t off, size_t bytes, int peer)
{
    push_comm(pl, OP_SEND, buf, off, bytes, peer);
}

void plan_recv(plan *pl, int buf, size_t off, size_t bytes, int peer)
{
    push_comm(pl, OP_RECV, buf, off, bytes, peer);
}

/* Pushed even with no bytes (push_comm drops those). */
static void push_token(plan *pl, int kind, int peer)
{
    plan_op op = { .kind = (uint8_t)kind, .buf = BUF_TMP, .peer = peer };
    push(pl, &op);
}

void plan_send_token(plan *pl, int peer) { push_token(pl, OP_SEND, peer); }
void plan_recv_token(plan *pl, int peer) { push_token(pl, OP_RECV, peer); }

void plan_copy(plan *pl, int src_buf, size_t src_off, int dst_buf, size_t dst_off,
               size_t bytes)
{
    if (bytes == 0 || (src_buf == dst_buf && src_off == dst_off))
        return;
    plan_op op = { .kind = OP_COPY, .buf = (uint8_t)src_buf, .dst_buf = (uint8_t)dst_buf,
                   .peer = -1, .off = src_off, .dst_off = dst_off, .bytes = bytes };
    push(pl, &op);
}

void plan_publish(plan *pl, size_t off)
{
    plan_op op = { .kind = OP_PUBLISH, .buf = BUF_SHM, .dst_buf = BUF_SHM, .peer = -1,
                   .off = off, .dst_off = off, .bytes = PLAN_PUB_BYTES };
    push(pl, &op);
    pl->npubs += !pl->err;
}

void plan_pull(plan *pl, int peer, size_t pub, int src_buf, size_t src_off, int dst_buf,
               size_t dst_off, size_t bytes)
{
    if (bytes == 0)
        return;
    plan_op op = { .kind = OP_PULL, .buf = (uint8_t)src_buf, .dst_buf = (uint8_t)dst_buf,
                   .peer = peer, .off = src_off, .dst_off = dst_off, .bytes = bytes,
                   .pub = pub };
    push(pl, &op);
    pl->npulls += !pl->err;
}

static void seg_begin(plan *pl, int kind, int buf, int peer)
{
    plan_op op = { .kind = (uint8_t)kind, .buf = (uint8_t)buf, .peer = peer,
                   .off = pl->nsegs };
    push(pl, &op);
    pl->open_seg = !pl->err;
}

void plan_send_begin(plan *pl, int buf, int peer) { seg_begin(pl, OP_SEND, buf, peer); }
void plan_recv_begin(plan *pl, int buf, int peer) { seg_begin(pl, OP_RECV, buf, peer); }

void plan_seg_add(plan *pl, size_t off, size_t bytes)
{
    if (pl->err || !pl->open_seg || bytes == 0)
        return;
    plan_op *op = &pl->ops[pl->nops - 1];
    plan_seg *last = op->nseg ? &pl->segs[pl->nsegs - 1] : NULL;
    if (last && last->off + last->bytes == off) {
        last->bytes += bytes;       /* adjacent: one segment */
    } else {
        if (grow((void **)&pl->segs, &pl->cap_segs, pl->nsegs + 1, sizeof *pl->segs)) {
            pl->err = 1;
            return;
        }
        pl->segs[pl->nsegs++] = (plan_seg){ off, bytes };
        op->nseg++;
    }
    op->bytes += bytes;
}

void plan_seg_end(plan *pl)
{
    if (pl->err || !pl->open_seg)
        return;
    pl->open_seg = 0;
    plan_op *op = &pl->ops[pl->nops - 1];
    if (op->bytes == 0) {
        pl->nops--;                 /* empty on both sides alike: dropped */
    } else if (op->nseg == 1) {
        op->off = pl->segs[--pl->nsegs].off;    /* one piece: a plain op */
        op->nseg = 0;
    } else {
        pl->nsegops++;
    }
}

static void reduce_op(plan *pl, int after, int src_buf, size_t src_off, int dst_buf,
                      size_t dst_off, size_t bytes)
{
    if (bytes == 0)
        return;
    if (after && bytes > pl->max_after)
        pl->max_after = bytes;
    plan_op op = { .kind = OP_REDUCE, .buf = (uint8_t)src_buf, .dst_buf = (uint8_t)dst_buf,
                   .after = (uint8_t)after, .peer = -1, .off = src_off, .dst_off = dst_off,
                   .bytes = bytes };
    push(pl, &op);
}

void plan_reduce(plan *pl, int src_buf, size_t src_off, int dst_buf, size_t dst_off,
                 size_t bytes)
{
    reduce_op(pl, 0, src_buf, src_off, dst_buf, dst_off, bytes);
}

void plan_reduce_after(plan *pl, int src_buf, size_t src_off, int dst_buf, size_t dst_off,
                       size_t bytes)
{
    reduce_op(pl, 1, src_buf, src_off, dst_buf, dst_off, bytes);
}

void plan_need_tmp(plan *pl, size_t bytes)
{
    if (bytes > pl->tmp_bytes)
        pl->tmp_bytes = bytes;
}

void plan_need_shm(plan *pl, size_t bytes)
{
    if (bytes > pl->shm_bytes)
        pl->shm_bytes = bytes;
}

void plan_sync(plan *pl)
{
    plan_end_round(pl);     /* a pending barrier keeps its (empty) round */
    pl->sync_next = 1;
}

void plan_end_round(plan *pl)
{
    if (pl->err || (pl->nops == pl->round_start && !pl->sync_next))
        return;
    if (grow((void **)&pl->rounds, &pl->cap_rounds, pl->nrounds + 1, sizeof *pl->rounds)) {
        pl->err = 1;
        return;
    }
    size_t msgs = 0;
    for (size_t i = pl->round_start; i < pl->nops; i++)
        msgs += pl->ops[i].kind == OP_SEND || pl->ops[i].kind == OP_RECV;
    if (msgs > pl->max_msgs)
        pl->max_msgs = msgs;
    pl->rounds[pl->nrounds++] = (plan_round){ pl->round_start, pl->nops - pl->round_start,
                                              pl->sync_next, pl->ahead, pl->nops };
    pl->round_start = pl->nops;
    pl->sync_next = 0;
}

void plan_fail(plan *pl) { pl->err = 1; }

void plan_ahead(plan *pl, int on)
{
    pl->ahead = on;     /* for the rounds ended from now on */
}

int plan_finish(plan *pl)
{
    plan_end_round(pl);
    return pl->err ? -1 : 0;
}

/* Whether op touches (reads or writes) bytes [off, off + bytes) of buf,
 * or may (publish, pull: the node's records and a peer's buffers). */
static int touches(const plan *pl, const plan_op *op, int buf, size_t off, size_t bytes,
                   int inplace)
{
    if (op->kind == OP_PUBLISH || op->kind == OP_PULL)
        return 1;
    const int user = buf == BUF_SEND || buf == BUF_RECV;
    for (int side = 0; side < 2; side++) {
        /* side 0: op->buf (send, receive, copy's and reduction's source);
         * side 1: the copy's or reduction's destination */
        if (side == 1 && op->kind != OP_COPY && op->kind != OP_REDUCE)
            break;
        const int b = side ? op->dst_buf : op->buf;
        if (b != buf) {
            if (inplace && user && (b == BUF_SEND || b == BUF_RECV))
                return 1;
            continue;
        }
        if (side == 0 && op->nseg) {
            for (uint32_t k = 0; k < op->nseg; k++) {
                const plan_seg *sg = &pl->segs[op->off + k];
                if (sg->off < off + bytes && off < sg->off + sg->bytes)
                    return 1;
            }
            continue;
        }
        const size_t o = side ? op->dst_off : op->off;
        if (o < off + bytes && off < o + op->bytes)
            return 1;
    }
    return 0;
}

/* The first round whose posting may post receive i of round r (see
 * plan.h): r, or up to PLAN_LOOKAHEAD rounds before it. */
static size_t earliest(const plan *pl, size_t i, size_t r, int inplace)
{
    const plan_op *op = &pl->ops[i];
    if (op->nseg || op->buf == BUF_SHM || op->bytes > PLAN_AHEAD_BYTES)
        return r;               /* a derived type, SHM, or a long message */
    size_t e = r, budget = 256;     /* ops looked at: a plan's build stays linear */
    while (e > 0 && r - e < PLAN_LOOKAHEAD && pl->rounds[e].ahead && pl->rounds[e - 1].ahead &&
           !pl->rounds[e].sync) {
        const plan_round *prev = &pl->rounds[e - 1];
        if (prev->nops > budget)
            return e;
        budget -= prev->nops;
        int same_peer = 0;
        for (size_t k = prev->first; k < prev->first + prev->nops; k++) {
            const plan_op *o = &pl->ops[k];
            same_peer |= o->kind == OP_RECV && o->peer == op->peer;
            if (!plan_op_token(op) && touches(pl, o, op->buf, op->off, op->bytes, inplace))
                return e;
        }
        if (!same_peer)
            return e;
        e--;
    }
    return e;
}

void plan_lookahead(plan *pl, int inplace)
{
    size_t floor = 0, out = 0;   /* posts no receive before an earlier one's round */
    for (size_t r = 0; r < pl->nrounds; r++)
        pl->rounds[r].early = pl->rounds[r].first + pl->rounds[r].nops;
    for (size_t r = 0; r < pl->nrounds; r++) {
        const plan_round *rd = &pl->rounds[r];
        for (size_t i = rd->first; i < rd->first + rd->nops; i++) {
            if (pl->ops[i].kind != OP_RECV)
                continue;
            size_t e = earliest(pl, i, r, inplace);
            if (e < floor)
                e = floor;
            floor = e;
            for (size_t x = e; x < r; x++)
                pl->rounds[x].early = i + 1;
        }
    }
    /* most posted ahead at once: after round x is posted, the receives of
     * later rounds below its bound */
    for (size_t x = 0; x < pl->nrounds; x++) {
        const plan_round *rd = &pl->rounds[x];
        size_t n = 0;
        for (size_t i = rd->first + rd->nops; i < rd->early; i++)
            n += pl->ops[i].kind == OP_RECV;
        if (n > out)
            out = n;
    }
    pl->max_early = out;
}

int plan_build(plan *pl, plan_builder build, const plan_args *a)
{
    plan_init(pl, a->p, a->rank);
    if (!build)
        return -1;      /* native (R_NATIVE): the MPI library's own, no plan */
    build(pl, a);
    if (plan_finish(pl) == 0) {
        plan_lookahead(pl, a->inplace);
        return 0;
    }
    plan_free(pl);
    return -1;
}

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

void plan_count(const plan *pl, plan_stats *st)
{
    memset(st, 0, sizeof *st);
    for (size_t r = 0; r < pl->nrounds; r++) {
        size_t ns = 0, nr = 0, bs = 0, br = 0;
        st->syncs += pl->rounds[r].sync != 0;
        const plan_op *op = pl->ops + pl->rounds[r].first;
        for (size_t i = 0; i < pl->rounds[r].nops; i++, op++) {
            if (op->kind == OP_SEND) {
                ns++;
                bs += op->bytes;
            } else if (op->kind == OP_RECV) {
                nr++;
                br += op->bytes;
            } else if (op->kind == OP_COPY) {
                st->copy_bytes += op->bytes;
            } else if (op->kind == OP_PULL) {
                st->copy_bytes += op->bytes;
                st->pulls++;
            } else if (op->kind == OP_REDUCE) {
                st->reduce_bytes += op->bytes;
            }
        }
        if (ns + nr)
            st->rounds++;
        st->msgs += ns;
        st->bytes_sent += bs;
        st->bytes_recv += br;
        st->alpha_terms += (double)max_sz(ns, nr);
        st->beta_bytes += (double)max_sz(bs, br);
    }
}

static int same_ops(const plan *x, const plan *y)
{
    for (size_t i = 0; i < x->nops; i++) {
        const plan_op *a = &x->ops[i], *b = &y->ops[i];

        if (a->kind != b->kind || a->buf != b->buf || a->dst_buf != b->dst_buf
            || a->after != b->after || a->peer != b->peer || a->off != b->off
            || a->dst_off != b->dst_off || a->bytes != b->bytes || a->nseg != b->nseg
            || a->pub != b->pub)
            return 0;
    }
    for (size_t i = 0; i < x->nrounds; i++)
        if (x->rounds[i].first != y->rounds[i].first || x->rounds[i].nops != y->rounds[i].nops
            || x->rounds[i].sync != y->rounds[i].sync)
            return 0;
    for (size_t i = 0; i < x->nsegs; i++)
        if (x->segs[i].off != y->segs[i].off || x->segs[i].bytes != y->segs[i].bytes)
            return 0;
    return 1;
}

int plan_equal(const plan *x, const plan *y)
{
    return x->nops == y->nops && x->nrounds == y->nrounds && x->nsegs == y->nsegs
           && x->tmp_bytes == y->tmp_bytes && x->shm_bytes == y->shm_bytes && same_ops(x, y);
}
