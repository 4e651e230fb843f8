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
static size_t own_count(const coll_shape *s) { return shape_count(s, s->rank); }
static size_t all_at_root(const coll_shape *s)
{
    return s->rank == s->root ? model_all_counts(s) : 0;
}
static size_t root_own_displ(const coll_shape *s)
{
    return s->rank == s->root ? shape_displ(s, s->rank) : NO_ALIAS;
}

const coll_desc gatherv_desc = {
    COLL_TABLE_FIELDS("MPICOLL_GATHERV", 15),
    .send_bytes = own_count, .recv_bytes = all_at_root,
    .inplace_offset = root_own_displ, .expect_label = model_counted_label,
    .rooted = 1, .counts = COUNTS_ANYWHERE,
};
