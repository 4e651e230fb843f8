/*
 * Plans: what one rank does in one collective call, as rounds of
 * communication followed by local operations.
 *
 * A builder (one per algorithm) fills a plan for (rank, size, bytes,
 * parameters). It calls no MPI, so all p plans of a communicator can be
 * built in one process and checked symbolically (symbolic.h), costed, and
 * drawn. The MPI executor (exec.h) runs the same plan for real.
 *
 * Buffers are named, never pointed to: SEND, RECV and TMP (scratch the plan
 * declares), with byte offsets, so one plan serves every call of the same
 * shape. In a round, every send and receive is posted at once (a receive
 * possibly before: plan_lookahead); when all of them are complete, the
 * round's local operations run in order.
 *
 * SHM is the node's shared segment: one buffer per node, which every rank
 * of the node sees (offsets are the same on all of them). A round may
 * begin with a barrier of the node's ranks (plan_sync); between two
 * barriers (an epoch) a byte of SHM written by one rank is neither read nor
 * written by another, which the checker proves.
 *
 * Single copy on a node (cross-memory attach): a rank publishes where its
 * buffers are (plan_publish: a record of PLAN_PUB_BYTES in SHM), and a
 * peer of its node copies straight from one of them (plan_pull), reading
 * the record first. The checker proves that a pull reads the peer's record
 * of this call and bytes the peer neither writes in that epoch nor wrote
 * since the last barrier, and that every pull is followed by a barrier of
 * the puller (so no rank returns, and reuses its buffers, while a peer
 * still reads them).
 */
#ifndef MPICOLL_PLAN_H
#define MPICOLL_PLAN_H

#include <stddef.h>
#include <stdint.h>

enum plan_buf { BUF_SEND, BUF_RECV, BUF_TMP, BUF_SHM, PLAN_NBUF };
enum plan_opkind { OP_SEND, OP_RECV, OP_COPY, OP_REDUCE, OP_PUBLISH, OP_PULL };

typedef struct plan_op {
    uint8_t kind;       /* enum plan_opkind */
    uint8_t buf;        /* the buffer read (send, copy; pull: the peer's) or written
                         * (recv) */
    uint8_t dst_buf;    /* copy, reduce, pull: the buffer written; publish: BUF_SHM */
    uint8_t after;      /* reduce: dst = dst ⊕ src (else dst = src ⊕ dst) */
    int peer;           /* send, recv, pull: the other rank */
    size_t off;         /* byte offset in buf; a segmented op: its first segment */
    size_t dst_off;     /* copy, reduce, pull: byte offset in dst_buf; publish: of
                         * the record in SHM */
    size_t bytes;       /* a segmented op: the sum of its segments */
    uint32_t nseg;      /* 0, or a send/recv of segments segs[off .. off+nseg) */
    size_t pub;         /* pull: the byte of SHM where the peer's record is */
} plan_op;

/* Bytes of a rank's record (plan_publish): its process and where its
 * buffers are, on a cache line of its own. */
#define PLAN_PUB_BYTES ((size_t)64)

/* One piece of a segmented message: a message made of several ranges of one
 * buffer, sent as one (the MPI executor describes it with a derived
 * datatype; no packing). */
typedef struct plan_seg {
    size_t off, bytes;
} plan_seg;

typedef struct plan_round {
    size_t first;       /* index of the round's first op */
    size_t nops;
    int sync;           /* begins with a barrier of the node's ranks */
    int ahead;          /* built under plan_ahead(pl, 1) */
    size_t early;       /* the receives among ops [first + nops, early) may be
                         * posted with this round (plan_build: plan_lookahead) */
} plan_round;

/* Parameters of an algorithm, by position in its table entry. */
#define PLAN_MAX_PARAMS 4

/* What a builder is given. */
typedef struct plan_args {
    int p;              /* communicator size */
    int rank;
    size_t block;       /* the message size in bytes (see each collective) */
    size_t esize;       /* reductions: bytes of one element (reduce whole ones) */
    int root;           /* rooted collectives */
    int commutative;    /* reductions: the operation is commutative */
    int inplace;        /* MPI_IN_PLACE: SEND aliases RECV (see coll_desc) */
    int param[PLAN_MAX_PARAMS];
    const int *node_of; /* algorithms with R_NODES: node of each rank, nodes
                         * numbered in the order of their lowest rank */
    const size_t *count;    /* collectives with counts per rank (coll_desc counts): the
                             * bytes of rank r's block, p of them */
    const size_t *displ;    /* with count: the offset of rank r's block in RECV */
    const size_t *scount;   /* counts on both sides (alltoallv): the bytes this rank
                             * sends rank d, p of them; NULL for the others */
    const size_t *sdispl;   /* with scount: the offset of rank d's block in SEND */
} plan_args;

/* Rank r's block with counts per rank: its bytes and its offset in RECV;
 * without counts (NULL), blocks of `block` bytes in rank order. */
static inline size_t args_count(const plan_args *a, int r)
{
    return a->count ? a->count[r] : a->block;
}
static inline size_t args_displ(const plan_args *a, int r)
{
    return a->displ ? a->displ[r] : (size_t)r * a->block;
}
/* The block this rank sends rank d (counts on both sides: alltoallv):
 * its bytes and its offset in SEND; without them, `block` bytes in rank
 * order (alltoall). */
static inline size_t args_scount(const plan_args *a, int d)
{
    return a->scount ? a->scount[d] : a->block;
}
static inline size_t args_sdispl(const plan_args *a, int d)
{
    return a->sdispl ? a->sdispl[d] : (size_t)d * a->block;
}

typedef struct plan {
    int p, rank;
    plan_op *ops;
    size_t nops, cap_ops;
    plan_round *rounds;
    size_t nrounds, cap_rounds;
    plan_seg *segs;
    size_t nsegs, cap_segs;
    size_t nsegops;         /* segmented sends and receives in the plan */
    int open_seg;           /* between plan_*_begin and plan_seg_end */
    size_t round_start;     /* first op of the round being built */
    size_t tmp_bytes;       /* scratch the plan needs */
    size_t shm_bytes;       /* the node's shared segment the plan needs */
    int sync_next;          /* the next round begins with a barrier */
    int ahead;              /* plan_ahead: the rounds being built may post ahead */
    size_t max_msgs;        /* most sends + receives in one round */
    size_t max_after;       /* largest plan_reduce_after (executor scratch) */
    size_t npulls;          /* plan_pull operations */
    size_t npubs;           /* plan_publish operations: peers read this rank's buffers */
    size_t max_early;       /* most receives posted before their round at once */
    int err;                /* sticky: an allocation failed while building */
    const int *group;       /* NULL, or the ranks that peers name (plan_group) */
} plan;

/* Peers named within a group of ranks: until plan_group(pl, NULL), the
 * peer of every send, receive and pull is an index into members[] (the
 * group's ranks, which must outlive the building), so that a pattern
 * written for ranks 0..n-1 runs among any n ranks: call it with the group's
 * size, this rank's index in it and the root's. Node-aware algorithms run
 * one pattern among the nodes' leaders and another inside each node. */
void plan_group(plan *pl, const int *members);

/* A builder returns nothing: failures are sticky in the plan. */
typedef void (*plan_builder)(plan *pl, const plan_args *a);

void plan_init(plan *pl, int p, int rank);
void plan_free(plan *pl);

/* Building. Operations of zero bytes are dropped (on both sides alike);
 * a copy onto itself is dropped. Errors are sticky and reported by
 * plan_finish, so builders read like the blocking code they replace. */
void plan_send(plan *pl, int buf, size_t off, size_t bytes, int peer);
void plan_recv(plan *pl, int buf, size_t off, size_t bytes, int peer);

/* A synchronisation message (barrier): a send or receive of no bytes
 * that is kept, not dropped. It names no buffer (BUF_TMP, offset 0); the
 * MPI executor sends it as a message of 0 bytes, the checker matches it
 * like any message and passes what the sender has heard of along it
 * (coll_desc.synchronizing), the counters and the cost model count it as
 * a message of 0 bytes. */
void plan_send_token(plan *pl, int peer);
void plan_recv_token(plan *pl, int peer);
/* 1 for a send or receive made by plan_send_token or plan_recv_token. */
static inline int plan_op_token(const plan_op *op)
{
    return (op->kind == OP_SEND || op->kind == OP_RECV) && op->bytes == 0 && op->nseg == 0;
}
void plan_copy(plan *pl, int src_buf, size_t src_off, int dst_buf, size_t dst_off,
               size_t bytes);
void plan_need_tmp(plan *pl, size_t bytes);

/* The node's shared segment (BUF_SHM): plan_need_shm declares its size,
 * which must be the same in the plans of all ranks of a node. plan_sync
 * ends the round; the next one begins with a barrier of the node's ranks
 * (a barrier is kept even if no operation follows it). A plan that uses
 * SHM synchronises at least once: the executor then alternates between
 * two copies of the segment from call to call, so that consecutive calls
 * need no barrier between them (see docs/ARCHITECTURE.md). */
void plan_need_shm(plan *pl, size_t bytes);
void plan_sync(plan *pl);

/* Single copy (see above), local operations run in order with the round's
 * copies. plan_publish writes this rank's record at SHM[off, off +
 * PLAN_PUB_BYTES). plan_pull copies `bytes` from the buffer src_buf
 * (BUF_SEND, BUF_RECV or BUF_TMP) of `peer`, a rank of the node whose
 * record is at SHM[pub], at src_off, into this rank's dst_buf at dst_off
 * (the MPI executor: process_vm_readv). */
void plan_publish(plan *pl, size_t off);
void plan_pull(plan *pl, int peer, size_t pub, int src_buf, size_t src_off, int dst_buf,
               size_t dst_off, size_t bytes);

/* Local reductions of `bytes` (whole elements), run in order with the
 * round's copies. Operand order matters for non-commutative operations:
 *   plan_reduce:       dst = src ⊕ dst   (src holds the lower ranks' part)
 *   plan_reduce_after: dst = dst ⊕ src   (dst holds the lower ranks' part) */
void plan_reduce(plan *pl, int src_buf, size_t src_off, int dst_buf, size_t dst_off,
                 size_t bytes);
void plan_reduce_after(plan *pl, int src_buf, size_t src_off, int dst_buf, size_t dst_off,
                       size_t bytes);

/* A segmented send or receive: begin, add segments in message order, end.
 * The segments' bytes travel as one message of their total size. */
void plan_send_begin(plan *pl, int buf, int peer);
void plan_recv_begin(plan *pl, int buf, int peer);
void plan_seg_add(plan *pl, size_t off, size_t bytes);
void plan_seg_end(plan *pl);
void plan_end_round(plan *pl);

/* A builder's own allocation failed: the plan is unusable (sticky). */
void plan_fail(plan *pl);

/* Closes the last round; returns 0, or -1 when memory ran out. */
int plan_finish(plan *pl);

/* Receives posted ahead (plan_lookahead), where a builder asks for it:
 * in the rounds ended between plan_ahead(pl, 1) and plan_ahead(pl, 0) (a
 * pipeline's segments), a receive of at most PLAN_AHEAD_BYTES may be posted with an
 * earlier round built there too, up to PLAN_LOOKAHEAD rounds before its
 * own, when each round between receives from the same peer (its messages
 * come one after another) and nothing between reads or writes the bytes
 * it writes (no send, receive, copy or reduction of them, no node
 * barrier, no single copy, not SHM; SEND and RECV taken as one buffer when
 * they alias), and never before a receive that comes before it in the
 * plan, so that each peer's messages still meet this rank's receives in
 * order. Its round still waits for it; its data may arrive sooner: a
 * pipeline's next segment while this rank forwards the last (SMPI, and a
 * real MPI's rendezvous, start a message's data only once its receive is
 * posted). Made by plan_build; the executor and the cost model follow it,
 * the checker needs none of it (each byte still holds what the round
 * order says). Simulated at 64 ranks (docs/scale.md, pass 27): bcast
 * hierarchical:inter=2,segsize=8192 0.49-0.90 of its time before from
 * 64 KiB to 1 MiB; longer messages ahead lost as much (segments of 32 KiB
 * 1.18-1.35, a ring's blocks of 16 KiB 1.14-1.35, where SMPI shares the link
 * between a peer's next message and the one before), and so did receives
 * from other peers ahead (scatter_allgather_rd 1.14). */
#define PLAN_LOOKAHEAD 4
#define PLAN_AHEAD_BYTES ((size_t)8192)
void plan_ahead(plan *pl, int on);
void plan_lookahead(plan *pl, int inplace);

/* Builds a plan for a->rank with `build`: 0, or -1 (out of memory; the
 * plan is then freed). */
int plan_build(plan *pl, plan_builder build, const plan_args *a);

/* Per-rank counts of a plan. */
typedef struct plan_stats {
    size_t rounds;          /* rounds with communication */
    size_t msgs;            /* messages sent */
    size_t bytes_sent, bytes_recv;
    size_t copy_bytes;      /* bytes moved by local copies and pulls */
    size_t pulls;           /* copies from a peer's buffer (plan_pull) */
    size_t reduce_bytes;    /* bytes reduced (the γ term) */
    size_t syncs;           /* node barriers */
    double alpha_terms;     /* Σ over rounds of max(#sends, #recvs) */
    double beta_bytes;      /* Σ over rounds of max(bytes sent, bytes received) */
} plan_stats;

void plan_count(const plan *pl, plan_stats *st);

/* 1 if two plans do the same: the same rounds, operations, segments and
 * buffer sizes (tools ask it of two candidates, so as to measure once). */
int plan_equal(const plan *x, const plan *y);

#endif
