/* The public introspection calls (include/mpicoll.h): the table and the
 * selection, asked without a communicator. */
#include "../../include/mpicoll.h"
#include "../model/choose.h"

#include <stdio.h>
#include <string.h>

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
        select_choose(c, NULL, 0, &ci, &ch, err, sizeof err) != SELECT_OK)
        return -1;
    spec_format(ch.algo, ch.params, buf, buflen);
    return 0;
}
