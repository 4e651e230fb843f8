/*
 * allgatherv: the table (from allgatherv.def and ../table.h) and the data
 * model the checker uses. The entry points are src/api/entry.c's.
 */
#include "allgatherv_algos.h"
#include "../../model/coll.h"

#define COLL allgatherv
#include "../table.h"

/* Rank r sends its block, count[r] bytes, and receives every rank's at its
 * displ: the blocks tile the receive buffer (the runtime packs a layout
 * with gaps). Byte j of rank r's block is labelled r * S + j, S the
 * largest count (symbolic.c). */
static size_t own_count(const coll_shape *s) { return shape_count(s, s->rank); }
static size_t own_displ(const coll_shape *s) { return shape_displ(s, s->rank); }

static size_t all_counts(const coll_shape *s)
{
    size_t n = 0;
    for (int r = 0; r < s->p; r++)
        n += shape_count(s, r);
    return n;
}

static int64_t block_label(const coll_shape *s, size_t i)
{
    if (!s->count)
        return (int64_t)i;
    size_t most = 0;
    for (int r = 0; r < s->p; r++)
        most = s->count[r] > most ? s->count[r] : most;
    for (int r = 0; r < s->p; r++)
        if (i >= s->displ[r] && i - s->displ[r] < s->count[r])
            return (int64_t)r * (int64_t)most + (int64_t)(i - s->displ[r]);
    return EXPECT_ANY;
}

const coll_desc allgatherv_desc = {
    COLL_TABLE_FIELDS("MPICOLL_ALLGATHERV", 7),
    .send_bytes = own_count, .recv_bytes = all_counts,
    .inplace_offset = own_displ, .expect_label = block_label,
    .counts = COUNTS_ANYWHERE,
};
