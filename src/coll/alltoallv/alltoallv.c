/*
 * alltoallv: the table (from alltoallv.def and ../table.h) and the data
 * model the checker uses. The entry points are src/api/entry.c's.
 */
#include "alltoallv_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(scattered,
            { "bblock", 32, 1, 1 << 20, "receives (and sends) posted per batch (MPICH's MPIR_CVAR_ALLTOALL_THROTTLE)" });

#define COLL alltoallv
#include "../table.h"

/* Rank s's send data to rank d: scount(s, d) bytes at sdispl(s, d) of its
 * send buffer; rank d receives them at its displ[s]. Without counts, as
 * alltoall: blocks of `block` bytes in rank order. */
static size_t send_all(const coll_shape *s)
{
    size_t n = 0;
    for (int d = 0; d < s->p; d++)
        n += s->scount ? s->scount[d] : s->block;
    return n;
}

/* Byte x of the block from rank q is q's send byte sdispl(q, rank) + x,
 * labelled q * S + sdispl(q, rank) + x, S the longest send data of any
 * rank (symbolic.c). */
static int64_t expect_label(const coll_shape *s, size_t i)
{
    const size_t p = (size_t)s->p;
    if (!s->count) {
        size_t j = i / s->block, x = i % s->block;
        return (int64_t)(j * p * s->block + (size_t)s->rank * s->block + x);
    }
    size_t most = s->stride;
    for (size_t q = 0; !s->stride && q < p; q++) {
        size_t n = 0;
        for (size_t d = 0; d < p; d++)
            n += s->all_scount[q * p + d];
        most = n > most ? n : most;
    }
    for (size_t q = 0; q < p; q++)
        if (i >= s->displ[q] && i - s->displ[q] < s->count[q])
            return (int64_t)(q * most + s->all_sdispl[q * p + (size_t)s->rank] +
                             (i - s->displ[q]));
    return EXPECT_ANY;
}

/* MPI_IN_PLACE: the entry point runs the plan on a copy of the send data
 * (the receive buffer's blocks), so builders never see it (inplace_offset
 * is NULL). */
const coll_desc alltoallv_desc = {
    COLL_TABLE_FIELDS("MPICOLL_ALLTOALLV", 17),
    .send_bytes = send_all, .recv_bytes = model_all_counts,
    .inplace_offset = NULL, .expect_label = expect_label,
    .counts = COUNTS_MATRIX,
};
