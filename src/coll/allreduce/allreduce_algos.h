/* The allreduce builders, declared from allreduce.def. */
#ifndef MPICOLL_ALLREDUCE_ALGOS_H
#define MPICOLL_ALLREDUCE_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"
#include "../../patterns/segment.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void allreduce_##name(plan *pl, const plan_args *a);
#include "allreduce.def"
#undef MPICOLL_ALGO

#endif
