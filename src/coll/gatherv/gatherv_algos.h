/* The gatherv builders, declared from gatherv.def. */
#ifndef MPICOLL_GATHERV_ALGOS_H
#define MPICOLL_GATHERV_ALGOS_H

#include "../../model/plan.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void gatherv_##name(plan *pl, const plan_args *a);
#include "gatherv.def"
#undef MPICOLL_ALGO

#endif
