/*
 * The entry path of the collectives with counts per pair of ranks on both
 * sides (alltoallv): argument checks, selection, the plan, datatypes,
 * MPI_IN_PLACE, execution; or, when the selection chose native, the MPI
 * library's own collective with the user's arguments (src/runtime/native.c).
 *
 * Plans see the block to rank d as scount[d] bytes at sdispl[d] of SEND and
 * the block from rank s as count[s] bytes at displ[s] of RECV (plan_args),
 * the blocks of each side tiling its buffer. Each side is the user's buffer
 * when its blocks tile it (a contiguous type, no gap, any order: vcoll.c's
 * layout), otherwise a packed copy in rank order, packed (send) or unpacked
 * (receive) through one indexed datatype, so that bytes between the blocks
 * are never read or written. MPI_IN_PLACE: the plan runs on a copy of the
 * receive buffer's blocks as its send data (MPI's in-place alltoallv
 * sends what the receive buffer holds, sendcounts = recvcounts), taken
 * before any byte is received; no plan sees in place.
 *
 * The counts differ from rank to rank, so the selection sees bytes=0 on
 * every rank (rules by size could choose differently on two ranks), and a
 * rank whose blocks are all empty still takes part (the others may send
 * to it, and the selection may be collective).
 */
#include "entry.h"
#include "select.h"
#include "dtype.h"
#include "native.h"
#include "errors.h"

#include <stdlib.h>

/* MPI's argument checks, all local: the counts of both sides, this rank's
 * own pair's signatures, the buffers, and send data apart from the
 * receive blocks. */
static int check_args(const vxcoll_args *v, int p, int me)
{
    const int inplace = v->sbuf == MPI_IN_PLACE;
    if (!v->rcounts || !v->rdispls || (!inplace && (!v->scounts || !v->sdispls)))
        return MPI_ERR_ARG;
    int rc = MPI_SUCCESS;
    size_t rtotal = 0, stotal = 0;
    for (int r = 0; r < p && rc == MPI_SUCCESS; r++) {
        rc = check_count_type(v->rcounts[r], v->rtype);
        rtotal += (size_t)(v->rcounts[r] > 0 ? v->rcounts[r] : 0);
        if (rc == MPI_SUCCESS && !inplace) {
            rc = check_count_type(v->scounts[r], v->stype);
            stotal += (size_t)(v->scounts[r] > 0 ? v->scounts[r] : 0);
        }
    }
    if (rc == MPI_SUCCESS && !inplace)
        rc = check_signatures(v->scounts[me], v->stype, v->rcounts[me], v->rtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (v->rbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    rc = check_buffer(v->rbuf, rtotal ? 1 : 0, v->rtype);
    if (rc == MPI_SUCCESS && !inplace)
        rc = check_buffer(v->sbuf, stotal ? 1 : 0, v->stype);
    long long slo, shi, rlo, rhi;
    MPI_Aint lb, sext, rext;
    if (rc != MPI_SUCCESS || inplace)
        return rc;
    counts_span(v->scounts, v->sdispls, p, &slo, &shi);
    counts_span(v->rcounts, v->rdispls, p, &rlo, &rhi);
    if (shi > slo && rhi > rlo && PMPI_Type_get_extent(v->stype, &lb, &sext) == MPI_SUCCESS &&
        PMPI_Type_get_extent(v->rtype, &lb, &rext) == MPI_SUCCESS)
        rc = check_disjoint((const char *)v->sbuf + (MPI_Aint)slo * sext, (size_t)(shi - slo),
                            v->stype, (const char *)v->rbuf + (MPI_Aint)rlo * rext,
                            (size_t)(rhi - rlo), v->rtype);
    return rc;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* One side's blocks in bytes (c: count, displ; p each) and where the plan
 * sees them: the user's buffer (direct) or a packed copy. */
typedef struct vxside {
    size_t *count, *displ, total;
    int direct;
    MPI_Aint first;
    dt_view view;
} vxside;

static int side_get(const int *counts, const int *displs, MPI_Datatype t, int p, size_t *buf,
                    vxside *s)
{
    int rc = dt_view_get(t, &s->view);
    if (rc != MPI_SUCCESS)
        return rc;
    s->count = buf;
    s->displ = buf + p;
    if ((s->direct = vcoll_layout(counts, displs, p, &s->view, s->count, s->displ,
                                  &s->first)) < 0)
        return MPI_ERR_NO_MEM;
    s->total = 0;
    for (int r = 0; r < p; r++)
        s->total += s->count[r];
    return MPI_SUCCESS;
}

/* The indexed type of one side's blocks, committed. */
static int indexed_of(int p, const int *counts, const int *displs, MPI_Datatype t,
                      MPI_Datatype *out)
{
    int rc = PMPI_Type_indexed(p, counts, displs, t, out);
    return rc == MPI_SUCCESS ? PMPI_Type_commit(out) : rc;
}

/* Scratch layout: [TMP | packed receive blocks | packed or copied send data]. */
static int run(const vxcoll_args *v, const call_mode *mode, comm_state *st, size_t *counts,
               MPI_Datatype *rindexed, MPI_Datatype *sindexed)
{
    const coll_desc *c = v->coll;
    const int inplace = v->sbuf == MPI_IN_PLACE;
    const int p = comm_state_size(st);
    vxside rs, ss;
    int rc = side_get(v->rcounts, v->rdispls, v->rtype, p, counts, &rs);
    if (rc == MPI_SUCCESS && !inplace)
        rc = side_get(v->scounts, v->sdispls, v->stype, p, counts + 2 * (size_t)p, &ss);
    if (rc != MPI_SUCCESS)
        return rc;
    if (inplace)        /* the send data: a copy of the receive blocks, laid out alike */
        ss = (vxside){ .count = rs.count, .displ = rs.displ, .total = rs.total };
    coll_call call = { .coll = c, .st = st };
    call_info ci = { .p = p, .nnodes = 1, .bytes = 0, .commutative = 1 };
    plan_args pa = { .block = 0, .esize = 1, .commutative = 1, .count = rs.count,
                     .displ = rs.displ, .scount = ss.count, .sdispl = ss.displ };
    rc = select_prepare(st, c, v->spec, &ci, pa, &call.rp, call_own_plan(mode));
    if (rc != MPI_SUCCESS)
        return rc;
    if (!call.rp) {     /* native: the MPI library's own, with the user's arguments */
        const native_args na = { .coll = c, .sbuf = v->sbuf, .stype = v->stype, .rbuf = v->rbuf,
                                 .rtype = v->rtype, .op = MPI_OP_NULL, .root = -1,
                                 .comm = v->comm, .rcounts = v->rcounts, .rdispls = v->rdispls,
                                 .scounts = v->scounts, .sdispls = v->sdispls };
        return call_native(mode, st, &na);
    }
    const int rpack = !rs.direct && rs.total, spack = (inplace || !ss.direct) && ss.total;
    const size_t tmp_len = align64(call.rp->pl.tmp_bytes), rlen = rpack ? align64(rs.total) : 0;
    char *scratch = call_scratch(mode, st, tmp_len + rlen + (spack ? ss.total : 0));
    if (!scratch)
        return MPI_ERR_NO_MEM;
    call.bufs[BUF_TMP] = scratch;
    call.bufs[BUF_RECV] = rpack ? scratch + tmp_len : (char *)v->rbuf + rs.view.true_lb + rs.first;
    call.bufs[BUF_SEND] = spack ? scratch + tmp_len + rlen
                                : (char *)v->sbuf + ss.view.true_lb + ss.first;
    if (rpack) {        /* every block to its place, nothing between them */
        if ((rc = indexed_of(p, v->rcounts, v->rdispls, v->rtype, rindexed)) != MPI_SUCCESS)
            return rc;
        call.post = (copy_step){ COPY_UNPACK, call.bufs[BUF_RECV], v->rbuf, rs.total, 1, 0,
                                 MPI_DATATYPE_NULL, *rindexed };
    }
    if (inplace && rpack)       /* the receive blocks, packed as the plan's send data */
        call.pre = (copy_step){ COPY_PACK, v->rbuf, call.bufs[BUF_SEND], ss.total, 1, 0,
                                *rindexed, MPI_DATATYPE_NULL };
    else if (inplace && ss.total)   /* the receive blocks tile their range: one copy */
        call.pre = (copy_step){ COPY_BYTES, (char *)v->rbuf + rs.view.true_lb + rs.first,
                                call.bufs[BUF_SEND], ss.total, 0, 0, MPI_DATATYPE_NULL,
                                MPI_DATATYPE_NULL };
    else if (spack) {
        if ((rc = indexed_of(p, v->scounts, v->sdispls, v->stype, sindexed)) != MPI_SUCCESS)
            return rc;
        call.pre = (copy_step){ COPY_PACK, v->sbuf, call.bufs[BUF_SEND], ss.total, 1, 0,
                                *sindexed, MPI_DATATYPE_NULL };
    }
    return call_launch(mode, &call);
}

int vxcoll_call(const vxcoll_args *v, const call_mode *mode)
{
    req_t *nbreq = NULL;
    call_mode nb = { &nbreq, 0 };
    mode = call_mode_for(v->coll, v->spec, mode, &nb);
    comm_state *st = NULL;
    size_t *counts = NULL;
    MPI_Datatype rindexed = MPI_DATATYPE_NULL, sindexed = MPI_DATATYPE_NULL;
    int p = 0, me = 0, rc;
    CHECK(check_comm(v->comm));
    PMPI_Comm_size(v->comm, &p);
    PMPI_Comm_rank(v->comm, &me);
    CHECK(check_args(v, p, me));
    if (mode->req)
        CHECK(request_new(mode->req));
    CHECK(comm_state_get(v->comm, &st));
    CHECK((counts = malloc(4 * (size_t)p * sizeof *counts)) ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    CHECK(run(v, mode, st, counts, &rindexed, &sindexed));
out:
    rc = call_finish(mode, &nb, rc);
    if (rindexed != MPI_DATATYPE_NULL)  /* a request keeps a duplicate */
        PMPI_Type_free(&rindexed);
    if (sindexed != MPI_DATATYPE_NULL)
        PMPI_Type_free(&sindexed);
    free(counts);
    return mpicoll_raise(v->comm, rc);
}
