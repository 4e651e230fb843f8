/* The gather builders, declared from gather.def. */
#ifndef MPICOLL_GATHER_ALGOS_H
#define MPICOLL_GATHER_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void gather_##name(plan *pl, const plan_args *a);
#include "gather.def"
#undef MPICOLL_ALGO

#endif
