/* Rank math and plan fragments shared by algorithms (see patterns.h). */
#include "patterns.h"

#include <stdlib.h>

int pat_ceil_log2(int p)
{
    int k = 0;
    while ((1LL << k) < p)
        k++;
    return k;
}

int pat_knomial_rounds(int p, int k)
{
    int j = 0;
    for (long long d = 1; d < p; d *= k)
        j++;
    return j;
}

void pat_bcast_knomial_round(plan *pl, int p, int rank, int root, int k, int j, int buf,
                             size_t off, size_t bytes)
{
    const int rel = pat_mod(rank - root, p);
    long long d = 1;
    for (int i = 0; i < j; i++)
        d *= k;
    if (rel < d) {
        for (long long i = 1; i < k && rel + i * d < p; i++)
            plan_send(pl, buf, off, bytes, pat_mod(rank + i * d, p));
    } else if (rel < k * d) {
        /* rel = s + i·d with s < d: the parent is relative rank s */
        plan_recv(pl, buf, off, bytes, pat_mod(rank - rel / d * d, p));
    }
}

/* The depth of relative rank v in the heap-ordered binary tree:
 * floor(log2(v + 1)). */
static int binary_depth(int v)
{
    int j = 0;
    for (long long d = 2; d <= (long long)v + 1; d *= 2)
        j++;
    return j;
}

/* The depth of the last rank, p - 1. */
int pat_binary_rounds(int p)
{
    return p > 1 ? binary_depth(p - 1) : 0;
}

void pat_bcast_binary_round(plan *pl, int p, int rank, int root, int j, int buf, size_t off,
                            size_t bytes)
{
    const int rel = pat_mod(rank - root, p), depth = binary_depth(rel);
    if (depth == j) {
        for (long long c = 2LL * rel + 1; c <= 2LL * rel + 2 && c < p; c++)
            plan_send(pl, buf, off, bytes, pat_mod(root + (int)c, p));
    } else if (depth == j + 1) {
        plan_recv(pl, buf, off, bytes, pat_mod(root + (rel - 1) / 2, p));
    }
}

void pat_bcast_knomial(plan *pl, int p, int rank, int root, int k, int buf, size_t off,
                       size_t bytes)
{
    for (int j = 0, n = pat_knomial_rounds(p, k); j < n; j++) {
        pat_bcast_knomial_round(pl, p, rank, root, k, j, buf, off, bytes);
        plan_end_round(pl);
    }
}

void pat_bcast_knomial_far(plan *pl, int p, int rank, int root, int k, int buf, size_t off,
                           size_t bytes)
{
    const int rel = pat_mod(rank - root, p), n = pat_knomial_rounds(p, k);
    long long d = 1;
    for (int j = 1; j < n; j++)
        d *= k;
    for (int j = 0; j < n; j++, d /= k) {
        if (rel % (k * d) == 0) {
            for (long long i = 1; i < k && rel + i * d < p; i++)
                plan_send(pl, buf, off, bytes, pat_mod(rank + (int)(i * d), p));
        } else if (rel % d == 0) {
            plan_recv(pl, buf, off, bytes, pat_mod(rank - (int)(rel % (k * d)), p));
        }
        plan_end_round(pl);
    }
}

void pat_bruck_unrotate(plan *pl, int p, int rank, size_t block)
{
    if (rank == 0)
        return;
    size_t head = (size_t)(p - rank) * block;   /* blocks rank .. p-1 */
    size_t tail = (size_t)rank * block;         /* blocks 0 .. rank-1 */
    plan_need_tmp(pl, head);
    plan_copy(pl, BUF_RECV, 0, BUF_TMP, 0, head);
    plan_copy(pl, BUF_RECV, head, BUF_RECV, 0, tail);
    plan_copy(pl, BUF_TMP, 0, BUF_RECV, tail, head);
    plan_end_round(pl);
}

void pat_permute_blocks(plan *pl, int p, size_t block, const int *to, int *from)
{
    for (int j = 0; j < p; j++)
        from[to[j]] = j;
    for (int k = 0; k < p; k++) {
        if (from[k] == k)
            continue;
        plan_need_tmp(pl, block);
        plan_copy(pl, BUF_RECV, (size_t)k * block, BUF_TMP, 0, block);
        int cur = k;
        while (from[cur] != k) {
            const int src = from[cur];
            plan_copy(pl, BUF_RECV, (size_t)src * block, BUF_RECV, (size_t)cur * block, block);
            from[cur] = cur;
            cur = src;
        }
        plan_copy(pl, BUF_TMP, 0, BUF_RECV, (size_t)cur * block, block);
        from[cur] = cur;
    }
    plan_end_round(pl);
}

int pat_nodes_make(plan *pl, pat_nodes *n, int p, const int *node_of)
{
    n->nn = 0;
    for (int r = 0; r < p; r++)
        if (node_of[r] + 1 > n->nn)
            n->nn = node_of[r] + 1;
    n->first = calloc((size_t)n->nn + 1, sizeof *n->first);
    n->members = malloc((size_t)p * sizeof *n->members);
    n->local = malloc((size_t)p * sizeof *n->local);
    n->masters = malloc((size_t)n->nn * sizeof *n->masters);
    if (!n->first || !n->members || !n->local || (n->nn > 0 && !n->masters)) {
        pat_nodes_free(n);
        plan_fail(pl);
        return -1;
    }
    for (int r = 0; r < p; r++)
        n->first[node_of[r] + 1]++;
    for (int i = 0; i < n->nn; i++)
        n->first[i + 1] += n->first[i];
    int *fill = calloc((size_t)n->nn, sizeof *fill);
    if (!fill) {
        pat_nodes_free(n);
        plan_fail(pl);
        return -1;
    }
    for (int r = 0; r < p; r++) {
        int node = node_of[r];
        n->local[r] = fill[node]++;
        n->members[n->first[node] + n->local[r]] = r;
    }
    free(fill);
    for (int i = 0; i < n->nn; i++)
        n->masters[i] = n->members[n->first[i]];
    return 0;
}

int *pat_node_leaders(plan *pl, const pat_nodes *n, const int *node_of, int root)
{
    int *leaders = malloc((size_t)n->nn * sizeof *leaders);
    if (!leaders) {
        plan_fail(pl);
        return NULL;
    }
    for (int i = 0; i < n->nn; i++)
        leaders[i] = i == node_of[root] ? root : pat_node_master(n, i);
    return leaders;
}

void pat_nodes_free(pat_nodes *n)
{
    free(n->first);
    free(n->members);
    free(n->local);
    free(n->masters);
    n->first = n->members = n->local = n->masters = NULL;
}

void pat_reduce_linear(plan *pl, int p, int rank, int root, size_t n, pat_ref src,
                       pat_ref dst, size_t tmp_off)
{
    if (rank != root) {
        plan_send(pl, src.buf, src.off, n, root);
        plan_end_round(pl);
        return;
    }
    /* slot of rank i in TMP: ranks other than the root, in order */
#define SLOT(i) (tmp_off + (size_t)((i) < root ? (i) : (i) - 1) * n)
    plan_need_tmp(pl, tmp_off + (size_t)(p - 1) * n);
    for (int i = 0; i < p; i++)
        if (i != root)
            plan_recv(pl, BUF_TMP, SLOT(i), n, i);
    /* from the root's own vector (which may lie in dst, in place): lower
     * ranks join on the left, higher ones on the right */
    plan_copy(pl, src.buf, src.off, dst.buf, dst.off, n);
    for (int i = root - 1; i >= 0; i--)
        plan_reduce(pl, BUF_TMP, SLOT(i), dst.buf, dst.off, n);
    for (int i = root + 1; i < p; i++)
        plan_reduce_after(pl, BUF_TMP, SLOT(i), dst.buf, dst.off, n);
#undef SLOT
    plan_end_round(pl);
}

void pat_reduce_knomial(plan *pl, int p, int rank, int root, int commutative, int k, int prepost,
                        size_t n, pat_ref src, pat_ref acc, size_t tmp_off)
{
    const int top = commutative ? root : 0;   /* the tree's root */
    const int rel = pat_mod(rank - top, p);
    /* slots of TMP: per round at most min(k, p) - 1 children (rank 0's
     * first), one slot at least, as the binomial tree always declared;
     * preposted, one for every child of every round */
    int slots = k - 1 < p - 1 ? k - 1 : (p > 1 ? p - 1 : 1);
    if (prepost) {
        int nc = 0;
        for (long long d = 1; d < p && rel / d % k == 0; d *= k)
            for (long long i = 1; i < k && rel + i * d < p; i++)
                nc++;
        slots = nc > 0 ? nc : 1;
    }
    plan_need_tmp(pl, tmp_off + (size_t)slots * n);
    plan_copy(pl, src.buf, src.off, acc.buf, acc.off, n);
    plan_end_round(pl);
    int nc = 0;             /* children of this round, or so far when preposted */
    int parent = -1;
    for (long long d = 1; d < p; d *= k) {
        const long long digit = rel / d % k;
        if (digit) {
            parent = pat_mod(rank - (int)(digit * d), p);
            break;
        }
        if (!prepost)
            nc = 0;
        const int first = nc;
        for (long long i = 1; i < k && rel + i * d < p; i++, nc++)
            plan_recv(pl, BUF_TMP, tmp_off + (size_t)nc * n, n, pat_mod(rank + i * d, p));
        if (prepost)
            continue;   /* every round's receives at once; reduced after the loop */
        /* acc holds relative ranks [rel, rel + d): each child joins on the right */
        for (int i = first; i < nc; i++)
            plan_reduce_after(pl, BUF_TMP, tmp_off + (size_t)i * n, acc.buf, acc.off, n);
        plan_end_round(pl);
    }
    if (prepost && nc > 0) {
        /* in the order posted (d = 1, k, k^2, ...; i = 1, ..., k - 1): rank order */
        for (int i = 0; i < nc; i++)
            plan_reduce_after(pl, BUF_TMP, tmp_off + (size_t)i * n, acc.buf, acc.off, n);
        plan_end_round(pl);
    }
    if (parent >= 0) {
        plan_send(pl, acc.buf, acc.off, n, parent);
        plan_end_round(pl);
    }
    if (top != root) {
        if (rank == top)
            plan_send(pl, acc.buf, acc.off, n, root);
        else if (rank == root)
            plan_recv(pl, acc.buf, acc.off, n, top);
        plan_end_round(pl);
    }
}

void pat_bcast_linear(plan *pl, int p, int rank, int root, int buf, size_t off, size_t bytes)
{
    for (int i = 0; i < p; i++) {
        if (rank == root && i != root)
            plan_send(pl, buf, off, bytes, i);
        else if (rank != root && i == root)
            plan_recv(pl, buf, off, bytes, root);
    }
    plan_end_round(pl);
}

/* Block i of a ring reduce-scatter: the call's (counts) or pat_block's
 * split of n elements, as byte offset and length. */
typedef struct ring_blocks {
    const plan_args *a;     /* non-NULL: args_count and args_displ */
    size_t n, esize;
    int p;
} ring_blocks;

static void ring_block(const ring_blocks *rb, int i, size_t *off, size_t *bytes)
{
    if (rb->a) {
        *off = args_displ(rb->a, i);
        *bytes = args_count(rb->a, i);
        return;
    }
    size_t f, len;
    pat_block(rb->n, rb->p, i, &f, &len);
    *off = f * rb->esize;
    *bytes = len * rb->esize;
}

static void ring_reduce_scatter(plan *pl, int rank, pat_ref work, const ring_blocks *rb,
                                size_t tmp_off)
{
    const int p = rb->p;
    size_t off, bytes, most = 0;
    for (int i = 0; i < p; i++) {
        ring_block(rb, i, &off, &bytes);
        most = bytes > most ? bytes : most;
    }
    plan_need_tmp(pl, tmp_off + most);
    for (int k = 0; k < p - 1; k++) {
        ring_block(rb, pat_mod(rank - k - 1, p), &off, &bytes);
        plan_send(pl, work.buf, work.off + off, bytes, pat_mod(rank + 1, p));
        ring_block(rb, pat_mod(rank - k - 2, p), &off, &bytes);
        plan_recv(pl, BUF_TMP, tmp_off, bytes, pat_mod(rank - 1, p));
        plan_reduce(pl, BUF_TMP, tmp_off, work.buf, work.off + off, bytes);
        plan_end_round(pl);
    }
}

void pat_ring_reduce_scatter(plan *pl, int p, int rank, pat_ref work, size_t n, size_t esize,
                             size_t tmp_off)
{
    const ring_blocks rb = { .n = n, .esize = esize, .p = p };
    ring_reduce_scatter(pl, rank, work, &rb, tmp_off);
}

void pat_ring_reduce_scatter_blocks(plan *pl, const plan_args *a, pat_ref work, size_t tmp_off)
{
    const ring_blocks rb = { .a = a, .p = a->p };
    ring_reduce_scatter(pl, a->rank, work, &rb, tmp_off);
}

void pat_ring_allgather(plan *pl, int p, int rank, pat_ref work, size_t n, size_t esize)
{
    const int buf = work.buf;
    const size_t base = work.off;
    size_t f, len;
    for (int k = 0; k < p - 1; k++) {
        pat_block(n, p, pat_mod(rank - k, p), &f, &len);
        plan_send(pl, buf, base + f * esize, len * esize, pat_mod(rank + 1, p));
        pat_block(n, p, pat_mod(rank - k - 1, p), &f, &len);
        plan_recv(pl, buf, base + f * esize, len * esize, pat_mod(rank - 1, p));
        plan_end_round(pl);
    }
}

void pat_scatter_binomial(plan *pl, int p, int rank, int root, int src_buf, int dst_buf,
                          size_t n, size_t esize)
{
    const int rel = pat_mod(rank - root, p), buf = rel == 0 ? src_buf : dst_buf;
    for (int k = pat_ceil_log2(p) - 1; k >= 0; k--) {
        const int m = 1 << k;
        if (rel % (2 * m) == 0 && rel + m < p) {
            const int hi = rel + 2 * m < p ? rel + 2 * m : p;
            const size_t f = pat_block_start(n, p, rel + m, esize);
            plan_send(pl, buf, f, pat_block_start(n, p, hi, esize) - f, pat_mod(rank + m, p));
        } else if (rel % (2 * m) == m) {
            const int hi = rel + m < p ? rel + m : p;
            const size_t f = pat_block_start(n, p, rel, esize);
            plan_recv(pl, dst_buf, f, pat_block_start(n, p, hi, esize) - f,
                      pat_mod(rank - m, p));
        }
        plan_end_round(pl);
    }
}

/* Blocks [lo, hi) of pat_rd_allgather's work: offset and bytes. */
static void rd_range(size_t n, int p, int lo, int hi, size_t esize, size_t *off, size_t *bytes)
{
    *off = pat_block_start(n, p, lo, esize);
    *bytes = pat_block_start(n, p, hi, esize) - *off;
}

void pat_rd_allgather(plan *pl, int p, int rank, int root, pat_ref work, size_t n,
                      size_t esize)
{
    const int rel = pat_mod(rank - root, p);
    size_t off, bytes;
    for (long long m = 1; m < p; m *= 2) {
        const int t = (int)(rel & ~(2 * m - 1)), up = t + (int)m;   /* the two halves */
        const int end = t + 2 * m < p ? (int)(t + 2 * m) : p;
        if (rel >= up) {                    /* the partner rel - m exists */
            rd_range(n, p, up, end, esize, &off, &bytes);
            plan_send(pl, work.buf, work.off + off, bytes, pat_mod(rank - m, p));
            rd_range(n, p, t, up, esize, &off, &bytes);
            plan_recv(pl, work.buf, work.off + off, bytes, pat_mod(rank - m, p));
        } else if (rel + m < p) {
            rd_range(n, p, t, up, esize, &off, &bytes);
            plan_send(pl, work.buf, work.off + off, bytes, pat_mod(rank + m, p));
            rd_range(n, p, up, end, esize, &off, &bytes);
            plan_recv(pl, work.buf, work.off + off, bytes, pat_mod(rank + m, p));
        }
        plan_end_round(pl);
        const long long c = (long long)p - up;    /* lower ranks with a partner */
        if (rel >= up || c <= 0 || c >= m)
            continue;                       /* nothing missing in this group */
        /* this group's ranks j >= c lack [up, p): a binomial tree from the
         * ranks j < c, which hold it (before round b: those with j mod 2b < c) */
        rd_range(n, p, up, p, esize, &off, &bytes);
        const long long j = rel - t;
        for (long long b = m / 2; b >= 1; b /= 2) {
            const long long low = j % (2 * b);
            if (!(j & b) && low < c && low + b >= c)
                plan_send(pl, work.buf, work.off + off, bytes, pat_mod(rank + b, p));
            else if ((j & b) && low >= c && low - b < c)
                plan_recv(pl, work.buf, work.off + off, bytes, pat_mod(rank - b, p));
            plan_end_round(pl);
        }
    }
}

/* The group of the fold that `rank` (< the groups' end) is in: its first
 * and top ranks. */
static void fold_group(int rank, int k, int end, int *first, int *top)
{
    const long long f = (long long)(rank / k) * k, t = f + k - 1;
    *first = (int)f;
    *top = (int)(t < end ? t : end - 1);
}

int pat_fold_k(plan *pl, int p, int rank, int k, pat_ref src, pat_ref work, size_t n,
               size_t esize, size_t tmp_off)
{
    const int rem = p - pat_pofk_below(p, k), end = rem + pat_fold_groups(rem, k);
    const size_t bytes = n * esize;
    int nr = rank - rem, nin = 0;
    if (rank < end) {
        int first, top;
        fold_group(rank, k, end, &first, &top);
        if (rank != top) {
            plan_send(pl, src.buf, src.off, bytes, top);
            nr = -1;
        } else {
            nin = rank - first;
            plan_need_tmp(pl, tmp_off + (size_t)nin * bytes);
            for (int i = 1; i <= nin; i++)
                plan_recv(pl, BUF_TMP, tmp_off + (size_t)(i - 1) * bytes, bytes, rank - i);
            nr = rank / k;
        }
    }
    if (nr >= 0)
        plan_copy(pl, src.buf, src.off, work.buf, work.off, bytes);
    for (int i = 1; i <= nin; i++)
        plan_reduce(pl, BUF_TMP, tmp_off + (size_t)(i - 1) * bytes, work.buf, work.off, bytes);
    plan_end_round(pl);
    return nr;
}

void pat_unfold_k(plan *pl, int p, int rank, int k, pat_ref work, size_t n, size_t esize)
{
    const int rem = p - pat_pofk_below(p, k), end = rem + pat_fold_groups(rem, k);
    int first, top;
    if (rank >= end)
        return;
    fold_group(rank, k, end, &first, &top);
    if (rank == top) {
        for (int i = rank - 1; i >= first; i--)
            plan_send(pl, work.buf, work.off, n * esize, i);
    } else {
        plan_recv(pl, work.buf, work.off, n * esize, top);
    }
    plan_end_round(pl);
}

int pat_halving(plan *pl, int nr, int pof2, int rem, size_t n, size_t es, pat_ref work,
                size_t tmp_off, int lo[], int hi[], int *l_out, int *h_out)
{
    const int buf = work.buf;
    int steps = 0, l = 0, h = pof2;
    plan_need_tmp(pl, tmp_off + pat_block_start(n, pof2, pof2 / 2, es));
    for (int mask = 1; mask < pof2; mask <<= 1, steps++) {
        const int nd = nr ^ mask, dst = pat_fold_real(nd, rem), mid = l + (h - l) / 2;
        const int keep_lo = nr < nd ? l : mid, keep_hi = nr < nd ? mid : h;
        const int give_lo = nr < nd ? mid : l, give_hi = nr < nd ? h : mid;
        const size_t kf = pat_block_start(n, pof2, keep_lo, es);
        const size_t kb = pat_block_start(n, pof2, keep_hi, es) - kf;
        const size_t gf = pat_block_start(n, pof2, give_lo, es);
        lo[steps] = l;
        hi[steps] = h;
        plan_send(pl, buf, work.off + gf, pat_block_start(n, pof2, give_hi, es) - gf, dst);
        plan_recv(pl, BUF_TMP, tmp_off, kb, dst);
        if (nd < nr)
            plan_reduce(pl, BUF_TMP, tmp_off, buf, work.off + kf, kb);
        else
            plan_reduce_after(pl, BUF_TMP, tmp_off, buf, work.off + kf, kb);
        plan_end_round(pl);
        l = keep_lo;
        h = keep_hi;
    }
    *l_out = l;
    *h_out = h;
    return steps;
}

void pat_reduce_rabenseifner(plan *pl, int p, int r, int root, pat_ref in, pat_ref work, size_t n,
                             size_t es, size_t tmp)
{
    const int pof2 = pat_pof2_below(p), rem = p - pof2;
    const size_t bytes = n * es;
    const int newroot = root < 2 * rem ? root / 2 : root - rem;
    const int nr = pat_fold(pl, p, r, in, work, n, es, tmp);
    if (nr >= 0) {
        int lo[32], hi[32], l, h;
        const int steps = pat_halving(pl, nr, pof2, rem, n, es, work, tmp, lo, hi, &l, &h);
        /* gather: undo the halving steps, last first; a pair is still in
         * the game when its ranks agree with newroot above bit k */
        for (int k = steps - 1; k >= 0; k--) {
            const int m = 1 << k, dst = pat_fold_real(nr ^ m, rem);
            if ((nr ^ newroot) & ~(2 * m - 1))
                break;
            if ((nr ^ newroot) & m) {
                const size_t mf = pat_block_start(n, pof2, l, es);
                plan_send(pl, work.buf, work.off + mf, pat_block_start(n, pof2, h, es) - mf, dst);
                plan_end_round(pl);
                break;
            }
            const int ol = l == lo[k] ? h : lo[k], oh = l == lo[k] ? hi[k] : l;
            const size_t of = pat_block_start(n, pof2, ol, es);
            plan_recv(pl, work.buf, work.off + of, pat_block_start(n, pof2, oh, es) - of, dst);
            plan_end_round(pl);
            l = lo[k];
            h = hi[k];
        }
    }
    /* a root that sat out gets the result from its odd partner */
    if (root < 2 * rem && root % 2 == 0) {
        if (r == root + 1)
            plan_send(pl, work.buf, work.off, bytes, root);
        else if (r == root)
            plan_recv(pl, work.buf, work.off, bytes, root + 1);
        plan_end_round(pl);
    }
}

/* Depth-first over Swing's tree: the ranks `rep` reaches through steps
 * s..L-1, in order, *k counting the positions passed; r's position or -1
 * (the walk stops there). With `order`, every rank visited is written at
 * its position. */
static int swing_walk(int rep, int s, int L, int p, int r, int *k, int *order)
{
    if (s == L) {
        if (order)
            order[*k] = rep;
        if (rep == r)
            return *k;
        ++*k;
        return -1;
    }
    const int at = swing_walk(rep, s + 1, L, p, r, k, order);
    return at >= 0 ? at : swing_walk(pat_swing_peer(rep, s, p), s + 1, L, p, r, k, order);
}

int pat_swing_position(int p, int r)
{
    int k = 0;
    return swing_walk(0, 0, pat_ceil_log2(p), p, r, &k, NULL);
}

void pat_swing_order(int p, int *order)
{
    int k = 0;
    swing_walk(0, 0, pat_ceil_log2(p), p, -1, &k, order);
}

int pat_bine_recv_step(int v, int P)
{
    const int L = pat_ceil_log2(P);
    const unsigned nb = pat_bine_nb(v, P);
    if (v % P == 0)
        return -1;
    int u = 1;
    while (u < L && ((nb >> u) & 1) == (nb & 1))
        u++;
    return L - u;
}

int pat_placed_begin(plan *pl, pat_placed *x, int p, int rank, int m, size_t block)
{
    const int rem = p - m;
    if (rank < 2 * rem && rank % 2 == 0) {   /* folded: hand over, get the result */
        plan_send(pl, BUF_SEND, 0, block, rank + 1);
        plan_end_round(pl);
        plan_recv(pl, BUF_RECV, 0, (size_t)p * block, rank + 1);
        plan_end_round(pl);
        return 0;
    }
    *x = (pat_placed){ .p = p, .rank = rank, .m = m, .rem = rem,
                       .nr = rank < 2 * rem ? rank / 2 : rank - rem };
    x->order = malloc(((size_t)2 * m + 1 + (size_t)2 * p) * sizeof *x->order);
    if (!x->order) {
        plan_fail(pl);
        return -1;
    }
    x->first = x->order + m;
    x->to = x->first + m + 1;
    x->from = x->to + p;
    return 1;
}

void pat_placed_start(plan *pl, pat_placed *x, size_t block)
{
    x->first[0] = 0;
    for (int i = 0; i < x->m; i++) {
        const int u = x->order[i], lo = pat_fold_real(u, x->rem) - (u < x->rem);
        x->first[i + 1] = x->first[i] + 1 + (u < x->rem);
        for (int j = x->first[i]; j < x->first[i + 1]; j++)
            x->to[j] = lo + j - x->first[i];
        if (u == x->nr)
            x->pos = i;
    }
    plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)(x->first[x->pos + 1] - 1) * block, block);
    plan_end_round(pl);
    if (x->nr < x->rem) {   /* the folded partner's block, below ours */
        plan_recv(pl, BUF_RECV, (size_t)x->first[x->pos] * block, block, x->rank - 1);
        plan_end_round(pl);
    }
}

void pat_placed_finish(plan *pl, pat_placed *x, size_t block)
{
    pat_permute_blocks(pl, x->p, block, x->to, x->from);
    free(x->order);
    if (x->nr < x->rem) {
        plan_send(pl, BUF_RECV, 0, (size_t)x->p * block, x->rank - 1);
        plan_end_round(pl);
    }
}

int pat_binomial_subtree(int p, int rel)
{
    int low = rel & -rel;
    return low < p - rel ? low : p - rel;
}

void pat_root_blocks(plan *pl, int send, int buf, int peer, int at, int n, int p, size_t B)
{
    if (at + n <= p) {
        if (send)
            plan_send(pl, buf, (size_t)at * B, (size_t)n * B, peer);
        else
            plan_recv(pl, buf, (size_t)at * B, (size_t)n * B, peer);
        return;
    }
    if (send)
        plan_send_begin(pl, buf, peer);
    else
        plan_recv_begin(pl, buf, peer);
    plan_seg_add(pl, (size_t)at * B, (size_t)(p - at) * B);
    plan_seg_add(pl, 0, (size_t)(at + n - p) * B);
    plan_seg_end(pl);
}

void pat_rs_placed(plan *pl, const plan_args *a, void (*order_fn)(int pof2, int *order),
                   int (*peer_fn)(int nr, int s, int pof2), int ordered)
{
    const int p = a->p, r = a->rank, pof2 = pat_pof2_below(p), rem = p - pof2;
    const size_t all = args_displ(a, p - 1) + args_count(a, p - 1);
    /* new rank q's blocks: from real block q < rem ? 2q : q + rem, 2 or 1
     * of them */
#define FIRST(q) ((q) < rem ? 2 * (q) : (q) + rem)
#define LAST(q) ((q) < rem ? 2 * (q) + 1 : (q) + rem)
#define START(q) args_displ(a, FIRST(q))
#define BYTES(q) (args_displ(a, LAST(q)) + args_count(a, LAST(q)) - START(q))
    /* TMP: the vector in position order at 0, what the steps receive at n.
     * The vector in rank order (nat) is the send buffer but on the ranks
     * of the fold's pairs: TMP at n (the fold receives at 0, reduces
     * there); elsewhere the fold's copy is one onto itself, dropped. */
    const pat_ref in = { BUF_SEND, 0 };
    const pat_ref nat = r < 2 * rem ? (pat_ref){ BUF_TMP, all } : in;
    plan_need_tmp(pl, nat.buf == BUF_TMP ? 2 * all : all);
    const int nr = rem ? pat_fold(pl, p, r, in, nat, all / a->esize, a->esize, 0) : r;
    size_t mine_off = 0;
    if (nr >= 0) {
        int *order = malloc((size_t)pof2 * sizeof *order);
        size_t *off = malloc(((size_t)pof2 + 1) * sizeof *off);
        if (!order || !off) {
            free(order);
            free(off);
            plan_fail(pl);
            return;
        }
        order_fn(pof2, order);
        int pos = 0;
        off[0] = 0;
        for (int i = 0; i < pof2; i++) {
            const int q = order[i];
            if (q == nr)
                pos = i;
            off[i + 1] = off[i] + BYTES(q);
            plan_copy(pl, nat.buf, nat.off + START(q), BUF_TMP, off[i], BYTES(q));
        }
        plan_end_round(pl);
        for (int s = 0; (1 << s) < pof2; s++) {
            const int w = pof2 >> (s + 1), mine = pos / w * w, theirs = mine ^ w;
            const int np = peer_fn(nr, s, pof2), peer = pat_fold_real(np, rem);
            const size_t mb = off[mine + w] - off[mine];
            plan_need_tmp(pl, all + mb);
            plan_send(pl, BUF_TMP, off[theirs], off[theirs + w] - off[theirs], peer);
            plan_recv(pl, BUF_TMP, all, mb, peer);
            if (ordered && nr < np)
                plan_reduce_after(pl, BUF_TMP, all, BUF_TMP, off[mine], mb);
            else
                plan_reduce(pl, BUF_TMP, all, BUF_TMP, off[mine], mb);
            plan_end_round(pl);
        }
        mine_off = off[pos];
        free(order);
        free(off);
        plan_copy(pl, BUF_TMP, mine_off + args_displ(a, r) - START(nr), BUF_RECV, 0,
                  args_count(a, r));
    }
#undef FIRST
#undef LAST
#undef START
#undef BYTES
    if (r < 2 * rem) {
        if (r % 2)
            plan_send(pl, BUF_TMP, mine_off, args_count(a, r - 1), r - 1);
        else
            plan_recv(pl, BUF_RECV, 0, args_count(a, r), r + 1);
    }
    plan_end_round(pl);
}
