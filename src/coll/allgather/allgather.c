/*
 * allgather: the table (from allgather.def), the data model the checker
 * uses, and the entry point.
 */
#include "allgather_algos.h"
#include "../../core/runtime.h"
#include "../../../include/mpicoll.h"

#include <stdio.h>

static const algo_param k_bruck_params[] = {
    { "k", 4, 2, 1 << 20, "radix: blocks go to k-1 peers per step" },
    { NULL, 0, 0, 0, NULL },
};

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, restrictions, fallback, params, summary) \
    { #name, id, allgather_##name, restrictions, fallback, params, summary },
#include "allgather.def"
#undef MPICOLL_ALGO
};

extern const char mpicoll_allgather_rules[];   /* allgather.rules, embedded */

static size_t send_bytes(int p, size_t block) { (void)p; return block; }
static size_t recv_bytes(int p, size_t block) { return (size_t)p * block; }
static size_t inplace_offset(int p, int rank, size_t block) { (void)p; return (size_t)rank * block; }
/* Byte i of the result is byte i % block of rank i / block: label i. */
static int64_t expect_label(int p, int rank, size_t block, size_t i)
{
    (void)p, (void)rank, (void)block;
    return (int64_t)i;
}

const coll_desc allgather_desc = {
    .name = "allgather",
    .env = "MPICOLL_ALLGATHER",
    .tag = 1,
    .algos = algos,
    .nalgos = (int)(sizeof algos / sizeof algos[0]),
    .builtin_rules = mpicoll_allgather_rules,
    .send_bytes = send_bytes,
    .recv_bytes = recv_bytes,
    .inplace_offset = inplace_offset,
    .expect_label = expect_label,
};

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

/* Scratch layout: [TMP | packed receive buffer | packed send block]. */
static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static int run(const char *spec, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, MPI_Comm comm)
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

    choice ch;
    char err[512];
    rc = select_choose(&allgather_desc, spec, 1, p, B, &ch, err, sizeof err);
    if (rc != MPI_SUCCESS) {
        if (me == 0)
            mpicoll_print_error(err);
        return rc;
    }
    select_log(&allgather_desc, &ch, p, B, me);
    const plan *pl;
    MPI_Request *reqs;
    rc = comm_state_plan(st, &allgather_desc, &ch, B, inplace, &pl, &reqs);
    if (rc != MPI_SUCCESS)
        return rc;

    const int pack_recv = !rv.contig, pack_send = !inplace && !sv.contig;
    size_t tmp_len = align64(pl->tmp_bytes), recv_len = pack_recv ? align64((size_t)p * B) : 0;
    char *scratch = comm_state_scratch(st, tmp_len + recv_len + (pack_send ? B : 0));
    if (!scratch)
        return MPI_ERR_NO_MEM;
    void *bufs[PLAN_NBUF];
    char *own = (char *)rbuf + (MPI_Aint)me * rcount * rv.extent;
    bufs[BUF_TMP] = scratch;
    bufs[BUF_RECV] = pack_recv ? scratch + tmp_len : (char *)rbuf + rv.true_lb;
    if (inplace) {
        bufs[BUF_SEND] = (char *)bufs[BUF_RECV] + (size_t)me * B;
        if (pack_recv)
            rc = dt_pack(own, rcount, rtype, bufs[BUF_SEND], B);
    } else if (pack_send) {
        bufs[BUF_SEND] = scratch + tmp_len + recv_len;
        rc = dt_pack(sbuf, scount, stype, bufs[BUF_SEND], B);
    } else {
        bufs[BUF_SEND] = (char *)sbuf + sv.true_lb;
    }
    if (rc == MPI_SUCCESS)
        rc = exec_plan(pl, bufs, comm_state_comm(st), allgather_desc.tag, reqs);
    if (rc == MPI_SUCCESS && pack_recv)
        rc = dt_unpack(bufs[BUF_RECV], (size_t)p * B, rbuf, p * rcount, rtype);
    return rc;
}

int mpicoll_allgather_with(const char *algorithm, const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc = check_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    if (rc == MPI_SUCCESS)
        rc = run(algorithm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return mpicoll_raise(rc == MPI_ERR_COMM ? MPI_COMM_NULL : comm, rc);
}

int mpicoll_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return mpicoll_allgather_with(NULL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                  recvtype, comm);
}
