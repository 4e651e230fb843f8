/*
 * gather: the table (from gather.def and ../table.h) and the data model
 * the checker uses. The entry points are src/api/entry.c's.
 */
#include "gather_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(linear_sync,
            { "first_segment", 0, 0, 1 << 30, "bytes of a block in the first message after the root's request, the rest in a second (0: the whole block in one, Open MPI's default)" });

#define COLL gather
#include "../table.h"

/* Every rank sends one block; the root receives p, rank r's at block r:
 * byte i of the root's result is byte i % block of rank i / block, label
 * i. Non-roots receive nothing. In place, the root's block lies at its
 * place in its receive buffer. */
static size_t p_blocks_at_root(const plan_args *a)
{
    return a->rank == a->root ? (size_t)a->p * a->block : 0;
}

static size_t root_own_block(const plan_args *a)
{
    return a->rank == a->root ? (size_t)a->rank * a->block : NO_ALIAS;
}

const coll_desc gather_desc = {
    COLL_TABLE_FIELDS("MPICOLL_GATHER", 7),
    .send_bytes = model_block, .recv_bytes = p_blocks_at_root,
    .inplace_offset = root_own_block, .expect_label = model_position,
    .rooted = 1,
};
