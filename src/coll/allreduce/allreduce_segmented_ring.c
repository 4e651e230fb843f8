/*
 * allreduce: segmented_ring
 *
 * What:    the ring allreduce, pipelined. The vector is cut into chunks of
 *          p·s elements (s = segsize bytes in whole elements, at least
 *          one), so that each of a chunk's p ring blocks (pat_block of the
 *          chunk) is about segsize bytes; the last chunk is shorter. Every
 *          chunk runs the ring's 2(p - 1) steps (p - 1 of reduce-scatter,
 *          p - 1 of allgather), and the chunks are software-pipelined:
 *          round t carries step t - c of every chunk c with
 *          0 <= t - c < 2(p - 1), so a rank has up to 2(p - 1) segments in
 *          flight to its right neighbour and from its left one, instead of
 *          one vector block per step. Both ends of each link list the
 *          chunks in the same order, so messages match in posting order.
 *          The local copy of the send buffer rides on the first round
 *          (chunk 0's first step sends straight from the send buffer).
 * Paper:   Open MPI's ompi_coll_base_allreduce_intra_ring_segmented
 *          (id 5; its pipelining differs: one chunk's phase overlaps the
 *          next receive); Patarasuk & Yuan, JPDC 2009.
 * Steps:   c + 2(p - 1) - 1 rounds for c = ceil(n / (p·s)) chunks.
 * Cost:    (c + 2p - 3)α·min(c, 2p - 2) at most, 2((p - 1)/p)nβ + ((p - 1)/p)nγ
 *          (n = vector bytes): the ring's bandwidth with a pipeline's
 *          latency.
 * Limits:  commutative operations (declared; falls back to basic_linear).
 * Memory:  min(c, p - 1) segments of scratch (one per chunk in its
 *          reduce-scatter phase).
 * Example: mpicoll show allreduce segmented_ring:segsize=1 --np 5 --compact
 *          (columns: ranks; rows: the vector's elements after each round; k =
 *          how many ranks' contributions the rank holds in the element)
 *   round  0       1       2       3       4       5       6       7
 *   rank   01234   01234   01234   01234   01234   01234   01234   01234
 *   0      11211   11231   11234   51234   55234   55534   55554   55555
 *   1      11121   11123   41123   45123   45523   45553   45555   55555
 *   2      11112   31112   34112   34512   34552   34555   54555   55555
 *   3      21111   23111   23411   23451   23455   53455   55455   55555
 *   4      12111   12311   12341   12345   52345   55345   55545   55555
 */
#include "allreduce_algos.h"

void allreduce_segmented_ring(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank, right = pat_mod(r + 1, p), left = pat_mod(r - 1, p);
    const size_t es = a->esize, n = a->block / es;
    const size_t s = (size_t)a->param[0] / es ? (size_t)a->param[0] / es : 1;
    const size_t chunk = s * (size_t)p, nchunks = (n + chunk - 1) / chunk;
    const long long steps = 2LL * (p - 1), slots = (long long)nchunks < p - 1
                                                      ? (long long)nchunks : p - 1;
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, a->block);
    if (p == 1 || nchunks == 0) {
        plan_end_round(pl);
        return;
    }
    /* a slot: the largest block of a chunk (vectors shorter than a chunk
     * have blocks shorter than s) */
    const size_t big = n < chunk ? n : chunk, slot_bytes = (big + (size_t)p - 1) / (size_t)p * es;
    plan_need_tmp(pl, (size_t)slots * slot_bytes);
    for (long long t = 0; t < (long long)nchunks + steps - 1; t++) {
        long long c0 = t - steps + 1 > 0 ? t - steps + 1 : 0;
        for (long long c = c0; c <= t && c < (long long)nchunks; c++) {
            const long long k = t - c;
            const size_t base = (size_t)c * chunk;
            const size_t clen = n - base < chunk ? n - base : chunk;
            size_t f, len;
            if (k < p - 1) {        /* reduce-scatter step k */
                const size_t slot = (size_t)(c % slots) * slot_bytes;
                pat_block(clen, p, pat_mod(r - k - 1, p), &f, &len);
                plan_send(pl, k == 0 ? BUF_SEND : BUF_RECV, (base + f) * es, len * es, right);
                pat_block(clen, p, pat_mod(r - k - 2, p), &f, &len);
                plan_recv(pl, BUF_TMP, slot, len * es, left);
                plan_reduce(pl, BUF_TMP, slot, BUF_RECV, (base + f) * es, len * es);
            } else {                /* allgather step k - (p - 1) */
                const long long g = k - (p - 1);
                pat_block(clen, p, pat_mod(r - g, p), &f, &len);
                plan_send(pl, BUF_RECV, (base + f) * es, len * es, right);
                pat_block(clen, p, pat_mod(r - g - 1, p), &f, &len);
                plan_recv(pl, BUF_RECV, (base + f) * es, len * es, left);
            }
        }
        plan_end_round(pl);
    }
}
