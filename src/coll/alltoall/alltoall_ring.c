/*
 * alltoall: ring
 *
 * What:    store and forward around the ring. In step 1 rank r sends all
 *          its blocks but its own, as one message in ring order (for
 *          r + 1, r + 2, ..., r - 1), to r + 1. In every step a rank
 *          receives such a message from r - 1, keeps its first block
 *          (meant for itself) and forwards the rest to r + 1 in the next
 *          step: in step s the message carries p - s blocks of rank r - s.
 *          Scratch holds the blocks in flight, in two areas used in turn
 *          (a step sends one while it receives into the other).
 * Paper:   the ring all-to-all personalized exchange, e.g. A. Grama,
 *          A. Gupta, G. Karypis, V. Kumar, "Introduction to Parallel
 *          Computing", 2nd ed., 2003, section 4.5.
 * Steps:   p - 1.
 * Cost:    (p - 1)α + (p(p - 1)/2)·block·β ~ (p - 1)α + (p²/2)·block·β
 *          = (p - 1)α + (p/2)·nβ (n = p·block): a block travels as many
 *          hops as its distance, so p/2 times the data of linear.
 *          Local copies: p blocks (each rank's own, and one per step).
 * Limits:  none; meant for small blocks or rings of neighbours only.
 * Memory:  2·(p - 1)·block bytes of scratch.
 * Example: mpicoll show alltoall ring --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      00...   000..   0000.   00000
 *   1      .11..   .111.   .1111   11111
 *   2      ..22.   ..222   2.222   22222
 *   3      ...33   3..33   33.33   33333
 *   4      4...4   44..4   444.4   44444
 */
#include "alltoall_algos.h"

void alltoall_ring(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, to = pat_mod(r + 1, p), from = pat_mod(r - 1, p);
    const size_t B = a->block, area = (size_t)(p - 1) * B;
    plan_need_tmp(pl, 2 * area);
    plan_copy(pl, BUF_SEND, (size_t)r * B, BUF_RECV, (size_t)r * B, B);
    plan_send_begin(pl, BUF_SEND, to);
    for (int t = 1; t < p; t++)
        plan_seg_add(pl, (size_t)pat_mod(r + t, p) * B, B);
    plan_seg_end(pl);
    for (int s = 1; s < p; s++) {
        size_t cur = (size_t)(s % 2) * area, prev = area - cur;
        if (s > 1)
            plan_send(pl, BUF_TMP, prev + B, (size_t)(p - s) * B, to);
        plan_recv(pl, BUF_TMP, cur, (size_t)(p - s) * B, from);
        plan_copy(pl, BUF_TMP, cur, BUF_RECV, (size_t)pat_mod(r - s, p) * B, B);
        plan_end_round(pl);
    }
    plan_end_round(pl);
}
