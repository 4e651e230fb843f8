/*
 * The recursive doubling that scan and exscan share (MPICH's
 * MPIR_Scan_intra_recursive_doubling and MPIR_Exscan_intra_recursive_doubling).
 * No MPI here.
 */
#ifndef MPICOLL_PATTERNS_SCAN_H
#define MPICOLL_PATTERNS_SCAN_H

#include "../model/plan.h"

/* The prefix reduction of n bytes (whole elements) from SEND into RECV:
 * over ranks 0..rank (inclusive: MPI_Scan), or 0..rank - 1 (exclusive:
 * MPI_Exscan; rank 0's RECV is never written). For mask = 1, 2, 4, ...
 * below p, rank r swaps its partial result (the reduction over its group
 * of `mask` ranks' already-merged range) with rank r XOR mask, if that
 * rank exists; a partner below r prepends what it sent both to the partial
 * result and to RECV, a partner above r appends it to the partial result
 * only. Rank order is kept: a non-commutative operation is fine, any p.
 * ceil(log2 p) rounds; 2n bytes of TMP (the partial result and the
 * received one). */
void pat_scan_recursive_doubling(plan *pl, const plan_args *a, int exclusive);

#endif
