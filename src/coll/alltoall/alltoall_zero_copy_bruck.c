/*
 * alltoall: zero_copy_bruck
 *
 * What:    Bruck's rounds with no rotation and no packing. The block rank
 *          r sends to r + i ("position i") moves in step k when bit k of i
 *          is set: to r + 2^k, on from there in later steps, and reaches
 *          rank r + i at its highest set bit. Each receive lands where the
 *          block is read next. At rank q, position i has two homes: block
 *          (q - i) mod p of the receive buffer (its final place at q, so
 *          no other position ever uses it) and slot i of a scratch buffer.
 *          The parity rule: a step sends position i from one home, so it
 *          must receive the new position-i block into the other; the homes
 *          of a block's hops therefore alternate, and its last hop must
 *          land in the receive buffer. Counting back from that last hop,
 *          a block received in step k still has as many hops to go as i
 *          has set bits above bit k: an even number (none counts as even)
 *          means the receive buffer, an odd number the scratch buffer.
 *          The first hop is sent straight from the send buffer, so no
 *          rotation, no packing and no final unpack: only the own block
 *          is copied.
 *          A segmented message of the plan API spans one buffer, so a
 *          round's blocks travel as up to four messages, one per (source
 *          buffer, destination buffer) pair; the pair depends on i and k
 *          only, so both ends cut the same messages. The paper sends each
 *          round as one message (a datatype over absolute addresses).
 * Paper:   J. L. Träff, A. Rougier, S. Hunold, "Implementing a classic:
 *          zero-copy all-to-all communication with MPI datatypes",
 *          ICS 2014; Bruck et al., IEEE TPDS 8(11), 1997.
 * Steps:   ceil(log2 p).
 * Cost:    up to 4·ceil(log2 p)α (2 in step 0) + (n/2)·ceil(log2 p)β at
 *          most (n = p·block); local copies: one block.
 * Limits:  none: any p.
 * Memory:  p·block bytes of scratch.
 * Example: mpicoll show alltoall zero_copy_bruck --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      00...   0000.   00000
 *   1      .11..   .1111   11111
 *   2      ..22.   2.222   22222
 *   3      ...33   33.33   33333
 *   4      4...4   444.4   44444
 */
#include "alltoall_algos.h"

/* Parity of the set bits of x. */
static int odd_bits(unsigned long long x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n ^= 1;
    return n;
}

/* Where position i lies on rank r before (after = 0) or after (after = 1)
 * the step that moves bit d of i: its buffer, and its offset there. */
static int home(int p, int r, int i, unsigned long long d, int after, size_t B, size_t *off)
{
    unsigned long long u = (unsigned long long)i;
    if (!after && (u & (d - 1)) == 0) {
        *off = (size_t)pat_mod((long long)r + i, p) * B;
        return BUF_SEND;
    }
    if (odd_bits(after ? u / d / 2 : u / d)) {
        *off = (size_t)i * B;
        return BUF_TMP;
    }
    *off = (size_t)pat_mod((long long)r - i, p) * B;
    return BUF_RECV;
}

/* One message of step d (to peer, or from it when recv): the positions
 * whose home before the step is src and after it dst, in increasing order.
 * Homes depend on i and d only, so both ends cut the same messages. */
static void message(plan *pl, const plan_args *a, unsigned long long d, int src, int dst,
                    int recv, int peer)
{
    const int p = a->p, r = a->rank;
    size_t so, doff;
    if (recv)
        plan_recv_begin(pl, dst, peer);
    else
        plan_send_begin(pl, src, peer);
    for (int i = 1; i < p; i++)
        if (((unsigned long long)i & d) && home(p, r, i, d, 0, a->block, &so) == src &&
            home(p, r, i, d, 1, a->block, &doff) == dst)
            plan_seg_add(pl, recv ? doff : so, a->block);
    plan_seg_end(pl);
}

void alltoall_zero_copy_bruck(plan *pl, const plan_args *a)
{
    static const int cls[4][2] = {
        { BUF_SEND, BUF_RECV }, { BUF_SEND, BUF_TMP },
        { BUF_RECV, BUF_TMP }, { BUF_TMP, BUF_RECV },
    };
    const int p = a->p, r = a->rank;
    const size_t B = a->block;
    plan_need_tmp(pl, (size_t)p * B);
    plan_copy(pl, BUF_SEND, (size_t)r * B, BUF_RECV, (size_t)r * B, B);
    for (long long d = 1; d < p; d *= 2) {
        for (int c = 0; c < 4; c++) {
            message(pl, a, (unsigned long long)d, cls[c][0], cls[c][1], 0, pat_mod(r + d, p));
            message(pl, a, (unsigned long long)d, cls[c][0], cls[c][1], 1, pat_mod(r - d, p));
        }
        plan_end_round(pl);
    }
    plan_end_round(pl);
}
