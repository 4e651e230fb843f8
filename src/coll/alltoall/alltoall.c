/*
 * alltoall: the table (from alltoall.def), the data model the checker
 * uses, and the entry point.
 */
#include "alltoall_algos.h"
#include "../../core/runtime.h"
#include "../../../include/mpicoll.h"

static const algo_param linear_sync_params[] = {
    { "max_requests", 8, 2, 1 << 20, "sends + receives in flight per round" },
    { NULL, 0, 0, 0, NULL },
};

static const algo_param radix_bruck_params[] = {
    { "radix", 4, 2, 1 << 20, "digits in base radix: radix-1 steps per digit place" },
    { "multiport", 0, 0, 1, "1: a digit place's radix-1 messages in flight together, one step per place" },
    { NULL, 0, 0, 0, NULL },
};

/* native has no builder: the MPI library runs it (R_NATIVE) */
#define alltoall_native NULL

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    { #name, id, aliases, alltoall_##name, restrictions, fallback, params, summary },
#include "alltoall.def"
#undef MPICOLL_ALGO
};

extern const char mpicoll_alltoall_rules[];    /* alltoall.rules, embedded */

static size_t all_blocks(const coll_shape *s) { return (size_t)s->p * s->block; }
/* Block j of rank r's result is block r of rank j's send data. */
static int64_t expect_label(const coll_shape *s, size_t i)
{
    size_t j = i / s->block, x = i % s->block;
    return (int64_t)(j * (size_t)s->p * s->block + (size_t)s->rank * s->block + x);
}

const coll_desc alltoall_desc = {
    .name = "alltoall",
    .env = "MPICOLL_ALLTOALL",
    .tag = 2,
    .algos = algos,
    .nalgos = (int)(sizeof algos / sizeof algos[0]),
    .builtin_rules = mpicoll_alltoall_rules,
    .send_bytes = all_blocks,
    .recv_bytes = all_blocks,
    /* MPI_IN_PLACE: the entry point runs the plan on a copy of the receive
     * buffer, so builders never see it (inplace_offset is NULL). */
    .inplace_offset = NULL,
    .expect_label = expect_label,
};

static int call(const char *algorithm, const void *sendbuf, int sendcount,
                MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                MPI_Comm comm, mpicoll_request *request, int persistent)
{
    call_mode mode = { request, persistent };
    return blockcoll_call(&alltoall_desc, algorithm, sendbuf, sendcount, sendtype, recvbuf,
                          recvcount, recvtype, comm, &mode);
}

int mpicoll_alltoall_with(const char *algorithm, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm)
{
    return call(algorithm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                NULL, 0);
}

int mpicoll_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return call(NULL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL, 0);
}

int mpicoll_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                   mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                request, 0);
}

int mpicoll_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                request, 1);
}
