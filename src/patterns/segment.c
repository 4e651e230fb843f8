/* Collectives through a node's shared segment (see segment.h). No MPI. */
#include "segment.h"
#include "patterns.h"

#include <stdlib.h>

const algo_param pat_segment_params[] = {
    { "segment", 4 << 20, 1, 1 << 30,
      "bytes of the node's shared memory a call uses (chunks of larger messages pipelined)" },
    { NULL, 0, 0, 0, NULL },
};

const algo_param pat_segment_cma_params[] = {
    { "segment", 4 << 20, 1, 1 << 30,
      "bytes of the node's shared memory a call uses (chunks of larger messages pipelined)" },
    { "cma", 0, 0, 1,
      "1: single copy from the peers' buffers (process_vm_readv) from cma_min bytes on; "
      "0 (default: not yet measured over launches): always through the segment" },
    { "cma_min", PAT_CMA_MIN, 0, 1 << 30,
      "the message size from which cma=1 copies once (below, the segment's two copies)" },
    { NULL, 0, 0, 0, NULL },
};

void pat_seg_make(pat_seg *sg, size_t bytes, size_t esize, size_t slots, int areas,
                  size_t segment)
{
    sg->bytes = bytes;
    sg->areas = 1;
    sg->chunk = bytes;
    sg->n = bytes ? 1 : 0;
    if (bytes > segment / slots) {
        size_t c = segment / ((size_t)areas * slots) / esize * esize;
        sg->chunk = c < esize ? esize : c;
        sg->n = (bytes + sg->chunk - 1) / sg->chunk;
        sg->areas = sg->n > 1 ? areas : 1;
    }
    sg->area = slots * sg->chunk;
}

/* Ranks by node, from node_of or (NULL) all on one node. */
typedef struct layout {
    pat_nodes nd;
    const int *node_of;
    int *one;
} layout;

static int layout_make(plan *pl, layout *l, int p, const int *node_of)
{
    l->one = node_of ? NULL : calloc((size_t)p, sizeof *l->one);
    l->node_of = node_of ? node_of : l->one;
    if (!l->node_of) {
        plan_fail(pl);
        return -1;
    }
    if (pat_nodes_make(pl, &l->nd, p, l->node_of)) {
        free(l->one);
        return -1;
    }
    return 0;
}

static void layout_free(layout *l)
{
    pat_nodes_free(&l->nd);
    free(l->one);
}

/* ---- allgather ---------------------------------------------------------- */

/* The first ranks of the nodes: this node's slots of chunk j to every
 * other node, theirs into this node's segment. */
static void exchange_slots(plan *pl, const layout *l, int mine, const pat_seg *sg, size_t j)
{
    size_t off, len, at = pat_seg_area(sg, j);
    pat_seg_chunk(sg, j, &off, &len);
    for (int i = 0; i < l->nd.nn; i++) {
        if (i == mine)
            continue;
        plan_send_begin(pl, BUF_SHM, pat_node_master(&l->nd, i));
        for (int k = l->nd.first[mine]; k < l->nd.first[mine + 1]; k++)
            plan_seg_add(pl, at + (size_t)l->nd.members[k] * sg->chunk, len);
        plan_seg_end(pl);
        plan_recv_begin(pl, BUF_SHM, pat_node_master(&l->nd, i));
        for (int k = l->nd.first[i]; k < l->nd.first[i + 1]; k++)
            plan_seg_add(pl, at + (size_t)l->nd.members[k] * sg->chunk, len);
        plan_seg_end(pl);
    }
}

/* Every other rank's chunk j, from its slot to its place in RECV; one
 * chunk: the area is laid out as RECV, two copies. */
static void copy_out_slots(plan *pl, int p, int rank, const pat_seg *sg, size_t j, size_t block)
{
    size_t off, len, at = pat_seg_area(sg, j), r = (size_t)rank;
    pat_seg_chunk(sg, j, &off, &len);
    if (sg->n == 1) {
        plan_copy(pl, BUF_SHM, at, BUF_RECV, 0, r * block);
        plan_copy(pl, BUF_SHM, at + (r + 1) * block, BUF_RECV, (r + 1) * block,
                  ((size_t)p - r - 1) * block);
        return;
    }
    for (int s = 0; s < p; s++)
        if (s != rank)
            plan_copy(pl, BUF_SHM, at + (size_t)s * sg->chunk, BUF_RECV,
                      (size_t)s * block + off, len);
}

void pat_shm_allgather(plan *pl, int p, int rank, const int *node_of, size_t block,
                       size_t segment)
{
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)rank * block, block);
    layout l;
    if (p == 1 || layout_make(pl, &l, p, node_of))
        return;
    const int mine = l.node_of[rank], multi = l.nd.nn > 1;
    const int lead = pat_node_master(&l.nd, mine) == rank;
    /* stages: copy in; (several nodes) first ranks exchange; copy out */
    const size_t stages = multi ? 3 : 2;
    pat_seg sg;
    pat_seg_make(&sg, block, 1, (size_t)p, (int)stages, segment);
    plan_need_shm(pl, (size_t)sg.areas * sg.area);
    const size_t epochs = sg.n + stages - 1;
    for (size_t k = 0; k < epochs; k++) {
        size_t off, len;
        if (k < sg.n) {
            pat_seg_chunk(&sg, k, &off, &len);
            plan_copy(pl, BUF_SEND, off, BUF_SHM,
                      pat_seg_area(&sg, k) + (size_t)rank * sg.chunk, len);
        }
        if (multi && lead && k >= 1 && k - 1 < sg.n)
            exchange_slots(pl, &l, mine, &sg, k - 1);
        if (k >= stages - 1)
            copy_out_slots(pl, p, rank, &sg, k - (stages - 1), block);
        pat_seg_epoch_end(pl, k, epochs);
    }
    layout_free(&l);
}

void pat_cma_allgather(plan *pl, int p, int rank, size_t block)
{
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)rank * block, block);
    if (p == 1)
        return;
    plan_need_shm(pl, (size_t)p * PLAN_PUB_BYTES);
    plan_publish(pl, (size_t)rank * PLAN_PUB_BYTES);
    plan_sync(pl);
    /* each rank starts with its next peer: the p ranks read p different
     * buffers at a time */
    for (int i = 1; i < p; i++) {
        int q = (rank + i) % p;
        plan_pull(pl, q, (size_t)q * PLAN_PUB_BYTES, BUF_SEND, 0, BUF_RECV, (size_t)q * block,
                  block);
    }
    plan_sync(pl);      /* no rank returns while a peer still reads its buffer */
}

/* ---- bcast -------------------------------------------------------------- */

void pat_cma_bcast(plan *pl, int p, int rank, int root, size_t bytes)
{
    if (rank == root)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, bytes);     /* nothing when in place */
    if (p == 1)
        return;
    plan_need_shm(pl, PLAN_PUB_BYTES);
    if (rank == root)
        plan_publish(pl, 0);
    plan_sync(pl);
    if (rank != root)
        plan_pull(pl, root, 0, BUF_SEND, 0, BUF_RECV, 0, bytes);
    plan_sync(pl);      /* the root does not return while the others read */
}

void pat_shm_bcast(plan *pl, int p, int rank, int root, const int *node_of, size_t bytes,
                   size_t segment)
{
    if (rank == root)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, bytes);     /* nothing when in place */
    layout l;
    if (p == 1 || layout_make(pl, &l, p, node_of))
        return;
    /* a node's head puts the data into its segment: the root on its node,
     * the first rank on the others */
    const int mine = l.node_of[rank], root_node = l.node_of[root];
    const int head = rank == root || (mine != root_node && pat_node_master(&l.nd, mine) == rank);
    pat_seg sg;
    pat_seg_make(&sg, bytes, 1, 1, 2, segment);
    plan_need_shm(pl, (size_t)sg.areas * sg.area);
    const size_t epochs = sg.n + 1;
    for (size_t k = 0; k < epochs; k++) {
        size_t off, len;
        if (k < sg.n && head) {
            pat_seg_chunk(&sg, k, &off, &len);
            if (rank == root) {
                for (int i = 0; i < l.nd.nn; i++)
                    if (i != root_node)
                        plan_send(pl, BUF_SEND, off, len, pat_node_master(&l.nd, i));
            } else {
                plan_recv(pl, BUF_RECV, off, len, root);
            }
            plan_copy(pl, rank == root ? BUF_SEND : BUF_RECV, off, BUF_SHM,
                      pat_seg_area(&sg, k), len);
        }
        if (k >= 1 && !head) {
            pat_seg_chunk(&sg, k - 1, &off, &len);
            plan_copy(pl, BUF_SHM, pat_seg_area(&sg, k - 1), BUF_RECV, off, len);
        }
        pat_seg_epoch_end(pl, k, epochs);
    }
    layout_free(&l);
}

/* ---- reduce and allreduce ----------------------------------------------- */

typedef struct red {
    const layout *l;
    pat_seg sg;
    int rank, mine, q, li;      /* li: the rank's index in its node */
    size_t esize;
    size_t nres, fres;          /* the node's result, the final result: in an area */
} red;

/* Stage 0: this rank's chunk j into its slot, except its own slice, which
 * it reduces from SEND. */
static void red_copy_in(plan *pl, const red *x, size_t j)
{
    size_t off, len, f, n, e = x->esize, at = pat_seg_area(&x->sg, j) + (size_t)x->li * x->sg.chunk;
    pat_seg_chunk(&x->sg, j, &off, &len);
    pat_block(len / e, x->q, x->li, &f, &n);
    plan_copy(pl, BUF_SEND, off, BUF_SHM, at, f * e);
    plan_copy(pl, BUF_SEND, off + (f + n) * e, BUF_SHM, at + (f + n) * e, len - (f + n) * e);
}

/* Stage 1: this rank's slice of chunk j over the node's ranks, highest
 * first, each lower one on the left: rank order. */
static void red_node(plan *pl, const red *x, size_t j)
{
    size_t off, len, f, n, e = x->esize, at = pat_seg_area(&x->sg, j);
    pat_seg_chunk(&x->sg, j, &off, &len);
    pat_block(len / e, x->q, x->li, &f, &n);
    for (int k = x->q - 1; k >= 0; k--) {
        int buf = k == x->li ? BUF_SEND : BUF_SHM;
        size_t src = k == x->li ? off + f * e : at + (size_t)k * x->sg.chunk + f * e;
        if (k == x->q - 1)
            plan_copy(pl, buf, src, BUF_SHM, at + x->nres + f * e, n * e);
        else
            plan_reduce(pl, buf, src, BUF_SHM, at + x->nres + f * e, n * e);
    }
}

/* A short vector on one node, in one epoch less: every rank copies its
 * vector into its slot; barrier; every rank that gets the result reduces
 * all q slots itself, in rank order, straight into RECV (its own from its
 * slot too: SEND may be RECV). The same operations in the same order on
 * every rank: bitwise identical results. */
static void red_whole(plan *pl, const red *x, size_t n, int gets)
{
    plan_need_shm(pl, (size_t)x->q * n);
    plan_copy(pl, BUF_SEND, 0, BUF_SHM, (size_t)x->li * n, n);
    plan_sync(pl);
    if (!gets)
        return;
    plan_copy(pl, BUF_SHM, (size_t)(x->q - 1) * n, BUF_RECV, 0, n);
    for (int k = x->q - 2; k >= 0; k--)
        plan_reduce(pl, BUF_SHM, (size_t)k * n, BUF_RECV, 0, n);
}

/* Stage 2, several nodes, first ranks: the node results of chunk j to
 * every other first rank, theirs into TMP (a chunk per node), all of them
 * reduced in node order into the final result. */
static void red_leaders(plan *pl, const red *x, size_t j)
{
    const pat_nodes *nd = &x->l->nd;
    size_t off, len, at = pat_seg_area(&x->sg, j);
    pat_seg_chunk(&x->sg, j, &off, &len);
    for (int m = 0; m < nd->nn; m++) {
        if (m == x->mine)
            continue;
        plan_send(pl, BUF_SHM, at + x->nres, len, pat_node_master(nd, m));
        plan_recv(pl, BUF_TMP, (size_t)m * x->sg.chunk, len, pat_node_master(nd, m));
    }
    for (int m = nd->nn - 1; m >= 0; m--) {
        int buf = m == x->mine ? BUF_SHM : BUF_TMP;
        size_t src = m == x->mine ? at + x->nres : (size_t)m * x->sg.chunk;
        if (m == nd->nn - 1)
            plan_copy(pl, buf, src, BUF_SHM, at + x->fres, len);
        else
            plan_reduce(pl, buf, src, BUF_SHM, at + x->fres, len);
    }
}

void pat_shm_reduce(plan *pl, int p, int rank, int root, const int *node_of, size_t n,
                    size_t esize, size_t segment)
{
    const int gets = root < 0 || rank == root;
    layout l;
    if (p == 1) {
        if (gets)
            plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, n);
        return;
    }
    if (layout_make(pl, &l, p, node_of))
        return;
    red x = { .l = &l, .rank = rank, .mine = l.node_of[rank], .esize = esize,
              .li = l.nd.local[rank] };
    x.q = pat_node_size(&l.nd, x.mine);
    int qmax = 0;
    for (int i = 0; i < l.nd.nn; i++)
        qmax = pat_node_size(&l.nd, i) > qmax ? pat_node_size(&l.nd, i) : qmax;
    /* an area: the node's slots, its result and, with several nodes, the
     * final result; chunks are the same on every node (the first ranks
     * exchange them), areas are the node's own */
    const int multi = l.nd.nn > 1, lead = pat_node_master(&l.nd, x.mine) == rank;
    if (!multi && n <= PAT_SHM_WHOLE && (size_t)p * n <= segment) {
        red_whole(pl, &x, n, gets);
        layout_free(&l);
        return;
    }
    const size_t extra = multi ? 2 : 1;
    pat_seg_make(&x.sg, n, esize, (size_t)qmax + extra, 2, segment);
    x.sg.area = ((size_t)x.q + extra) * x.sg.chunk;
    x.nres = (size_t)x.q * x.sg.chunk;
    x.fres = multi ? x.nres + x.sg.chunk : x.nres;
    plan_need_shm(pl, (size_t)x.sg.areas * x.sg.area);
    if (multi && lead)
        plan_need_tmp(pl, (size_t)l.nd.nn * x.sg.chunk);
    /* stages: copy in; reduce the node's slices; (several nodes) first
     * ranks combine the nodes; copy out */
    const size_t stages = multi ? 4 : 3, epochs = x.sg.n + stages - 1;
    for (size_t k = 0; k < epochs; k++) {
        if (k < x.sg.n)
            red_copy_in(pl, &x, k);
        if (k >= 1 && k - 1 < x.sg.n)
            red_node(pl, &x, k - 1);
        if (multi && lead && k >= 2 && k - 2 < x.sg.n)
            red_leaders(pl, &x, k - 2);
        if (gets && k >= stages - 1) {
            size_t j = k - (stages - 1), off, len;
            pat_seg_chunk(&x.sg, j, &off, &len);
            plan_copy(pl, BUF_SHM, pat_seg_area(&x.sg, j) + x.fres, BUF_RECV, off, len);
        }
        pat_seg_epoch_end(pl, k, epochs);
    }
    layout_free(&l);
}
