/* The alltoall builders, declared from alltoall.def. */
#ifndef MPICOLL_ALLTOALL_ALGOS_H
#define MPICOLL_ALLTOALL_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"
#include "../../patterns/segment.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void alltoall_##name(plan *pl, const plan_args *a);
#include "alltoall.def"
#undef MPICOLL_ALGO

#endif
