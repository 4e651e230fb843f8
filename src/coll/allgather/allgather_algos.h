/* The allgather builders, declared from allgather.def. */
#ifndef MPICOLL_ALLGATHER_ALGOS_H
#define MPICOLL_ALLGATHER_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"
#include "../../patterns/segment.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void allgather_##name(plan *pl, const plan_args *a);
#include "allgather.def"
#undef MPICOLL_ALGO

#endif
