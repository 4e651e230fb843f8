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

/* The blocks of ranks 2j and 2j + 1 (pair j) as one message: one range
 * when they lie in rank order (allgather), two segments otherwise
 * (allgatherv, whose blocks lie anywhere: args_displ). */
static void pair_op(plan *pl, const plan_args *a, int send, int j, int peer)
{
    const size_t o0 = args_displ(a, 2 * j), n0 = args_count(a, 2 * j);
    const size_t o1 = args_displ(a, 2 * j + 1), n1 = args_count(a, 2 * j + 1);
    if (o1 == o0 + n0 || n0 == 0 || n1 == 0) {
        const size_t off = n0 ? o0 : o1;
        if (send)
            plan_send(pl, BUF_RECV, off, n0 + n1, peer);
        else
            plan_recv(pl, BUF_RECV, off, n0 + n1, peer);
        return;
    }
    if (send)
        plan_send_begin(pl, BUF_RECV, peer);
    else
        plan_recv_begin(pl, BUF_RECV, peer);
    plan_seg_add(pl, o0, n0);
    plan_seg_add(pl, o1, n1);
    plan_seg_end(pl);
}

void allgather_neighbor(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, pairs = p / 2, even = r % 2 == 0;
    /* neighbour and direction in which received pairs move, by step parity */
    const int nb[2] = { pat_mod(even ? r + 1 : r - 1, p), pat_mod(even ? r - 1 : r + 1, p) };
    const int dir[2] = { even ? 1 : -1, even ? -1 : 1 };

    plan_copy(pl, BUF_SEND, 0, BUF_RECV, args_displ(a, r), args_count(a, r));
    plan_end_round(pl);
    plan_send(pl, BUF_RECV, args_displ(a, r), args_count(a, r), nb[0]);
    plan_recv(pl, BUF_RECV, args_displ(a, nb[0]), args_count(a, nb[0]), nb[0]);
    plan_end_round(pl);

    int got[2] = { r / 2, r / 2 }, last = r / 2;
    for (int i = 1; i < pairs; i++) {
        int par = i % 2;
        got[par] = pat_mod(got[par] + dir[par], pairs);
        pair_op(pl, a, 1, last, nb[par]);
        pair_op(pl, a, 0, got[par], nb[par]);
        plan_end_round(pl);
        last = got[par];
    }
}
