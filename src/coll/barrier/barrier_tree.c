/*
 * barrier: tree
 *
 * What:    a binomial fan-in to rank 0 (at step 2^k, a rank whose low k
 *          bits are clear receives from rank + 2^k, or sends to rank - 2^k
 *          and is done with the fan-in), then the same tree in reverse to
 *          release the ranks.
 * Paper:   Open MPI's tree (id 6).
 * Steps:   2 ceil(log2 p) at rank 0, one message each.
 * Cost:    2 ceil(log2 p)α (every message of 0 bytes).
 * Limits:  none.
 * Memory:  none.
 * Example: mpicoll show barrier tree --np 5 --compact
 *          (columns: ranks; rows: ranks whose entry each rank has heard of
 *          after each round; k = rank k's, . = not yet)
 *   round  0       1       2       3       4       5
 *   rank   01234   01234   01234   01234   01234   01234
 *   0      0....   0....   0....   0...0   0.0.0   00000
 *   1      11...   11...   11...   11..1   111.1   11111
 *   2      ..2..   2.2..   2.2..   2.2.2   2.2.2   22222
 *   3      ..33.   3.33.   3.33.   3.333   3.333   33333
 *   4      ....4   ....4   4...4   4...4   4.4.4   44444
 */
#include "barrier_algos.h"

/* rank's partner at `jump` in the tree, or -1: rank XOR jump, if its bits
 * below jump are clear and it is a rank */
static int partner(int p, int rank, int jump)
{
    int q = rank ^ jump;
    return (q & (jump - 1)) == 0 && q < p ? q : -1;
}

void barrier_tree(plan *pl, const plan_args *a)
{
    const int p = a->p, me = a->rank;
    int depth = 1;
    while (depth < p)
        depth *= 2;
    for (int jump = 1; jump < depth; jump *= 2) {  /* fan-in */
        int q = partner(p, me, jump);
        if (q < 0)
            continue;
        if (q > me)
            plan_recv_token(pl, q);
        else
            plan_send_token(pl, q);
        plan_end_round(pl);
    }
    for (int jump = depth / 2; jump > 0; jump /= 2) {  /* fan-out */
        int q = partner(p, me, jump);
        if (q < 0)
            continue;
        if (q > me)
            plan_send_token(pl, q);
        else
            plan_recv_token(pl, q);
        plan_end_round(pl);
    }
}
