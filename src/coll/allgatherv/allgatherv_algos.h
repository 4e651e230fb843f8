/* The allgatherv builders, declared from allgatherv.def. */
#ifndef MPICOLL_ALLGATHERV_ALGOS_H
#define MPICOLL_ALLGATHERV_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void allgatherv_##name(plan *pl, const plan_args *a);
#include "allgatherv.def"
#undef MPICOLL_ALGO

#endif
