/*
 * The entry path of the collectives with counts per rank (allgatherv):
 * argument checks, selection, the plan, datatypes, MPI_IN_PLACE,
 * execution; or, when the selection chose native, the MPI library's own
 * collective with the user's arguments (src/runtime/native.c).
 *
 * Plans see rank r's block as count[r] bytes at displ[r] of RECV, the
 * blocks tiling RECV (plan_args count, displ). When the user's blocks do
 * (a contiguous type, no gap between them, in any order), RECV is the
 * user's buffer; otherwise the plan runs on a packed copy in rank order,
 * unpacked at the end through one indexed datatype, so that bytes between
 * the blocks are never written.
 */
#include "entry.h"
#include "select.h"
#include "dtype.h"
#include "native.h"
#include "errors.h"

#include <stdlib.h>
#include <string.h>

/* MPI's argument checks, all local. */
static int check_args(const vcoll_args *v, int p, int me)
{
    const int inplace = v->sbuf == MPI_IN_PLACE;
    if (!v->rcounts || !v->displs)
        return MPI_ERR_ARG;
    int rc = MPI_SUCCESS;
    size_t total = 0;
    for (int r = 0; r < p && rc == MPI_SUCCESS; r++) {
        rc = check_count_type(v->rcounts[r], v->rtype);
        total += (size_t)(v->rcounts[r] > 0 ? v->rcounts[r] : 0);
    }
    if (rc == MPI_SUCCESS && !inplace)
        rc = check_count_type(v->scount, v->stype);
    if (rc == MPI_SUCCESS && !inplace)
        rc = check_signatures(v->scount, v->stype, v->rcounts[me], v->rtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (v->rbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    rc = check_buffer(v->rbuf, total ? 1 : 0, v->rtype);
    if (rc == MPI_SUCCESS && !inplace)
        rc = check_buffer(v->sbuf, (size_t)v->scount, v->stype);
    /* the send data apart from the span of the receive blocks */
    MPI_Aint lb, extent;
    long long lo = 0, hi = 0;
    for (int r = 0, any = 0; r < p; r++) {
        if (v->rcounts[r] <= 0)
            continue;
        long long a = v->displs[r], b = a + v->rcounts[r];
        lo = any && lo < a ? lo : a;
        hi = any && hi > b ? hi : b;
        any = 1;
    }
    if (rc == MPI_SUCCESS && !inplace && hi > lo &&
        PMPI_Type_get_extent(v->rtype, &lb, &extent) == MPI_SUCCESS)
        rc = check_disjoint(v->sbuf, (size_t)v->scount, v->stype,
                            (const char *)v->rbuf + (MPI_Aint)lo * extent, (size_t)(hi - lo),
                            v->rtype);
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
static int layout(const vcoll_args *v, int p, const dt_view *rv, size_t *count, size_t *displ,
                  MPI_Aint *first)
{
    placed *at = malloc((size_t)(p ? p : 1) * sizeof *at);
    if (!at)
        return -1;
    int n = 0;
    for (int r = 0; r < p; r++) {
        count[r] = (size_t)v->rcounts[r] * (size_t)rv->size;
        if (count[r])
            at[n++] = (placed){ (MPI_Aint)v->displs[r] * rv->extent, r };
    }
    qsort(at, (size_t)n, sizeof *at, by_start);
    int tiles = rv->contig;
    for (int i = 1; i < n && tiles; i++)
        tiles = at[i].start == at[i - 1].start + (MPI_Aint)count[at[i - 1].rank];
    *first = n ? at[0].start : 0;
    free(at);
    size_t off = 0;
    for (int r = 0; r < p; r++) {
        displ[r] = !count[r] ? 0 : tiles ? (size_t)((MPI_Aint)v->displs[r] * rv->extent - *first)
                                         : off;
        off += count[r];
    }
    return tiles;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Scratch layout: [TMP | packed receive buffer | packed send data]. */
static int run(const vcoll_args *v, const call_mode *mode, comm_state *st, size_t *count,
               size_t *displ, MPI_Datatype *indexed)
{
    const coll_desc *c = v->coll;
    const int inplace = v->sbuf == MPI_IN_PLACE;
    const int p = comm_state_size(st), me = comm_state_rank(st);
    dt_view rv, sv = { 0 };
    int rc = dt_view_get(v->rtype, &rv);
    if (rc == MPI_SUCCESS && !inplace)
        rc = dt_view_get(v->stype, &sv);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Aint first;
    const int direct = layout(v, p, &rv, count, displ, &first);
    if (direct < 0)
        return MPI_ERR_NO_MEM;
    size_t total = 0;
    for (int r = 0; r < p; r++)
        total += count[r];
    if (total == 0)
        return call_empty(mode, st, c);
    coll_call call = { .coll = c, .st = st };
    call_info ci = { .p = p, .nnodes = 1, .bytes = total / (size_t)p, .commutative = 1 };
    plan_args pa = { .block = total / (size_t)p, .esize = 1, .commutative = 1,
                     .inplace = inplace, .count = count, .displ = displ };
    rc = select_prepare(st, c, v->spec, &ci, pa, &call.rp, call_own_plan(mode));
    if (rc != MPI_SUCCESS)
        return rc;
    if (!call.rp) {     /* native: the MPI library's own, with the user's arguments */
        const native_args na = { .coll = c, .sbuf = v->sbuf, .scount = v->scount,
                                 .stype = v->stype, .rbuf = v->rbuf, .rtype = v->rtype,
                                 .op = MPI_OP_NULL, .root = -1, .comm = v->comm,
                                 .rcounts = v->rcounts, .rdispls = v->displs };
        return call_native(mode, st, &na);
    }
    const size_t own = count[me];
    const int own_send = !inplace && !sv.contig;
    size_t tmp_len = align64(call.rp->pl.tmp_bytes), precv_len = direct ? 0 : align64(total);
    char *scratch = call_scratch(mode, st, tmp_len + precv_len + (own_send ? own : 0));
    if (!scratch)
        return MPI_ERR_NO_MEM;
    call.bufs[BUF_TMP] = scratch;
    call.bufs[BUF_RECV] = direct ? (char *)v->rbuf + rv.true_lb + first : scratch + tmp_len;
    char *own_buf = scratch + tmp_len + precv_len;
    char *user_own = (char *)v->rbuf + (MPI_Aint)v->displs[me] * rv.extent;
    if (inplace) {
        call.bufs[BUF_SEND] = (char *)call.bufs[BUF_RECV] + displ[me];
        if (!direct && own)
            call.pre = (copy_step){ COPY_PACK, user_own, call.bufs[BUF_SEND], own,
                                    (size_t)v->rcounts[me], 0, v->rtype, MPI_DATATYPE_NULL };
    } else if (own_send) {
        call.bufs[BUF_SEND] = own_buf;
        call.pre = (copy_step){ COPY_PACK, v->sbuf, own_buf, own, (size_t)v->scount, 0,
                                v->stype, MPI_DATATYPE_NULL };
    } else {
        call.bufs[BUF_SEND] = (char *)v->sbuf + sv.true_lb;
    }
    if (!direct) {      /* every block to its place, and nothing between them */
        rc = PMPI_Type_indexed(p, v->rcounts, v->displs, v->rtype, indexed);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Type_commit(indexed);
        if (rc != MPI_SUCCESS)
            return rc;
        call.post = (copy_step){ COPY_UNPACK, call.bufs[BUF_RECV], v->rbuf, total, 1, 0,
                                 MPI_DATATYPE_NULL, *indexed };
    }
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
    int p = 0, me = 0;
    int rc = check_comm(v->comm);
    if (rc == MPI_SUCCESS) {
        PMPI_Comm_size(v->comm, &p);
        PMPI_Comm_rank(v->comm, &me);
        rc = check_args(v, p, me);
    }
    if (rc == MPI_SUCCESS && mode->req)
        rc = request_new(mode->req);
    if (rc == MPI_SUCCESS)
        rc = comm_state_get(v->comm, &st);
    if (rc == MPI_SUCCESS && !(counts = malloc(2 * (size_t)p * sizeof *counts)))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = run(v, mode, st, counts, counts + p, &indexed);
    if (rc != MPI_SUCCESS)
        call_abandon(mode);
    else if (mode == &nb)
        rc = request_run_once(&nbreq);
    if (indexed != MPI_DATATYPE_NULL)   /* a request keeps a duplicate */
        PMPI_Type_free(&indexed);
    free(counts);
    return mpicoll_raise(v->comm, rc);
}
