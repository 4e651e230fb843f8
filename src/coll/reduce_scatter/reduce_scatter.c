/*
 * reduce_scatter: the table (from reduce_scatter.def and ../table.h) and
 * the data model the checker uses. The entry points are src/api/entry.c's.
 */
#include "reduce_scatter_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(recursive_multiplying,
            { "k", 4, 2, 1 << 20, "radix: each step sends parts of the vector to k-1 peers" });

#define COLL reduce_scatter
#include "../table.h"

/* Every rank sends the whole vector, the blocks of all ranks in rank
 * order; rank r receives its block, count[r] bytes at displ[r], reduced
 * over all ranks: byte i holds vector position displ[r] + i. */
static size_t whole(const plan_args *a)
{
    return args_displ(a, a->p - 1) + args_count(a, a->p - 1);
}
static size_t own_count(const plan_args *a) { return args_count(a, a->rank); }
static int64_t own_block(const expect_args *e, size_t i)
{
    const plan_args *a = &e->call;
    return (int64_t)(args_displ(a, a->rank) + i);
}

/* MPI_IN_PLACE: the entry point runs the plan on a copy of the receive
 * buffer (which holds the whole vector), so builders never see it. */
const coll_desc reduce_scatter_desc = {
    COLL_TABLE_FIELDS("MPICOLL_REDUCE_SCATTER", 8),
    .send_bytes = whole, .recv_bytes = own_count,
    .inplace_offset = NULL, .expect_label = own_block,
    .reduction = 1, .counts = COUNTS_RANK_ORDER,
};
