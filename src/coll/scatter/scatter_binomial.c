/*
 * scatter: binomial
 *
 * What:    a binomial tree on ranks relative to the root (rel = rank - root
 *          mod p), gather binomial's run backwards. In step k, from the
 *          top (m = 2^k, ceil(log2 p) - 1 down to 0), a rank with rel a
 *          multiple of 2m that holds its subtree's blocks sends rel + m
 *          the blocks of rel + m's subtree, relative ranks [rel + m,
 *          rel + m + min(m, p - rel - m)), in one message, if rel + m < p.
 *          Inner ranks receive their subtree into TMP (own block first,
 *          copied out to the receive buffer) and forward from there;
 *          leaves receive their block straight into the receive buffer;
 *          the root sends straight from its send buffer: after rotation by
 *          the root a subtree's blocks are consecutive ranks, and the one
 *          subtree that wraps past rank p - 1 leaves as one message of two
 *          segments (the end of the buffer and its start), so no rotation
 *          first.
 * Paper:   Open MPI's ompi_coll_base_scatter_intra_binomial (id 2; at a
 *          root other than 0 it first copies the send buffer rotated);
 *          MPICH's MPIR_Scatter_intra_binomial.
 * Steps:   ceil(log2 p).
 * Cost:    ceil(log2 p)α + ((p - 1)/p)·pnβ   (n = block bytes)
 * Limits:  none: any p, any root.
 * Memory:  an inner rank of relative rank rel: min(lowbit(rel), p - rel)·n
 *          bytes of TMP; leaves and the root none.
 * Example: mpicoll show scatter binomial --np 5 --compact
 *          (columns: ranks; rows: each rank's receive buffer after each
 *          round; k = block k of the root's send data, . = not there yet)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      0...4   0.2.4   01234
 */
#include "scatter_algos.h"

void scatter_binomial(plan *pl, const plan_args *a)
{
    const int p = a->p, root = a->root, rel = pat_mod(a->rank - root, p);
    const size_t B = a->block;
    const int mine = rel == 0 ? p : pat_binomial_subtree(p, rel);
    /* the highest step whose message this rank receives (rel's lowest set
     * bit), or above all steps for the root */
    int top = 1;
    while (top < p)
        top *= 2;
    const int low = rel == 0 ? top : (rel & -rel);
    if (rel == 0)
        plan_copy(pl, BUF_SEND, (size_t)root * B, BUF_RECV, 0, B);
    for (int m = top / 2; m >= 1; m /= 2) {
        if (m == low) {         /* receive the subtree from the parent */
            const int from = pat_mod(a->rank - m, p);
            if (mine > 1) {
                plan_recv(pl, BUF_TMP, 0, (size_t)mine * B, from);
                plan_copy(pl, BUF_TMP, 0, BUF_RECV, 0, B);
            } else {
                plan_recv(pl, BUF_RECV, 0, B, from);
            }
        } else if (m < low && rel + m < p) {     /* send the child's subtree */
            const int child = rel + m, n = pat_binomial_subtree(p, child);
            const int peer = pat_mod(a->rank + m, p);
            const int at = pat_mod(child + root, p);  /* the child's absolute rank */
            if (rel != 0) {
                plan_send(pl, BUF_TMP, (size_t)m * B, (size_t)n * B, peer);
            } else {            /* wraps past rank p - 1 as two segments */
                pat_root_blocks(pl, 1, BUF_SEND, peer, at, n, p, B);
            }
        }
        plan_end_round(pl);
    }
    if (rel != 0 && mine > 1)
        plan_need_tmp(pl, (size_t)mine * B);
}
