/*
 * allgather: the table (from allgather.def), the data model the checker
 * uses, and the entry point.
 */
#include "allgather_algos.h"
#include "../../core/runtime.h"
#include "../../../include/mpicoll.h"


static const algo_param k_bruck_params[] = {
    { "k", 4, 2, 1 << 20, "radix: blocks go to k-1 peers per step" },
    { NULL, 0, 0, 0, NULL },
};

static const algo_param recursive_multiplying_params[] = {
    { "k", 4, 2, 1 << 20, "largest radix: blocks go to up to k-1 peers per step" },
    { NULL, 0, 0, 0, NULL },
};

/* native has no builder: the MPI library runs it (R_NATIVE) */
#define allgather_native NULL

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    { #name, id, aliases, allgather_##name, restrictions, fallback, params, summary },
#include "allgather.def"
#undef MPICOLL_ALGO
};

extern const char mpicoll_allgather_rules[];   /* allgather.rules, embedded */

static size_t send_bytes(const coll_shape *s) { return s->block; }
static size_t recv_bytes(const coll_shape *s) { return (size_t)s->p * s->block; }
static size_t inplace_offset(const coll_shape *s) { return (size_t)s->rank * s->block; }
/* Byte i of the result is byte i % block of rank i / block: label i. */
static int64_t expect_label(const coll_shape *s, size_t i)
{
    (void)s;
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

static int call(const char *algorithm, const void *sendbuf, int sendcount,
                MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                MPI_Comm comm, mpicoll_request *request, int persistent)
{
    call_mode mode = { request, persistent };
    return blockcoll_call(&allgather_desc, algorithm, sendbuf, sendcount, sendtype, recvbuf,
                          recvcount, recvtype, comm, &mode);
}

int mpicoll_allgather_with(const char *algorithm, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm)
{
    return call(algorithm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                NULL, 0);
}

int mpicoll_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return call(NULL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL, 0);
}

int mpicoll_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                   mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                request, 0);
}

int mpicoll_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                request, 1);
}
