/*
 * allreduce: the table (from allreduce.def), the data model the checker uses, and the
 * entry point.
 */
#include "allreduce_algos.h"
#include "../../core/runtime.h"
#include "../../../include/mpicoll.h"

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, restrictions, fallback, params, summary) \
    { #name, id, allreduce_##name, restrictions, fallback, params, summary },
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

int mpicoll_allreduce_with(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    vec_call v = { &allreduce_desc, algorithm, sendbuf, recvbuf, count, datatype, op, -1, comm };
    return veccoll_call(&v);
}

int mpicoll_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm)
{
    return mpicoll_allreduce_with(NULL, sendbuf, recvbuf, count, datatype, op, comm);
}
