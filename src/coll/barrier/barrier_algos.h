/* The barrier builders, declared from barrier.def. */
#ifndef MPICOLL_BARRIER_ALGOS_H
#define MPICOLL_BARRIER_ALGOS_H

#include "../../model/plan.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void barrier_##name(plan *pl, const plan_args *a);
#include "barrier.def"
#undef MPICOLL_ALGO

#endif
