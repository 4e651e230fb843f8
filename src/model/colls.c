/* The collectives mpicoll knows (the list of include/mpicoll_collectives.h),
 * found by name, and the sizes of a call. */
#include "coll.h"

#include <stdio.h>
#include <string.h>

const coll_desc *const mpicoll_colls[] = {
#define MPICOLL_DESC_(name, Name, family) &name##_desc,
    MPICOLL_COLLECTIVES(MPICOLL_DESC_)
#undef MPICOLL_DESC_
    NULL,
};

const coll_desc *coll_find(const char *name)
{
    for (int i = 0; name && mpicoll_colls[i]; i++)
        if (strcmp(mpicoll_colls[i]->name, name) == 0)
            return mpicoll_colls[i];
    return NULL;
}

/* send and recv of one unit block, and their max: at rank 0, the root,
 * or at rank p - 1 where rank 0 receives nothing (exscan) */
static void unit_sizes(const coll_desc *c, int p, size_t *most, size_t *recv)
{
    plan_args unit = { .p = p, .rank = 0, .root = 0, .block = 1 };
    size_t send = c->send_bytes(&unit);
    *recv = c->recv_bytes(&unit);
    if (*recv == 0 && p > 1) {
        unit.rank = p - 1;
        send = c->send_bytes(&unit);
        *recv = c->recv_bytes(&unit);
    }
    if (*recv == 0)
        *recv = send;   /* exscan on one rank: what it sends */
    *most = send > *recv ? send : *recv;
}

size_t coll_block_of(const coll_desc *c, int p, size_t bytes)
{
    size_t most, recv;
    unit_sizes(c, p, &most, &recv);
    return !c->reduction || most == recv ? bytes : bytes / most * recv;
}

size_t coll_call_bytes(const coll_desc *c, int p, size_t block)
{
    size_t most, recv;
    unit_sizes(c, p, &most, &recv);
    return !c->reduction || most == recv ? block : block / recv * most;
}
