/*
 * exscan: recursive_doubling
 *
 * What:    MPICH's. Each rank keeps a partial result, at first its own
 *          vector. For mask = 1, 2, 4, ... below p, rank r swaps its
 *          partial result with rank r XOR mask (if that rank exists): both
 *          then hold the reduction over their two groups of ranks, the
 *          lower group on the left; when the partner is the lower one, its
 *          partial result goes into the receive buffer (the first time) or
 *          is prepended to it, which thus gathers the groups below r,
 *          nearest first. Rank 0 has no lower partner: its receive buffer
 *          is never written. Rank order is kept: any operation, any p. The
 *          pattern is src/patterns/scan.c's, shared with scan.
 * Paper:   MPICH's MPIR_Exscan_intra_recursive_doubling; Open MPI's
 *          ompi_coll_base_exscan_intra_recursivedoubling (id 2).
 * Steps:   ceil(log2 p).
 * Cost:    ceil(log2 p)(α + nβ + 2nγ)   (n = vector bytes)
 * Limits:  none: any operation, any p.
 * Memory:  2n bytes of scratch.
 * Example: mpicoll show exscan recursive_doubling --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      21211   41231   41234
 *   1      21211   41231   41234
 *   2      21211   41231   41234
 *   3      21211   41231   41234
 *   4      21211   41231   41234
 */
#include "exscan_algos.h"

void exscan_recursive_doubling(plan *pl, const plan_args *a)
{
    pat_scan_recursive_doubling(pl, a, 1);
}
