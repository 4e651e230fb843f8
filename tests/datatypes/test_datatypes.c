/*
 * test_datatypes: layouts that MPI allows and that a byte copy gets wrong,
 * for every algorithm (and auto) of every collective, compared byte for
 * byte with the MPI library's own collective on the same buffers.
 *
 * Every layout below holds ints; all have one signature per element pair
 * (two ints), so a rank may pick any of them and still match the others:
 *   int     MPI_INT (two per pair)
 *   rev     hindexed {int at 4, int at 0}: 8 bytes, no gap, but element 0
 *           is the second int in memory (a byte copy swaps them)
 *   neg     hindexed {int at -8, int at 0}: data before the buffer pointer
 *   negr    hindexed {int at -12, int at 4} resized to lb -16, extent 24
 *   pad     two ints resized to an extent of 16
 * A case gives each rank its send and receive layout as a function of its
 * rank, so the root and the other ranks, or the senders and the receivers,
 * lay the same data out differently.
 *
 * One launch covers communicators of every size 1..np: the world, then
 * for s = 1..np/2 a split into the first s ranks and the rest (the rest in
 * reverse rank order). Each call runs on buffers with a sentinel in gaps
 * and in guard zones on both sides, through mpicoll_<coll>_with(algorithm),
 * and the whole allocation must equal the reference: the same call through
 * the MPI library on a copy (MPI_Iallgather, MPI_Ialltoall, MPI_Ibcast,
 * MPI_Igather, MPI_Iscatter and the v-forms, whose counts differ per rank,
 * zeros included, with blocks in reverse rank order and gaps between
 * them; completed by yield_wait; this program is not linked with the
 * preload library), or for the reductions
 * the sums computed here and written through MPI_Unpack. Where the MPI
 * library refuses a call, mpicoll may take it; it must never refuse one
 * the library takes. That holds for native too, the MPI library's own
 * collective: Open MPI 4.1's MPI_Reduce and MPI_Allreduce refuse MPI_SUM
 * on these derived types on some ranks only, so native's reductions run
 * the library on the predefined ints beneath them (src/runtime/native.c), on
 * every rank alike although ranks pass different layouts. The mode
 * (blocking, nb, persistent) comes from MPICOLL_MODE, as for users.
 * Failures print one line each and the run goes on; the exit code is 1 if
 * any rank failed a case.
 */
#include <mpi.h>
#include <mpicoll.h>

#include "yield_wait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 64
#define NLAYOUT 5

typedef struct layout {
    const char *name;
    MPI_Datatype type;
    int ints;                   /* ints per element */
} layout;

static layout layouts[NLAYOUT];

/* A case: the layout index of a rank's send and receive sides. */
typedef struct dcase {
    const char *name;
    int (*send)(int rank);
    int (*recv)(int rank);
} dcase;

static int l_int(int r) { (void)r; return 0; }
static int l_rev(int r) { (void)r; return 1; }
static int l_neg(int r) { (void)r; return 2; }
static int l_negr(int r) { (void)r; return 3; }
static int l_cycle(int r) { return r % NLAYOUT; }
static int l_cycle2(int r) { return (r + 2) % NLAYOUT; }
static int l_root_int(int r) { return r == 0 ? 0 : 4; }

static const dcase cases[] = {
    { "rev->int", l_rev, l_int },
    { "int->rev", l_int, l_rev },
    { "neg->negr", l_neg, l_negr },
    { "per-rank", l_cycle, l_cycle2 },
    { "rank0-int,others-pad", l_root_int, l_root_int },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))
static const int counts[] = { 0, 1, 3, 37 };   /* element pairs per block */
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

static int world_rank, failures, calls;

static void make_layouts(void)
{
    MPI_Datatype t;
    int one[2] = { 1, 1 };
    MPI_Aint rev[2] = { 4, 0 }, neg[2] = { -8, 0 }, negr[2] = { -12, 4 };
    layouts[0] = (layout){ "int", MPI_INT, 1 };
    MPI_Type_create_hindexed(2, one, rev, MPI_INT, &layouts[1].type);
    layouts[1].name = "rev";
    MPI_Type_create_hindexed(2, one, neg, MPI_INT, &layouts[2].type);
    layouts[2].name = "neg";
    MPI_Type_create_hindexed(2, one, negr, MPI_INT, &t);
    MPI_Type_create_resized(t, -16, 24, &layouts[3].type);
    MPI_Type_free(&t);
    layouts[3].name = "negr";
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_create_resized(t, 0, 16, &layouts[4].type);
    MPI_Type_free(&t);
    layouts[4].name = "pad";
    for (int i = 1; i < NLAYOUT; i++) {
        MPI_Type_commit(&layouts[i].type);
        layouts[i].ints = 2;
    }
}

/* A buffer of n elements of t with GUARD bytes on each side, filled with
 * `fill`; buf points where MPI expects it (data may start before it). */
typedef struct tbuf {
    char *base, *buf;
    size_t len;
} tbuf;

static void tb_alloc(tbuf *b, MPI_Datatype t, int n, unsigned char fill)
{
    MPI_Aint lb, ext, tlb, text, lo = 0, hi = 0;
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    if (n > 0) {
        lo = tlb;
        hi = (MPI_Aint)(n - 1) * ext + tlb + text;
    }
    b->len = (size_t)(hi - lo) + 2 * GUARD;
    b->base = malloc(b->len);
    if (!b->base) {
        fprintf(stderr, "test_datatypes: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(b->base, fill, b->len);
    b->buf = b->base + GUARD - lo;
}

static void tb_copy(tbuf *dst, const tbuf *src)
{
    *dst = *src;
    dst->base = malloc(src->len);
    if (!dst->base)
        MPI_Abort(MPI_COMM_WORLD, 2);
    memcpy(dst->base, src->base, src->len);
    dst->buf = dst->base + (src->buf - src->base);
}

/* Writes n elements of t at `at` with the ints first, first + step,
 * first + 2 step, ... (through MPI_Unpack: MPI's own reading of the
 * layout). */
static void put_step(char *at, int n, MPI_Datatype t, int ints, int first, int step)
{
    int nints = n * ints, pos = 0, psize;
    if (n == 0)
        return;
    int *vals = malloc(sizeof(int) * (size_t)nints);
    MPI_Pack_size(nints, MPI_INT, MPI_COMM_SELF, &psize);
    char *packed = malloc((size_t)psize);
    if (!vals || !packed)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < nints; i++)
        vals[i] = first + i * step;
    MPI_Pack(vals, nints, MPI_INT, packed, psize, &pos, MPI_COMM_SELF);
    int upos = 0;
    MPI_Unpack(packed, pos, &upos, at, n, t, MPI_COMM_SELF);
    free(vals);
    free(packed);
}

static void put(char *at, int n, MPI_Datatype t, int ints, int first)
{
    put_step(at, n, t, ints, first, 1);
}

static MPI_Aint extent_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

/* What one call is, for the failure line. */
typedef struct call {
    const char *coll, *algo, *comm_name;
    const dcase *dc;
    int p, rank, n, inplace, root;
} call;

static void fail(const call *c, const char *what)
{
    failures++;
    if (failures > 50)
        return;
    printf("FAIL %s algorithm=%s case=%s p=%d comm=%s count=%d(pairs) inplace=%d root=%d "
           "rank=%d (world %d): %s\n",
           c->coll, c->algo, c->dc->name, c->p, c->comm_name, c->n, c->inplace, c->root,
           c->rank, world_rank, what);
    fflush(stdout);
}

/* Compares the first len bytes of the two allocations. */
static void compare_upto(const call *c, const char *which, const tbuf *want, const tbuf *got,
                         size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (want->base[i] != got->base[i]) {
            char msg[200];
            long off = (long)(want->base + i - want->buf);
            snprintf(msg, sizeof msg,
                     "%s buffer: byte at offset %ld is 0x%02x, the MPI library's is 0x%02x",
                     which, off, (unsigned char)got->base[i], (unsigned char)want->base[i]);
            fail(c, msg);
            return;
        }
}

static void compare(const call *c, const char *which, const tbuf *want, const tbuf *got)
{
    compare_upto(c, which, want, got, want->len);
}

static int refused;              /* calls the MPI library refused */

/* 1 if the results are to be compared: both succeeded. Where the MPI
 * library refuses a call (Open MPI's MPI_Reduce refuses a predefined
 * operation on a derived type that MPI_Allreduce takes), mpicoll may
 * take it; it must never refuse one the library takes. */
static int check_rc(const call *c, int want, int got)
{
    if (want != MPI_SUCCESS) {
        refused++;
        return 0;
    }
    if (got != MPI_SUCCESS) {
        char msg[120];
        snprintf(msg, sizeof msg, "returned error %d where the MPI library succeeded", got);
        fail(c, msg);
        return 0;
    }
    return 1;
}

static void tb_free(tbuf *b)
{
    free(b->base);
}

/* The end of a call that moves data: both sides against the MPI
 * library's (when both succeeded), then the four buffers freed. */
static void settle(const call *c, int rw, int rg, tbuf *s, tbuf *s0, tbuf *want, tbuf *got)
{
    if (check_rc(c, rw, rg)) {
        compare(c, "receive", want, got);
        compare(c, "send", s0, s);
    }
    tb_free(s);
    tb_free(s0);
    tb_free(want);
    tb_free(got);
}

/* ---- the collectives ----------------------------------------------------- */

static void run_block(const call *c, MPI_Comm comm, int alltoall)
{
    const layout *sl = &layouts[c->dc->send(c->rank)], *rl = &layouts[c->dc->recv(c->rank)];
    const int scount = c->n * 2 / sl->ints, rcount = c->n * 2 / rl->ints, p = c->p;
    const int sblocks = alltoall ? p : 1;
    tbuf s, s0, want, got;
    tb_alloc(&s, sl->type, scount * sblocks, 0x5A);
    tb_alloc(&want, rl->type, rcount * p, 0xA5);
    for (int b = 0; b < sblocks; b++)
        put(s.buf + (MPI_Aint)b * scount * extent_of(sl->type), scount, sl->type, sl->ints,
            c->rank * 100000 + b * 1000 + 1);
    if (c->inplace)
        for (int b = 0; b < p; b++)
            if (alltoall || b == c->rank)
                put(want.buf + (MPI_Aint)b * rcount * extent_of(rl->type), rcount, rl->type,
                    rl->ints, c->rank * 100000 + b * 1000 + 1);
    tb_copy(&s0, &s);
    tb_copy(&got, &want);
    const void *sb = c->inplace ? MPI_IN_PLACE : s.buf;
    int rw, rg;
    MPI_Request req;
    if (alltoall) {
        rw = yield_wait(MPI_Ialltoall(sb, scount, sl->type, want.buf, rcount, rl->type, comm,
                                      &req), &req);
        rg = mpicoll_alltoall_with(c->algo, sb, scount, sl->type, got.buf, rcount, rl->type,
                                   comm);
    } else {
        rw = yield_wait(MPI_Iallgather(sb, scount, sl->type, want.buf, rcount, rl->type, comm,
                                       &req), &req);
        rg = mpicoll_allgather_with(c->algo, sb, scount, sl->type, got.buf, rcount, rl->type,
                                    comm);
    }
    settle(c, rw, rg, &s, &s0, &want, &got);
}

/* gather, scatter and the v-forms: one side counted (every rank's block
 * at the receivers of gather, gatherv and allgatherv; at the root's send
 * side of scatter and scatterv). In the v-forms rank r's block holds
 * n * ((r + 1) % 3) pairs (zeros included) and the blocks lie in reverse
 * rank order with a gap of one element after each. */
enum { GATHER, SCATTER, ALLGATHERV, GATHERV, SCATTERV };

/* Rank r's block's element pairs. */
static int pairs_of(const call *c, int v, int r) { return v ? c->n * ((r + 1) % 3) : c->n; }

/* The counted side's counts and displacements in elements of l; returns
 * the elements the buffer spans. */
static int counted(const call *c, int v, const layout *l, int *counts, int *displs)
{
    int off = 0;
    for (int k = 0; k < c->p; k++) {
        const int r = v ? c->p - 1 - k : k;
        counts[r] = pairs_of(c, v, r) * 2 / l->ints;
        displs[r] = off;
        off += counts[r] + v;
    }
    return off;
}

static void run_counted(const call *c, MPI_Comm comm, int which)
{
    const int v = which >= ALLGATHERV, me = c->rank, p = c->p;
    const int scatters = which == SCATTER || which == SCATTERV;
    const int is_root = which == ALLGATHERV || me == c->root;   /* holds the counted side */
    const layout *sl = &layouts[c->dc->send(me)], *rl = &layouts[c->dc->recv(me)];
    const layout *cl = scatters ? sl : rl;      /* the counted side's layout */
    int *counts = malloc(2 * sizeof(int) * (size_t)p), *displs = counts + p;
    if (!counts)
        MPI_Abort(MPI_COMM_WORLD, 2);
    const int span = counted(c, v, cl, counts, displs);
    const int own_n = pairs_of(c, v, me) * 2 / (scatters ? rl : sl)->ints;
    tbuf s, s0, want, got;
    /* the counted buffer at the root, the own block everywhere */
    tb_alloc(&s, sl->type, scatters ? (is_root ? span : 0) : own_n, 0x5A);
    tb_alloc(&want, rl->type, scatters ? own_n : (is_root ? span : 0), 0xA5);
    const MPI_Aint cext = extent_of(cl->type);
    if (scatters && is_root)    /* the root's block for each rank */
        for (int r = 0; r < p; r++)
            put(s.buf + (MPI_Aint)displs[r] * cext, counts[r], sl->type, sl->ints,
                me * 100000 + r * 1000 + 1);
    else if (!scatters)
        put(s.buf, own_n, sl->type, sl->ints, me * 100000 + 1);
    /* in place: the own block at its place (gather's), nothing received
     * (scatter's root) */
    const int inplace = c->inplace && is_root;
    if (inplace && !scatters)
        put(want.buf + (MPI_Aint)displs[me] * cext, counts[me], rl->type, rl->ints,
            me * 100000 + 1);
    tb_copy(&s0, &s);
    tb_copy(&got, &want);
    const void *sb = inplace && !scatters ? MPI_IN_PLACE : s.buf;
    void *rw_buf = inplace && scatters ? MPI_IN_PLACE : want.buf;
    void *rg_buf = inplace && scatters ? MPI_IN_PLACE : got.buf;
    const int sn = scatters ? 0 : own_n, rn = scatters ? own_n : counts[0];
    int rw = MPI_SUCCESS, rg = MPI_SUCCESS;
    MPI_Request req;
    switch (which) {
    case GATHER:
        rw = yield_wait(MPI_Igather(sb, sn, sl->type, rw_buf, rn, rl->type, c->root, comm,
                                    &req), &req);
        rg = mpicoll_gather_with(c->algo, sb, sn, sl->type, rg_buf, rn, rl->type, c->root,
                                 comm);
        break;
    case SCATTER:
        rw = yield_wait(MPI_Iscatter(sb, counts[0], sl->type, rw_buf, rn, rl->type, c->root,
                                     comm, &req), &req);
        rg = mpicoll_scatter_with(c->algo, sb, counts[0], sl->type, rg_buf, rn, rl->type,
                                  c->root, comm);
        break;
    case ALLGATHERV:
        rw = yield_wait(MPI_Iallgatherv(sb, sn, sl->type, rw_buf, counts, displs, rl->type, comm,
                                        &req), &req);
        rg = mpicoll_allgatherv_with(c->algo, sb, sn, sl->type, rg_buf, counts, displs,
                                     rl->type, comm);
        break;
    case GATHERV:
        rw = yield_wait(MPI_Igatherv(sb, sn, sl->type, rw_buf, counts, displs, rl->type,
                                     c->root, comm, &req), &req);
        rg = mpicoll_gatherv_with(c->algo, sb, sn, sl->type, rg_buf, counts, displs, rl->type,
                                  c->root, comm);
        break;
    default:
        rw = yield_wait(MPI_Iscatterv(sb, counts, displs, sl->type, rw_buf, rn, rl->type,
                                      c->root, comm, &req), &req);
        rg = mpicoll_scatterv_with(c->algo, sb, counts, displs, sl->type, rg_buf, rn, rl->type,
                                   c->root, comm);
    }
    free(counts);
    settle(c, rw, rg, &s, &s0, &want, &got);
}

/* alltoallv: source s's block for destination d holds n * ((s + d) % 3)
 * pairs (symmetric, as MPI_IN_PLACE needs: the block sent to d is the one
 * received from d), the blocks of both sides in reverse rank order with
 * a gap of one element after each. In place, the receive buffer holds
 * the blocks to send. */
static int exchange_side(const call *c, const layout *l, int *counts, int *displs)
{
    int off = 0;
    for (int r = c->p - 1; r >= 0; r--) {
        counts[r] = c->n * ((c->rank + r) % 3) * 2 / l->ints;
        displs[r] = off;
        off += counts[r] + 1;
    }
    return off;
}

static void run_alltoallv(const call *c, MPI_Comm comm)
{
    const int me = c->rank, p = c->p;
    const layout *sl = &layouts[c->dc->send(me)], *rl = &layouts[c->dc->recv(me)];
    int *v = malloc(4 * sizeof(int) * (size_t)p);
    if (!v)
        MPI_Abort(MPI_COMM_WORLD, 2);
    int *sc = v, *sd = v + p, *rc = v + 2 * p, *rd = v + 3 * p;
    const int sspan = exchange_side(c, sl, sc, sd), rspan = exchange_side(c, rl, rc, rd);
    tbuf s, s0, want, got;
    tb_alloc(&s, sl->type, c->inplace ? 0 : sspan, 0x5A);
    tb_alloc(&want, rl->type, rspan, 0xA5);
    for (int d = 0; d < p; d++)
        if (c->inplace)
            put(want.buf + (MPI_Aint)rd[d] * extent_of(rl->type), rc[d], rl->type, rl->ints,
                me * 100000 + d * 1000 + 1);
        else
            put(s.buf + (MPI_Aint)sd[d] * extent_of(sl->type), sc[d], sl->type, sl->ints,
                me * 100000 + d * 1000 + 1);
    tb_copy(&s0, &s);
    tb_copy(&got, &want);
    const void *sb = c->inplace ? MPI_IN_PLACE : s.buf;
    MPI_Request req;
    int rw = yield_wait(MPI_Ialltoallv(sb, sc, sd, sl->type, want.buf, rc, rd, rl->type, comm,
                                       &req), &req);
    int rg = mpicoll_alltoallv_with(c->algo, sb, sc, sd, sl->type, got.buf, rc, rd, rl->type,
                                    comm);
    free(v);
    settle(c, rw, rg, &s, &s0, &want, &got);
}

enum { BCAST, REDUCE, ALLREDUCE, RSB, RS, SCAN, EXSCAN };

/* A reduce's receive buffer means something at the root only; in place,
 * reduce_scatter_block's and reduce_scatter's result is the first count
 * elements (MPI says nothing of the rest of the buffer). */
static void compare_result(const call *c, int which, MPI_Datatype t, int count,
                           const tbuf *want, const tbuf *got)
{
    if (which == REDUCE && c->rank != c->root)
        return;
    /* exscan's rank 0: want holds the buffer as it was (untouched) */
    size_t len = want->len;
    if ((which == RSB || which == RS) && c->inplace) {
        MPI_Aint lb, ext, tlb, text;
        MPI_Type_get_extent(t, &lb, &ext);
        MPI_Type_get_true_extent(t, &tlb, &text);
        len = (size_t)(want->buf - want->base);
        if (count > 0)
            len += (size_t)(tlb + (MPI_Aint)(count - 1) * ext + text);
    }
    compare_upto(c, "receive", want, got, len);
}

/* bcast, reduce, allreduce, reduce_scatter_block, reduce_scatter, scan,
 * exscan with MPI_SUM (scan and exscan: over ranks 0..me and 0..me-1):
 * one layout per rank (its send side's; the receive side's for bcast's
 * non-roots). Rank r's int i holds (r + 1) * 1000 + 1 + i. reduce_scatter's
 * rank r gets n * ((r + 1) % 3) pairs (zeros included), in the elements of
 * each rank's own layout. The MPI library's bcast is the reference; the
 * sums are computed here (Open MPI's MPI_Reduce refuses a predefined
 * operation on a derived type, at the root only) and written in the rank's
 * layout through MPI_Unpack. */
static void run_vec(const call *c, MPI_Comm comm, int which)
{
    const layout *l = &layouts[c->dc->send(c->rank)];
    const int p = c->p, me = c->rank;
    int *rcounts = malloc(sizeof(int) * (size_t)p), below = 0, total = 0;
    if (!rcounts)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int r = 0; r < p; r++) {
        rcounts[r] = (which == RS ? pairs_of(c, 1, r) : c->n) * 2 / l->ints;
        below += r < me ? rcounts[r] : 0;
        total += rcounts[r];
    }
    const int count = rcounts[me], scatters = which == RSB || which == RS;
    const int sn = scatters ? total : count;                    /* send elements */
    const int rn = scatters && c->inplace ? total : count;
    const int root = c->root;
    tbuf s, s0, want, got;
    tb_alloc(&s, l->type, sn, 0x5A);
    tb_alloc(&want, l->type, rn, 0xA5);
    const int first = (me + 1) * 1000 + 1;
    if (which != BCAST)
        put(s.buf, sn, l->type, l->ints, first);
    if ((which == BCAST && me == root) || (c->inplace && which != BCAST))
        put(want.buf, rn, l->type, l->ints, first);
    tb_copy(&s0, &s);
    tb_copy(&got, &want);
    if (which == SCAN || (which == EXSCAN && me > 0)) {
        const int q = which == SCAN ? me + 1 : me;  /* ranks 0..q-1 */
        put_step(want.buf, count, l->type, l->ints, 1000 * q * (q + 1) / 2 + q, q);
    } else if (which != BCAST && which != EXSCAN) {
        /* the sum of int i over the ranks; the scattering ones' rank me
         * gets the ints from the blocks below its own on */
        const int off = scatters ? below * l->ints : 0;
        put_step(want.buf, count, l->type, l->ints, 1000 * p * (p + 1) / 2 + p * (1 + off), p);
    }
    const void *sb = c->inplace ? MPI_IN_PLACE : s.buf;
    int rw = MPI_SUCCESS, rg = MPI_SUCCESS;
    MPI_Request req;
    switch (which) {
    case BCAST:
        rw = yield_wait(MPI_Ibcast(want.buf, count, l->type, root, comm, &req), &req);
        rg = mpicoll_bcast_with(c->algo, got.buf, count, l->type, root, comm);
        break;
    case REDUCE:
        rg = mpicoll_reduce_with(c->algo, sb, got.buf, count, l->type, MPI_SUM, root, comm);
        break;
    case ALLREDUCE:
        rg = mpicoll_allreduce_with(c->algo, sb, got.buf, count, l->type, MPI_SUM, comm);
        break;
    case SCAN:
        rg = mpicoll_scan_with(c->algo, sb, got.buf, count, l->type, MPI_SUM, comm);
        break;
    case EXSCAN:
        rg = mpicoll_exscan_with(c->algo, sb, got.buf, count, l->type, MPI_SUM, comm);
        break;
    case RS:
        rg = mpicoll_reduce_scatter_with(c->algo, sb, got.buf, rcounts, l->type, MPI_SUM, comm);
        break;
    default:
        rg = mpicoll_reduce_scatter_block_with(c->algo, sb, got.buf, count, l->type, MPI_SUM,
                                               comm);
    }
    if (check_rc(c, rw, rg)) {
        compare_result(c, which, l->type, count, &want, &got);
        if (which != BCAST)
            compare(c, "send", &s0, &s);
    }
    free(rcounts);
    tb_free(&s);
    tb_free(&s0);
    tb_free(&want);
    tb_free(&got);
}

/* Each collective and its runner: the block ones, the vector ones
 * (bcast's kind first), the counted ones. */
static const struct {
    const char *name;
    int runner, kind, rooted;
} colls[] = {
    { "allgather", 0, 0, 0 }, { "alltoall", 0, 1, 0 }, { "bcast", 1, BCAST, 1 },
    { "reduce", 1, REDUCE, 1 }, { "allreduce", 1, ALLREDUCE, 0 },
    { "reduce_scatter_block", 1, RSB, 0 }, { "reduce_scatter", 1, RS, 0 },
    { "scan", 1, SCAN, 0 }, { "exscan", 1, EXSCAN, 0 },
    { "gather", 2, GATHER, 1 }, { "scatter", 2, SCATTER, 1 }, { "allgatherv", 2, ALLGATHERV, 0 },
    { "gatherv", 2, GATHERV, 1 }, { "scatterv", 2, SCATTERV, 1 }, { "alltoallv", 3, 0, 0 },
};
#define NCOLLS ((int)(sizeof colls / sizeof colls[0]))

/* Every algorithm of every collective, every case, count, in place or
 * not and root on comm. */
static void run_comm(MPI_Comm comm, const char *comm_name)
{
    call c = { .comm_name = comm_name };
    MPI_Comm_size(comm, &c.p);
    MPI_Comm_rank(comm, &c.rank);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    for (int k = 0; k < NCOLLS; k++) {
        c.coll = colls[k].name;
        const int nalgo = mpicoll_algorithm_count(c.coll);
        const int rooted = colls[k].rooted, runner = colls[k].runner, kind = colls[k].kind;
        for (int a = -1; a < nalgo; a++) {
            c.algo = a < 0 ? "auto" : mpicoll_algorithm_name(c.coll, a);
            for (int d = 0; d < NCASES; d++) {
                c.dc = &cases[d];
                for (int ni = 0; ni < NCOUNTS; ni++) {
                    c.n = counts[ni];
                    for (c.inplace = 0; c.inplace <= (runner == 1 && kind == BCAST ? 0 : 1);
                         c.inplace++)
                        for (int r = 0; r < (rooted && c.p > 1 ? 2 : 1); r++) {
                            c.root = r ? c.p - 1 : 0;
                            /* a reduce takes MPI_IN_PLACE at the root only */
                            call cc = c;
                            cc.inplace = c.inplace &&
                                         !(runner == 1 && kind == REDUCE && c.rank != c.root);
                            calls++;
                            if (runner == 0)
                                run_block(&cc, comm, kind);
                            else if (runner == 1)
                                run_vec(&cc, comm, kind);
                            else if (runner == 2)
                                run_counted(&cc, comm, kind);
                            else
                                run_alltoallv(&cc, comm);
                        }
                }
            }
        }
    }
}

int main(int argc, char **argv)
{
    int np, total_fail, total_calls;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    make_layouts();
    run_comm(MPI_COMM_WORLD, "world");
    for (int s = 1; s <= np / 2; s++) {
        MPI_Comm sub;
        const int first = world_rank < s;
        MPI_Comm_split(MPI_COMM_WORLD, first, first ? world_rank : -world_rank, &sub);
        char name[32];
        snprintf(name, sizeof name, "split%d%s", s, first ? "a" : "b");
        run_comm(sub, name);
        MPI_Comm_free(&sub);
    }
    MPI_Allreduce(&failures, &total_fail, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&calls, &total_calls, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int total_refused;
    MPI_Allreduce(&refused, &total_refused, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (world_rank == 0)
        printf("test_datatypes: %d ranks, %d calls (summed over ranks), %d refused by the MPI "
               "library, %d failures\n",
               np, total_calls, total_refused, total_fail);
    for (int i = 1; i < NLAYOUT; i++)
        MPI_Type_free(&layouts[i].type);
    MPI_Finalize();
    return total_fail ? 1 : 0;
}
