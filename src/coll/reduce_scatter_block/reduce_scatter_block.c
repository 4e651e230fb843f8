/*
 * reduce_scatter_block: the table (from reduce_scatter_block.def and
 * ../table.h) and the data model the checker uses. The entry points are
 * src/api/entry.c's.
 */
#include "reduce_scatter_block_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(recursive_multiplying,
            { "k", 4, 2, 1 << 20, "radix: each step sends parts of the vector to k-1 peers" });

#define COLL reduce_scatter_block
#include "../table.h"

/* Every rank sends p blocks of `block` bytes; rank r receives block r
 * reduced over all ranks. */
static int64_t my_block(const expect_args *e, size_t i)
{
    const plan_args *a = &e->call;
    return (int64_t)((size_t)a->rank * a->block + i);
}

/* MPI_IN_PLACE: the entry point runs the plan on a copy of the receive
 * buffer (which holds p blocks), so builders never see it. */
const coll_desc reduce_scatter_block_desc = {
    COLL_TABLE_FIELDS("MPICOLL_REDUCE_SCATTER_BLOCK", 6),
    .send_bytes = model_p_blocks, .recv_bytes = model_block,
    .inplace_offset = NULL, .expect_label = my_block,
    .reduction = 1,
};
