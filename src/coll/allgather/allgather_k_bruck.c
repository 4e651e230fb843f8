/*
 * allgather: k_bruck
 *
 * What:    Bruck's algorithm with radix k: in each step, with distance d
 *          (1, k, k^2, ...), rank r sends its first min(d, p - j·d) blocks
 *          to each of r - j·d (j = 1 .. k-1) and receives as many from
 *          r + j·d, placed at block j·d of the rotated receive buffer. The
 *          k - 1 exchanges of a step are posted together. k = 2 is bruck;
 *          k >= p sends every block directly in one step.
 * Paper:   Bruck et al., IEEE TPDS 8(11), 1997 (the radix-k variant of
 *          their index algorithm); MPICH's allgather "k_brucks".
 * Steps:   ceil(log_k p), then a local rotation.
 * Cost:    ceil(log_k p)·(k - 1)α + ((p - 1)/p)·nβ   (n = p·block)
 * Limits:  none: any p. Parameter k >= 2 (default 4).
 * Memory:  (p - r)·block bytes of scratch on rank r for the rotation.
 * Example: mpicoll show allgather k_bruck:k=3 --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1       2       3
 *   rank   01234   01234   01234   01234
 *   0      01234   01234   01234   00000
 *   1      .....   12340   12340   11111
 *   2      .....   23401   23401   22222
 *   3      .....   .....   34012   33333
 *   4      .....   .....   40123   44444
 */
#include "allgather_algos.h"

void allgather_k_bruck(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, k = a->param[0];
    const size_t B = a->block;
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, B);
    plan_end_round(pl);
    for (long long d = 1; d < p; d *= k) {
        for (long long j = 1; j < k && j * d < p; j++) {
            long long left = p - j * d;
            size_t n = (size_t)(d < left ? d : left);
            plan_send(pl, BUF_RECV, 0, n * B, pat_mod(r - j * d, p));
            plan_recv(pl, BUF_RECV, (size_t)(j * d) * B, n * B, pat_mod(r + j * d, p));
        }
        plan_end_round(pl);
    }
    pat_bruck_unrotate(pl, p, r, B);
}
