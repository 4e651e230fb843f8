/*
 * The entry path (entry.h: vcoll_path) of the collectives with counts per
 * rank on one side: allgatherv and gatherv (the receive side's counts and
 * displacements), scatterv (the send side's): argument checks, selection,
 * the plan, datatypes, MPI_IN_PLACE, execution; or, when the selection
 * chose native, the MPI library's own collective with the user's
 * arguments (src/runtime/native.c).
 *
 * Plans see rank r's block as count[r] bytes at displ[r] of the counted
 * buffer (RECV, or SEND for scatterv), the blocks tiling it (plan_args
 * count, displ). When the user's blocks do (a contiguous type, no gap
 * between them, in any order), that buffer is the user's; otherwise the
 * plan runs on a packed copy in rank order, packed or unpacked through one
 * indexed datatype, so that bytes between the blocks are never touched.
 * The counts are significant on every rank for allgatherv, at the root
 * only for gatherv and scatterv: there the other ranks' plans get no
 * counts, and their own block is plan_args.block (args_count).
 */
#include "entry.h"
#include "select.h"
#include "dtype.h"
#include "native.h"
#include "errors.h"

#include <stdlib.h>
#include <string.h>

/* What this rank has of a call. The counted side is the receive side
 * (allgatherv, gatherv) or, for scatterv, the send side: the collective
 * whose root's MPI_IN_PLACE is its receive buffer (coll_desc.inplace_recv);
 * its counts and displacements are coll_args' rcounts and rdispls. */
typedef struct vside {
    int cs;                 /* the counted side is the send side (scatterv) */
    int rooted, sig;        /* a root's collective; the counts are significant here */
    int inplace;            /* MPI_IN_PLACE: for gatherv and allgatherv the send buffer
                             * (the block sits at its place in the receive buffer);
                             * for scatterv the root's receive buffer (nothing received) */
    int own;                /* this rank's own side (send for allgatherv, gatherv;
                             * receive for scatterv) is used */
    MPI_Datatype ct;        /* the counted side's type */
    void *cbuf;             /* the counted side's buffer */
    const void *obuf;       /* the own side's buffer, count and type */
    int on;
    MPI_Datatype ot;
} vside;

static vside side_of(const coll_args *a, int me)
{
    vside s = { .cs = a->coll->inplace_recv, .rooted = a->coll->rooted };
    s.sig = !s.rooted || me == a->root;
    s.ct = s.cs ? a->stype : a->rtype;
    s.cbuf = s.cs ? (void *)a->sbuf : a->rbuf;
    s.obuf = s.cs ? a->rbuf : a->sbuf;
    s.on = s.cs ? a->rcount : a->scount;
    s.ot = s.cs ? a->rtype : a->stype;
    s.inplace = s.sig && (s.cs ? a->rbuf == MPI_IN_PLACE : a->sbuf == MPI_IN_PLACE);
    s.own = !s.inplace;
    return s;
}

/* MPI's argument checks, all local, each where it is significant. */
static int check_args(const coll_args *a, int p, int me)
{
    int rc;
    CHECK(a->coll->rooted && (a->root < 0 || a->root >= p) ? MPI_ERR_ROOT : MPI_SUCCESS);
    const vside s = side_of(a, me);
    size_t total = 0;
    CHECK(s.sig && (!a->rcounts || !a->rdispls) ? MPI_ERR_ARG : MPI_SUCCESS);
    for (int r = 0; s.sig && r < p; r++) {
        CHECK(check_count_type(a->rcounts[r], s.ct));
        total += (size_t)(a->rcounts[r] > 0 ? a->rcounts[r] : 0);
    }
    /* the own side: what this rank sends (allgatherv, gatherv) or receives */
    if (s.own)
        CHECK(check_count_type(s.on, s.ot));
    if (s.own && s.sig)
        CHECK(s.cs ? check_signatures(a->rcounts[me], s.ct, s.on, s.ot)
                   : check_signatures(s.on, s.ot, a->rcounts[me], s.ct));
    /* MPI_IN_PLACE where this rank may not pass it */
    CHECK((s.sig && s.cbuf == MPI_IN_PLACE) || (s.own && s.obuf == MPI_IN_PLACE)
              ? MPI_ERR_BUFFER : MPI_SUCCESS);
    if (s.sig)
        CHECK(check_buffer(s.cbuf, total ? 1 : 0, s.ct));
    if (s.own)
        CHECK(check_buffer(s.obuf, (size_t)s.on, s.ot));
    /* the own data apart from the span of the counted blocks */
    MPI_Aint lb, extent;
    long long lo = 0, hi = 0;
    if (s.sig)
        counts_span(a->rcounts, a->rdispls, p, &lo, &hi);
    if (s.own && s.sig && hi > lo && PMPI_Type_get_extent(s.ct, &lb, &extent) == MPI_SUCCESS)
        CHECK(check_disjoint(s.obuf, (size_t)s.on, s.ot,
                             (const char *)s.cbuf + (MPI_Aint)lo * extent, (size_t)(hi - lo),
                             s.ct));
out:
    return rc;
}

typedef struct placed {
    MPI_Aint start;
    int rank;
} placed;

static int by_start(const void *x, const void *y)
{
    const placed *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* The blocks in bytes: count[r], and displ[r] from the lowest block when
 * they tile a range of the user's buffer (returns 1, *first: the lowest
 * block's offset in bytes), else in rank order (returns 0; -1: out of
 * memory). A block of no bytes lies at 0: plans skip it, and the plan
 * cache sees one key. */
int vcoll_layout(const int *counts, const int *displs, int p, const dt_view *cv, size_t *count,
                 size_t *displ, MPI_Aint *first)
{
    placed *at = malloc((size_t)(p ? p : 1) * sizeof *at);
    if (!at)
        return -1;
    int n = 0;
    for (int r = 0; r < p; r++) {
        count[r] = (size_t)counts[r] * (size_t)cv->size;
        if (count[r])
            at[n++] = (placed){ (MPI_Aint)displs[r] * cv->extent, r };
    }
    qsort(at, (size_t)n, sizeof *at, by_start);
    int tiles = cv->contig;
    for (int i = 1; i < n && tiles; i++)
        tiles = at[i].start == at[i - 1].start + (MPI_Aint)count[at[i - 1].rank];
    *first = n ? at[0].start : 0;
    free(at);
    size_t off = 0;
    for (int r = 0; r < p; r++) {
        displ[r] = !count[r] ? 0 : tiles ? (size_t)((MPI_Aint)displs[r] * cv->extent - *first)
                                         : off;
        off += count[r];
    }
    return tiles;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Scratch layout: [TMP | packed counted blocks | the own block]. */
static int run(const coll_args *a, const call_mode *mode, comm_state *st)
{
    const coll_desc *c = a->coll;
    const int p = comm_state_size(st), me = comm_state_rank(st);
    const vside s = side_of(a, me);
    const int cs = s.cs;
    size_t *count = NULL, *displ;   /* the blocks in bytes: vcoll_layout */
    MPI_Datatype indexed = MPI_DATATYPE_NULL;
    dt_view cv = { 0 }, ov = { 0 };
    MPI_Aint first = 0;
    int direct = 0, rc;
    size_t total = 0;
    if (s.sig)
        CHECK(dt_view_get(s.ct, &cv));
    if (s.own)
        CHECK(dt_view_get(s.ot, &ov));
    CHECK((count = malloc(2 * (size_t)p * sizeof *count)) ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    displ = count + p;
    if (s.sig)
        direct = vcoll_layout(a->rcounts, a->rdispls, p, &cv, count, displ, &first);
    CHECK(direct < 0 ? MPI_ERR_NO_MEM : MPI_SUCCESS);
    for (int r = 0; s.sig && r < p; r++)
        total += count[r];
    /* this rank's own block: its counted one, or what it sends or receives */
    const size_t own = s.sig ? count[me] : (size_t)s.on * (size_t)ov.size;
    /* every rank knows the whole call is empty only without a root (at
     * the root of gatherv and scatterv, a rank of 0 bytes still takes part
     * in the selection, which may be collective) */
    if (!s.rooted && total == 0) {
        rc = call_empty(mode, st, c);
        goto out;
    }
    coll_call call = { .coll = c, .st = st };
    call_info ci = { .p = p, .nnodes = 1, .bytes = s.rooted ? 0 : total / (size_t)p,
                     .commutative = 1 };
    plan_args pa = { .block = s.sig ? total / (size_t)p : own, .esize = 1, .commutative = 1,
                     .root = s.rooted ? a->root : 0, .inplace = s.inplace && !cs,
                     .count = s.sig ? count : NULL, .displ = s.sig ? displ : NULL };
    CHECK(select_prepare(st, c, a->spec, &ci, pa, &call.rp, call_own_plan(mode)));
    if (!call.rp) {     /* native: the MPI library's own, with the user's arguments */
        rc = call_native(mode, st, a);
        goto out;
    }
    const int cpack = s.sig && !direct && total;            /* the counted blocks packed */
    const int opack = s.own && own && !ov.contig;           /* the own block packed */
    const int oscr = opack || (s.inplace && cs && own);     /* the own block in scratch */
    size_t tmp_len = align64(call.rp->pl.tmp_bytes), cb_len = cpack ? align64(total) : 0;
    char *scratch = call_scratch(mode, st, tmp_len + cb_len + (oscr ? own : 0));
    CHECK(scratch ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    const int cb = cs ? BUF_SEND : BUF_RECV, ob = cs ? BUF_RECV : BUF_SEND;
    call.bufs[BUF_TMP] = scratch;
    if (s.sig)
        call.bufs[cb] = cpack ? scratch + tmp_len : (char *)s.cbuf + cv.true_lb + first;
    char *own_scr = scratch + tmp_len + cb_len;
    if (s.inplace && !cs) {     /* the own block at its place among the counted ones */
        call.bufs[ob] = (char *)call.bufs[cb] + displ[me];
    } else if (s.inplace) {     /* scatterv's root: receives nothing (a scratch block) */
        call.bufs[ob] = own_scr;
    } else if (own) {
        call.bufs[ob] = opack ? own_scr : (char *)s.obuf + ov.true_lb;
    }
    if (cpack) {        /* every block from or to its place, nothing between them */
        CHECK(PMPI_Type_indexed(p, a->rcounts, a->rdispls, s.ct, &indexed));
        CHECK(PMPI_Type_commit(&indexed));
        if (cs)
            call.pre = (copy_step){ COPY_PACK, a->sbuf, call.bufs[cb], total, 1, 0, indexed,
                                    MPI_DATATYPE_NULL };
        else
            call.post = (copy_step){ COPY_UNPACK, call.bufs[cb], a->rbuf, total, 1, 0,
                                     MPI_DATATYPE_NULL, indexed };
    }
    if (s.inplace && !cs && cpack && own)       /* the own block into the packed copy */
        call.pre = (copy_step){ COPY_PACK, (char *)a->rbuf + (MPI_Aint)a->rdispls[me] *
                                cv.extent, call.bufs[ob], own, (size_t)a->rcounts[me], 0, s.ct,
                                MPI_DATATYPE_NULL };
    else if (opack && !cs)
        call.pre = (copy_step){ COPY_PACK, a->sbuf, own_scr, own, (size_t)s.on, 0, s.ot,
                                MPI_DATATYPE_NULL };
    else if (opack)
        call.post = (copy_step){ COPY_UNPACK, own_scr, a->rbuf, own, (size_t)s.on, 0,
                                 MPI_DATATYPE_NULL, s.ot };
    CHECK(call_launch(mode, &call));
out:
    if (indexed != MPI_DATATYPE_NULL)   /* a request keeps a duplicate */
        PMPI_Type_free(&indexed);
    free(count);
    return rc;
}

const entry_path vcoll_path = { check_args, run, NULL };
