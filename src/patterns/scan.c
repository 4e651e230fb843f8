/* The recursive doubling of scan and exscan (see scan.h). No MPI here. */
#include "scan.h"

/* Whether rank r has a partner r XOR m below p for some m > mask, a power
 * of two: whether its partial result is still needed after step mask. */
static int partner_after(int p, int r, int mask)
{
    for (int m = mask << 1; m > 0 && m < p; m <<= 1)
        if ((r ^ m) < p)
            return 1;
    return 0;
}

void pat_scan_recursive_doubling(plan *pl, const plan_args *a, int exclusive)
{
    const int p = a->p, r = a->rank;
    const size_t n = a->block;
    if (p == 1 || n == 0) {
        if (!exclusive)
            plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, n);
        plan_end_round(pl);
        return;
    }
    plan_need_tmp(pl, 2 * n);
    /* the partial result is SEND's data until the first step's local
     * operations copy it into TMP at `part` (only when a later step uses
     * it); `in` is where the partner's arrives */
    size_t part = 0, in = n;
    int part_is_send = 1, recv_written = 0;
    for (int mask = 1; mask < p; mask <<= 1) {
        const int peer = r ^ mask, later = partner_after(p, r, mask);
        if (peer < p) {
            plan_send(pl, part_is_send ? BUF_SEND : BUF_TMP, part_is_send ? 0 : part, n, peer);
            plan_recv(pl, BUF_TMP, in, n, peer);
        }
        if (part_is_send) {
            /* in place, SEND lies in RECV: copy it out before RECV changes */
            if (later)
                plan_copy(pl, BUF_SEND, 0, BUF_TMP, part, n);
            if (!exclusive)
                plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, n);
            part_is_send = 0;
            recv_written = !exclusive;
        }
        if (peer < p && peer < r) {
            /* the peer's ranks come before this rank's: prepend them */
            if (later)
                plan_reduce(pl, BUF_TMP, in, BUF_TMP, part, n);
            if (recv_written)
                plan_reduce(pl, BUF_TMP, in, BUF_RECV, 0, n);
            else
                plan_copy(pl, BUF_TMP, in, BUF_RECV, 0, n);
            recv_written = 1;
        } else if (peer < p && later) {
            /* the peer's ranks come after: append them to the partial result
             * (a commutative operation in place; otherwise into the received
             * one, which becomes the partial result) */
            if (a->commutative) {
                plan_reduce(pl, BUF_TMP, in, BUF_TMP, part, n);
            } else {
                plan_reduce(pl, BUF_TMP, part, BUF_TMP, in, n);
                const size_t t = part;
                part = in;
                in = t;
            }
        }
        plan_end_round(pl);
    }
}
