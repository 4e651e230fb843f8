/*
 * reduce_scatter_block: the table (from reduce_scatter_block.def), the data model the checker uses, and the
 * entry point.
 */
#include "reduce_scatter_block_algos.h"
#include "../../core/runtime.h"
#include "../../../include/mpicoll.h"

static const algo_param recursive_multiplying_params[] = {
    { "k", 4, 2, 1 << 20, "radix: each step sends parts of the vector to k-1 peers" },
    { NULL, 0, 0, 0, NULL },
};

/* native has no builder: the MPI library runs it (R_NATIVE) */
#define reduce_scatter_block_native NULL

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    { #name, id, aliases, reduce_scatter_block_##name, restrictions, fallback, params, summary },
#include "reduce_scatter_block.def"
#undef MPICOLL_ALGO
};

extern const char mpicoll_reduce_scatter_block_rules[];   /* reduce_scatter_block.rules, embedded */

/* Every rank sends p blocks of `block` bytes; rank r receives block r
 * reduced over all ranks. */
static size_t all_blocks(const coll_shape *s) { return (size_t)s->p * s->block; }
static size_t one_block(const coll_shape *s) { return s->block; }
static int64_t my_block(const coll_shape *s, size_t i)
{
    return (int64_t)((size_t)s->rank * s->block + i);
}

const coll_desc reduce_scatter_block_desc = {
    .name = "reduce_scatter_block",
    .env = "MPICOLL_REDUCE_SCATTER_BLOCK",
    .tag = 6,
    .algos = algos,
    .nalgos = (int)(sizeof algos / sizeof algos[0]),
    .builtin_rules = mpicoll_reduce_scatter_block_rules,
    .send_bytes = all_blocks,
    .recv_bytes = one_block,
    /* MPI_IN_PLACE: the entry point runs the plan on a copy of the
     * receive buffer (which holds p blocks), so builders never see it. */
    .inplace_offset = NULL,
    .expect_label = my_block,
    .reduction = 1,
};

static int call(const char *algorithm, const void *sendbuf, void *recvbuf, int recvcount,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, mpicoll_request *request,
                int persistent)
{
    vec_call v = { &reduce_scatter_block_desc, algorithm, sendbuf, recvbuf, recvcount,
                   datatype, op, -1, comm };
    call_mode mode = { request, persistent };
    return veccoll_call(&v, &mode);
}

int mpicoll_reduce_scatter_block_with(const char *algorithm, const void *sendbuf,
                                      void *recvbuf, int recvcount, MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm)
{
    return call(algorithm, sendbuf, recvbuf, recvcount, datatype, op, comm, NULL, 0);
}

int mpicoll_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return call(NULL, sendbuf, recvbuf, recvcount, datatype, op, comm, NULL, 0);
}

int mpicoll_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, recvbuf, recvcount, datatype, op, comm, request, 0);
}

int mpicoll_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, sendbuf, recvbuf, recvcount, datatype, op, comm, request, 1);
}
