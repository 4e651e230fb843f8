/*
 * The cost model: the plans of all ranks replayed on a machine of a few
 * parameters (cost.h), as the executor runs them, message by message.
 *
 * Each rank runs its rounds in order, as exec.c does. A round starts when
 * the previous one has finished (and, if it begins with a barrier, when
 * every rank of the node has reached it), at t0:
 *
 *   - its receives are posted at t0, free (or with an earlier round, when
 *     the plan posts them ahead: plan_lookahead);
 *   - its sends leave one after the other, each after the sender's CPU
 *     overhead o_s: the j-th at t0 + j o_s (multi-port: several messages
 *     are on the wire at once, only their overheads are serialised);
 *   - a message of n bytes needs the latency L and n beta on the wire, with
 *     the bandwidth of the sender's link shared fairly by the round's sends
 *     as they leave (and by the sends of the rounds after it while the
 *     sender only sends and goes on: a tree's rounds to its children; up
 *     to a second detached message to one peer, whose data wait for that
 *     peer's next receive: a pipeline's segments pass one by one), and
 *     that of the receiver's link by the round's receives as their heads
 *     arrive (processor sharing, ps_link); it is through when both links
 *     are. A rank has two such links: off its node (the link's beta) and
 *     inside it (fanin, which calibrate measures with several of the
 *     node's ranks sending to one at once; 0: node.beta), each shared
 *     by the messages on it alone. Up to `eager` bytes it leaves at once
 *     and the sender is done with it; above, it starts when the receive is posted
 *     too, and the sender waits for its arrival (rendezvous) unless it is
 *     up to `detach` bytes (SMPI's detached sends: the sender is done, the
 *     data wait for the receive);
 *   - the receiver pays o_r per message, in order of arrival;
 *   - then the round's copies and reductions run: copy and reduce seconds
 *     per byte; a copy from a peer's buffer (plan_pull, one system call)
 *     costs node.latency more than a local copy, a record (plan_publish)
 *     nothing.
 *
 * Two ranks of one node use the `node` link, others the `net` link (`far`
 * between groups); a node's barrier costs node.latency per step of a
 * dissemination barrier. The time of the call is the last rank's finish.
 *
 * Links shared beyond a rank's own give a message a floor on its wire
 * time (share_link):
 *
 *   - a node's link, when the node holds several ranks: the off-node
 *     messages of all its ranks, each way, nic seconds a byte;
 *   - a group's links out and in (an oversubscribed fat tree's uplinks):
 *     the far messages of all its ranks, each way, over links of group /
 *     oversubscription hosts' bandwidth.
 *
 * Which messages meet on such a link is a matter of when their data are
 * on the wire, known only once the replay has run: it runs once without
 * these floors, then again with the floors the first run's times give.
 *
 * A torus's hops and a dragonfly's groups are not modelled.
 *
 * The replay needs every rank's plan: O(M log M) for M messages in all.
 */
#include "cost.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One send or receive, indexed over all ranks' plans. */
typedef struct ev {
    int rank;
    int round;           /* index in its plan's rounds */
    uint8_t kind;        /* OP_SEND, OP_RECV */
    int peer;
    size_t bytes;
    long match;          /* the matching event (send <-> receive) */
    double wire;         /* beta x the shared bytes on this side's link */
    double floor;        /* the least wire time the shared links allow (share_link) */
    double t;            /* send: left the sender; receive: posted; < 0 unknown */
    int post;            /* receive: the round that posts it (plan_lookahead) */
} ev;

typedef struct rank_state {
    size_t round;        /* the round being run */
    int posted;          /* its sends and receives are posted */
    int waiting_sync;    /* arrived at its barrier, not released */
    unsigned gen;        /* barriers passed */
    double t;            /* start of the round (posted), or the rank's clock */
    double cpu;          /* after the round's send overheads */
    long first_ev;       /* this round's first event */
    long train_end;      /* past the last event of the train posted last (post_round) */
    long early_ev;       /* the receives before it of later rounds are posted */
    long nev;            /* and how many */
    int queued;
} rank_state;

typedef struct node_state {
    int size, arrived;
    double tmax, released_t;
    unsigned released_gen;   /* barriers released */
} node_state;

typedef struct replay {
    const plan *plans;
    int p;
    const int *node_of;
    const cost_params *cp;
    ev *evs;
    long nevs;
    long *round_ev;          /* per rank: first event of each round (prefix) */
    long *rank_ev;           /* per rank: index into round_ev */
    rank_state *rs;
    node_state *ns;
    int nnodes;
    int *queue;
    long qhead, qlen;
    double *scratch;         /* arrival times of one round's receives */
    double *ps_at, *ps_w, *ps_done;  /* one link's flows (ps_link), a train's at most */
    long *ps_ix;
    struct rx { double at, w, sent; int inside; } *rx;  /* one round's receives
                                                        * (finish_round) */
    unsigned *sent_in;       /* per peer: the train that sent it a detached message, */
    unsigned *sent_n;        /* and how many */
    unsigned train;          /* trains started (post_round) */
    double *heap_f;          /* the sender's link: virtual finish times, */
    long *heap_i;            /* their events */
    long heap_cap;           /* room in both */
} replay;

static int node_of(const replay *r, int rank)
{
    return r->node_of ? r->node_of[rank] : rank;
}

static const cost_link *link_of(const replay *r, int a, int b)
{
    int na = node_of(r, a), nb = node_of(r, b);
    if (na == nb)
        return &r->cp->node;
    if (r->cp->group > 0 && (size_t)na / r->cp->group != (size_t)nb / r->cp->group)
        return &r->cp->far;
    return &r->cp->net;
}

/* For matching: the k-th send from a to b meets the k-th receive at b from
 * a (one tag, MPI's order), so events sort by (sender, receiver, kind,
 * position). */
typedef struct pair_key {
    int src, dst;
    int kind;
    long i;
} pair_key;

static int cmp_pair(const void *x, const void *y)
{
    const pair_key *a = x, *b = y;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst)
        return a->dst < b->dst ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The events of every rank's rounds, matched, and their wire times. */
static int build_events(replay *r)
{
    long n = 0, nrounds = 0;
    for (int q = 0; q < r->p; q++) {
        const plan *pl = &r->plans[q];
        nrounds += (long)pl->nrounds + 1;
        for (size_t i = 0; i < pl->nops; i++)
            n += pl->ops[i].kind == OP_SEND || pl->ops[i].kind == OP_RECV;
    }
    r->evs = malloc((size_t)(n ? n : 1) * sizeof *r->evs);
    r->round_ev = malloc((size_t)nrounds * sizeof *r->round_ev);
    r->rank_ev = malloc((size_t)r->p * sizeof *r->rank_ev);
    pair_key *order = malloc((size_t)(n ? n : 1) * sizeof *order);
    size_t maxround = 1, maxrank = 1;   /* ops: of a round, of a rank */
    int rc = -1;
    if (!r->evs || !r->round_ev || !r->rank_ev || !order)
        goto out;
    long k = 0, j = 0;
    for (int q = 0; q < r->p; q++) {
        const plan *pl = &r->plans[q];
        r->rank_ev[q] = j;
        size_t post = 0;    /* the first round that may post the next receive */
        for (size_t x = 0; x < pl->nrounds; x++) {
            const plan_round *rd = &pl->rounds[x];
            r->round_ev[j++] = k;
            if (rd->nops > maxround)
                maxround = rd->nops;
            for (size_t i = rd->first; i < rd->first + rd->nops; i++) {
                const plan_op *op = &pl->ops[i];
                if (op->kind != OP_SEND && op->kind != OP_RECV)
                    continue;
                while (post < x && pl->rounds[post].early <= i)
                    post++;
                r->evs[k] = (ev){ .rank = q, .round = (int)x, .kind = op->kind,
                                  .peer = op->peer, .bytes = op->bytes, .match = -1, .t = -1,
                                  .wire = 0, .floor = 0, .post = (int)post };
                order[k] = (pair_key){ .src = op->kind == OP_SEND ? q : op->peer,
                                       .dst = op->kind == OP_SEND ? op->peer : q,
                                       .kind = op->kind, .i = k };
                k++;
            }
        }
        r->round_ev[j++] = k;
        if (pl->nops > maxrank)
            maxrank = pl->nops;
    }
    r->nevs = k;
    /* match: within one (sender, receiver), sends then receives, each in
     * plan order */
    qsort(order, (size_t)k, sizeof *order, cmp_pair);
    for (long a = 0; a < k;) {
        long b = a, nsend = 0;
        while (b < k && order[b].src == order[a].src && order[b].dst == order[a].dst) {
            nsend += order[b].kind == OP_SEND;
            b++;
        }
        if (2 * nsend != b - a)
            goto out;           /* a message without its receive */
        for (long i = 0; i < nsend; i++) {
            r->evs[order[a + i].i].match = order[a + nsend + i].i;
            r->evs[order[a + nsend + i].i].match = order[a + i].i;
        }
        a = b;
    }
    r->scratch = malloc(maxround * sizeof *r->scratch);
    r->heap_f = malloc(maxrank * sizeof *r->heap_f);    /* a train of rounds (post_round) */
    r->heap_i = malloc(maxrank * sizeof *r->heap_i);
    r->heap_cap = (long)maxrank;
    r->ps_at = malloc(maxrank * sizeof *r->ps_at);
    r->ps_w = malloc(maxrank * sizeof *r->ps_w);
    r->ps_done = malloc(maxrank * sizeof *r->ps_done);
    r->ps_ix = malloc(maxrank * sizeof *r->ps_ix);
    r->rx = malloc(maxround * sizeof *r->rx);
    r->sent_in = calloc((size_t)r->p, sizeof *r->sent_in);
    r->sent_n = calloc((size_t)r->p, sizeof *r->sent_n);
    if (!r->rx || !r->sent_in || !r->sent_n ||
        !r->scratch || !r->heap_f || !r->heap_i || !r->ps_at || !r->ps_w ||
        !r->ps_done || !r->ps_ix)
        goto out;
    rc = 0;
out:
    free(order);
    return rc;
}

static void push(replay *r, int q)
{
    if (r->rs[q].queued)
        return;
    r->rs[q].queued = 1;
    r->queue[(r->qhead + r->qlen++) % r->p] = q;
}

/* A barrier of the node's ranks: log2(size) steps of node.latency. */
static double barrier_cost(const replay *r, int size)
{
    int steps = 0;
    while ((1 << steps) < size)
        steps++;
    return steps * r->cp->node.latency;
}

/* The min-heap of virtual finish times of ps_sends. */
static void heap_push(replay *r, long *n, double f, long i)
{
    long k = (*n)++;
    while (k > 0 && r->heap_f[(k - 1) / 2] > f) {
        r->heap_f[k] = r->heap_f[(k - 1) / 2];
        r->heap_i[k] = r->heap_i[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    r->heap_f[k] = f;
    r->heap_i[k] = i;
}

static long heap_pop(replay *r, long *n)
{
    long top = r->heap_i[0], k = 0;
    double f = r->heap_f[--*n];
    long i = r->heap_i[*n];
    for (;;) {
        long c = 2 * k + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && r->heap_f[c + 1] < r->heap_f[c])
            c++;
        if (r->heap_f[c] >= f)
            break;
        r->heap_f[k] = r->heap_f[c];
        r->heap_i[k] = r->heap_i[c];
        k = c;
    }
    r->heap_f[k] = f;
    r->heap_i[k] = i;
    return top;
}

/* Processor sharing of one link (each of k flows on it gets 1/k of it; in
 * virtual time V, dV/dt = 1/k, a flow that comes at V0 needing w seconds
 * alone is done at V0 + w, and flows finish in that order): flow j comes
 * at at[j] (ascending) and needs w[j]; done[j] is when it is through. */
static void ps_link(replay *r, long n, const double *at, const double *w, double *done)
{
    double t = 0, v = 0;
    long k = 0, i = 0;
    while (i < n || k > 0) {
        double next = k > 0 ? t + (r->heap_f[0] - v) * (double)k : 0;
        if (i < n && (k == 0 || at[i] <= next)) {
            if (k > 0)
                v += (at[i] - t) / (double)k;
            t = at[i];
            heap_push(r, &k, v + w[i], i);
            i++;
        } else {
            v = r->heap_f[0];
            t = next;
            done[heap_pop(r, &k)] = t;
        }
    }
}

/* Seconds a byte of a message between ranks a and b on a's own link when
 * it shares it: a link between nodes, its beta; inside a node, fanin (0:
 * node.beta), which may be less than node.beta where a rank takes several
 * of its node's messages at once faster than one (SMPI's loopback: each
 * at full speed). */
static double own_beta(const replay *r, int a, int b)
{
    if (node_of(r, a) == node_of(r, b) && r->cp->fanin > 0)
        return r->cp->fanin;
    return link_of(r, a, b)->beta;
}

/* A rank's own links shared fairly by its sends [f, f + m) as they leave,
 * one overhead apart (ps_link): the link off its node by its off-node
 * sends, the one inside by the others (own_beta). Each send's wire time:
 * its finish less its departure, at least its time alone and its floor
 * (share_link). */
static void ps_sends(replay *r, long f, long m)
{
    for (int inside = 0; inside < 2; inside++) {
        long n = 0;
        for (long i = f; i < f + m; i++) {
            const ev *e = &r->evs[i];
            if (e->kind != OP_SEND || inside != (node_of(r, e->rank) == node_of(r, e->peer)))
                continue;
            r->ps_ix[n] = i;
            r->ps_at[n] = e->t;
            r->ps_w[n++] = (double)e->bytes * own_beta(r, e->rank, e->peer);
        }
        ps_link(r, n, r->ps_at, r->ps_w, r->ps_done);
        for (long j = 0; j < n; j++) {
            ev *e = &r->evs[r->ps_ix[j]];
            double wire = r->ps_done[j] - e->t, alone = (double)e->bytes *
                                                        link_of(r, e->rank, e->peer)->beta;
            wire = wire > alone ? wire : alone;
            if (wire > e->wire)
                e->wire = wire;
        }
    }
}

/* 1 if rank q's round x only sends, and only messages its sender is done
 * with at once (up to eager or detach bytes), with no barrier, copy or
 * reduction: the round ends when its sends have left, and the next one's
 * sends follow on the link while these are still on it. */
static int sends_and_goes(const replay *r, int q, size_t x)
{
    const plan *pl = &r->plans[q];
    const plan_round *rd = &pl->rounds[x];
    if (rd->sync)
        return 0;
    for (size_t i = rd->first; i < rd->first + rd->nops; i++) {
        const plan_op *op = &pl->ops[i];
        if (op->kind != OP_SEND)
            return 0;
        const cost_link *l = link_of(r, q, op->peer);
        if (op->bytes > l->eager && op->bytes > l->detach)
            return 0;
    }
    return rd->nops > 0;
}

/* Whether a send of events [a, b) is detached (above eager bytes) to a
 * peer the train already sent a detached message to (its data wait for
 * the peer's next receive, posted once the one before is in: a
 * pipeline's segments), or as many as the rounds its receive is posted
 * ahead of its own (plan_lookahead) and one; with mark, records their
 * peers instead. */
static int detached_peers(replay *r, long a, long b, int mark)
{
    for (long i = a; i < b; i++) {
        const ev *e = &r->evs[i];
        if (e->bytes <= link_of(r, e->rank, e->peer)->eager)
            continue;
        const ev *v = &r->evs[e->match];
        if (mark) {
            if (r->sent_in[e->peer] != r->train)
                r->sent_n[e->peer] = 0;
            r->sent_in[e->peer] = r->train;
            r->sent_n[e->peer]++;
        } else if (r->sent_in[e->peer] == r->train &&
                   r->sent_n[e->peer] > (unsigned)(v->round - v->post)) {
            return 1;
        }
    }
    return 0;
}

/* Posts rank q's round: receives at t, sends one overhead apart. A train
 * of rounds that only send and go (sends_and_goes: a tree's root and inner
 * ranks sending to their children one round after another) shares the
 * sender's link as one round would, each send leaving one overhead after
 * the one before: their times are the ones those rounds get when posted.
 * It ends before a round with a detached send to a peer it has sent one
 * to already (detached_peers). */
static void post_round(replay *r, int q)
{
    rank_state *s = &r->rs[q];
    long f = r->round_ev[r->rank_ev[q] + (long)s->round];
    long m = r->round_ev[r->rank_ev[q] + (long)s->round + 1] - f;
    s->first_ev = f;
    s->nev = m;
    s->cpu = s->t;
    for (long i = f; i < f + m; i++) {
        ev *e = &r->evs[i];
        if (e->kind == OP_RECV && e->t < 0)
            e->t = s->t;
    }
    /* the next rounds' receives it posts (plan_lookahead) */
    long c = s->early_ev > f + m ? s->early_ev : f + m;
    const long last = r->round_ev[r->rank_ev[q] + (long)r->plans[q].nrounds];
    for (; c < last; c++) {
        ev *e = &r->evs[c];
        if (e->kind != OP_RECV)
            continue;
        if (e->post > (int)s->round)
            break;
        e->t = s->t;
        push(r, e->peer);
    }
    s->early_ev = c;
    for (long i = f; i < f + m; i++) {
        ev *e = &r->evs[i];
        if (e->kind == OP_SEND) {
            s->cpu += link_of(r, q, e->peer)->send_overhead;
            e->t = s->cpu;
        }
    }
    long end = f + m;   /* the train's end */
    if (f < s->train_end) {
        end = s->train_end;     /* this round's sends were shared with its train's */
    } else if (sends_and_goes(r, q, s->round)) {
        double cpu = s->cpu;
        r->train++;
        detached_peers(r, f, f + m, 1);
        for (size_t x = s->round + 1;
             x < r->plans[q].nrounds && sends_and_goes(r, q, x); x++) {
            long e1 = r->round_ev[r->rank_ev[q] + (long)x + 1];
            if (detached_peers(r, end, e1, 0))
                break;
            detached_peers(r, end, e1, 1);
            for (; end < e1; end++) {
                cpu += link_of(r, q, r->evs[end].peer)->send_overhead;
                r->evs[end].t = cpu;
            }
        }
    }
    if (f >= s->train_end) {
        ps_sends(r, f, end - f);
        s->train_end = end;
    }
    s->posted = 1;
    for (long i = f; i < end; i++)
        push(r, r->evs[i].peer);
}

/* When the data of send s (matched with receive v) start, both sides
 * posted: at once up to eager bytes, else once the receive is posted too. */
static double data_start(const replay *r, const ev *s, const ev *v)
{
    if (s->bytes > link_of(r, s->rank, s->peer)->eager && v->t > s->t)
        return v->t;
    return s->t;
}

/* When the message of send s (matched with receive v) arrives, if both
 * sides have posted; < 0 if not yet known. */
static double arrival(const replay *r, const ev *s, const ev *v)
{
    if (s->t < 0 || v->t < 0)
        return -1;
    double wire = s->wire > v->wire ? s->wire : v->wire;
    return data_start(r, s, v) + link_of(r, s->rank, s->peer)->latency + wire;
}

static int cmp_rx(const void *x, const void *y)
{
    const struct rx *a = x, *b = y;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* Tries to finish rank q's posted round: 1 if it did. A receive arrives
 * when its message is through the sender's side (arrival) and through the
 * receiver's link, shared fairly with the round's other receives from the
 * moment each one's head arrives (ps_link). */
static int finish_round(replay *r, int q)
{
    rank_state *s = &r->rs[q];
    long nrecv = 0;
    double t = s->cpu;
    for (long i = s->first_ev; i < s->first_ev + s->nev; i++) {
        const ev *e = &r->evs[i], *o = &r->evs[e->match];
        if (e->kind == OP_RECV) {
            double a = arrival(r, o, e);
            if (a < 0)
                return 0;
            /* on the receiver's link from its head's arrival (a less the
             * wire), with the round's other receives on that link (off the
             * node or inside it) as they come */
            double wire = o->wire > e->wire ? o->wire : e->wire;
            r->rx[nrecv++] = (struct rx){ a - wire, (double)e->bytes * own_beta(r, q, e->peer),
                                          a, node_of(r, q) == node_of(r, e->peer) };
        } else if (e->bytes > link_of(r, q, e->peer)->eager &&
                   e->bytes > link_of(r, q, e->peer)->detach) {
            double a = arrival(r, e, o);
            if (a < 0)
                return 0;
            if (a > t)
                t = a;
        }
    }
    qsort(r->rx, (size_t)nrecv, sizeof *r->rx, cmp_rx);
    for (int inside = 0; inside < 2; inside++) {
        long n = 0;
        for (long j = 0; j < nrecv; j++) {
            if (r->rx[j].inside != inside)
                continue;
            r->ps_ix[n] = j;
            r->ps_at[n] = r->rx[j].at;
            r->ps_w[n++] = r->rx[j].w;
        }
        ps_link(r, n, r->ps_at, r->ps_w, r->ps_done);
        for (long x = 0; x < n; x++) {
            long j = r->ps_ix[x];
            r->scratch[j] = r->ps_done[x] > r->rx[j].sent ? r->ps_done[x] : r->rx[j].sent;
        }
    }
    qsort(r->scratch, (size_t)nrecv, sizeof *r->scratch, cmp_double);
    double tr = s->cpu;
    long i = 0;
    for (long e = s->first_ev; e < s->first_ev + s->nev; e++) {
        const ev *x = &r->evs[e];
        if (x->kind != OP_RECV)
            continue;
        double a = r->scratch[i++];
        tr = (tr > a ? tr : a) + link_of(r, q, x->peer)->recv_overhead;
    }
    if (tr > t)
        t = tr;
    const plan *pl = &r->plans[q];
    const plan_round *rd = &pl->rounds[s->round];
    for (size_t k = rd->first; k < rd->first + rd->nops; k++) {
        const plan_op *op = &pl->ops[k];
        if (op->kind == OP_COPY)
            t += r->cp->copy * (double)op->bytes;
        else if (op->kind == OP_PULL)
            t += r->cp->node.latency + r->cp->copy * (double)op->bytes;
        else if (op->kind == OP_REDUCE)
            t += r->cp->reduce * (double)op->bytes;
    }
    s->t = t;
    s->posted = 0;
    s->round++;
    return 1;
}

/* Runs rank q as far as it can go. */
static void advance(replay *r, int q)
{
    rank_state *s = &r->rs[q];
    const plan *pl = &r->plans[q];
    while (s->round < pl->nrounds) {
        if (!s->posted) {
            if (pl->rounds[s->round].sync) {
                node_state *n = &r->ns[node_of(r, q)];
                if (!s->waiting_sync) {
                    s->waiting_sync = 1;
                    if (s->t > n->tmax)
                        n->tmax = s->t;
                    if (++n->arrived == n->size) {
                        n->released_t = n->tmax + barrier_cost(r, n->size);
                        n->released_gen++;
                        n->arrived = 0;
                        n->tmax = 0;
                        for (int x = 0; x < r->p; x++)
                            if (node_of(r, x) == node_of(r, q))
                                push(r, x);
                    }
                }
                if (n->released_gen <= s->gen)
                    return;
                s->waiting_sync = 0;
                s->gen++;
                s->t = n->released_t;
            }
            post_round(r, q);
        }
        if (!finish_round(r, q))
            return;
    }
}

/* An off-node message on one side: the node whose link it crosses, the
 * round it is in on that side, when its data start and are through in the
 * run just replayed (share_link). */
typedef struct flow {
    int node, round;     /* node: or group; round < 0: any (sorted by node and start) */
    double start, stop;
    double bytes;
    long send;           /* the send event */
} flow;

static int cmp_flow(const void *x, const void *y)
{
    const flow *a = x, *b = y;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    if (a->round != b->round)
        return a->round < b->round ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->send < b->send ? -1 : a->send > b->send;
}

/* A change of a link's load: at t, rate more (or less) bytes a second. */
typedef struct bend {
    double t, rate;
    double bytes;        /* the bytes through the link by t (load_upto) */
} bend;

static int cmp_bend(const void *x, const void *y)
{
    const bend *a = x, *b = y;
    return a->t < b->t ? -1 : a->t > b->t;
}

/* The bytes through a link by time t, from its bends bd[0..n) (sorted,
 * with their bytes and, in rate, the load after each). */
static double load_upto(const bend *bd, long n, double t)
{
    long lo = 0, hi = n;        /* the first bend after t */
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (bd[mid].t <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? 0 : bd[lo - 1].bytes + bd[lo - 1].rate * (t - bd[lo - 1].t);
}

/* Raises the floor of flow f's event on its side (1: the receive) to t. */
static void raise_floor(replay *r, const flow *f, int side, double t)
{
    ev *e = &r->evs[f->send];
    if (side)
        e = &r->evs[e->match];
    if (t > e->floor)
        e->floor = t;
}

/* A shared link: a node's (groups 0: on nodes of several ranks, the
 * off-node messages of all its ranks, nic seconds a byte), or a group's
 * links (groups 1: its far messages, over group / oversubscription hosts'
 * bandwidth), each way. Who meets whom there is taken from the run just
 * replayed, where the link was not shared, in two ways; a message's floor
 * (on the send for its side's link out, on the receive for the link in) is
 * the larger:
 *
 *   - the bytes the link's messages moved while its data were on the wire
 *     (each message's bytes spread evenly over its time on the wire), at
 *     least its own: the link's load then (a tree's ranks, whose rounds do
 *     not line up);
 *   - the messages of the same round, shared fairly from when each one's
 *     data start (ps_link: a round that floods the link, one message after
 *     another, queues on it).
 *
 * Not the first run's messages of all rounds in one processor sharing: a
 * round's messages would queue behind the round before's, whose shared
 * time the second run spends before the round starts. 0, or -1 out of
 * memory. */
static int share_link(replay *r, int groups)
{
    const cost_params *cp = r->cp;
    double per_byte = groups ? cp->far.beta * cp->oversubscription / (double)cp->group : cp->nic;
    long n = 0;
    for (long i = 0; i < r->nevs; i++) {
        const ev *e = &r->evs[i];
        n += e->kind == OP_SEND && node_of(r, e->rank) != node_of(r, e->peer);
    }
    if (n == 0)
        return 0;
    flow *f = malloc((size_t)n * sizeof *f);
    bend *bd = malloc((size_t)(2 * n) * sizeof *bd);
    double *at = malloc((size_t)n * sizeof *at), *w = malloc((size_t)n * sizeof *w);
    double *done = malloc((size_t)n * sizeof *done);
    int rc = -1;
    if (!f || !bd || !at || !w || !done)
        goto out;
    if (n > r->heap_cap) {      /* ps_link's heap: one round of a node's messages */
        double *hf = realloc(r->heap_f, (size_t)n * sizeof *hf);
        if (hf)
            r->heap_f = hf;
        long *hi = realloc(r->heap_i, (size_t)n * sizeof *hi);
        if (hi)
            r->heap_i = hi;
        if (!hf || !hi)
            goto out;
        r->heap_cap = n;
    }
    for (int side = 0; side < 2; side++) {      /* 0: out of the sender's node, 1: in */
        long m = 0;
        for (long i = 0; i < r->nevs; i++) {
            const ev *e = &r->evs[i], *v = &r->evs[e->match];
            if (e->kind != OP_SEND || node_of(r, e->rank) == node_of(r, e->peer))
                continue;
            int nd = node_of(r, side ? e->peer : e->rank);
            if (groups ? link_of(r, e->rank, e->peer) != &cp->far : r->ns[nd].size < 2)
                continue;
            if (groups)
                nd = (int)((size_t)nd / cp->group);
            double t0 = data_start(r, e, v), wire = e->wire > v->wire ? e->wire : v->wire;
            f[m++] = (flow){ nd, -1, t0, t0 + wire, (double)e->bytes, i };
        }
        /* the load while each message was on the wire: by node */
        qsort(f, (size_t)m, sizeof *f, cmp_flow);
        for (long a = 0, b; a < m; a = b) {     /* one node's: f[a..b) */
            long nb = 0;
            for (b = a; b < m && f[b].node == f[a].node; b++) {
                double len = f[b].stop - f[b].start;
                if (len > 0) {
                    bd[nb++] = (bend){ f[b].start, f[b].bytes / len, 0 };
                    bd[nb++] = (bend){ f[b].stop, -f[b].bytes / len, 0 };
                }
            }
            qsort(bd, (size_t)nb, sizeof *bd, cmp_bend);
            for (long x = 0; x < nb; x++) {     /* bytes by each bend, load after it */
                bd[x].bytes = x ? bd[x - 1].bytes + bd[x - 1].rate * (bd[x].t - bd[x - 1].t) : 0;
                bd[x].rate += x ? bd[x - 1].rate : 0;
            }
            for (long j = a; j < b; j++) {
                double through = load_upto(bd, nb, f[j].stop) - load_upto(bd, nb, f[j].start);
                raise_floor(r, &f[j], side,
                            (through > f[j].bytes ? through : f[j].bytes) * per_byte);
            }
        }
        /* the round's messages: by node, round and start */
        for (long j = 0; j < m; j++) {
            const ev *e = &r->evs[f[j].send];
            f[j].round = side ? r->evs[e->match].round : e->round;
        }
        qsort(f, (size_t)m, sizeof *f, cmp_flow);
        for (long a = 0, b; a < m; a = b) {     /* one node's round: f[a..b) */
            for (b = a; b < m && f[b].node == f[a].node && f[b].round == f[a].round; b++) {
                at[b - a] = f[b].start;
                w[b - a] = f[b].bytes * per_byte;
            }
            ps_link(r, b - a, at, w, done);
            for (long j = a; j < b; j++)
                raise_floor(r, &f[j], side, done[j - a] - f[j].start);
        }
    }
    rc = 0;
out:
    free(f);
    free(bd);
    free(at);
    free(w);
    free(done);
    return rc;
}

/* One replay from the events' floors, rank q starting at start[q] (NULL:
 * 0): 0, or -1 when the plans do not match (a rank stuck). */
static int run(replay *r, const double *start)
{
    memset(r->rs, 0, (size_t)r->p * sizeof *r->rs);
    for (int i = 0; i < r->nnodes; i++)
        r->ns[i] = (node_state){ .size = r->ns[i].size };
    for (long i = 0; i < r->nevs; i++) {
        r->evs[i].t = -1;
        r->evs[i].wire = r->evs[i].floor;
    }
    r->qhead = r->qlen = 0;
    for (int q = 0; q < r->p; q++) {
        r->rs[q].t = start ? start[q] : 0;
        push(r, q);
    }
    while (r->qlen > 0) {
        int q = r->queue[r->qhead];
        r->qhead = (r->qhead + 1) % r->p;
        r->qlen--;
        r->rs[q].queued = 0;
        advance(r, q);
    }
    for (int q = 0; q < r->p; q++)
        if (r->rs[q].round < r->plans[q].nrounds)
            return -1;
    return 0;
}

int cost_replay(const plan *plans, int p, const int *node_of_in, const cost_params *cp,
                const double *start, double *finish)
{
    replay r = { .plans = plans, .p = p, .node_of = node_of_in, .cp = cp };
    int rc = -1, shared = 0;
    r.rs = calloc((size_t)p, sizeof *r.rs);
    r.queue = malloc((size_t)p * sizeof *r.queue);
    r.nnodes = 0;
    for (int q = 0; q < p; q++)
        if (node_of(&r, q) + 1 > r.nnodes)
            r.nnodes = node_of(&r, q) + 1;
    r.ns = calloc((size_t)(r.nnodes ? r.nnodes : 1), sizeof *r.ns);
    if (!r.rs || !r.queue || !r.ns || build_events(&r))
        goto out;
    for (int q = 0; q < p; q++)
        shared |= ++r.ns[node_of(&r, q)].size > 1;
    if (run(&r, start))
        goto out;
    /* nodes of several ranks, or oversubscribed groups: again, with their
     * links shared as the first run timed the messages on them */
    int groups = cp->group > 0 && cp->oversubscription > 1;
    if ((shared && share_link(&r, 0)) || (groups && share_link(&r, 1)) ||
        ((shared || groups) && run(&r, start)))
        goto out;
    for (int q = 0; q < p; q++)
        finish[q] = r.rs[q].t;
    rc = 0;
out:
    free(r.rs);
    free(r.queue);
    free(r.ns);
    free(r.evs);
    free(r.round_ev);
    free(r.rank_ev);
    free(r.scratch);
    free(r.heap_f);
    free(r.heap_i);
    free(r.ps_at);
    free(r.ps_w);
    free(r.ps_done);
    free(r.ps_ix);
    free(r.rx);
    free(r.sent_in);
    free(r.sent_n);
    return rc;
}

/* Round k: send to rank + 2^k, receive from rank - 2^k (mod p); one byte
 * (plans drop empty messages). */
static void barrier_plan(plan *pl, const plan_args *a)
{
    for (int d = 1; d < a->p; d *= 2) {
        plan_recv(pl, BUF_RECV, 0, 1, (a->rank - d + a->p) % a->p);
        plan_send(pl, BUF_SEND, 0, 1, (a->rank + d) % a->p);
        plan_end_round(pl);
    }
}

int cost_barrier(int p, const int *node_of, const cost_params *cp, const double *enter,
                 double *exits)
{
    plan *plans = calloc((size_t)p, sizeof *plans);
    int built = 0, rc = -1;
    if (!plans)
        return -1;
    for (; built < p; built++) {
        plan_args a = { .p = p, .rank = built };
        if (plan_build(&plans[built], barrier_plan, &a))
            goto out;
    }
    rc = cost_replay(plans, p, node_of, cp, enter, exits);
out:
    for (int q = 0; q < built; q++)
        plan_free(&plans[q]);
    free(plans);
    return rc;
}

/* Iterations replayed for cost_bench: the skew settles after one or two. */
#define BENCH_ITERS 4

int cost_bench(const plan *plans, int p, const int *node_of, const cost_params *cp,
               double *seconds)
{
    double *t = calloc((size_t)p, sizeof *t), *exits = malloc((size_t)p * sizeof *exits);
    int rc = t && exits ? 0 : -1;
    for (int it = 0; it < BENCH_ITERS && rc == 0; it++) {
        rc = cost_barrier(p, node_of, cp, t, exits);
        if (rc == 0)
            rc = cost_replay(plans, p, node_of, cp, exits, t);
        if (rc == 0) {
            *seconds = 0;
            for (int q = 0; q < p; q++)
                if (t[q] - exits[q] > *seconds)
                    *seconds = t[q] - exits[q];
        }
    }
    free(t);
    free(exits);
    return rc;
}
