/*
 * bcast: the table (from bcast.def), the data model the checker uses, and the
 * entry point.
 */
#include "bcast_algos.h"
#include "../../core/runtime.h"
#include "../../../include/mpicoll.h"

static const algo_param knomial_params[] = {
    { "k", 4, 2, 1 << 20, "radix: a rank with the data sends to up to k-1 ranks per round" },
    { NULL, 0, 0, 0, NULL },
};

/* native has no builder: the MPI library runs it (R_NATIVE) */
#define bcast_native NULL

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    { #name, id, aliases, bcast_##name, restrictions, fallback, params, summary },
#include "bcast.def"
#undef MPICOLL_ALGO
};

extern const char mpicoll_bcast_rules[];   /* bcast.rules, embedded */

/* One buffer: the root's n bytes (SEND, which is its RECV) to every rank. */
static size_t at_root(const coll_shape *s) { return s->rank == s->root ? s->block : 0; }
static size_t vector(const coll_shape *s) { return s->block; }
static size_t root_in_place(const coll_shape *s) { return s->rank == s->root ? 0 : NO_ALIAS; }
static int64_t roots_byte(const coll_shape *s, size_t i)
{
    return (int64_t)s->root * (int64_t)s->block + (int64_t)i;
}

const coll_desc bcast_desc = {
    .name = "bcast",
    .env = "MPICOLL_BCAST",
    .tag = 5,
    .algos = algos,
    .nalgos = (int)(sizeof algos / sizeof algos[0]),
    .builtin_rules = mpicoll_bcast_rules,
    .send_bytes = at_root,
    .recv_bytes = vector,
    .inplace_offset = root_in_place,
    .expect_label = roots_byte,
    .rooted = 1,
};

static int call(const char *algorithm, void *buffer, int count, MPI_Datatype datatype,
                int root, MPI_Comm comm, mpicoll_request *request, int persistent)
{
    vec_call v = { &bcast_desc, algorithm, MPI_IN_PLACE, buffer, count, datatype, MPI_OP_NULL,
                   root, comm };
    call_mode mode = { request, persistent };
    return veccoll_call(&v, &mode);
}

int mpicoll_bcast_with(const char *algorithm, void *buffer, int count, MPI_Datatype datatype,
                       int root, MPI_Comm comm)
{
    return call(algorithm, buffer, count, datatype, root, comm, NULL, 0);
}

int mpicoll_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return call(NULL, buffer, count, datatype, root, comm, NULL, 0);
}

int mpicoll_ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, buffer, count, datatype, root, comm, request, 0);
}

int mpicoll_bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                       mpicoll_request *request)
{
    if (!request)
        return mpicoll_raise(comm, MPI_ERR_ARG);
    return call(NULL, buffer, count, datatype, root, comm, request, 1);
}
