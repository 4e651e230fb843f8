/*
 * reduce: the table (from reduce.def and ../table.h) and the data model
 * the checker uses. The entry points are src/api/entry.c's.
 */
#include "reduce_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(knomial,
            { "k", 4, 2, 1 << 20, "radix: a rank receives up to k-1 partial results per round" },
            { "prepost", 0, 0, 1, "1: a rank receives all its children's partial results in one round and reduces them when all are in (MVAPICH2's k-nomial reduce)" });

ALGO_PARAMS(hierarchical,
            { "k", 4, 2, 1 << 20, "radix of the k-nomial tree among the nodes' leaders" },
            { "intra_k", 4, 2, 1 << 20, "radix of the k-nomial tree inside each node" });

#define COLL reduce
#include "../table.h"

/* Every rank sends an n-byte vector; the root receives their reduction. */
const coll_desc reduce_desc = {
    COLL_TABLE_FIELDS("MPICOLL_REDUCE", 4),
    .send_bytes = model_block, .recv_bytes = model_at_root,
    .inplace_offset = model_root_in_place, .expect_label = model_position,
    .reduction = 1, .rooted = 1,
};
