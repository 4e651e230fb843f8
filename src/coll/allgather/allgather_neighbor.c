/*
 * allgather: neighbor (neighbor exchange)
 *
 * What:    ranks are paired (2j, 2j+1). Step 0: each pair swaps its own
 *          blocks. Then ranks alternate between their right and left
 *          neighbours; in each step a rank sends the two blocks (one pair's
 *          worth) it received in the previous step and receives two new
 *          ones, so the pairs it holds spread one pair further each way.
 * Paper:   J. Chen, Y. Zhang, L. Zhang, W. Yuan, "Performance Evaluation of
 *          Allgather Algorithms on Terascale Linux Cluster with Fast
 *          Ethernet", HPCAsia 2005.
 * Steps:   p/2.
 * Cost:    (p/2)α + ((p - 1)/p)·nβ   (n = p·block)
 * Limits:  p even (declared; the selector falls back to ring, as Open MPI
 *          does).
 * Memory:  none beyond the user's buffers.
 * Example: mpicoll show allgather neighbor --np 6 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   012345  012345  012345  012345
 *   0      0.....  00....  000..0  000000
 *   1      .1....  11....  111..1  111111
 *   2      ..2...  ..22..  .2222.  222222
 *   3      ...3..  ..33..  .3333.  333333
 *   4      ....4.  ....44  4..444  444444
 *   5      .....5  ....55  5..555  555555
 */
#include "allgather_algos.h"

void allgather_neighbor(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, pairs = p / 2, even = r % 2 == 0;
    const size_t B = a->block;
    /* neighbour and direction in which received pairs move, by step parity */
    const int nb[2] = { pat_mod(even ? r + 1 : r - 1, p), pat_mod(even ? r - 1 : r + 1, p) };
    const int dir[2] = { even ? 1 : -1, even ? -1 : 1 };

    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)r * B, B);
    plan_end_round(pl);
    plan_send(pl, BUF_RECV, (size_t)r * B, B, nb[0]);
    plan_recv(pl, BUF_RECV, (size_t)nb[0] * B, B, nb[0]);
    plan_end_round(pl);

    int got[2] = { r / 2, r / 2 }, last = r / 2;
    for (int i = 1; i < pairs; i++) {
        int par = i % 2;
        got[par] = pat_mod(got[par] + dir[par], pairs);
        plan_send(pl, BUF_RECV, (size_t)(2 * last) * B, 2 * B, nb[par]);
        plan_recv(pl, BUF_RECV, (size_t)(2 * got[par]) * B, 2 * B, nb[par]);
        plan_end_round(pl);
        last = got[par];
    }
}
