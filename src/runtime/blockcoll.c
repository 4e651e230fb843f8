/*
 * The entry path (entry.h: blockcoll_path) of the collectives whose data
 * is blocks of equal size per rank (allgather, alltoall, and with a root
 * gather and scatter): argument checks, selection, the plan, datatype
 * packing, MPI_IN_PLACE, execution; or, when the selection chose native,
 * the MPI library's own collective with the user's arguments
 * (src/runtime/native.c).
 */
#include "entry.h"
#include "select.h"
#include "dtype.h"
#include "native.h"
#include "errors.h"

#include <string.h>

/* What the call holds on this rank. The data model says which sides carry
 * data here: a rooted collective's non-roots have no receive data (gather)
 * or no send data (scatter), and those arguments are not significant:
 * never read nor checked. MPI_IN_PLACE is the send buffer (allgather,
 * alltoall, gather's root: the rank's block at its place in the receive
 * buffer) or, for scatter's root (coll_desc.inplace_recv), the receive
 * buffer: its block stays in its send buffer. */
typedef struct sides {
    size_t su, ru;      /* blocks sent and received (the data model at block = 1) */
    int inplace;        /* MPI_IN_PLACE where this rank may pass it */
    int use_send, use_recv; /* the user's send (receive) buffer, count and type are read */
} sides;

static sides sides_of(const coll_args *a, int p, int me)
{
    const coll_desc *c = a->coll;
    const plan_args unit = { .p = p, .rank = me, .root = a->root, .block = 1 };
    sides s = { .su = c->send_bytes(&unit), .ru = c->recv_bytes(&unit) };
    const int recv_side = c->inplace_recv;
    s.inplace = s.su && s.ru &&
                (recv_side ? a->rbuf == MPI_IN_PLACE : a->sbuf == MPI_IN_PLACE);
    s.use_send = s.su && !(s.inplace && !recv_side);
    s.use_recv = s.ru && !(s.inplace && recv_side);
    return s;
}

/* MPI's argument checks, all local: the root, counts and types, the
 * signatures of the two sides, MPI_IN_PLACE only where the rank may pass
 * it, NULL buffers that hold data, and overlapping send and receive data;
 * each only where it is significant. */
static int check_args(const coll_args *a, int p, int me)
{
    const coll_desc *c = a->coll;
    int rc;
    CHECK(c->rooted && (a->root < 0 || a->root >= p) ? MPI_ERR_ROOT : MPI_SUCCESS);
    const sides s = sides_of(a, p, me);
    if (s.use_recv)
        CHECK(check_count_type(a->rcount, a->rtype));
    if (s.use_send)
        CHECK(check_count_type(a->scount, a->stype));
    if (s.use_send && s.use_recv)
        CHECK(check_signatures(a->scount, a->stype, a->rcount, a->rtype));
    if ((s.use_recv && a->rbuf == MPI_IN_PLACE) || (s.use_send && a->sbuf == MPI_IN_PLACE))
        CHECK(MPI_ERR_BUFFER);
    /* the elements each buffer holds: the data model counts blocks */
    const size_t nrecv = s.use_recv ? s.ru * (size_t)a->rcount : 0;
    const size_t nsend = s.use_send ? s.su * (size_t)a->scount : 0;
    if (s.use_recv)
        CHECK(check_buffer(a->rbuf, nrecv, a->rtype));
    if (s.use_send)
        CHECK(check_buffer(a->sbuf, nsend, a->stype));
    if (s.use_send && s.use_recv)
        CHECK(check_disjoint(a->sbuf, nsend, a->stype, a->rbuf, nrecv, a->rtype));
out:
    return rc;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Scratch layout: [TMP | packed (or, scatter's root in place, own) receive
 * buffer | packed or copied send data]. */
static int run(const coll_args *a, const call_mode *mode, comm_state *st)
{
    const coll_desc *c = a->coll;
    const int p = comm_state_size(st), me = comm_state_rank(st), root = a->root;
    const sides s = sides_of(a, p, me);
    dt_view rv = { 0 }, sv = { 0 };
    int rc = MPI_SUCCESS;
    if (s.use_recv)
        rc = dt_view_get(a->rtype, &rv);
    if (rc == MPI_SUCCESS && s.use_send)
        rc = dt_view_get(a->stype, &sv);
    if (rc != MPI_SUCCESS)
        return rc;
    /* the block, from a side that is significant here (every rank has one) */
    const size_t B = s.use_recv ? (size_t)rv.size * (size_t)a->rcount
                                : (size_t)sv.size * (size_t)a->scount;
    if (B == 0)
        return call_empty(mode, st, c);
    const plan_args shape = { .p = p, .rank = me, .root = root, .block = B };
    const size_t send_len = c->send_bytes(&shape), recv_len = c->recv_bytes(&shape);
    const size_t send_blocks = send_len / B, recv_blocks = recv_len / B;
    /* In place, either SEND lies inside RECV (the plan knows), or the plan
     * runs on a copy of the receive buffer's initial contents; or (scatter's
     * root) RECV is scratch, where the plan's copy of the rank's own block
     * lands unused. */
    const int send_inplace = s.inplace && !s.use_send;
    const int own_recv = s.inplace && !s.use_recv;
    const int plan_inplace = send_inplace && c->inplace_offset;

    const int pack_recv = s.use_recv && !rv.contig;
    const int own_send = (send_inplace && !plan_inplace) || (s.use_send && !sv.contig);
    coll_call call = { .coll = c, .st = st };
    call_info ci = { .p = p, .nnodes = 1, .bytes = B, .commutative = 1 };
    plan_args pa = { .block = B, .esize = 1, .root = root, .commutative = 1,
                     .inplace = plan_inplace };
    rc = select_prepare(st, c, a->spec, &ci, pa, &call.rp, call_own_plan(mode));
    if (rc != MPI_SUCCESS)
        return rc;
    if (!call.rp) {     /* native: the MPI library's own, with the user's arguments (but
                         * for those not significant here: no handle a persistent request
                         * would keep of a type the program need not have made valid) */
        coll_args na = *a;
        if (!s.su) {
            na.sbuf = NULL;
            na.scount = 0;
            na.stype = MPI_DATATYPE_NULL;
        }
        if (!s.ru) {
            na.rbuf = NULL;
            na.rcount = 0;
            na.rtype = MPI_DATATYPE_NULL;
        }
        return call_native(mode, st, &na);
    }
    size_t tmp_len = align64(call.rp->pl.tmp_bytes);
    size_t precv_len = pack_recv || own_recv ? align64(recv_len) : 0;
    char *scratch = call_scratch(mode, st, tmp_len + precv_len + (own_send ? send_len : 0));
    if (!scratch)
        return MPI_ERR_NO_MEM;
    call.bufs[BUF_TMP] = scratch;
    call.bufs[BUF_RECV] = pack_recv || own_recv ? scratch + tmp_len
                        : s.use_recv ? (char *)a->rbuf + rv.true_lb : NULL;
    char *own_buf = scratch + tmp_len + precv_len;
    copy_step *pre = &call.pre;
    if (plan_inplace) {
        size_t off = c->inplace_offset(&shape);
        call.bufs[BUF_SEND] = (char *)call.bufs[BUF_RECV] + off;
        if (pack_recv)
            *pre = (copy_step){ COPY_PACK,
                                (char *)a->rbuf + (MPI_Aint)(off / B) * a->rcount * rv.extent,
                                call.bufs[BUF_SEND], send_len, send_blocks * (size_t)a->rcount,
                                0, a->rtype, MPI_DATATYPE_NULL };
    } else if (send_inplace) {
        call.bufs[BUF_SEND] = own_buf;
        *pre = pack_recv ? (copy_step){ COPY_PACK, a->rbuf, own_buf, send_len,
                                        send_blocks * (size_t)a->rcount, 0, a->rtype,
                                        MPI_DATATYPE_NULL }
                         : (copy_step){ COPY_BYTES, call.bufs[BUF_RECV], own_buf, send_len, 0, 0,
                                        MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    } else if (!s.use_send) {
        call.bufs[BUF_SEND] = NULL;     /* scatter's non-roots send nothing */
    } else if (!sv.contig) {
        call.bufs[BUF_SEND] = own_buf;
        *pre = (copy_step){ COPY_PACK, a->sbuf, own_buf, send_len,
                            send_blocks * (size_t)a->scount, 0, a->stype, MPI_DATATYPE_NULL };
    } else {
        call.bufs[BUF_SEND] = (char *)a->sbuf + sv.true_lb;
    }
    if (pack_recv)
        call.post = (copy_step){ COPY_UNPACK, call.bufs[BUF_RECV], a->rbuf, recv_len,
                                 recv_blocks * (size_t)a->rcount, 0, MPI_DATATYPE_NULL,
                                 a->rtype };
    return call_launch(mode, &call);
}

const entry_path blockcoll_path = { check_args, run, NULL };
