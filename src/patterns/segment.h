/*
 * Collectives through a node's shared segment (plans' BUF_SHM): how a
 * message is cut into chunks that fit the segment, and the pipelines that
 * the shared-memory algorithms are made of. No MPI here.
 *
 * A pipeline runs in epochs (the stretches between two node barriers):
 * in epoch k, stage s works on chunk k - s. A chunk's data lives in one
 * of `areas` copies of the slots, chosen by chunk number, so that stages
 * working on different chunks in one epoch never touch the same bytes
 * (the symbolic checker proves it for each algorithm). A message that fits
 * the segment goes as one chunk through one area.
 */
#ifndef MPICOLL_PATTERNS_SEGMENT_H
#define MPICOLL_PATTERNS_SEGMENT_H

#include "../model/coll.h"

#include <stddef.h>

/* The parameter of every shared-memory algorithm: `segment`, the bytes of
 * the node's shared memory one call uses (the window holds two: calls
 * alternate), 4 MiB by default. */
extern const algo_param pat_segment_params[];

/* The parameters of a shared-memory algorithm that may copy once: `segment`,
 * `cma` (1: single copy from the peers' buffers, cross-memory attach, for
 * messages of at least `cma_min` bytes; 0: never) and `cma_min`. A node
 * whose kernel refuses cross-memory attach runs cma=0 (src/runtime/comm.c). */
extern const algo_param pat_segment_cma_params[];
#define PAT_CMA_MIN (32 << 10)

/* Whether a builder with pat_segment_cma_params copies once: cma=1 and a
 * message of at least cma_min bytes. */
static inline int pat_cma_on(const plan_args *a)
{
    return a->param[1] && a->block >= (size_t)a->param[2];
}

typedef struct pat_seg {
    size_t bytes;       /* bytes per slot to move */
    size_t chunk;       /* bytes of a slot's chunk: whole elements */
    size_t n;           /* chunks */
    int areas;          /* copies of the slots the chunks rotate through */
    size_t area;        /* bytes of one area: slots x chunk */
} pat_seg;

/* Cuts `bytes` per slot (elements of esize bytes) into chunks so that
 * `areas` copies of `slots` slots fit in `segment` bytes: one chunk and
 * one area when slots x bytes fit; else `areas` areas of chunks of
 * segment / (areas x slots) bytes, rounded down to whole elements (one
 * element at least, so a tiny segment still moves data). */
void pat_seg_make(pat_seg *sg, size_t bytes, size_t esize, size_t slots, int areas,
                  size_t segment);

/* Chunk j's first byte and length (the last one may be shorter). */
static inline void pat_seg_chunk(const pat_seg *sg, size_t j, size_t *off, size_t *len)
{
    *off = j * sg->chunk;
    *len = sg->bytes - *off < sg->chunk ? sg->bytes - *off : sg->chunk;
}

/* The byte where chunk j's area begins. */
static inline size_t pat_seg_area(const pat_seg *sg, size_t j)
{
    return (j % (size_t)sg->areas) * sg->area;
}

/* Ends epoch k of a pipeline of `epochs`: a node barrier, except after
 * the last. */
static inline void pat_seg_epoch_end(plan *pl, size_t k, size_t epochs)
{
    if (k + 1 < epochs)
        plan_sync(pl);
}

/* The ranks' blocks of `block` bytes gathered in every rank's RECV (rank
 * s's at s x block; rank r's own from SEND): each rank copies its block
 * into the node's segment, the node's first rank exchanges the node's
 * blocks with the other nodes' first ranks (one message per pair of
 * nodes and chunk), every rank copies the others' out. node_of NULL: one
 * node. */
void pat_shm_allgather(plan *pl, int p, int rank, const int *node_of, size_t block,
                       size_t segment);

/* The allgather of one node in one copy: each rank publishes its buffers
 * (its record at p x PLAN_PUB_BYTES of SHM) and copies its block to its
 * place; a barrier; each rank copies every other rank's block straight
 * from that rank's SEND into its RECV (plan_pull); a barrier, so that no
 * rank returns while another still reads its buffer. */
void pat_cma_allgather(plan *pl, int p, int rank, size_t block);

/* The broadcast of one node in one copy: the root publishes its buffers
 * (its record at the start of SHM); a barrier; every other rank copies the
 * root's SEND straight into its RECV (plan_pull); a barrier, so that the
 * root does not return while the others read. */
void pat_cma_bcast(plan *pl, int p, int rank, int root, size_t bytes);

/* The root's `bytes` (SEND) into every rank's RECV: the root copies them
 * into its node's segment and sends them to the first rank of every other
 * node, which copies them into its node's segment; the others copy out. */
void pat_shm_bcast(plan *pl, int p, int rank, int root, const int *node_of, size_t bytes,
                   size_t segment);

/* The n bytes (elements of esize) of every rank's SEND reduced in rank
 * order into the RECV of every rank (root < 0) or of the root: each
 * rank copies its vector into the node's segment, then reduces one slice
 * of it over the node's ranks (slices: pat_block over the node's ranks;
 * its own contribution straight from SEND); with several nodes the first
 * ranks exchange the node results and each reduces them in node order
 * (rank order when nodes are consecutive ranks). Every result is combined
 * the same way, so it is bitwise identical wherever it lands. */
void pat_shm_reduce(plan *pl, int p, int rank, int root, const int *node_of, size_t n,
                    size_t esize, size_t segment);

/* Vectors of at most this many bytes on one node skip the slices: every
 * rank that gets the result reduces all of them (one barrier, not two). */
#define PAT_SHM_WHOLE ((size_t)8192)

#endif
