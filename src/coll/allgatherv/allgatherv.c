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
static size_t own_count(const plan_args *a) { return args_count(a, a->rank); }
static size_t own_displ(const plan_args *a) { return args_displ(a, a->rank); }

const coll_desc allgatherv_desc = {
    COLL_TABLE_FIELDS("MPICOLL_ALLGATHERV", 7),
    .send_bytes = own_count, .recv_bytes = model_all_counts,
    .inplace_offset = own_displ, .expect_label = model_counted_label,
    .counts = COUNTS_ANYWHERE,
};
