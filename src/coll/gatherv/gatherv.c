/*
 * gatherv: the table (from gatherv.def and ../table.h) and the data model
 * the checker uses. The entry points are src/api/entry.c's.
 */
#include "gatherv_algos.h"
#include "../../model/coll.h"

#define COLL gatherv
#include "../table.h"

/* Every rank sends its block, count[r] bytes; the root receives them at
 * their displ, the blocks tiling its receive buffer (the runtime packs a
 * layout with gaps); the others receive nothing. In place, the root's
 * block lies at its place. */
static size_t own_count(const plan_args *a) { return args_count(a, a->rank); }
static size_t all_at_root(const plan_args *a)
{
    return a->rank == a->root ? model_all_counts(a) : 0;
}
static size_t root_own_displ(const plan_args *a)
{
    return a->rank == a->root ? args_displ(a, a->rank) : NO_ALIAS;
}

const coll_desc gatherv_desc = {
    COLL_TABLE_FIELDS("MPICOLL_GATHERV", 15),
    .send_bytes = own_count, .recv_bytes = all_at_root,
    .inplace_offset = root_own_displ, .expect_label = model_counted_label,
    .rooted = 1, .counts = COUNTS_ANYWHERE,
};
