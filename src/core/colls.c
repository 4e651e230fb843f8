/* The collectives mpicoll knows, and the public introspection calls. */
#include "runtime.h"
#include "../../include/mpicoll.h"

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

int mpicoll_algorithm_count(const char *collective)
{
    const coll_desc *c = coll_find(collective);
    return c ? c->nalgos : -1;
}

const char *mpicoll_algorithm_name(const char *collective, int i)
{
    const coll_desc *c = coll_find(collective);
    return c && i >= 0 && i < c->nalgos ? c->algos[i].name : NULL;
}

int mpicoll_algorithm_applicable(const char *collective, const char *spec, int comm_size)
{
    const coll_desc *c = coll_find(collective);
    const coll_algo *a;
    int params[PLAN_MAX_PARAMS];
    char err[256];
    if (!c || !spec || comm_size < 1 || spec_parse(c, spec, &a, params, err, sizeof err))
        return -1;
    call_info ci = { .p = comm_size, .nnodes = 1, .commutative = 1 };
    return coll_algo_applies(a, &ci);
}

int mpicoll_auto_choice(const char *collective, int comm_size, size_t bytes, char *buf,
                        size_t buflen)
{
    const coll_desc *c = coll_find(collective);
    choice ch;
    char err[256];
    call_info ci = { .p = comm_size, .nnodes = 1, .bytes = bytes, .commutative = 1 };
    if (!c || comm_size < 1 || !buf ||
        select_choose(c, NULL, 0, &ci, &ch, err, sizeof err) != MPI_SUCCESS)
        return -1;
    spec_format(ch.algo, ch.params, buf, buflen);
    return 0;
}

/* send and recv of one unit block, and their max */
static void unit_sizes(const coll_desc *c, int p, size_t *most, size_t *recv)
{
    const coll_shape unit = { .p = p, .rank = 0, .root = 0, .block = 1 };
    const size_t send = c->send_bytes(&unit);
    *recv = c->recv_bytes(&unit);
    *most = send > *recv ? send : *recv;
}

size_t coll_block_of(const coll_desc *c, int p, size_t bytes)
{
    size_t most, recv;
    unit_sizes(c, p, &most, &recv);
    return most == recv ? bytes : bytes / most * recv;
}

size_t coll_call_bytes(const coll_desc *c, int p, size_t block)
{
    size_t most, recv;
    unit_sizes(c, p, &most, &recv);
    return most == recv ? block : block / recv * most;
}
