/*
 * allreduce: the table (from allreduce.def), the data model the checker uses, and the
 * entry point.
 */
#include "allreduce_algos.h"
#include "../../core/runtime.h"
#include "../../../include/mpicoll.h"

static const algo_param segmented_ring_params[] = {
    { "segsize", 65536, 1, 1 << 30, "bytes of one ring block of a chunk (a pipelined segment)" },
    { NULL, 0, 0, 0, NULL },
};

static const algo_param recursive_multiplying_params[] = {
    { "k", 4, 2, 1 << 20, "radix: whole vectors go to k-1 peers per step" },
    { NULL, 0, 0, 0, NULL },
};

/* native has no builder: the MPI library runs it (R_NATIVE) */
#define allreduce_native NULL

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    { #name, id, aliases, allreduce_##name, restrictions, fallback, params, summary },
#include "allreduce.def"
#undef MPICOLL_ALGO
};

extern const char mpicoll_allreduce_rules[];   /* allreduce.rules, embedded */

/* Every rank: an n-byte vector in, the reduction of all of them out. */
static size_t vector(const coll_shape *s) { return s->block; }
static size_t at_start(const coll_shape *s) { (void)s; return 0; }
static int64_t position(const coll_shape *s, size_t i) { (void)s; return (int64_t)i; }

const coll_desc allreduce_desc = {
    .name = "allreduce",
    .env = "MPICOLL_ALLREDUCE",
    .tag = 3,
    .algos = algos,
    .nalgos = (int)(sizeof algos / sizeof algos[0]),
    .builtin_rules = mpicoll_allreduce_rules,
    .send_bytes = vector,
    .recv_bytes = vector,
    .inplace_offset = at_start,
    .expect_label = position,
    .reduction = 1,
};

static int call(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, mpicoll_request *request,
                int persistent)
{
    vec_call v = { &allreduce_desc, algorithm, sendbuf, recvbuf, count, datatype, op, -1, comm };
    call_mode mode = { request, persistent };
    return veccoll_call(&v, &mode);
}

int mpicoll_allreduce_with(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return call(algorithm, sendbuf, recvbuf, count, datatype, op, comm, NULL, 0);
}

int mpicoll_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm)
{
    return call(NULL, sendbuf, recvbuf, count, datatype, op, comm, NULL, 0);
}

int mpicoll_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, recvbuf, count, datatype, op, comm, request, 0);
}

int mpicoll_allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, recvbuf, count, datatype, op, comm, request, 1);
}
