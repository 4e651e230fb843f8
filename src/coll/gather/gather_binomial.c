/*
 * gather: binomial
 *
 * What:    a binomial tree on ranks relative to the root (rel = rank - root
 *          mod p). In step k (m = 2^k) a rank whose rel has lowest set bit
 *          m sends the blocks of its subtree, relative ranks [rel, rel +
 *          min(m, p - rel)), to rel - m, in one message; a rank with rel a
 *          multiple of 2m receives rel + m's subtree (if rel + m < p).
 *          Inner ranks gather their subtree in TMP (own block first);
 *          leaves send their block as it is; the root receives straight
 *          into its receive buffer: after rotation by the root a subtree's
 *          blocks are consecutive ranks, and the one subtree that wraps
 *          past rank p - 1 arrives as one message of two segments (the
 *          end of the buffer and its start), so no final rotation.
 * Paper:   Open MPI's ompi_coll_base_gather_intra_binomial (id 2; in-order
 *          binomial tree, and at a root other than 0 a temporary buffer
 *          rotated at the end); MPICH's MPIR_Gather_intra_binomial.
 * Steps:   ceil(log2 p).
 * Cost:    ceil(log2 p)α + ((p - 1)/p)·pnβ   (n = block bytes)
 * Limits:  none: any p, any root.
 * Memory:  an inner rank of relative rank rel: min(lowbit(rel), p - rel)·n
 *          bytes of TMP; leaves and the root none.
 * Example: mpicoll show gather binomial --np 5 --compact
 *          (columns: ranks; rows: blocks of the root's receive buffer
 *          after each round; k = rank k's block, . = not there yet)
 *   round  0       1       2
 *   rank   01234   01234   01234
 *   0      0....   0....   0....
 *   1      1....   1....   1....
 *   2      .....   2....   2....
 *   3      .....   3....   3....
 *   4      .....   .....   4....
 */
#include "gather_algos.h"

void gather_binomial(plan *pl, const plan_args *a)
{
    const int p = a->p, root = a->root, rel = pat_mod(a->rank - root, p);
    const size_t B = a->block;
    const int mine = rel == 0 ? p : pat_binomial_subtree(p, rel);
    if (rel == 0)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)root * B, B);  /* nothing when in place */
    else if (mine > 1)
        plan_copy(pl, BUF_SEND, 0, BUF_TMP, 0, B);
    for (int m = 1; m < p; m *= 2) {
        if (rel & m) {          /* send the subtree to the parent, and stop */
            plan_send(pl, mine > 1 ? BUF_TMP : BUF_SEND, 0, (size_t)mine * B,
                      pat_mod(a->rank - m, p));
            plan_end_round(pl);
            break;
        }
        const int child = rel + m;
        if (child < p) {
            const int n = pat_binomial_subtree(p, child), peer = pat_mod(a->rank + m, p);
            const int at = pat_mod(child + root, p);  /* the child's absolute rank */
            if (rel != 0) {
                plan_recv(pl, BUF_TMP, (size_t)m * B, (size_t)n * B, peer);
            } else {            /* wraps past rank p - 1 as two segments */
                pat_root_blocks(pl, 0, BUF_RECV, peer, at, n, p, B);
            }
        }
        plan_end_round(pl);
    }
    if (rel != 0 && mine > 1)
        plan_need_tmp(pl, (size_t)mine * B);
}
