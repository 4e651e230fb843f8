/* The scan builders, declared from scan.def. */
#ifndef MPICOLL_SCAN_ALGOS_H
#define MPICOLL_SCAN_ALGOS_H

#include "../../model/plan.h"
#include "../../patterns/scan.h"

#define MPICOLL_ALGO(name, id, aliases, restrictions, fallback, params, summary) \
    void scan_##name(plan *pl, const plan_args *a);
#include "scan.def"
#undef MPICOLL_ALGO

#endif
