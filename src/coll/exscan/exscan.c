/*
 * exscan: the table (from exscan.def and ../table.h) and the data model
 * the checker uses. The entry points are src/api/entry.c's.
 */
#include "exscan_algos.h"
#include "../../model/coll.h"

#define COLL exscan
#include "../table.h"

/* MPI leaves rank 0's receive buffer undefined, and mpicoll leaves it as
 * it is: the model gives rank 0 none, so that a plan writing there fails
 * the checker (out of its buffer). In place, rank 0's input is the
 * receive buffer's, which the entry point copies out (NO_ALIAS). */
static size_t not_rank0(const plan_args *a)
{
    return a->rank == 0 ? 0 : a->block;
}

static size_t in_place_not_rank0(const plan_args *a)
{
    return a->rank == 0 ? NO_ALIAS : 0;
}

/* Rank r's result holds the contributions of ranks 0..r-1. */
static void prefix_before(const plan_args *a, int *lo, int *hi)
{
    *lo = 0;
    *hi = a->rank - 1;
}

/* Every rank sends an n-byte vector; rank r > 0 receives the reduction of
 * ranks 0..r-1. */
const coll_desc exscan_desc = {
    COLL_TABLE_FIELDS("MPICOLL_EXSCAN", 8),
    .send_bytes = model_block, .recv_bytes = not_rank0,
    .inplace_offset = in_place_not_rank0, .expect_label = model_position,
    .expect_ranks = prefix_before, .reduction = 1,
};
