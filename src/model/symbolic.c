/* The symbolic executor (see symbolic.h). No MPI here. */
#include "symbolic.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REG_SEND, REG_RECV, REG_TMP, REG_SHM };
#define UNSET (-1)
/* The label of the bytes of rank r's record (plan_publish). */
#define PUB_LABEL(r) (-16 - (int64_t)(r))

/* A byte of a buffer. Collectives that move data use the label only; a
 * reduction's byte also says whose contributions it holds (a set, and for
 * non-commutative operations the range lo..hi of ranks, in order) and
 * how they were combined (a hash of the expression tree, and of its shape:
 * the same tree over the ranks' contributions, whatever byte of the vector
 * they are). */
typedef struct cell {
    int64_t label;
    uint64_t hash, shape;
    int32_t lo, hi;
    uint64_t bits[];
} cell;

typedef struct qnode {
    int rank;
    int next;
    size_t op;
} qnode;

/* Who last wrote and read a byte of a node's shared segment, and in which
 * epoch (the node's barriers passed, from 1): two ranks may not touch the
 * same byte in one epoch unless both only read it. */
#define READERS (-2)            /* several ranks read it in the epoch */
typedef struct byte_access {
    int32_t writer, reader;
    uint32_t w_epoch, r_epoch;
} byte_access;

/* A node: its shared segment (SHM) and its barrier. */
typedef struct shm_node {
    size_t len;                 /* as declared by the node's plans */
    int declared_by;            /* the first rank that declared it, or -1 */
    unsigned char *cells;
    byte_access *acc;
    int size, arrived;          /* ranks, and ranks waiting at the barrier */
    uint32_t epoch;
} shm_node;

typedef struct span {
    int region;
    int write;
    size_t lo, hi;
} span;

typedef struct sim {
    const coll_desc *c;
    const coll_algo *a;
    const sym_opts *o;
    int p;
    size_t csize, words;            /* bytes per cell; bitset words (reductions) */
    size_t *send_len, *recv_len, *alias; /* per rank; alias: NO_ALIAS or offset */
    plan *plans;
    unsigned char **send, **recv, **tmp;
    size_t *round, *pending;
    char *done;
    const int *node_of;             /* node of each rank */
    shm_node *node;
    int nn;
    char *waiting, *passed;         /* at the barrier that begins its round; past it */
    int *qhead, *qtail;             /* per (sender, receiver) pair */
    char *qkind;
    qnode *nodes;
    size_t nnodes;
    int *ready;                     /* FIFO of ranks whose round is complete */
    size_t rhead, rtail;
    int *starting;                  /* ranks to start on their next round */
    size_t nstarting;
    byte_access *(*priv)[3];        /* plans with pulls: who touched each byte of each
                                     * rank's SEND, RECV and TMP in which epoch (NULL:
                                     * no pulls) */
    span *spans;                    /* check_races' work area */
    size_t nspans;
    unsigned char *wire;            /* a message in flight */
    size_t nwire;
    /* A synchronising collective (coll_desc.synchronizing): the ranks whose
     * start has reached each rank (hwords words of bits a rank), the sets
     * its current round's receives bring (merged when the round
     * completes), and the snapshot's view of them (NULL otherwise). */
    uint64_t *heard, *incoming;
    size_t hwords;
    unsigned char **hview;
    size_t *hlen;
    sym_result *res;
    size_t stride;              /* the longest send data: byte i of rank r's is labelled
                                 * r * stride + i (not a reduction) */
    uint64_t *held;             /* a reduction's snapshots: sym_snapshot.held */
    size_t vec;                 /* its length: the longest send data */
    char *in_recv;              /* per byte of the vector: a rank's receive buffer holds it */
} sim;

/* Rank r's call: with counts on both sides (COUNTS_MATRIX), its rows of
 * the options' p × p counts. */
static plan_args args_of(const sim *s, int r)
{
    plan_args a = s->o->call;
    a.rank = r;
    if (s->c->counts == COUNTS_MATRIX && s->o->all_count) {
        const size_t row = (size_t)r * (size_t)s->p;
        a.count = s->o->all_count + row;
        a.displ = s->o->all_displ + row;
        a.scount = s->o->all_scount + row;
        a.sdispl = s->o->all_sdispl + row;
    }
    return a;
}

static int fail(sim *s, const char *fmt, ...)
{
    if (!s->res->ok)
        return -1;
    s->res->ok = 0;
    char root[24] = "";
    const plan_args *call = &s->o->call;
    if (s->c->rooted)
        snprintf(root, sizeof root, " root=%d", call->root);
    char counts[48] = "";
    const size_t *count = call->count ? call->count : s->o->all_count;
    if (count)  /* rank 0's and rank p - 1's: enough to tell the pattern */
        snprintf(counts, sizeof counts, " counts=%zu..%zu", count[0], count[s->p - 1]);
    int n = snprintf(s->res->why, sizeof s->res->why, "%s p=%d block=%zu%s%s%s%s: ",
                     s->a->name, s->p, call->block, counts,
                     call->esize > 1 ? " (elements of 3)" : "", root,
                     call->inplace ? " in-place" : "");
    if (!call->commutative && n > 0 && (size_t)n < sizeof s->res->why)
        n += snprintf(s->res->why + n, sizeof s->res->why - (size_t)n, "non-commutative: ");
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof s->res->why)
        vsnprintf(s->res->why + n, sizeof s->res->why - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static cell *at(const sim *s, unsigned char *base, size_t i)
{
    return (cell *)(base + i * s->csize);
}

static const char *buf_name(int b)
{
    return b == BUF_SEND ? "SEND" : b == BUF_RECV ? "RECV" : b == BUF_TMP ? "TMP" : "SHM";
}

static size_t buf_len(const sim *s, int r, int buf)
{
    return buf == BUF_SEND ? s->send_len[r] : buf == BUF_RECV ? s->recv_len[r]
         : buf == BUF_TMP ? s->plans[r].tmp_bytes : s->node[s->node_of[r]].len;
}

/* Memory a (rank, buffer, offset, bytes) reference names, with its region
 * and absolute offset for overlap checks; NULL (after fail) when out of
 * bounds. */
static unsigned char *resolve(sim *s, int r, int buf, size_t off, size_t bytes, int *region,
                              size_t *abs)
{
    size_t len = buf_len(s, r, buf);
    if (off > len || bytes > len - off) {
        fail(s, "rank %d round %zu: %s[%zu..%zu) is outside the buffer of %zu bytes", r,
             s->round[r], buf_name(buf), off, off + bytes, len);
        return NULL;
    }
    *abs = off;
    if (buf == BUF_SHM) {
        *region = REG_SHM;
        return s->node[s->node_of[r]].cells + off * s->csize;
    }
    *region = buf == BUF_RECV ? REG_RECV : buf == BUF_TMP ? REG_TMP : REG_SEND;
    if (buf == BUF_SEND && s->alias[r] != NO_ALIAS) {
        *region = REG_RECV;
        *abs += s->alias[r];
    }
    unsigned char *base = *region == REG_RECV ? s->recv[r] : *region == REG_TMP ? s->tmp[r]
                                                                                : s->send[r];
    return base + *abs * s->csize;
}

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

static int is_comm(const plan_op *op) { return op->kind == OP_SEND || op->kind == OP_RECV; }

/* Rank r reads (or writes) bytes [off, off + bytes) of acc in `epoch`: a
 * race if another rank wrote one of them in this epoch, or (a write) read
 * one. Whether the other access comes first does not matter, so one
 * schedule proves them all. The memory is the segment of owner's node
 * (region REG_SHM) or owner's buffer. */
static int touch(sim *s, int r, byte_access *acc, uint32_t epoch, size_t off, size_t bytes,
                 int write, int owner, int region)
{
    for (size_t i = off; i < off + bytes; i++) {
        byte_access *a = &acc[i];
        int other = -1;
        const char *did = "wrote";
        if (a->w_epoch == epoch && a->writer != r) {
            other = a->writer;
        } else if (write && a->r_epoch == epoch && a->reader != r) {
            other = a->reader;
            did = "read";
        }
        if (other != -1) {
            char what[64];
            if (region == REG_SHM)
                snprintf(what, sizeof what, "node %d's shared segment", s->node_of[owner]);
            else
                snprintf(what, sizeof what, "rank %d's %s", owner, region == REG_RECV ? "RECV"
                         : region == REG_TMP ? "TMP" : "SEND");
            return fail(s, "race: rank %d round %zu %s byte %zu of %s, which %s%d %s since "
                        "the last barrier", r, s->round[r], write ? "writes" : "reads", i,
                        what, other == READERS ? "ranks other than " : "rank ",
                        other == READERS ? r : other, did);
        }
        if (write) {
            a->writer = r;
            a->w_epoch = epoch;
        } else if (a->r_epoch == epoch && a->reader != r) {
            a->reader = READERS;
        } else {
            a->reader = r;
            a->r_epoch = epoch;
        }
    }
    return 0;
}

/* Rank r reads (or writes) bytes [off, off + bytes) of buffer buf of rank
 * `owner` (r itself, or a peer it pulls from) in the node's current epoch:
 * the node's segment is shared by its ranks, and a rank's SEND, RECV and
 * TMP by the peers that pull from them. */
static int buf_touch(sim *s, int r, int owner, int buf, size_t off, size_t bytes, int write)
{
    shm_node *nd = &s->node[s->node_of[owner]];
    if (buf == BUF_SHM)
        return touch(s, r, nd->acc, nd->epoch, off, bytes, write, owner, REG_SHM);
    if (!s->priv)
        return 0;
    int region = buf == BUF_RECV ? REG_RECV : buf == BUF_TMP ? REG_TMP : REG_SEND;
    if (buf == BUF_SEND && s->alias[owner] != NO_ALIAS) {
        region = REG_RECV;
        off += s->alias[owner];
    }
    return touch(s, r, s->priv[owner][region], nd->epoch, off, bytes, write, owner, region);
}

static int shm_touch(sim *s, int r, int buf, size_t off, size_t bytes, int write)
{
    return buf_touch(s, r, r, buf, off, bytes, write);
}

/* Within a round, a receive may not overlap any other send or receive. */
static int check_races(sim *s, int r, const plan_round *rd)
{
    const plan_op *ops = s->plans[r].ops + rd->first;
    size_t n = 0;
    for (size_t i = 0; i < rd->nops; i++) {
        if (!is_comm(&ops[i]) || plan_op_token(&ops[i]))
            continue;   /* tokens touch no memory */
        if (ops[i].kind == OP_RECV && ops[i].buf == BUF_SEND)
            return fail(s, "rank %d round %zu receives into the send buffer", r, s->round[r]);
        for (uint32_t k = 0; k < pieces(&ops[i]); k++) {
            size_t off, bytes, abs;
            int region;
            piece(&s->plans[r], &ops[i], k, &off, &bytes);
            if (n == s->nspans && grow_spans(s, n + 1))
                return fail(s, "out of memory");
            if (!resolve(s, r, ops[i].buf, off, bytes, &region, &abs))
                return -1;
            s->spans[n++] = (span){ region, ops[i].kind == OP_RECV, abs, abs + bytes };
        }
    }
    span *sp = s->spans;
    if (n > 1)
        qsort(sp, n, sizeof *sp, span_cmp);
    size_t end_any = 0, end_write = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && sp[i].region != sp[i - 1].region)
            end_any = end_write = 0;
        if (sp[i].lo < end_write || (sp[i].write && sp[i].lo < end_any))
            return fail(s, "rank %d round %zu: a receive overlaps another operation of the "
                        "round at byte %zu", r, s->round[r], sp[i].lo);
        if (sp[i].hi > end_any)
            end_any = sp[i].hi;
        if (sp[i].write && sp[i].hi > end_write)
            end_write = sp[i].hi;
    }
    return 0;
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
        unsigned char *w = realloc(s->wire, so->bytes * s->csize);
        if (!w)
            return fail(s, "out of memory");
        s->wire = w;
        s->nwire = so->bytes;
    }
    int reg;
    size_t pos = 0, abs, off, bytes;
    for (uint32_t k = 0; k < pieces(so); k++, pos += bytes) {
        piece(&s->plans[rs], so, k, &off, &bytes);
        unsigned char *src = resolve(s, rs, so->buf, off, bytes, &reg, &abs);
        if (!src || shm_touch(s, rs, so->buf, off, bytes, 0))
            return -1;
        if (bytes)      /* a token (barrier) has none, and no wire yet */
            memcpy(s->wire + pos * s->csize, src, bytes * s->csize);
    }
    pos = 0;
    for (uint32_t k = 0; k < pieces(ro); k++, pos += bytes) {
        piece(&s->plans[rv], ro, k, &off, &bytes);
        unsigned char *dst = resolve(s, rv, ro->buf, off, bytes, &reg, &abs);
        if (!dst || shm_touch(s, rv, ro->buf, off, bytes, 1))
            return -1;
        if (bytes)
            memcpy(dst, s->wire + pos * s->csize, bytes * s->csize);
    }
    /* Causality: the receiver learns what the sender had heard when it
     * posted the send. The sender's set changes only when its round
     * completes, which needs this send matched: so it is still the set as
     * of the posting. The receiver's own sends of this round were posted
     * before it heard, so the set grows only when its round completes. */
    for (size_t w = 0; s->heard && w < s->hwords; w++)
        s->incoming[(size_t)rv * s->hwords + w] |= s->heard[(size_t)rs * s->hwords + w];
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

/* Posts rank r's current round (past its barrier, if it has one). */
static int begin_round(sim *s, int r)
{
    const plan *pl = &s->plans[r];
    const plan_round *rd = &pl->rounds[s->round[r]];
    if (check_races(s, r, rd))
        return -1;
    size_t comm = 0;
    for (size_t i = 0; i < rd->nops; i++)
        comm += is_comm(&pl->ops[rd->first + i]);
    s->pending[r] = comm;
    if (comm == 0)
        make_ready(s, r);
    for (size_t i = 0; i < rd->nops; i++)
        if (is_comm(&pl->ops[rd->first + i]) && post(s, r, rd->first + i))
            return -1;
    return 0;
}

/* Starts rank r's current round, or marks r done after its last one. A
 * round that begins with a barrier waits until every rank of the node has
 * reached one; then the node's next epoch begins and all of them go on. */
static int start_round(sim *s, int r)
{
    const plan *pl = &s->plans[r];
    if (s->round[r] == pl->nrounds) {
        s->done[r] = 1;
        return 0;
    }
    if (!pl->rounds[s->round[r]].sync || s->passed[r])
        return begin_round(s, r);
    int n = s->node_of[r];
    shm_node *nd = &s->node[n];
    s->waiting[r] = 1;
    if (++nd->arrived < nd->size)
        return 0;
    nd->arrived = 0;
    nd->epoch++;
    /* a node barrier synchronises the node's ranks: each has heard what
     * all of them had */
    for (size_t w = 0; s->heard && w < s->hwords; w++) {
        uint64_t all = 0;
        for (int m = 0; m < s->p; m++)
            if (s->node_of[m] == n)
                all |= s->heard[(size_t)m * s->hwords + w];
        for (int m = 0; m < s->p; m++)
            if (s->node_of[m] == n)
                s->heard[(size_t)m * s->hwords + w] = all;
    }
    for (int m = 0; m < s->p && s->res->ok; m++) {
        if (s->node_of[m] != n)
            continue;
        s->waiting[m] = 0;
        s->passed[m] = 1;
        begin_round(s, m);
    }
    return s->res->ok ? 0 : -1;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    return x ^ (x >> 33);
}

/* The hash of the expression a ⊕ b from the hashes of its operands:
 * ordered, or symmetric for a commutative operation (IEEE addition is
 * commutative bit for bit, not associative). */
static uint64_t hash_op(const sim *s, uint64_t a, uint64_t b)
{
    if (s->o->call.commutative && a > b) {
        uint64_t t = a;
        a = b;
        b = t;
    }
    return mix(a * 0x9e3779b97f4a7c15ULL + mix(b ^ 0x5851f42d4c957f2dULL));
}

/* One byte of dst = left ⊕ right. Both must be the same byte of the
 * vector, with no rank twice; a non-commutative operation needs left's
 * ranks just below right's. */
static int combine(sim *s, int r, cell *dst, const cell *left, const cell *right)
{
    if (left->label < 0 || right->label < 0)
        return fail(s, "rank %d round %zu reduces a byte that was never written", r, s->round[r]);
    if (left->label != right->label)
        return fail(s, "rank %d round %zu reduces byte %lld of the vector with byte %lld", r,
                    s->round[r], (long long)left->label, (long long)right->label);
    for (size_t w = 0; w < s->words; w++)
        if (left->bits[w] & right->bits[w])
            return fail(s, "rank %d round %zu: byte %lld would hold rank %d's contribution "
                        "twice", r, s->round[r], (long long)left->label,
                        (int)(w * 64) + __builtin_ctzll(left->bits[w] & right->bits[w]));
    if (!s->o->call.commutative && left->hi + 1 != right->lo)
        return fail(s, "rank %d round %zu: byte %lld combines ranks %d..%d with ranks %d..%d: "
                    "not in rank order", r, s->round[r], (long long)left->label, left->lo,
                    left->hi, right->lo, right->hi);
    dst->hash = hash_op(s, left->hash, right->hash);
    dst->shape = hash_op(s, left->shape, right->shape);
    dst->lo = left->lo < right->lo ? left->lo : right->lo;
    dst->hi = left->hi > right->hi ? left->hi : right->hi;
    for (size_t w = 0; w < s->words; w++)
        dst->bits[w] = left->bits[w] | right->bits[w];
    dst->label = left->label;
    return 0;
}

/* A local operation's source and destination cells (NULL after fail). */
static int operands(sim *s, int r, const plan_op *op, unsigned char **src, unsigned char **dst)
{
    int reg;
    size_t abs;
    *src = resolve(s, r, op->buf, op->off, op->bytes, &reg, &abs);
    *dst = *src ? resolve(s, r, op->dst_buf, op->dst_off, op->bytes, &reg, &abs) : NULL;
    return *dst ? 0 : -1;
}

static int local_reduce(sim *s, int r, const plan_op *op)
{
    size_t e = s->o->call.esize;
    if (op->off % e || op->dst_off % e || op->bytes % e)
        return fail(s, "rank %d round %zu reduces part of an element (offsets %zu, %zu, "
                    "%zu bytes; elements of %zu)", r, s->round[r], op->off, op->dst_off,
                    op->bytes, e);
    unsigned char *src, *dst;
    if (operands(s, r, op, &src, &dst))
        return -1;
    if (shm_touch(s, r, op->buf, op->off, op->bytes, 0) ||
        shm_touch(s, r, op->dst_buf, op->dst_off, op->bytes, 1))
        return -1;
    for (size_t i = 0; i < op->bytes; i++) {
        cell *d = at(s, dst, i), *x = at(s, src, i);
        if (op->after ? combine(s, r, d, d, x) : combine(s, r, d, x, d))
            return -1;
    }
    return 0;
}

/* Rank r writes its record (plan_publish) into its node's segment. */
static int publish(sim *s, int r, const plan_op *op)
{
    int reg;
    size_t abs;
    unsigned char *dst = resolve(s, r, BUF_SHM, op->dst_off, op->bytes, &reg, &abs);
    if (!dst || shm_touch(s, r, BUF_SHM, op->dst_off, op->bytes, 1))
        return -1;
    for (size_t i = 0; i < op->bytes; i++) {
        memset(at(s, dst, i), 0, s->csize);
        at(s, dst, i)->label = PUB_LABEL(r);
    }
    return 0;
}

/* Rank r copies from a peer's buffer (plan_pull): the peer is on its node,
 * the record it reads is the peer's, published before the last barrier
 * (else a race or a wrong label), and the bytes it reads are ones the
 * peer neither wrote since the last barrier nor writes before the next. */
static int pull(sim *s, int r, const plan_op *op)
{
    const int q = op->peer;
    if (q < 0 || q >= s->p || q == r || s->node_of[q] != s->node_of[r])
        return fail(s, "rank %d round %zu pulls from rank %d, which is not another rank of "
                    "its node", r, s->round[r], q);
    if (op->buf == BUF_SHM)
        return fail(s, "rank %d round %zu pulls from a shared segment", r, s->round[r]);
    int reg;
    size_t abs;
    unsigned char *rec = resolve(s, r, BUF_SHM, op->pub, PLAN_PUB_BYTES, &reg, &abs);
    if (!rec || shm_touch(s, r, BUF_SHM, op->pub, PLAN_PUB_BYTES, 0))
        return -1;
    for (size_t i = 0; i < PLAN_PUB_BYTES; i++)
        if (at(s, rec, i)->label != PUB_LABEL(q))
            return fail(s, "rank %d round %zu pulls from rank %d through SHM[%zu], which does "
                        "not hold rank %d's record (published before the last barrier)", r,
                        s->round[r], q, op->pub, q);
    unsigned char *src = resolve(s, q, op->buf, op->off, op->bytes, &reg, &abs), *dst;
    if (!src || buf_touch(s, r, q, op->buf, op->off, op->bytes, 0))
        return -1;
    dst = resolve(s, r, op->dst_buf, op->dst_off, op->bytes, &reg, &abs);
    if (!dst || shm_touch(s, r, op->dst_buf, op->dst_off, op->bytes, 1))
        return -1;
    memmove(dst, src, op->bytes * s->csize);
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
        if (is_comm(op))
            continue;
        if (op->dst_buf == BUF_SEND)
            return fail(s, "rank %d round %zu writes into the send buffer", r, s->round[r]);
        if (op->kind == OP_PUBLISH || op->kind == OP_PULL) {
            if ((op->kind == OP_PUBLISH ? publish(s, r, op) : pull(s, r, op)))
                return -1;
            continue;
        }
        if (op->kind == OP_REDUCE) {
            if (!s->c->reduction)
                return fail(s, "rank %d round %zu reduces in a collective that does not", r,
                            s->round[r]);
            if (local_reduce(s, r, op))
                return -1;
            continue;
        }
        unsigned char *src, *dst;
        if (operands(s, r, op, &src, &dst) ||
            shm_touch(s, r, op->buf, op->off, op->bytes, 0) ||
            shm_touch(s, r, op->dst_buf, op->dst_off, op->bytes, 1))
            return -1;
        memmove(dst, src, op->bytes * s->csize);
    }
    for (size_t w = 0; s->heard && w < s->hwords; w++)
        s->heard[(size_t)r * s->hwords + w] |= s->incoming[(size_t)r * s->hwords + w];
    s->passed[r] = 0;
    s->round[r]++;
    s->starting[s->nstarting++] = r;
    return 0;
}

static int deadlocked(sim *s)
{
    for (int r = 0; r < s->p; r++) {
        if (s->done[r])
            continue;
        const plan *pl = &s->plans[r];
        const plan_round *rd = &pl->rounds[s->round[r]];
        if (s->waiting[r])
            return fail(s, "deadlock: rank %d waits at its node's barrier before round %zu "
                        "(of %zu); %d of the node's %d ranks reached it", r, s->round[r],
                        pl->nrounds, s->node[s->node_of[r]].arrived,
                        s->node[s->node_of[r]].size);
        for (size_t i = 0; i < rd->nops; i++) {
            const plan_op *op = &pl->ops[rd->first + i];
            if (is_comm(op))
                return fail(s, "deadlock: rank %d waits in round %zu (of %zu) with %zu "
                            "operation(s) unmatched, e.g. a %s of %zu bytes %s rank %d", r,
                            s->round[r], pl->nrounds, s->pending[r],
                            op->kind == OP_SEND ? "send" : "receive", op->bytes,
                            op->kind == OP_SEND ? "to" : "from", op->peer);
        }
    }
    return 0;
}

static int verify_moved(sim *s, int r, size_t i, int64_t want, int64_t got)
{
    int64_t sl = s->stride ? (int64_t)s->stride : 1;
    if (got == UNSET)
        return fail(s, "rank %d: receive byte %zu was never written (expected rank %lld's "
                    "byte %lld)", r, i, (long long)(want / sl), (long long)(want % sl));
    return fail(s, "rank %d: receive byte %zu holds rank %lld's byte %lld, expected rank "
                "%lld's byte %lld", r, i, (long long)(got / sl), (long long)(got % sl),
                (long long)(want / sl), (long long)(want % sl));
}

/* The ranks whose contributions rank r's result must hold: lo..hi. */
static void expected_ranks(const sim *s, int r, int *lo, int *hi)
{
    *lo = 0;
    *hi = s->p - 1;
    if (s->c->expect_ranks) {
        plan_args a = args_of(s, r);
        s->c->expect_ranks(&a, lo, hi);
    }
}

/* The bits of ranks lo..hi in the bitset word of ranks b0..b0 + 63. */
static uint64_t range_bits(int lo, int hi, int b0)
{
    const int a = lo > b0 ? lo - b0 : 0, b = hi < b0 + 63 ? hi - b0 : 63;
    if (a > b)
        return 0;
    const uint64_t upto_b = b == 63 ? ~0ULL : (1ULL << (b + 1)) - 1;
    return upto_b & ~((1ULL << a) - 1);
}

/* What the results of the ranks that hold one range are checked against:
 * the first hash of each byte of the vector (first[], seen[]) and, with
 * expect_ranks, the shape of the first byte of the rank's result. */
typedef struct reduced_ref {
    uint64_t *first;
    char *seen;
    uint64_t shape;
    size_t shape_at;            /* the byte that set it; SIZE_MAX: none yet */
} reduced_ref;

/* A reduced byte: the right one, with the contributions of ranks lo..hi
 * exactly, computed the same way on every rank of that range (bitwise-
 * identical results) and, where ranks hold different ranges (scan), the
 * same expression at every byte of the rank's result. */
static int verify_reduced(sim *s, int r, size_t i, int64_t want, const cell *c, int lo, int hi,
                          reduced_ref *ref)
{
    if (c->label != want)
        return fail(s, "rank %d: receive byte %zu holds byte %lld of the vector, expected %lld%s",
                    r, i, (long long)c->label, (long long)want,
                    c->label == UNSET ? " (never written)" : "");
    int n = 0;
    for (size_t w = 0; w < s->words; w++) {
        const int b0 = (int)(w * 64);
        const uint64_t in = range_bits(lo, hi, b0);
        if (c->bits[w] & ~in)
            return fail(s, "rank %d: receive byte %zu holds rank %d's contribution; it must "
                        "hold those of ranks %d..%d only", r, i,
                        b0 + __builtin_ctzll(c->bits[w] & ~in), lo, hi);
        n += __builtin_popcountll(c->bits[w]);
    }
    if (n != hi - lo + 1) {
        char range[48] = "";
        if (lo != 0 || hi != s->p - 1)
            snprintf(range, sizeof range, " (ranks %d..%d)", lo, hi);
        return fail(s, "rank %d: receive byte %zu holds %d of the %d contributions%s", r, i, n,
                    hi - lo + 1, range);
    }
    if (!ref->seen[want]) {
        ref->seen[want] = 1;
        ref->first[want] = c->hash;
    } else if (ref->first[want] != c->hash) {
        return fail(s, "rank %d: byte %lld of the result is combined in another order than on "
                    "an earlier rank: results would not be bitwise identical", r,
                    (long long)want);
    }
    if (!s->c->expect_ranks)
        return 0;
    if (ref->shape_at == SIZE_MAX) {
        ref->shape = c->shape;
        ref->shape_at = i;
    } else if (ref->shape != c->shape) {
        return fail(s, "rank %d: receive bytes %zu and %zu are combined in different orders: "
                    "equal inputs would give unequal results", r, ref->shape_at, i);
    }
    return 0;
}

/* Rank r's receive buffer at the end. */
static int verify_rank(sim *s, int r, size_t vec, reduced_ref *ref)
{
    const expect_args e = { .call = args_of(s, r), .stride = s->stride,
                            .all_sdispl = s->o->all_sdispl };
    int lo = 0, hi = 0;
    if (s->c->reduction)
        expected_ranks(s, r, &lo, &hi);
    ref->shape_at = SIZE_MAX;
    for (size_t i = 0; i < s->recv_len[r]; i++) {
        int64_t want = s->c->expect_label(&e, i);
        const cell *c = at(s, s->recv[r], i);
        int rc = 0;
        if (want == EXPECT_ANY)
            continue;
        if (s->c->reduction)
            rc = want >= 0 && (size_t)want < vec ? verify_reduced(s, r, i, want, c, lo, hi, ref)
                                                 : fail(s, "bad expected label");
        else if (c->label != want)
            rc = verify_moved(s, r, i, want, c->label);
        if (rc)
            return rc;
    }
    return 0;
}

/* A synchronising collective: no rank may finish its plan before every
 * rank has started its own, so each must have heard (through a chain of
 * messages or node barriers) from all p. */
static int verify_heard(sim *s)
{
    for (int r = 0; r < s->p; r++)
        for (int q = 0; q < s->p; q++)
            if (!(s->heard[(size_t)r * s->hwords + (size_t)q / 64] >> (q % 64) & 1))
                return fail(s, "rank %d finishes its plan without hearing from rank %d: it "
                            "could leave before rank %d has entered", r, q, q);
    return 0;
}

static int verify(sim *s)
{
    if (deadlocked(s))
        return -1;
    if (s->heard && verify_heard(s))
        return -1;
    size_t vec = 0;
    for (int r = 0; r < s->p; r++)
        vec = s->send_len[r] > vec ? s->send_len[r] : vec;
    reduced_ref ref = { NULL, NULL, 0, SIZE_MAX };
    int *lo = NULL, *hi = NULL;
    if (s->c->reduction) {
        ref.first = calloc(vec + 1, sizeof *ref.first);
        ref.seen = calloc(vec + 1, 1);
        lo = calloc((size_t)s->p, sizeof *lo);
        hi = calloc((size_t)s->p, sizeof *hi);
    }
    int rc = 0;
    if (s->c->reduction && (!ref.first || !ref.seen || !lo || !hi))
        rc = fail(s, "out of memory");
    for (int r = 0; s->c->reduction && rc == 0 && r < s->p; r++)
        expected_ranks(s, r, &lo[r], &hi[r]);
    /* the ranks in groups of one range each (the first rank of the group
     * first, then in rank order): results of a range are compared with
     * each other only */
    for (int q = 0; q < s->p && rc == 0; q++) {
        int leader = 1;
        for (int e = 0; s->c->reduction && e < q && leader; e++)
            leader = lo[e] != lo[q] || hi[e] != hi[q];
        if (!leader)
            continue;
        if (s->c->reduction)
            memset(ref.seen, 0, vec + 1);
        for (int r = q; r < s->p && rc == 0; r++)
            if (r == q || (s->c->reduction && lo[r] == lo[q] && hi[r] == hi[q]))
                rc = verify_rank(s, r, vec, &ref);
    }
    free(ref.first);
    free(ref.seen);
    free(lo);
    free(hi);
    return rc;
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
        KEEP_MAX(reduce_bytes);
        KEEP_MAX(syncs);
        KEEP_MAX(pulls);
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
    free(s->send_len);
    free(s->recv_len);
    free(s->alias);
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
    for (int n = 0; s->node && n < s->nn; n++) {
        free(s->node[n].cells);
        free(s->node[n].acc);
    }
    free(s->node);
    free(s->waiting);
    free(s->passed);
    free(s->ready);
    free(s->starting);
    for (int r = 0; s->priv && r < s->p; r++)
        for (int g = 0; g < 3; g++)
            free(s->priv[r][g]);
    free(s->priv);
    free(s->spans);
    free(s->wire);
    free(s->heard);
    free(s->incoming);
    for (int r = 0; s->hview && r < s->p; r++)
        free(s->hview[r]);
    free(s->hview);
    free(s->hlen);
    free(s->held);
    free(s->in_recv);
}

static unsigned char *cells(const sim *s, size_t n)
{
    unsigned char *m = calloc(n ? n : 1, s->csize);
    for (size_t i = 0; m && i < n; i++)
        at(s, m, i)->label = UNSET;
    return m;
}

/* The initial send data of rank r (inside RECV when aliased). */
static void fill_send(sim *s, int r)
{
    unsigned char *base = s->alias[r] == NO_ALIAS ? s->send[r]
                                                  : s->recv[r] + s->alias[r] * s->csize;
    for (size_t i = 0; i < s->send_len[r]; i++) {
        cell *c = at(s, base, i);
        if (!s->c->reduction) {
            c->label = (int64_t)r * (int64_t)s->stride + (int64_t)i;
            continue;
        }
        c->label = (int64_t)i;
        c->hash = mix(((uint64_t)r << 40) ^ (uint64_t)i);
        c->shape = mix(((uint64_t)r << 40) ^ 0xffffffffffULL);
        c->lo = c->hi = r;
        c->bits[r / 64] |= 1ULL << (r % 64);
    }
}

static int sim_setup(sim *s)
{
    size_t p = (size_t)s->p, pairs = p * p;
    s->words = s->c->reduction ? (p + 63) / 64 : 0;
    s->csize = s->c->reduction ? sizeof(cell) + s->words * sizeof(uint64_t) : sizeof(int64_t);
    s->send_len = calloc(p, sizeof *s->send_len);
    s->recv_len = calloc(p, sizeof *s->recv_len);
    s->alias = calloc(p, sizeof *s->alias);
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
    s->waiting = calloc(p, 1);
    s->passed = calloc(p, 1);
    for (int r = 0; r < s->p; r++)
        s->nn = s->node_of[r] + 1 > s->nn ? s->node_of[r] + 1 : s->nn;
    s->node = calloc((size_t)s->nn, sizeof *s->node);
    if (!s->send_len || !s->recv_len || !s->alias || !s->starting || !s->plans || !s->send ||
        !s->recv || !s->tmp || !s->round || !s->pending || !s->done || !s->qhead ||
        !s->qtail || !s->qkind || !s->ready || !s->waiting || !s->passed || !s->node)
        return -1;
    for (int n = 0; n < s->nn; n++) {
        s->node[n].declared_by = -1;
        s->node[n].epoch = 1;
    }
    memset(s->qhead, -1, pairs * sizeof *s->qhead);
    memset(s->qtail, -1, pairs * sizeof *s->qtail);
    size_t total_ops = 0;
    for (int r = 0; r < s->p; r++) {
        const plan_args a = args_of(s, r);
        s->send_len[r] = s->c->send_bytes(&a);
        s->recv_len[r] = s->c->recv_bytes(&a);
        s->alias[r] = a.inplace ? s->c->inplace_offset(&a) : NO_ALIAS;
        if (plan_build(&s->plans[r], s->a->build, &a))
            return -1;
        total_ops += s->plans[r].nops;
        s->recv[r] = cells(s, s->recv_len[r]);
        s->send[r] = cells(s, s->send_len[r]);
        s->tmp[r] = cells(s, s->plans[r].tmp_bytes);
        if (!s->recv[r] || !s->send[r] || !s->tmp[r])
            return -1;
        s->node[s->node_of[r]].size++;
        s->stride = s->send_len[r] > s->stride ? s->send_len[r] : s->stride;
    }
    for (int r = 0; r < s->p; r++)
        fill_send(s, r);
    for (int n = 0; n < s->nn; n++) {
        shm_node *nd = &s->node[n];
        size_t len = 0;
        for (int r = 0; r < s->p; r++)
            if (s->node_of[r] == n && s->plans[r].shm_bytes > len)
                len = s->plans[r].shm_bytes;
        nd->cells = cells(s, len);
        nd->acc = calloc(len ? len : 1, sizeof *nd->acc);
        if (!nd->cells || !nd->acc)
            return -1;
    }
    int pulls = 0;
    for (int r = 0; r < s->p; r++)
        pulls |= s->plans[r].npulls > 0;
    if (pulls && !(s->priv = calloc(p, sizeof *s->priv)))
        return -1;
    for (int r = 0; pulls && r < s->p; r++) {
        size_t len[3] = { s->send_len[r], s->recv_len[r], s->plans[r].tmp_bytes };
        for (int g = 0; g < 3; g++)
            if (!(s->priv[r][g] = calloc(len[g] ? len[g] : 1, sizeof(byte_access))))
                return -1;
    }
    if (s->c->synchronizing) {
        s->hwords = (p + 63) / 64;
        s->heard = calloc(p * s->hwords, sizeof *s->heard);
        s->incoming = calloc(p * s->hwords, sizeof *s->incoming);
        if (!s->heard || !s->incoming)
            return -1;
        for (int r = 0; r < s->p; r++)
            s->heard[(size_t)r * s->hwords + (size_t)r / 64] |= 1ULL << (r % 64);
    }
    if (s->heard && s->o->snap) {
        s->hview = calloc(p, sizeof *s->hview);
        s->hlen = calloc(p, sizeof *s->hlen);
        if (!s->hview || !s->hlen)
            return -1;
        for (int r = 0; r < s->p; r++) {
            s->hlen[r] = p;
            if (!(s->hview[r] = cells(s, p)))
                return -1;
        }
    }
    if (s->c->reduction && s->o->snap) {
        s->vec = s->stride;
        s->held = malloc((s->vec ? s->vec : 1) * p * s->words * sizeof *s->held);
        s->in_recv = malloc(s->vec ? s->vec : 1);
        if (!s->held || !s->in_recv)
            return -1;
    }
    s->nodes = malloc((total_ops ? total_ops : 1) * sizeof *s->nodes);
    return s->nodes ? 0 : -1;
}

static int popcount(const uint64_t *bits, size_t words)
{
    int n = 0;
    for (size_t w = 0; w < words; w++)
        n += __builtin_popcountll(bits[w]);
    return n;
}

/* Into held (vec sets): the fullest copy of each byte of the vector among
 * the n cells at base, for the bytes that taken[] (when not NULL) does not
 * already hold; marks them in mark[] (when not NULL). */
static void hold_fullest(const sim *s, uint64_t *held, const unsigned char *base, size_t n,
                         const char *taken, char *mark)
{
    for (size_t i = 0; i < n; i++) {
        const cell *c = at(s, (unsigned char *)base, i);
        if (c->label < 0 || (size_t)c->label >= s->vec || (taken && taken[c->label]))
            continue;
        uint64_t *h = held + (size_t)c->label * s->words;
        const int k = popcount(c->bits, s->words);
        if (k > 0 && k > popcount(h, s->words)) {
            memcpy(h, c->bits, s->words * sizeof *h);
            if (mark)
                mark[c->label] = 1;
        }
    }
}

/* A reduction's held sets (sym_snapshot): the receive buffer's copy first,
 * else the fullest in the scratch and send buffers. */
static void snapshot_held(sim *s)
{
    char *in_recv = s->in_recv;
    memset(s->held, 0, s->vec * (size_t)s->p * s->words * sizeof *s->held);
    for (int r = 0; r < s->p; r++) {
        uint64_t *held = s->held + (size_t)r * s->vec * s->words;
        memset(in_recv, 0, s->vec ? s->vec : 1);
        hold_fullest(s, held, s->recv[r], s->recv_len[r], NULL, in_recv);
        hold_fullest(s, held, s->tmp[r], s->plans[r].tmp_bytes, in_recv, NULL);
        if (s->alias[r] == NO_ALIAS)
            hold_fullest(s, held, s->send[r], s->send_len[r], in_recv, NULL);
    }
}

/* What a snapshot shows: the receive buffers (and a reduction's held
 * sets), or for a synchronising collective one cell per rank q in each
 * rank's view, labelled q once q's start has reached it. */
static void snapshot(sim *s, int step)
{
    sym_snapshot v = { .step = step, .p = s->p, .recv = s->recv, .recv_len = s->recv_len,
                       .cell = s->csize };
    if (s->held) {
        snapshot_held(s);
        v.held = s->held;
        v.vec = s->vec;
        v.words = s->words;
    }
    if (s->hview) {
        for (int r = 0; r < s->p; r++)
            for (int q = 0; q < s->p; q++)
                at(s, s->hview[r], (size_t)q)->label =
                    s->heard[(size_t)r * s->hwords + (size_t)q / 64] >> (q % 64) & 1 ? q : UNSET;
        v.recv = s->hview;
        v.recv_len = s->hlen;
    }
    s->o->snap(s->o->ctx, &v);
}

static int uses_shm(const plan *pl)
{
    for (size_t i = 0; i < pl->nops; i++)
        if (pl->ops[i].buf == BUF_SHM || (!is_comm(&pl->ops[i]) && pl->ops[i].dst_buf == BUF_SHM))
            return 1;
    return 0;
}

/* The ranks of a node agree on their segment's size, and a plan that uses
 * it has a barrier (the executor alternates between two copies of the
 * segment from call to call: safe only if every call synchronises). */
static int check_shm_decl(sim *s)
{
    for (int r = 0; r < s->p; r++) {
        const plan *pl = &s->plans[r];
        shm_node *nd = &s->node[s->node_of[r]];
        if (nd->declared_by < 0) {
            nd->declared_by = r;
            nd->len = pl->shm_bytes;
        } else if (nd->len != pl->shm_bytes) {
            return fail(s, "ranks %d and %d of node %d declare shared segments of %zu and %zu "
                        "bytes", nd->declared_by, r, s->node_of[r], nd->len, pl->shm_bytes);
        }
        int syncs = 0;
        size_t last_pull = 0, last_sync = 0;
        for (size_t k = 0; k < pl->nrounds; k++) {
            syncs += pl->rounds[k].sync != 0;
            last_sync = pl->rounds[k].sync ? k + 1 : last_sync;
            for (size_t i = 0; i < pl->rounds[k].nops; i++)
                if (pl->ops[pl->rounds[k].first + i].kind == OP_PULL)
                    last_pull = k + 1;
        }
        if (syncs == 0 && uses_shm(pl))
            return fail(s, "rank %d uses the shared segment without a barrier: consecutive "
                        "calls would race", r);
        if (last_pull && last_sync <= last_pull)
            return fail(s, "rank %d pulls from a peer's buffer in round %zu with no barrier "
                        "after it: the peer could return and reuse its buffer while it reads",
                        r, last_pull - 1);
    }
    return 0;
}

int sym_run(const coll_desc *c, const coll_algo *a, const sym_opts *opts, sym_result *res)
{
    memset(res, 0, sizeof *res);
    res->ok = 1;
    sym_opts o = *opts;
    const int p = o.call.p;
    if (o.call.esize == 0)
        o.call.esize = 1;
    if (o.call.inplace && !c->inplace_offset)
        o.call.inplace = 0;     /* builders never see it */
    int *one_node = NULL;
    if (!o.call.node_of) {
        one_node = calloc((size_t)p, sizeof *one_node);
        if (!one_node)
            return -1;
        o.call.node_of = one_node;
    }
    sim s = { .c = c, .a = a, .o = &o, .p = p, .res = res, .node_of = o.call.node_of };
    int rc = -1;
    if (sim_setup(&s))
        goto out;
    count(&s);
    check_shm_decl(&s);
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
        if (o.snap)
            snapshot(&s, step);
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
