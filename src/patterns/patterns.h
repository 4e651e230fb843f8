/*
 * Rank math and plan fragments shared by algorithms. No MPI here.
 */
#ifndef MPICOLL_PATTERNS_H
#define MPICOLL_PATTERNS_H

#include "../model/plan.h"

#include <stddef.h>

/* (x mod p) in [0, p) for any x. */
static inline int pat_mod(long long x, int p)
{
    long long m = x % p;
    return (int)(m < 0 ? m + p : m);
}

static inline int pat_is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

/* Smallest k with 2^k >= p (0 for p <= 1). */
int pat_ceil_log2(int p);

/* Broadcast `bytes` at (buf, off) from `root` down a k-nomial tree (ranks
 * relative to the root): in round j, with d = k^j, the ranks that hold the
 * data (relative ranks [0, d)) send it to relative ranks rel + d, rel + 2d,
 * ..., rel + (k-1)d below p, nearest first, all in the one round.
 * ceil(log_k p) rounds (k >= 2). A rank's parent is its relative rank with
 * the leading base-k digit cleared (pat_reduce_knomial's tree clears the
 * lowest non-zero digit instead, so that its subtrees are ranges of ranks). */
void pat_bcast_knomial(plan *pl, int p, int rank, int root, int k, int buf, size_t off,
                       size_t bytes);

/* The same tree labelled the other way (MPICH's binomial bcast, Open MPI's
 * knomial): a rank's parent is its relative rank with its lowest non-zero
 * base-k digit cleared, and the farthest children come first: in round j,
 * with d = k^(L-1-j) (L = pat_knomial_rounds), the holders (relative ranks
 * that are multiples of k·d) send to rel + d, ..., rel + (k-1)d below p.
 * On nodes of consecutive ranks each message that leaves a node does so in
 * the first rounds, one sender a node, and the last rounds stay inside
 * the nodes. */
void pat_bcast_knomial_far(plan *pl, int p, int rank, int root, int k, int buf, size_t off,
                           size_t bytes);

/* Its rounds one at a time, for pipelines that run several trees' rounds
 * together: round j of pat_bcast_knomial's (0 <= j < pat_knomial_rounds),
 * without ending it. */
int pat_knomial_rounds(int p, int k);
void pat_bcast_knomial_round(plan *pl, int p, int rank, int root, int k, int j, int buf,
                             size_t off, size_t bytes);

/* A binary tree in heap order (relative rank v's children are 2v + 1 and
 * 2v + 2, its depth floor(log2(v + 1))), one level a round: in round j the
 * ranks of depth j send to their children, those of depth j + 1 receive
 * from their parent. pat_binary_rounds(p) = floor(log2 p) rounds (0 for
 * p <= 1). A rank sends to at most two ranks a round, so a pipeline of
 * segments down it keeps every link's load to two messages a round, where
 * a k-nomial tree's root sends in every round (SimGrid's SMP_binary, the
 * binary trees of Open MPI's bcast). */
int pat_binary_rounds(int p);
void pat_bcast_binary_round(plan *pl, int p, int rank, int root, int j, int buf, size_t off,
                            size_t bytes);

/* The binomial tree, k = 2: in round j the relative ranks [0, 2^j) send to
 * relative rank + 2^j. ceil(log2 p) rounds. */
static inline void pat_bcast_binomial(plan *pl, int p, int rank, int root, int buf,
                                      size_t off, size_t bytes)
{
    pat_bcast_knomial(pl, p, rank, root, 2, buf, off, bytes);
}

/* Bruck's final step: RECV holds, at block i, the block of rank
 * (rank + i) mod p; put every block at its own rank's place. Uses TMP. */
void pat_bruck_unrotate(plan *pl, int p, int rank, size_t block);

/* Move the blocks of RECV so that block j goes to block to[j] (a
 * permutation of 0..p-1), one cycle after another through one block of
 * TMP (a cycle of c blocks takes c + 1 copies; blocks in place none), in
 * one round. Uses from[] (p ints) as the inverse and the marks of the
 * cycles done. */
void pat_permute_blocks(plan *pl, int p, size_t block, const int *to, int *from);

/* Ranks grouped by node (see plan_args.node_of): node n has members
 * members[first[n] .. first[n+1]) in rank order; local[r] is rank r's
 * index in its node; masters[n] is node n's lowest rank (pat_node_master),
 * so that a pattern runs among the nodes' masters in node order with
 * plan_group(pl, masters), and among node n's ranks with
 * plan_group(pl, members + first[n]). */
typedef struct pat_nodes {
    int nn;
    int *first, *members, *local, *masters;
} pat_nodes;

/* 0, or -1 (and pl's sticky error) when out of memory. */
int pat_nodes_make(plan *pl, pat_nodes *n, int p, const int *node_of);
void pat_nodes_free(pat_nodes *n);

static inline int pat_node_size(const pat_nodes *n, int node)
{
    return n->first[node + 1] - n->first[node];
}

static inline int pat_node_master(const pat_nodes *n, int node)
{
    return n->members[n->first[node]];
}

/* The nodes' leaders of a rooted collective, nn of them in node order: the
 * root on its node, the lowest rank on the others (a node-aware algorithm
 * runs its inter-node pattern among them: plan_group). Allocated; the
 * caller frees it. NULL (and pl's sticky error) when out of memory. */
int *pat_node_leaders(plan *pl, const pat_nodes *n, const int *node_of, int root);

/* ---- vectors of elements (reductions) --------------------------------- */

/* n elements split into `parts` blocks of ceil(n / parts) elements, the
 * last ones shorter or empty: block i's first element and length. */
static inline void pat_block(size_t n, int parts, int i, size_t *first, size_t *len)
{
    size_t q = (n + (size_t)parts - 1) / (size_t)parts, f = (size_t)i * q;
    if (f > n)
        f = n;
    *first = f;
    *len = f + q > n ? n - f : q;
}

/* Byte offset of block i (pat_block) of n elements of esize bytes. */
static inline size_t pat_block_start(size_t n, int parts, int i, size_t esize)
{
    size_t f, len;
    pat_block(n, parts, i, &f, &len);
    return f * esize;
}

/* A place in a plan's buffers. */
typedef struct pat_ref {
    int buf;
    size_t off;
} pat_ref;

/* Linear reduce to `root` of the n-byte vectors at `src`: the root posts
 * every receive at once into TMP [tmp_off, tmp_off + (p-1)·n), then starts
 * from its own vector in `dst` (src may lie there, in place) and adds the
 * lower ranks on the left, the higher ones on the right: rank order, any
 * operation; for root 0, ((a0 ⊕ a1) ⊕ a2) ⊕ ... */
void pat_reduce_linear(plan *pl, int p, int rank, int root, size_t n, pat_ref src,
                       pat_ref dst, size_t tmp_off);

/* K-nomial-tree reduce to `root` of the n-byte vectors at `src` (k >= 2),
 * each rank accumulating in `acc` (the root's acc is its result). For
 * d = 1, k, k^2, ...: a rank whose relative rank has a non-zero base-k
 * digit at d sends its partial result to the rank with that digit cleared
 * and stops; the others receive their children rel + d, ..., rel + (k-1)d
 * (those below p) in one round, into TMP from tmp_off (slot i - 1 for
 * child i, n bytes each; min(k, p) - 1 slots, at least one), and reduce
 * them on the right in that order: child i holds relative ranks
 * [rel + i·d, rel + (i+1)·d), so relative order is kept. A commutative
 * operation uses the tree of ranks relative to the root; otherwise the
 * tree rooted at rank 0 (relative ranks are ranks: rank order) and rank 0
 * then sends the result to the root. With prepost, a rank receives all its
 * children, of every d, in one round (slot j for its j-th child in that
 * order; as many slots as children, at least one) and reduces them in
 * that order once all are in: each child's transfer starts when the child
 * sends, not when its parent has finished the rounds before. */
void pat_reduce_knomial(plan *pl, int p, int rank, int root, int commutative, int k, int prepost,
                        size_t n, pat_ref src, pat_ref acc, size_t tmp_off);

/* The binomial tree, k = 2 (one slot of TMP at tmp_off): in step j the
 * ranks whose relative rank has bit j set send to the rank 2^j below. */
static inline void pat_reduce_binomial(plan *pl, int p, int rank, int root, int commutative,
                                       size_t n, pat_ref src, pat_ref acc, size_t tmp_off)
{
    pat_reduce_knomial(pl, p, rank, root, commutative, 2, 0, n, src, acc, tmp_off);
}

/* Linear broadcast: the root sends the bytes to every rank at once. */
void pat_bcast_linear(plan *pl, int p, int rank, int root, int buf, size_t off, size_t bytes);

/* Ring reduce-scatter on the n elements (of esize bytes) at `work`, in
 * place: p - 1 steps; rank r ends with block r (pat_block) reduced over
 * all ranks. Partial blocks arrive in TMP at tmp_off (one block).
 * Contributions accumulate around the ring: commutative operations only. */
void pat_ring_reduce_scatter(plan *pl, int p, int rank, pat_ref work, size_t n, size_t esize,
                             size_t tmp_off);

/* The same on the call's blocks: block r is args_count(a, r) bytes at
 * work.off + args_displ(a, r) (reduce_scatter's counts, or
 * reduce_scatter_block's blocks of a->block bytes); rank a->rank ends with
 * its own. TMP at tmp_off holds the largest block. */
void pat_ring_reduce_scatter_blocks(plan *pl, const plan_args *a, pat_ref work, size_t tmp_off);

/* Ring allgather of the blocks of the n elements at `work` (rank r holds
 * block r): p - 1 steps. */
void pat_ring_allgather(plan *pl, int p, int rank, pat_ref work, size_t n, size_t esize);

/* Binomial scatter of the n elements (esize bytes each) at offset 0, cut
 * into p blocks (pat_block) numbered by rank relative to the root: in round
 * k, from the top, a rank holding relative blocks [i, i + 2m) with
 * m = 2^(ceil(log2 p)-1-k) sends [i + m, i + 2m) to relative rank i + m.
 * The root reads from src_buf, the others receive into and send from
 * dst_buf, where relative rank i ends with block i (the root's blocks stay
 * in src_buf). ceil(log2 p) rounds. */
void pat_scatter_binomial(plan *pl, int p, int rank, int root, int src_buf, int dst_buf,
                          size_t n, size_t esize);

/* Recursive-doubling allgather of the blocks (pat_block of n elements of
 * esize bytes into p) at `work`, ranks and blocks relative to `root`: the
 * rank of relative rank i holds block i, and ends with all of them. Any p.
 * In step m = 1, 2, 4, ... relative rank i swaps with i XOR m the blocks of
 * its aligned group of m ranks (those below p). A rank whose partner is
 * past p (group [t, t + m) below [t + m, p), c = p - t - m of its ranks
 * with a partner) gets [t + m, p) from its group by a binomial tree, before
 * the next step: in round b = m/2, m/4, ..., 1 the group's j-th rank sends
 * to rank j + b when j mod 2b < c <= j mod 2b + b (those with j mod b < c
 * then hold it). ceil(log2 p) rounds, plus the trees': none on a power of
 * two, fewer than ceil(log2 p) in all (at most log2 m after a step m). */
void pat_rd_allgather(plan *pl, int p, int rank, int root, pat_ref work, size_t n,
                      size_t esize);

/* ---- recursive doubling and multiplying on any p (MPICH's fold) ------- */

/* Largest power of k <= p (p >= 1, k >= 2). */
static inline int pat_pofk_below(int p, int k)
{
    long long q = 1;
    while (q * k <= p)
        q *= k;
    return (int)q;
}

/* Largest power of two <= p (p >= 1). */
static inline int pat_pof2_below(int p) { return pat_pofk_below(p, 2); }

/* The fold of radix k: with rem = p - pofk (pofk = pat_pofk_below), the
 * first rem + ceil(rem / (k-1)) ranks form groups of k consecutive ranks
 * (the last group shorter); each group's top rank holds the whole group and
 * goes on as new rank g (its group), the others sit out. Ranks above the
 * groups are new rank rank - rem. Ranks stay in order. How many groups: */
static inline int pat_fold_groups(int rem, int k)
{
    return (int)(((long long)rem + k - 2) / (k - 1));
}

/* The real rank of new rank nr after pat_fold_k. */
static inline int pat_fold_real_k(int nr, int rem, int k)
{
    const int groups = pat_fold_groups(rem, k);
    const long long top = (long long)nr * k + k - 1;
    if (nr >= groups)
        return nr + rem;
    return (int)(top < rem + groups ? top : rem + groups - 1);
}

/* The same for k = 2: new ranks below rem are the odd ranks 2nr+1 (each
 * holding itself and the even rank below it), the others rank nr + rem. */
static inline int pat_fold_real(int nr, int rem) { return pat_fold_real_k(nr, rem, 2); }

/* One round: the n elements (esize bytes each) at `src` are copied to
 * `work`, and in each group of the fold (see pat_fold_groups) the lower
 * ranks send theirs to the top rank, which receives them into TMP from
 * tmp_off (rank top - i at slot i - 1, n elements each) and reduces them on
 * the left, nearest first: x_first ⊕ (... ⊕ (x_top-1 ⊕ x_top)). Returns the
 * rank's new rank among the pofk that go on, or -1 for a rank that sits
 * out. */
int pat_fold_k(plan *pl, int p, int rank, int k, pat_ref src, pat_ref work, size_t n,
               size_t esize, size_t tmp_off);

/* The way back: each group's top rank sends its result (n elements at
 * work) to the others of its group, which receive it there. One round. */
void pat_unfold_k(plan *pl, int p, int rank, int k, pat_ref work, size_t n, size_t esize);

/* pat_fold_k and pat_unfold_k with k = 2 (MPICH's recursive doubling pre-
 * and post-step): of the first 2·rem ranks, the even ones send to the odd
 * rank above. */
static inline int pat_fold(plan *pl, int p, int rank, pat_ref src, pat_ref work, size_t n,
                           size_t esize, size_t tmp_off)
{
    return pat_fold_k(pl, p, rank, 2, src, work, n, esize, tmp_off);
}

static inline void pat_unfold(plan *pl, int p, int rank, pat_ref work, size_t n, size_t esize)
{
    pat_unfold_k(pl, p, rank, 2, work, n, esize);
}

/* Recursive halving (Rabenseifner's reduce-scatter) among pof2 ranks
 * (new rank nr; real ranks by pat_fold_real with rem): the n elements of
 * esize bytes at work split into pof2 blocks; in step k a rank keeps
 * the half of its current block range on its side of partner nr ^ 2^k and
 * reduces the partner's copy of it (received into TMP at tmp_off), lower
 * ranks on the left, so rank order is kept. lo[k], hi[k]: the block range
 * held before step k; *l, *h: the range held at the end, reduced over all.
 * Returns the number of steps. */
int pat_halving(plan *pl, int nr, int pof2, int rem, size_t n, size_t esize, pat_ref work,
                size_t tmp_off, int lo[], int hi[], int *l, int *h);

/* Rabenseifner's reduce among ranks 0..p-1 (Thakur, Rabenseifner & Gropp,
 * IJHPCA 2005): fold to a power of two, recursive halving, then a binomial
 * gather of the blocks to root. The n elements of esize bytes come from in
 * (in == work: the vector is in work already) and are reduced in work; the
 * result is in root's work. Received halves go to TMP at tmp (ceil(n/2)
 * elements; the fold takes n). Rank order is kept. */
void pat_reduce_rabenseifner(plan *pl, int p, int r, int root, pat_ref in, pat_ref work, size_t n,
                             size_t esize, size_t tmp);

/* ---- Swing (De Sensi, Bonato, Saam & Hoefler, NSDI 2024) -------------- */

/* rho(s) = sum over i = 0..s of (-2)^i = (1 - (-2)^(s+1)) / 3:
 * 1, -1, 3, -5, 11, -21, ... (s <= 60). */
static inline long long pat_swing_rho(int s)
{
    const long long m = 1LL << (s + 1);
    return (1 - (s % 2 ? m : -m)) / 3;
}

/* Rank r's peer at step s among p ranks, p a power of two: r + rho(s) if r
 * is even, r - rho(s) if r is odd, mod p. rho(s) is odd, so the peer's
 * parity is the other one and the peer's peer is r. */
static inline int pat_swing_peer(int r, int s, int p)
{
    return pat_mod(r % 2 ? r - pat_swing_rho(s) : r + pat_swing_rho(s), p);
}

/* Rank r's position in Swing's tree, p a power of two (L = log2 p): the
 * ranks r reaches through steps s..L-1 are those r itself reaches through
 * steps s+1..L-1 and those its step-s peer reaches. Listed depth-first
 * from rank 0 (at each step first the rank's own part, then its peer's),
 * every such set of 2^(L-s) ranks holds consecutive positions, aligned to
 * its size, and rank r's step-s peer lies in the aligned range of
 * 2^(L-s-1) positions next to r's own. O(p) time, no allocation. */
int pat_swing_position(int p, int r);

/* The same tree read the other way: order[i] = the rank at position i, for
 * i = 0..p-1 (p a power of two), in O(p) time. */
void pat_swing_order(int p, int *order);

/* ---- allgather in a position order, on any p by the fold of two ------- */

/* An allgather among m <= p new ranks whose receive buffer holds, during
 * its exchanges, the blocks in an order of the algorithm's choosing (so
 * that each message is one range), then permuted into rank order. The
 * fold (rem = p - m, 2·rem <= p): of the first 2·rem ranks each even one
 * hands its block to the odd one above, which carries both (new rank
 * r / 2, the two blocks in rank order); the others are new rank r - rem.
 * Usage: pat_placed_begin; if it returns 1, fill order[i] = the new rank
 * at position i (i < m); pat_placed_start; exchange ranges of positions
 * [i, j) at blocks first[i] .. first[j] of RECV (real peers: pat_fold_real);
 * pat_placed_finish. */
typedef struct pat_placed {
    int p, rank, m, rem, nr, pos;   /* pos: nr's position (after start) */
    int *order, *first, *to, *from; /* m, m + 1, p, p ints */
} pat_placed;

/* The folded-out ranks' whole part (hand over, get the result back):
 * returns 0. Otherwise allocates the arrays and returns 1; -1 (and
 * plan_fail) when out of memory. */
int pat_placed_begin(plan *pl, pat_placed *x, int p, int rank, int m, size_t block);
/* Computes first, to and pos from order; copies the own block into place
 * and receives the folded partner's (one round each). */
void pat_placed_start(plan *pl, pat_placed *x, size_t block);
/* The permutation into rank order, the result to the folded partner, and
 * the arrays freed. */
void pat_placed_finish(plan *pl, pat_placed *x, size_t block);

/* ---- reduce-scatter in a position order, on any p by the fold of two --- */

/* The whole reduce-scatter of a builder (rank r's block args_count(a, r)
 * bytes at args_displ(a, r), in rank order: reduce_scatter_block's and
 * reduce_scatter's) among the pof2 new ranks of MPICH's fold (rem = p -
 * pof2: of the first 2·rem ranks each even one sends its vector to the odd
 * one above, which reduces it, the even rank's on the left, and goes on as
 * new rank r / 2 holding both blocks; at the end it sends the even one its
 * block). The vector goes to scratch in the order order_fn gives
 * (order[i] = the new rank whose blocks sit at position i) in one round
 * of local copies; at step s = 0..L-1 (L = log2 pof2) a new rank sends
 * peer_fn(nr, s, pof2) the aligned range of pof2 >> (s + 1) positions next
 * to its own range of that size (where the peer's position must lie),
 * receives its own range and reduces it: each message is one range, and
 * each rank ends with its own blocks at their position. ordered: the
 * lower new rank's part on the left (a non-commutative operation, when
 * every step joins two adjacent ranges of new ranks); otherwise the
 * received part on the left. */
void pat_rs_placed(plan *pl, const plan_args *a, void (*order_fn)(int pof2, int *order),
                   int (*peer_fn)(int nr, int s, int pof2), int ordered);

/* ---- Bine trees (De Sensi et al., SC 2025) ---------------------------- */

/* The log2 P negabinary (base -2) digits of v mod P, P a power of two: the
 * digit pattern x whose value sum x_i (-2)^i is v mod P. Digit 0 is v's
 * parity. */
static inline unsigned pat_bine_nb(int v, int P)
{
    const unsigned long long m = 0xAAAAAAAAAAAAAAAAull;   /* the negative digits */
    return (unsigned)((((unsigned long long)v + m) ^ m) & (unsigned long long)(P - 1));
}

/* The Bine tree of P ranks (a power of two, L = log2 P steps) rooted at 0,
 * in its distance-halving order: at step s every rank holding the data
 * sends it to its Swing peer of step L-1-s (pat_swing_peer: v + rho(L-1-s)
 * if v is even, v - rho(L-1-s) if odd, which flips the last L-s negabinary
 * digits of v, all equal in a holder). Rank v != 0 receives at step L - u,
 * u the number of equal trailing digits of pat_bine_nb(v, P), from its peer
 * of step u - 1; -1 for rank 0. Read backwards (step j = L-1-s, peers
 * pat_swing_peer(v, j, P)) it is the Bine reduce tree. */
int pat_bine_recv_step(int v, int P);

/* The binomial tree of gather and scatter (relative ranks): the blocks of
 * rel's subtree (rel > 0), min(lowest set bit, p - rel); and the root's
 * message of the n blocks of B bytes from block `at` of `buf` on, which
 * wraps past block p - 1 as a second segment (send: 1, receive: 0). */
int pat_binomial_subtree(int p, int rel);
void pat_root_blocks(plan *pl, int send, int buf, int peer, int at, int n, int p, size_t B);

#endif
