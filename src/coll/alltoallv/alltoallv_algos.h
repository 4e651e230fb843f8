/* The alltoallv builders, declared from alltoallv.def. */
#ifndef MPICOLL_ALLTOALLV_ALGOS_H
#define MPICOLL_ALLTOALLV_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void alltoallv_##name(plan *pl, const plan_args *a);
#include "alltoallv.def"
#undef MPICOLL_ALGO

#endif
