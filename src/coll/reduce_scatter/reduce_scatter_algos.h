/* The reduce_scatter builders, declared from reduce_scatter.def. */
#ifndef MPICOLL_REDUCE_SCATTER_ALGOS_H
#define MPICOLL_REDUCE_SCATTER_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void reduce_scatter_##name(plan *pl, const plan_args *a);
#include "reduce_scatter.def"
#undef MPICOLL_ALGO

#endif
