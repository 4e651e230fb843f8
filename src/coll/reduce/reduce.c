/*
 * reduce: the table (from reduce.def), the data model the checker uses, and the
 * entry point.
 */
#include "reduce_algos.h"
#include "../../core/runtime.h"
#include "../../../include/mpicoll.h"

static const algo_param knomial_params[] = {
    { "k", 4, 2, 1 << 20, "radix: a rank receives up to k-1 partial results per round" },
    { "prepost", 0, 0, 1, "1: a rank receives all its children's partial results in one round and reduces them when all are in (MVAPICH2's k-nomial reduce)" },
    { NULL, 0, 0, 0, NULL },
};

/* native has no builder: the MPI library runs it (R_NATIVE) */
#define reduce_native NULL

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    { #name, id, aliases, reduce_##name, restrictions, fallback, params, summary },
#include "reduce.def"
#undef MPICOLL_ALGO
};

extern const char mpicoll_reduce_rules[];   /* reduce.rules, embedded */

/* Every rank sends an n-byte vector; the root receives their reduction. */
static size_t vector(const coll_shape *s) { return s->block; }
static size_t at_root(const coll_shape *s) { return s->rank == s->root ? s->block : 0; }
static size_t root_in_place(const coll_shape *s) { return s->rank == s->root ? 0 : NO_ALIAS; }
static int64_t position(const coll_shape *s, size_t i) { (void)s; return (int64_t)i; }

const coll_desc reduce_desc = {
    .name = "reduce",
    .env = "MPICOLL_REDUCE",
    .tag = 4,
    .algos = algos,
    .nalgos = (int)(sizeof algos / sizeof algos[0]),
    .builtin_rules = mpicoll_reduce_rules,
    .send_bytes = vector,
    .recv_bytes = at_root,
    .inplace_offset = root_in_place,
    .expect_label = position,
    .reduction = 1,
    .rooted = 1,
};

static int call(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                mpicoll_request *request, int persistent)
{
    vec_call v = { &reduce_desc, algorithm, sendbuf, recvbuf, count, datatype, op, root, comm };
    call_mode mode = { request, persistent };
    return veccoll_call(&v, &mode);
}

int mpicoll_reduce_with(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    return call(algorithm, sendbuf, recvbuf, count, datatype, op, root, comm, NULL, 0);
}

int mpicoll_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm)
{
    return call(NULL, sendbuf, recvbuf, count, datatype, op, root, comm, NULL, 0);
}

int mpicoll_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, recvbuf, count, datatype, op, root, comm, request, 0);
}

int mpicoll_reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, int root, MPI_Comm comm, mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, recvbuf, count, datatype, op, root, comm, request, 1);
}
