/*
 * The entry path of the collectives with counts per rank on one side:
 * allgatherv and gatherv (the receive side's counts and displacements),
 * scatterv (the send side's): argument checks, selection, the plan,
 * datatypes, MPI_IN_PLACE, execution; or, when the selection chose
 * native, the MPI library's own collective with the user's arguments
 * (src/runtime/native.c).
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

/* What this rank has of a call. */
typedef struct vside {
    int rooted, sig;        /* a root's collective; the counts are significant here */
    int inplace;            /* MPI_IN_PLACE: for gatherv and allgatherv the send buffer
                             * (the block sits at its place in the receive buffer);
                             * for scatterv the root's receive buffer (nothing received) */
    int own;                /* this rank's own side (send for allgatherv, gatherv;
                             * receive for scatterv) is used */
    MPI_Datatype ct;        /* the counted side's type */
    void *cbuf;             /* the counted side's buffer */
} vside;

static vside side_of(const vcoll_args *v, int me)
{
    vside s = { .rooted = v->coll->rooted };
    s.sig = !s.rooted || me == v->root;
    s.ct = v->counted_send ? v->stype : v->rtype;
    s.cbuf = v->counted_send ? (void *)v->sbuf : v->rbuf;
    s.inplace = s.sig && (v->counted_send ? v->rbuf == MPI_IN_PLACE : v->sbuf == MPI_IN_PLACE);
    s.own = !s.inplace;
    return s;
}

/* MPI's argument checks, all local, each where it is significant. */
static int check_args(const vcoll_args *v, int p, int me)
{
    if (v->coll->rooted && (v->root < 0 || v->root >= p))
        return MPI_ERR_ROOT;
    const vside s = side_of(v, me);
    int rc = MPI_SUCCESS;
    size_t total = 0;
    if (s.sig && (!v->counts || !v->displs))
        return MPI_ERR_ARG;
    for (int r = 0; s.sig && r < p && rc == MPI_SUCCESS; r++) {
        rc = check_count_type(v->counts[r], s.ct);
        total += (size_t)(v->counts[r] > 0 ? v->counts[r] : 0);
    }
    /* the own side: what this rank sends (allgatherv, gatherv) or receives */
    const void *obuf = v->counted_send ? v->rbuf : v->sbuf;
    const int on = v->counted_send ? v->rcount : v->scount;
    const MPI_Datatype ot = v->counted_send ? v->rtype : v->stype;
    if (rc == MPI_SUCCESS && s.own)
        rc = check_count_type(on, ot);
    if (rc == MPI_SUCCESS && s.own && s.sig)
        rc = v->counted_send ? check_signatures(v->counts[me], s.ct, on, ot)
                             : check_signatures(on, ot, v->counts[me], s.ct);
    if (rc != MPI_SUCCESS)
        return rc;
    /* MPI_IN_PLACE where this rank may not pass it */
    if ((s.sig && s.cbuf == MPI_IN_PLACE) || (s.own && obuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    if (s.sig)
        rc = check_buffer(s.cbuf, total ? 1 : 0, s.ct);
    if (rc == MPI_SUCCESS && s.own)
        rc = check_buffer(obuf, (size_t)on, ot);
    /* the own data apart from the span of the counted blocks */
    MPI_Aint lb, extent;
    long long lo = 0, hi = 0;
    if (s.sig)
        counts_span(v->counts, v->displs, p, &lo, &hi);
    if (rc == MPI_SUCCESS && s.own && s.sig && hi > lo &&
        PMPI_Type_get_extent(s.ct, &lb, &extent) == MPI_SUCCESS)
        rc = check_disjoint(obuf, (size_t)on, ot, (const char *)s.cbuf + (MPI_Aint)lo * extent,
                            (size_t)(hi - lo), s.ct);
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
static int run(const vcoll_args *v, const call_mode *mode, comm_state *st, size_t *count,
               size_t *displ, MPI_Datatype *indexed)
{
    const coll_desc *c = v->coll;
    const int p = comm_state_size(st), me = comm_state_rank(st), cs = v->counted_send;
    const vside s = side_of(v, me);
    const MPI_Datatype ot = cs ? v->rtype : v->stype;
    const int on = cs ? v->rcount : v->scount;
    dt_view cv = { 0 }, ov = { 0 };
    int rc = s.sig ? dt_view_get(s.ct, &cv) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS && s.own)
        rc = dt_view_get(ot, &ov);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Aint first = 0;
    int direct = 0;
    size_t total = 0;
    if (s.sig && (direct = vcoll_layout(v->counts, v->displs, p, &cv, count, displ, &first)) < 0)
        return MPI_ERR_NO_MEM;
    for (int r = 0; s.sig && r < p; r++)
        total += count[r];
    /* this rank's own block: its counted one, or what it sends or receives */
    const size_t own = s.sig ? count[me] : (size_t)on * (size_t)ov.size;
    /* every rank knows the whole call is empty only without a root (at
     * the root of gatherv and scatterv, a rank of 0 bytes still takes part
     * in the selection, which may be collective) */
    if (!s.rooted && total == 0)
        return call_empty(mode, st, c);
    coll_call call = { .coll = c, .st = st };
    call_info ci = { .p = p, .nnodes = 1, .bytes = s.rooted ? 0 : total / (size_t)p,
                     .commutative = 1 };
    plan_args pa = { .block = s.sig ? total / (size_t)p : own, .esize = 1, .commutative = 1,
                     .root = s.rooted ? v->root : 0, .inplace = s.inplace && !cs,
                     .count = s.sig ? count : NULL, .displ = s.sig ? displ : NULL };
    rc = select_prepare(st, c, v->spec, &ci, pa, &call.rp, call_own_plan(mode));
    if (rc != MPI_SUCCESS)
        return rc;
    if (!call.rp) {     /* native: the MPI library's own, with the user's arguments */
        const native_args na = { .coll = c, .sbuf = v->sbuf, .scount = v->scount,
                                 .stype = v->stype, .rbuf = v->rbuf, .rcount = v->rcount,
                                 .rtype = v->rtype, .op = MPI_OP_NULL, .root = v->root,
                                 .comm = v->comm, .rcounts = v->counts, .rdispls = v->displs };
        return call_native(mode, st, &na);
    }
    const int cpack = s.sig && !direct && total;            /* the counted blocks packed */
    const int opack = s.own && own && !ov.contig;           /* the own block packed */
    const int oscr = opack || (s.inplace && cs && own);     /* the own block in scratch */
    size_t tmp_len = align64(call.rp->pl.tmp_bytes), cb_len = cpack ? align64(total) : 0;
    char *scratch = call_scratch(mode, st, tmp_len + cb_len + (oscr ? own : 0));
    if (!scratch)
        return MPI_ERR_NO_MEM;
    const int cb = cs ? BUF_SEND : BUF_RECV, ob = cs ? BUF_RECV : BUF_SEND;
    call.bufs[BUF_TMP] = scratch;
    if (s.sig)
        call.bufs[cb] = cpack ? scratch + tmp_len : (char *)s.cbuf + cv.true_lb + first;
    char *own_scr = scratch + tmp_len + cb_len;
    const void *obuf = cs ? v->rbuf : v->sbuf;
    if (s.inplace && !cs) {     /* the own block at its place among the counted ones */
        call.bufs[ob] = (char *)call.bufs[cb] + displ[me];
    } else if (s.inplace) {     /* scatterv's root: receives nothing (a scratch block) */
        call.bufs[ob] = own_scr;
    } else if (own) {
        call.bufs[ob] = opack ? own_scr : (char *)obuf + ov.true_lb;
    }
    if (cpack) {        /* every block from or to its place, nothing between them */
        rc = PMPI_Type_indexed(p, v->counts, v->displs, s.ct, indexed);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Type_commit(indexed);
        if (rc != MPI_SUCCESS)
            return rc;
        if (cs)
            call.pre = (copy_step){ COPY_PACK, v->sbuf, call.bufs[cb], total, 1, 0, *indexed,
                                    MPI_DATATYPE_NULL };
        else
            call.post = (copy_step){ COPY_UNPACK, call.bufs[cb], v->rbuf, total, 1, 0,
                                     MPI_DATATYPE_NULL, *indexed };
    }
    if (s.inplace && !cs && cpack && own)       /* the own block into the packed copy */
        call.pre = (copy_step){ COPY_PACK, (char *)v->rbuf + (MPI_Aint)v->displs[me] *
                                cv.extent, call.bufs[ob], own, (size_t)v->counts[me], 0, s.ct,
                                MPI_DATATYPE_NULL };
    else if (opack && !cs)
        call.pre = (copy_step){ COPY_PACK, v->sbuf, own_scr, own, (size_t)on, 0, ot,
                                MPI_DATATYPE_NULL };
    else if (opack)
        call.post = (copy_step){ COPY_UNPACK, own_scr, v->rbuf, own, (size_t)on, 0,
                                 MPI_DATATYPE_NULL, ot };
    return call_launch(mode, &call);
}

int vcoll_call(const vcoll_args *v, const call_mode *mode)
{
    req_t *nbreq = NULL;
    call_mode nb = { &nbreq, 0 };
    mode = call_mode_for(v->coll, v->spec, mode, &nb);
    comm_state *st = NULL;
    size_t *counts = NULL;
    MPI_Datatype indexed = MPI_DATATYPE_NULL;
    int p = 0, me = 0, rc;
    CHECK(check_comm(v->comm));
    PMPI_Comm_size(v->comm, &p);
    PMPI_Comm_rank(v->comm, &me);
    CHECK(check_args(v, p, me));
    if (mode->req)
        CHECK(request_new(mode->req));
    CHECK(comm_state_get(v->comm, &st));
    CHECK((counts = malloc(2 * (size_t)p * sizeof *counts)) ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    CHECK(run(v, mode, st, counts, counts + p, &indexed));
out:
    rc = call_finish(mode, &nb, rc);
    if (indexed != MPI_DATATYPE_NULL)   /* a request keeps a duplicate */
        PMPI_Type_free(&indexed);
    free(counts);
    return mpicoll_raise(v->comm, rc);
}
