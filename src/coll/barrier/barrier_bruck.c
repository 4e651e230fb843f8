/*
 * barrier: bruck (dissemination)
 *
 * What:    in round k every rank sends to rank + 2^k and receives from
 *          rank - 2^k (mod p): after round k a rank has heard, through
 *          chains of messages, from the 2^(k+1) ranks below it, so after
 *          ceil(log2 p) rounds from all of them. Any p.
 * Paper:   D. Hensgen, R. Finkel, U. Manber, "Two algorithms for barrier
 *          synchronization", IJPP 17(1), 1988; Open MPI's bruck (id 4),
 *          MPICH's MPIR_Barrier_intra_dissemination.
 * Steps:   ceil(log2 p).
 * Cost:    ceil(log2 p)α (every message of 0 bytes).
 * Limits:  none.
 * Memory:  none.
 * Example: mpicoll show barrier bruck --np 5 --compact
 *          (columns: ranks; rows: ranks whose entry each rank has heard of
 *          after each round; k = rank k's, . = not yet)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      00...   0000.   00000
 *   1      .11..   .1111   11111
 *   2      ..22.   2.222   22222
 *   3      ...33   33.33   33333
 *   4      4...4   444.4   44444
 */
#include "barrier_algos.h"

void barrier_bruck(plan *pl, const plan_args *a)
{
    const int p = a->p;
    for (int d = 1; d < p; d *= 2) {
        plan_send_token(pl, (a->rank + d) % p);
        plan_recv_token(pl, (a->rank + p - d) % p);
        plan_end_round(pl);
    }
}
