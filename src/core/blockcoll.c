/*
 * The entry path shared by the collectives whose data is blocks of equal
 * size per rank (allgather, alltoall): argument checks, selection, the
 * plan, datatype packing, MPI_IN_PLACE, execution.
 */
#include "runtime.h"

#include <string.h>

static int check_args(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = check_comm(comm);
    if (rc == MPI_SUCCESS)
        rc = check_count_type(rcount, rtype);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_count_type(scount, stype);
    if (rc != MPI_SUCCESS)
        return rc;
    int rsize, ssize = 0;
    if (PMPI_Type_size(rtype, &rsize) != MPI_SUCCESS ||
        (sbuf != MPI_IN_PLACE && PMPI_Type_size(stype, &ssize) != MPI_SUCCESS))
        return MPI_ERR_TYPE;
    if (sbuf != MPI_IN_PLACE && (long long)ssize * scount != (long long)rsize * rcount)
        return MPI_ERR_TRUNCATE;
    if (rcount > 0 && rsize > 0 && !rbuf)
        return MPI_ERR_BUFFER;
    if (sbuf != MPI_IN_PLACE && scount > 0 && ssize > 0 && !sbuf)
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Scratch layout: [TMP | packed receive buffer | packed or copied send data]. */
static int run(const coll_desc *c, const char *spec, const void *sbuf, int scount,
               MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
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
        return MPI_SUCCESS;
    const coll_shape shape = { .p = p, .rank = me, .block = B };
    const size_t send_len = c->send_bytes(&shape), recv_len = c->recv_bytes(&shape);
    const int send_blocks = (int)(send_len / B), recv_blocks = (int)(recv_len / B);
    /* In place, either SEND lies inside RECV (the plan knows), or the plan
     * runs on a copy of the receive buffer's initial contents. */
    const int plan_inplace = inplace && c->inplace_offset;

    call_info ci = { .p = p, .nnodes = 1, .bytes = B, .commutative = 1 };
    const ready_plan *rp;
    plan_args pa = { .block = B, .esize = 1, .commutative = 1, .inplace = plan_inplace };
    rc = comm_state_prepare(st, c, spec, &ci, pa, &rp);
    if (rc != MPI_SUCCESS)
        return rc;

    const int pack_recv = !rv.contig;
    const int own_send = (inplace && !plan_inplace) || (!inplace && !sv.contig);
    size_t tmp_len = align64(rp->pl.tmp_bytes), precv_len = pack_recv ? align64(recv_len) : 0;
    char *scratch = comm_state_scratch(st, tmp_len + precv_len + (own_send ? send_len : 0));
    if (!scratch)
        return MPI_ERR_NO_MEM;
    void *bufs[PLAN_NBUF];
    bufs[BUF_TMP] = scratch;
    bufs[BUF_RECV] = pack_recv ? scratch + tmp_len : (char *)rbuf + rv.true_lb;
    char *own_buf = scratch + tmp_len + precv_len;
    if (plan_inplace) {
        size_t off = c->inplace_offset(&shape);
        bufs[BUF_SEND] = (char *)bufs[BUF_RECV] + off;
        if (pack_recv)
            rc = dt_pack((char *)rbuf + (MPI_Aint)(off / B) * rcount * rv.extent,
                         send_blocks * rcount, rtype, bufs[BUF_SEND], send_len);
    } else if (inplace) {
        bufs[BUF_SEND] = own_buf;
        if (pack_recv)
            rc = dt_pack(rbuf, send_blocks * rcount, rtype, own_buf, send_len);
        else
            memcpy(own_buf, bufs[BUF_RECV], send_len);
    } else if (!sv.contig) {
        bufs[BUF_SEND] = own_buf;
        rc = dt_pack(sbuf, send_blocks * scount, stype, own_buf, send_len);
    } else {
        bufs[BUF_SEND] = (char *)sbuf + sv.true_lb;
    }
    if (rc == MPI_SUCCESS)
        rc = comm_state_run(st, c, rp, bufs, NULL);
    if (rc == MPI_SUCCESS && pack_recv)
        rc = dt_unpack(bufs[BUF_RECV], recv_len, rbuf, recv_blocks * rcount, rtype);
    return rc;
}

int blockcoll_call(const coll_desc *c, const char *spec, const void *sbuf, int scount,
                   MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = check_args(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    if (rc == MPI_SUCCESS)
        rc = run(c, spec, sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return mpicoll_raise(rc == MPI_ERR_COMM ? MPI_COMM_NULL : comm, rc);
}
