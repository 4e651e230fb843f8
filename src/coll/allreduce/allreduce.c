/*
 * allreduce: the table (from allreduce.def and ../table.h) and the data
 * model the checker uses. The entry points are src/api/entry.c's.
 */
#include "allreduce_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(segmented_ring,
            { "segsize", 65536, 1, 1 << 30, "bytes of one ring block of a chunk (a pipelined segment)" });

ALGO_PARAMS(recursive_multiplying,
            { "k", 4, 2, 1 << 20, "radix: whole vectors go to k-1 peers per step" });

ALGO_PARAMS(hierarchical,
            { "k", 4, 2, 1 << 20, "radix of the leaders' recursive multiplying (vectors below large)" },
            { "large", 65536, 0, 1 << 30, "vector bytes from which the leaders run rabenseifner" });

#define COLL allreduce
#include "../table.h"

/* Every rank: an n-byte vector in, the reduction of all of them out. */
const coll_desc allreduce_desc = {
    COLL_TABLE_FIELDS("MPICOLL_ALLREDUCE", 3),
    .send_bytes = model_block, .recv_bytes = model_block,
    .inplace_offset = model_at_start, .expect_label = model_position,
    .reduction = 1,
};
