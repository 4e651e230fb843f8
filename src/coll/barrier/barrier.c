/*
 * barrier: the table (from barrier.def and ../table.h) and the data model
 * the checker uses: no data at all. What the checker proves of a barrier
 * is causality (coll_desc.synchronizing): every rank's plan ends only
 * after the start of every rank's plan has reached it through its
 * messages. The entry points are src/api/entry.c's.
 */
#include "barrier_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(k_dissemination,
            { "k", 4, 2, 1 << 20, "radix: a rank sends k-1 messages and receives k-1 per round" });

#define COLL barrier
#include "../table.h"

/* No bytes sent or received. */
static size_t no_data(const plan_args *a)
{
    (void)a;
    return 0;
}

const coll_desc barrier_desc = {
    COLL_TABLE_FIELDS("MPICOLL_BARRIER", 7),
    .send_bytes = no_data, .recv_bytes = no_data, .expect_label = model_position,
    .synchronizing = 1,
};
