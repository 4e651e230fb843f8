/*
 * scatterv: the table (from scatterv.def and ../table.h) and the data
 * model the checker uses. The entry points are src/api/entry.c's.
 */
#include "scatterv_algos.h"
#include "../../model/coll.h"

#define COLL scatterv
#include "../table.h"

/* The root sends every rank its block, count[r] bytes at displ[r] of its
 * send buffer (the blocks tile it); rank r receives its block: byte i is
 * the root's byte displ[r] + i (label root * S + displ[r] + i, S the
 * root's send bytes, the longest). */
static size_t all_at_root(const plan_args *a)
{
    return a->rank == a->root ? model_all_counts(a) : 0;
}
static size_t own_count(const plan_args *a) { return args_count(a, a->rank); }
static int64_t roots_block(const expect_args *e, size_t i)
{
    const plan_args *a = &e->call;
    return (int64_t)((size_t)a->root * model_all_counts(a) + args_displ(a, a->rank) + i);
}

/* MPI_IN_PLACE is the root's receive buffer: the entry point gives the
 * plan a scratch receive block there (as scatter's). */
const coll_desc scatterv_desc = {
    COLL_TABLE_FIELDS("MPICOLL_SCATTERV", 16),
    .send_bytes = all_at_root, .recv_bytes = own_count,
    .inplace_offset = NULL, .expect_label = roots_block,
    .rooted = 1, .inplace_recv = 1, .counts = COUNTS_ANYWHERE,
};
