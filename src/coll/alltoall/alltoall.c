/*
 * alltoall: the table (from alltoall.def and ../table.h) and the data
 * model the checker uses. The entry points are src/api/entry.c's.
 */
#include "alltoall_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(linear_sync,
            { "max_requests", 8, 2, 1 << 20, "sends + receives in flight per round" });

ALGO_PARAMS(radix_bruck,
            { "radix", 4, 2, 1 << 20, "digits in base radix: radix-1 steps per digit place" },
            { "multiport", 0, 0, 1, "1: a digit place's radix-1 messages in flight together, one step per place" });

#define COLL alltoall
#include "../table.h"

/* Block j of rank r's result is block r of rank j's send data. */
static int64_t expect_label(const expect_args *e, size_t i)
{
    const plan_args *a = &e->call;
    size_t j = i / a->block, x = i % a->block;
    return (int64_t)(j * (size_t)a->p * a->block + (size_t)a->rank * a->block + x);
}

/* MPI_IN_PLACE: the entry point runs the plan on a copy of the receive
 * buffer, so builders never see it (inplace_offset is NULL). */
const coll_desc alltoall_desc = {
    COLL_TABLE_FIELDS("MPICOLL_ALLTOALL", 2),
    .send_bytes = model_p_blocks, .recv_bytes = model_p_blocks,
    .inplace_offset = NULL, .expect_label = expect_label,
};
