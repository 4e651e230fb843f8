/* The reduce builders, declared from reduce.def. */
#ifndef MPICOLL_REDUCE_ALGOS_H
#define MPICOLL_REDUCE_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"
#include "../../patterns/segment.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void reduce_##name(plan *pl, const plan_args *a);
#include "reduce.def"
#undef MPICOLL_ALGO

#endif
