/*
 * alltoall: shm
 *
 * What:    through the node's shared segment: each rank copies the p - 1
 *          blocks it sends to the others into its slots (one per
 *          destination); barrier; each copies the p - 1 blocks meant for
 *          it out. Blocks that do not fit (p(p - 1)·block > segment) go in
 *          chunks pipelined over two areas, one barrier per chunk.
 *          Single copy (cma=1, blocks of cma_min bytes or more): each rank
 *          publishes where its buffers are; a barrier; each copies its
 *          blocks straight from the senders' buffers (process_vm_readv);
 *          a barrier. Two copies when the node's kernel refuses it.
 * Paper:   the two-copy shared-memory alltoall of MPI libraries (e.g.
 *          Open MPI's coll/sm design, Graham & Shipman, EuroPVM/MPI 2008);
 *          single copy: the CMA of MPI libraries' shared-memory transports.
 * Steps:   n barriers (n = 1 when the blocks fit, else chunks of
 *          segment / (2p(p - 1)) bytes). Single copy: 2 barriers, p - 1
 *          system calls per rank.
 * Cost:    n·β_sync + (2(p - 1) + 1)·block·μ per rank; no messages.
 *          Single copy: 2·β_sync + (p - 1)·σ + p·block·μ (σ: a system
 *          call).
 * Limits:  one node; ranks that share memory (R_SHM).
 *          Requests too (R_SHM): in a channel of the communicator's
 *          pool, segment capped at 1 MiB; the first on a communicator
 *          is collective; over 4 outstanding on one serialise.
 * Memory:  the node's segment: p(p - 1)·block, or 2p(p - 1)·chunk;
 *          single copy: p records of 64 bytes.
 * Example: mpicoll show alltoall shm --np 5 --compact
 *          (columns: ranks; rows: blocks of the receive buffer after each
 *          round; k = rank k's block, . = not there yet)
 *   round  0       1
 *   rank   01234   01234
 *   0      0....   00000
 *   1      .1...   11111
 *   2      ..2..   22222
 *   3      ...3.   33333
 *   4      ....4   44444
 */
#include "alltoall_algos.h"
#include "../../patterns/segment.h"

/* Slot of the block from s to d (d != s). */
static size_t slot(int p, int s, int d)
{
    return (size_t)s * (size_t)(p - 1) + (size_t)(d < s ? d : d - 1);
}

/* In one copy: each rank publishes its buffers; barrier; each copies the
 * block meant for it straight from every other rank's SEND (plan_pull),
 * starting with its next rank; barrier (no rank returns while another
 * reads its buffer). */
static void cma(plan *pl, int p, int r, size_t B)
{
    plan_need_shm(pl, (size_t)p * PLAN_PUB_BYTES);
    plan_publish(pl, (size_t)r * PLAN_PUB_BYTES);
    plan_sync(pl);
    for (int i = 1; i < p; i++) {
        int s = (r + i) % p;
        plan_pull(pl, s, (size_t)s * PLAN_PUB_BYTES, BUF_SEND, (size_t)r * B, BUF_RECV,
                  (size_t)s * B, B);
    }
    plan_sync(pl);
}

void alltoall_shm(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block, R = (size_t)r;
    plan_copy(pl, BUF_SEND, R * B, BUF_RECV, R * B, B);
    if (p == 1)
        return;
    if (pat_cma_on(a)) {
        cma(pl, p, r, B);
        return;
    }
    pat_seg sg;
    pat_seg_make(&sg, B, 1, (size_t)p * (size_t)(p - 1), 2, (size_t)a->param[0]);
    plan_need_shm(pl, (size_t)sg.areas * sg.area);
    const size_t epochs = sg.n + 1;
    for (size_t k = 0; k < epochs; k++) {
        size_t off, len;
        if (k < sg.n && sg.n == 1) {        /* whole blocks: the slots are SEND's order */
            size_t at = pat_seg_area(&sg, k) + R * (size_t)(p - 1) * B;
            plan_copy(pl, BUF_SEND, 0, BUF_SHM, at, R * B);
            plan_copy(pl, BUF_SEND, (R + 1) * B, BUF_SHM, at + R * B, ((size_t)p - R - 1) * B);
        } else if (k < sg.n) {
            pat_seg_chunk(&sg, k, &off, &len);
            for (int d = 0; d < p; d++)
                if (d != r)
                    plan_copy(pl, BUF_SEND, (size_t)d * B + off, BUF_SHM,
                              pat_seg_area(&sg, k) + slot(p, r, d) * sg.chunk, len);
        }
        if (k >= 1) {
            pat_seg_chunk(&sg, k - 1, &off, &len);
            for (int s = 0; s < p; s++)
                if (s != r)
                    plan_copy(pl, BUF_SHM, pat_seg_area(&sg, k - 1) + slot(p, s, r) * sg.chunk,
                              BUF_RECV, (size_t)s * B + off, len);
        }
        pat_seg_epoch_end(pl, k, epochs);
    }
}
