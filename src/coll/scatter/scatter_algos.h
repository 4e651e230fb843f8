/* The scatter builders, declared from scatter.def. */
#ifndef MPICOLL_SCATTER_ALGOS_H
#define MPICOLL_SCATTER_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void scatter_##name(plan *pl, const plan_args *a);
#include "scatter.def"
#undef MPICOLL_ALGO

#endif
