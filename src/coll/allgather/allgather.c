/*
 * allgather: the table (from allgather.def and ../table.h) and the data
 * model the checker uses. The entry points are src/api/entry.c's.
 */
#include "allgather_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(k_bruck,
            { "k", 4, 2, 1 << 20, "radix: blocks go to k-1 peers per step" });

ALGO_PARAMS(recursive_multiplying,
            { "k", 4, 2, 1 << 20, "largest radix: blocks go to up to k-1 peers per step" });

#define COLL allgather
#include "../table.h"

/* Rank r's block lies at block r of the result; byte i of the result is
 * byte i % block of rank i / block: label i. */
static size_t own_block(const plan_args *a) { return (size_t)a->rank * a->block; }

const coll_desc allgather_desc = {
    COLL_TABLE_FIELDS("MPICOLL_ALLGATHER", 1),
    .send_bytes = model_block, .recv_bytes = model_p_blocks,
    .inplace_offset = own_block, .expect_label = model_position,
};
