/*
 * scan: the table (from scan.def and ../table.h) and the data model the
 * checker uses. The entry points are src/api/entry.c's.
 */
#include "scan_algos.h"
#include "../../model/coll.h"

#define COLL scan
#include "../table.h"

/* Rank r's result holds the contributions of ranks 0..r. */
static void prefix_ranks(const plan_args *a, int *lo, int *hi)
{
    *lo = 0;
    *hi = a->rank;
}

/* Every rank: an n-byte vector in, the reduction of ranks 0..rank out. */
const coll_desc scan_desc = {
    COLL_TABLE_FIELDS("MPICOLL_SCAN", 7),
    .send_bytes = model_block, .recv_bytes = model_block,
    .inplace_offset = model_at_start, .expect_label = model_position,
    .expect_ranks = prefix_ranks, .reduction = 1,
};
