/*
 * Selection of one call (select.c): the node count when the rules need it,
 * the shared-memory probe, the choice (src/model/choose.c, remembered per
 * communicator and collective), the log and the plan.
 */
#ifndef MPICOLL_RUNTIME_SELECT_H
#define MPICOLL_RUNTIME_SELECT_H

#include "comm.h"

/* Selection and planning of one call, shared by the entry paths: the node
 * count when rules need it, the choice (errors printed on rank 0), the
 * log, and the plan for pa: cached, or built into *own (requests own
 * theirs). When the choice is native (R_NATIVE) there is no plan: *rp is
 * NULL, and the caller runs call_native. */
int select_prepare(comm_state *st, const coll_desc *c, const char *spec, call_info *ci,
                       plan_args pa, const ready_plan **rp, ready_plan *own);

#endif
