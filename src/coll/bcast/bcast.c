/*
 * bcast: the table (from bcast.def and ../table.h) and the data model the
 * checker uses. The entry points are src/api/entry.c's.
 */
#include "bcast_algos.h"
#include "../../model/coll.h"

ALGO_PARAMS(knomial,
            { "k", 4, 2, 1 << 20, "radix: a rank with the data sends to up to k-1 ranks per round" },
            { "far", 0, 0, 1, "1: the tree labelled the other way, the farthest ranks first (MPICH's binomial, Open MPI's knomial): on nodes of consecutive ranks what leaves a node does so first, one sender a node" });

ALGO_PARAMS(hierarchical,
            { "k", 4, 2, 1 << 20, "radix of the k-nomial tree among the nodes' leaders (inter=0)" },
            { "intra_k", 4, 2, 1 << 20, "radix of the k-nomial tree inside each node" },
            { "inter", 0, 0, 3, "the leaders' broadcast: 0 knomial of radix k, 1 scatter_allgather_ring (large messages), 2 a binary tree (k unused), pipelined as 0; 3 as 2, with binary trees inside the nodes too (intra_k unused; SimGrid's SMP_binary)" },
            { "segsize", 65536, 0, 1 << 30, "inter=0, 2, 3: bytes of a pipelined segment (0: the whole message at once)" });

#define COLL bcast
#include "../table.h"

/* One buffer: the root's n bytes (SEND, which is its RECV) to every rank. */
static int64_t roots_byte(const expect_args *e, size_t i)
{
    const plan_args *a = &e->call;
    return (int64_t)a->root * (int64_t)a->block + (int64_t)i;
}

const coll_desc bcast_desc = {
    COLL_TABLE_FIELDS("MPICOLL_BCAST", 5),
    .send_bytes = model_at_root, .recv_bytes = model_block,
    .inplace_offset = model_root_in_place, .expect_label = roots_byte,
    .rooted = 1,
};
