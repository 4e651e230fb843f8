/* The scatterv builders, declared from scatterv.def. */
#ifndef MPICOLL_SCATTERV_ALGOS_H
#define MPICOLL_SCATTERV_ALGOS_H

#include "../../model/plan.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void scatterv_##name(plan *pl, const plan_args *a);
#include "scatterv.def"
#undef MPICOLL_ALGO

#endif
