/* The exscan builders, declared from exscan.def. */
#ifndef MPICOLL_EXSCAN_ALGOS_H
#define MPICOLL_EXSCAN_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/scan.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void exscan_##name(plan *pl, const plan_args *a);
#include "exscan.def"
#undef MPICOLL_ALGO

#endif
