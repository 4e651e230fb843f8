/*
 * scatter: the table (from scatter.def and ../table.h) and the data model
 * the checker uses. The entry points are src/api/entry.c's.
 */
#include "scatter_algos.h"
#include "../../model/coll.h"

#define COLL scatter
#include "../table.h"

/* The root sends p blocks, the others nothing; every rank receives one:
 * block r of the root's send data goes to rank r. */
static size_t p_blocks_at_root(const plan_args *a)
{
    return a->rank == a->root ? (size_t)a->p * a->block : 0;
}

static int64_t roots_block(const expect_args *e, size_t i)
{
    const plan_args *a = &e->call;
    return (int64_t)(((size_t)a->root * (size_t)a->p + (size_t)a->rank) * a->block + i);
}

/* MPI_IN_PLACE is the root's receive buffer (its block stays in its send
 * data): the entry point gives the plan a scratch receive buffer there,
 * so builders never see it (inplace_offset is NULL) and the checker's
 * plans are the ones that run. */
const coll_desc scatter_desc = {
    COLL_TABLE_FIELDS("MPICOLL_SCATTER", 8),
    .send_bytes = p_blocks_at_root, .recv_bytes = model_block,
    .inplace_offset = NULL, .expect_label = roots_block,
    .rooted = 1, .inplace_recv = 1,
};
