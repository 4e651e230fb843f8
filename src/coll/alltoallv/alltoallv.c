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
static size_t send_all(const plan_args *a)
{
    size_t n = 0;
    for (int d = 0; d < a->p; d++)
        n += args_scount(a, d);
    return n;
}

/* Byte x of the block from rank q is q's send byte sdispl(q, rank) + x,
 * labelled q * S + sdispl(q, rank) + x, S (e->stride) the longest send
 * data of any rank (symbolic.c). */
static int64_t expect_label(const expect_args *e, size_t i)
{
    const plan_args *a = &e->call;
    const size_t p = (size_t)a->p;
    if (!a->count) {
        size_t j = i / a->block, x = i % a->block;
        return (int64_t)(j * p * a->block + (size_t)a->rank * a->block + x);
    }
    for (size_t q = 0; q < p; q++)
        if (i >= a->displ[q] && i - a->displ[q] < a->count[q])
            return (int64_t)(q * e->stride + e->all_sdispl[q * p + (size_t)a->rank] +
                             (i - a->displ[q]));
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
