/* The bcast builders, declared from bcast.def. */
#ifndef MPICOLL_BCAST_ALGOS_H
#define MPICOLL_BCAST_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/patterns.h"
#include "../../patterns/segment.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void bcast_##name(plan *pl, const plan_args *a);
#include "bcast.def"
#undef MPICOLL_ALGO

#endif
