/*
 * barrier: double_ring
 *
 * What:    a token goes around the ring from rank 0 (each rank passes it on
 *          to rank + 1 once it has entered and received it), so when it
 *          comes back to rank 0 every rank has entered; a second trip around
 *          the ring releases the ranks in turn.
 * Paper:   Open MPI's double_ring (id 2).
 * Steps:   2p messages, one after the other.
 * Cost:    2pα (every message of 0 bytes).
 * Limits:  none; slow on many ranks (latency linear in p).
 * Memory:  none.
 * Example: mpicoll show barrier double_ring --np 5 --compact
 *          (columns: ranks; rows: ranks whose entry each rank has heard of
 *          after each round; k = rank k's, . = not yet)
 *   round  0       1       2       3       4       5       6       7       8       9
 *   rank   01234   01234   01234   01234   01234   01234   01234   01234   01234   01234
 *   0      00...   000..   0000.   00000   00000   00000   00000   00000   00000   00000
 *   1      .1...   .11..   .111.   .1111   11111   11111   11111   11111   11111   11111
 *   2      ..2..   ..2..   ..22.   ..222   2.222   22222   22222   22222   22222   22222
 *   3      ...3.   ...3.   ...3.   ...33   3..33   33.33   33333   33333   33333   33333
 *   4      ....4   ....4   ....4   ....4   4...4   44..4   444.4   44444   44444   44444
 */
#include "barrier_algos.h"

void barrier_double_ring(plan *pl, const plan_args *a)
{
    const int p = a->p, left = (a->rank + p - 1) % p, right = (a->rank + 1) % p;
    if (p == 1)
        return;
    for (int trip = 0; trip < 2; trip++) {
        /* rank 0 starts the token, the others pass it on */
        if (a->rank > 0) {
            plan_recv_token(pl, left);
            plan_end_round(pl);
        }
        plan_send_token(pl, right);
        plan_end_round(pl);
        if (a->rank == 0) {
            plan_recv_token(pl, left);
            plan_end_round(pl);
        }
    }
}
