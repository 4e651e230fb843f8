/*
 * The entry path (entry.h: vxcoll_path) of the collectives with counts
 * per pair of ranks on both sides (alltoallv): argument checks,
 * selection, the plan, datatypes, MPI_IN_PLACE, execution; or, when the
 * selection chose native, the MPI library's own collective with the
 * user's arguments (src/runtime/native.c).
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
static int check_args(const coll_args *a, int p, int me)
{
    const int inplace = a->sbuf == MPI_IN_PLACE;
    int rc;
    CHECK(!a->rcounts || !a->rdispls || (!inplace && (!a->scounts || !a->sdispls))
              ? MPI_ERR_ARG : MPI_SUCCESS);
    size_t rtotal = 0, stotal = 0;
    for (int r = 0; r < p; r++) {
        CHECK(check_count_type(a->rcounts[r], a->rtype));
        rtotal += (size_t)(a->rcounts[r] > 0 ? a->rcounts[r] : 0);
        if (!inplace) {
            CHECK(check_count_type(a->scounts[r], a->stype));
            stotal += (size_t)(a->scounts[r] > 0 ? a->scounts[r] : 0);
        }
    }
    if (!inplace)
        CHECK(check_signatures(a->scounts[me], a->stype, a->rcounts[me], a->rtype));
    CHECK(a->rbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS);
    CHECK(check_buffer(a->rbuf, rtotal ? 1 : 0, a->rtype));
    if (!inplace)
        CHECK(check_buffer(a->sbuf, stotal ? 1 : 0, a->stype));
    long long slo = 0, shi = 0, rlo = 0, rhi = 0;
    MPI_Aint lb, sext, rext;
    if (!inplace) {
        counts_span(a->scounts, a->sdispls, p, &slo, &shi);
        counts_span(a->rcounts, a->rdispls, p, &rlo, &rhi);
    }
    if (shi > slo && rhi > rlo && PMPI_Type_get_extent(a->stype, &lb, &sext) == MPI_SUCCESS &&
        PMPI_Type_get_extent(a->rtype, &lb, &rext) == MPI_SUCCESS)
        CHECK(check_disjoint((const char *)a->sbuf + (MPI_Aint)slo * sext, (size_t)(shi - slo),
                             a->stype, (const char *)a->rbuf + (MPI_Aint)rlo * rext,
                             (size_t)(rhi - rlo), a->rtype));
out:
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
static int run(const coll_args *a, const call_mode *mode, comm_state *st)
{
    const coll_desc *c = a->coll;
    const int inplace = a->sbuf == MPI_IN_PLACE;
    const int p = comm_state_size(st);
    size_t *counts = NULL;      /* both sides' blocks in bytes: side_get */
    MPI_Datatype rindexed = MPI_DATATYPE_NULL, sindexed = MPI_DATATYPE_NULL;
    vxside rs, ss;
    int rc;
    CHECK((counts = malloc(4 * (size_t)p * sizeof *counts)) ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    CHECK(side_get(a->rcounts, a->rdispls, a->rtype, p, counts, &rs));
    if (inplace)        /* the send data: a copy of the receive blocks, laid out alike */
        ss = (vxside){ .count = rs.count, .displ = rs.displ, .total = rs.total };
    else
        CHECK(side_get(a->scounts, a->sdispls, a->stype, p, counts + 2 * (size_t)p, &ss));
    coll_call call = { .coll = c, .st = st };
    call_info ci = { .p = p, .nnodes = 1, .bytes = 0, .commutative = 1 };
    plan_args pa = { .block = 0, .esize = 1, .commutative = 1, .count = rs.count,
                     .displ = rs.displ, .scount = ss.count, .sdispl = ss.displ };
    CHECK(select_prepare(st, c, a->spec, &ci, pa, &call.rp, call_own_plan(mode)));
    if (!call.rp) {     /* native: the MPI library's own, with the user's arguments */
        rc = call_native(mode, st, a);
        goto out;
    }
    const int rpack = !rs.direct && rs.total, spack = (inplace || !ss.direct) && ss.total;
    const size_t tmp_len = align64(call.rp->pl.tmp_bytes), rlen = rpack ? align64(rs.total) : 0;
    char *scratch = call_scratch(mode, st, tmp_len + rlen + (spack ? ss.total : 0));
    CHECK(scratch ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    call.bufs[BUF_TMP] = scratch;
    call.bufs[BUF_RECV] = rpack ? scratch + tmp_len : (char *)a->rbuf + rs.view.true_lb + rs.first;
    call.bufs[BUF_SEND] = spack ? scratch + tmp_len + rlen
                                : (char *)a->sbuf + ss.view.true_lb + ss.first;
    if (rpack) {        /* every block to its place, nothing between them */
        CHECK(indexed_of(p, a->rcounts, a->rdispls, a->rtype, &rindexed));
        call.post = (copy_step){ COPY_UNPACK, call.bufs[BUF_RECV], a->rbuf, rs.total, 1, 0,
                                 MPI_DATATYPE_NULL, rindexed };
    }
    if (inplace && rpack) {     /* the receive blocks, packed as the plan's send data */
        call.pre = (copy_step){ COPY_PACK, a->rbuf, call.bufs[BUF_SEND], ss.total, 1, 0,
                                rindexed, MPI_DATATYPE_NULL };
    } else if (inplace && ss.total) {   /* the receive blocks tile their range: one copy */
        call.pre = (copy_step){ COPY_BYTES, (char *)a->rbuf + rs.view.true_lb + rs.first,
                                call.bufs[BUF_SEND], ss.total, 0, 0, MPI_DATATYPE_NULL,
                                MPI_DATATYPE_NULL };
    } else if (spack) {
        CHECK(indexed_of(p, a->scounts, a->sdispls, a->stype, &sindexed));
        call.pre = (copy_step){ COPY_PACK, a->sbuf, call.bufs[BUF_SEND], ss.total, 1, 0,
                                sindexed, MPI_DATATYPE_NULL };
    }
    CHECK(call_launch(mode, &call));
out:
    if (rindexed != MPI_DATATYPE_NULL)  /* a request keeps a duplicate */
        PMPI_Type_free(&rindexed);
    if (sindexed != MPI_DATATYPE_NULL)
        PMPI_Type_free(&sindexed);
    free(counts);
    return rc;
}

const entry_path vxcoll_path = { check_args, run, NULL };
