/*
 * alltoall: the table (from alltoall.def), the data model the checker
 * uses, and the entry point.
 */
#include "alltoall_algos.h"
#include "../../core/runtime.h"
#include "../../../include/mpicoll.h"

static const coll_algo algos[] = {
#define MPICOLL_ALGO(name, id, restrictions, fallback, params, summary) \
    { #name, id, alltoall_##name, restrictions, fallback, params, summary },
#include "alltoall.def"
#undef MPICOLL_ALGO
};

extern const char mpicoll_alltoall_rules[];    /* alltoall.rules, embedded */

static size_t all_blocks(int p, size_t block) { return (size_t)p * block; }
/* Block j of rank r's result is block r of rank j's send data. */
static int64_t expect_label(int p, int rank, size_t block, size_t i)
{
    size_t j = i / block, x = i % block;
    return (int64_t)(j * (size_t)p * block + (size_t)rank * block + x);
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

int mpicoll_alltoall_with(const char *algorithm, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm)
{
    return blockcoll_call(&alltoall_desc, algorithm, sendbuf, sendcount, sendtype, recvbuf,
                          recvcount, recvtype, comm);
}

int mpicoll_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return mpicoll_alltoall_with(NULL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                 recvtype, comm);
}
