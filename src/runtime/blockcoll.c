/*
 * The entry path shared by the collectives whose data is blocks of equal
 * size per rank (allgather, alltoall): argument checks, selection, the
 * plan, datatype packing, MPI_IN_PLACE, execution; or, when the selection
 * chose native, the MPI library's own collective with the user's
 * arguments (src/runtime/native.c).
 */
#include "entry.h"
#include "select.h"
#include "dtype.h"
#include "native.h"
#include "errors.h"

#include <string.h>

/* MPI's argument checks, all local: the communicator, counts and types,
 * the signatures of the two sides, MPI_IN_PLACE as a send buffer only,
 * NULL buffers that hold data, and overlapping send and receive data. */
static int check_args(const coll_desc *c, const void *sbuf, int scount, MPI_Datatype stype,
                      void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    const int inplace = sbuf == MPI_IN_PLACE;
    int rc = check_comm(comm);
    if (rc == MPI_SUCCESS)
        rc = check_count_type(rcount, rtype);
    if (rc == MPI_SUCCESS && !inplace)
        rc = check_count_type(scount, stype);
    if (rc == MPI_SUCCESS && !inplace)
        rc = check_signatures(scount, stype, rcount, rtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    int p, me;
    PMPI_Comm_size(comm, &p);
    PMPI_Comm_rank(comm, &me);
    /* the elements each buffer holds: the data model counts blocks */
    const coll_shape unit = { .p = p, .rank = me, .block = 1 };
    const size_t nrecv = c->recv_bytes(&unit) * (size_t)rcount;
    const size_t nsend = inplace ? 0 : c->send_bytes(&unit) * (size_t)scount;
    rc = check_buffer(rbuf, nrecv, rtype);
    if (rc == MPI_SUCCESS && !inplace)
        rc = check_buffer(sbuf, nsend, stype);
    if (rc == MPI_SUCCESS && !inplace)
        rc = check_disjoint(sbuf, nsend, stype, rbuf, nrecv, rtype);
    return rc;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Scratch layout: [TMP | packed receive buffer | packed or copied send data]. */
static int run(const coll_desc *c, const char *spec, const void *sbuf, int scount,
               MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
               const call_mode *mode)
{
    const int inplace = sbuf == MPI_IN_PLACE;
    comm_state *st;
    dt_view rv, sv = { 0 };
    int rc = comm_state_get(comm, &st);
    if (rc == MPI_SUCCESS)
        rc = dt_view_get(rtype, &rv);
    if (rc == MPI_SUCCESS && !inplace)
        rc = dt_view_get(stype, &sv);
    if (rc != MPI_SUCCESS)
        return rc;
    const int p = comm_state_size(st), me = comm_state_rank(st);
    const size_t B = (size_t)rv.size * (size_t)rcount;
    if (B == 0)
        return call_empty(mode, st, c);
    const coll_shape shape = { .p = p, .rank = me, .block = B };
    const size_t send_len = c->send_bytes(&shape), recv_len = c->recv_bytes(&shape);
    const size_t send_blocks = send_len / B, recv_blocks = recv_len / B;
    /* In place, either SEND lies inside RECV (the plan knows), or the plan
     * runs on a copy of the receive buffer's initial contents. */
    const int plan_inplace = inplace && c->inplace_offset;

    const int pack_recv = !rv.contig;
    const int own_send = (inplace && !plan_inplace) || (!inplace && !sv.contig);
    coll_call call = { .coll = c, .st = st };
    call_info ci = { .p = p, .nnodes = 1, .bytes = B, .commutative = 1 };
    plan_args pa = { .block = B, .esize = 1, .commutative = 1, .inplace = plan_inplace };
    rc = select_prepare(st, c, spec, &ci, pa, &call.rp, call_own_plan(mode));
    if (rc != MPI_SUCCESS)
        return rc;
    if (!call.rp) {     /* native: the MPI library's own, with the user's arguments */
        const native_args na = { c, sbuf, scount, stype, rbuf, rcount, rtype, MPI_OP_NULL, -1,
                                 comm, NULL, NULL };
        return call_native(mode, st, &na);
    }
    size_t tmp_len = align64(call.rp->pl.tmp_bytes), precv_len = pack_recv ? align64(recv_len) : 0;
    char *scratch = call_scratch(mode, st, tmp_len + precv_len + (own_send ? send_len : 0));
    if (!scratch)
        return MPI_ERR_NO_MEM;
    call.bufs[BUF_TMP] = scratch;
    call.bufs[BUF_RECV] = pack_recv ? scratch + tmp_len : (char *)rbuf + rv.true_lb;
    char *own_buf = scratch + tmp_len + precv_len;
    copy_step *pre = &call.pre;
    if (plan_inplace) {
        size_t off = c->inplace_offset(&shape);
        call.bufs[BUF_SEND] = (char *)call.bufs[BUF_RECV] + off;
        if (pack_recv)
            *pre = (copy_step){ COPY_PACK, (char *)rbuf + (MPI_Aint)(off / B) * rcount * rv.extent,
                                call.bufs[BUF_SEND], send_len, send_blocks * (size_t)rcount, 0,
                                rtype, MPI_DATATYPE_NULL };
    } else if (inplace) {
        call.bufs[BUF_SEND] = own_buf;
        *pre = pack_recv ? (copy_step){ COPY_PACK, rbuf, own_buf, send_len,
                                        send_blocks * (size_t)rcount, 0, rtype, MPI_DATATYPE_NULL }
                         : (copy_step){ COPY_BYTES, call.bufs[BUF_RECV], own_buf, send_len, 0, 0,
                                        MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    } else if (!sv.contig) {
        call.bufs[BUF_SEND] = own_buf;
        *pre = (copy_step){ COPY_PACK, sbuf, own_buf, send_len, send_blocks * (size_t)scount, 0,
                            stype, MPI_DATATYPE_NULL };
    } else {
        call.bufs[BUF_SEND] = (char *)sbuf + sv.true_lb;
    }
    if (pack_recv)
        call.post = (copy_step){ COPY_UNPACK, call.bufs[BUF_RECV], rbuf, recv_len,
                                 recv_blocks * (size_t)rcount, 0, MPI_DATATYPE_NULL, rtype };
    return call_launch(mode, &call);
}

int blockcoll_call(const coll_desc *c, const char *spec, const void *sbuf, int scount,
                   MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                   const call_mode *mode)
{
    req_t *nbreq = NULL;
    call_mode nb = { &nbreq, 0 };
    mode = call_mode_for(c, spec, mode, &nb);
    int rc = check_args(c, sbuf, scount, stype, rbuf, rcount, rtype, comm);
    if (rc == MPI_SUCCESS && mode->req)
        rc = request_new(mode->req);
    if (rc == MPI_SUCCESS)
        rc = run(c, spec, sbuf, scount, stype, rbuf, rcount, rtype, comm, mode);
    if (rc != MPI_SUCCESS)
        call_abandon(mode);
    else if (mode == &nb)
        rc = request_run_once(&nbreq);
    return mpicoll_raise(comm, rc);
}
