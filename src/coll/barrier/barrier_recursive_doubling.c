/*
 * barrier: recursive_doubling
 *
 * What:    with m the largest power of two up to p, ranks m..p-1 first tell
 *          their partner rank - m that they have entered; ranks 0..m-1
 *          exchange messages with rank XOR 2^k for k = 0..log2(m)-1; then
 *          each partner releases its rank beyond m (Open MPI's handling of
 *          p not a power of two).
 * Paper:   Open MPI's recursive_doubling (id 3).
 * Steps:   log2(m) exchanges, plus 2 when p is not a power of two.
 * Cost:    (log2(m) + 2)α (every message of 0 bytes; log2(p)α on a power of
 *          two).
 * Limits:  none.
 * Memory:  none.
 * Example: mpicoll show barrier recursive_doubling --np 5 --compact
 *          (columns: ranks; rows: ranks whose entry each rank has heard of
 *          after each round; k = rank k's, . = not yet)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      0....   00...   0000.   00000
 *   1      .1...   11...   1111.   11111
 *   2      ..22.   ..22.   2222.   22222
 *   3      ..33.   ..33.   3333.   33333
 *   4      4...4   44..4   44444   44444
 */
#include "barrier_algos.h"

void barrier_recursive_doubling(plan *pl, const plan_args *a)
{
    const int p = a->p, me = a->rank;
    int m = 1;
    while (2 * m <= p)
        m *= 2;
    if (me >= m) {          /* beyond m: enter through the partner, which releases */
        plan_send_token(pl, me - m);
        plan_recv_token(pl, me - m);
        return;
    }
    if (me < p - m) {
        plan_recv_token(pl, me + m);
        plan_end_round(pl);
    }
    for (int mask = 1; mask < m; mask *= 2) {
        plan_send_token(pl, me ^ mask);
        plan_recv_token(pl, me ^ mask);
        plan_end_round(pl);
    }
    if (me < p - m)
        plan_send_token(pl, me + m);
}
