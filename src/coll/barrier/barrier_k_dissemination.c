/*
 * barrier: k_dissemination
 *
 * What:    dissemination of radix k: in round i every rank sends to
 *          rank + j k^i and receives from rank - j k^i (mod p) for
 *          j = 1..k-1 with j k^i < p, all at once. After round i a rank has
 *          heard from the k^(i+1) ranks below it (every distance below p is
 *          a sum of digits j k^i), so after ceil(log_k p) rounds from all.
 *          k = 2 is bruck.
 * Paper:   MPICH's MPIR_Barrier_intra_k_dissemination (radix
 *          MPIR_CVAR_BARRIER_DISSEM_KVAL); Hensgen, Finkel and Manber 1988
 *          for k = 2.
 * Steps:   ceil(log_k p), each with up to k-1 messages out and k-1 in.
 * Cost:    ceil(log_k p)(k-1)α if the messages of a round go one after the
 *          other; ceil(log_k p)α where they overlap (every message of 0
 *          bytes).
 * Limits:  none.
 * Memory:  none.
 * Example: mpicoll show barrier k_dissemination:k=3 --np 5 --compact
 *          (columns: ranks; rows: ranks whose entry each rank has heard of
 *          after each round; k = rank k's, . = not yet)
 *   round  0       1
 *   rank   01234   01234
 *   0      000..   00000
 *   1      .111.   11111
 *   2      ..222   22222
 *   3      3..33   33333
 *   4      44..4   44444
 */
#include "barrier_algos.h"

void barrier_k_dissemination(plan *pl, const plan_args *a)
{
    const int p = a->p, k = a->param[0];
    for (long shift = 1; shift < p; shift *= k) {
        for (long j = 1; j < k && j * shift < p; j++) {
            plan_send_token(pl, (int)((a->rank + j * shift) % p));
            plan_recv_token(pl, (int)((a->rank + p - j * shift) % p));
        }
        plan_end_round(pl);
    }
}
