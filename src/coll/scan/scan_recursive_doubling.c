/*
 * scan: recursive_doubling
 *
 * What:    MPICH's. Each rank keeps a partial result, at first its own
 *          vector. For mask = 1, 2, 4, ... below p, rank r swaps its
 *          partial result with rank r XOR mask (if that rank exists): both
 *          then hold the reduction over their two groups of ranks, the
 *          lower group on the left; when the partner is the lower one, its
 *          partial result is also prepended to the receive buffer, which
 *          thus gathers the groups below r, nearest first, in front of r's
 *          own vector. Rank order is kept: any operation, any p. The
 *          pattern is src/patterns/scan.c's, shared with exscan.
 * Paper:   MPICH's MPIR_Scan_intra_recursive_doubling; Open MPI's
 *          ompi_coll_base_scan_intra_recursivedoubling (id 2).
 * Steps:   ceil(log2 p).
 * Cost:    ceil(log2 p)(α + nβ + 2nγ)   (n = vector bytes)
 * Limits:  none: any operation, any p.
 * Memory:  2n bytes of scratch.
 * Example: mpicoll show scan recursive_doubling --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      12121   12341   12345
 *   1      12121   12341   12345
 *   2      12121   12341   12345
 *   3      12121   12341   12345
 *   4      12121   12341   12345
 */
#include "scan_algos.h"

void scan_recursive_doubling(plan *pl, const plan_args *a)
{
    pat_scan_recursive_doubling(pl, a, 0);
}
