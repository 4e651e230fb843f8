/*
 * Rank math of src/patterns, alone: the radix-k fold (pat_fold_k) against
 * its inverse pat_fold_real_k, and recursive_multiplying with k = 2
 * against recursive_doubling (allreduce) and recursive_halving
 * (reduce_scatter_block), plan for plan (plan_equal); the k-nomial
 * trees' shape, the binomial trees (their k = 2) against the code they
 * replaced, and bcast and reduce knomial:k=2 against binomial; Swing's
 * peers and block positions (pat_swing_peer, pat_swing_position,
 * pat_swing_order); Bine's
 * negabinary names and tree steps (pat_bine_nb, pat_bine_recv_step); the
 * bcast scatter + allgather algorithms (pat_scatter_binomial,
 * pat_rd_allgather) on messages long enough for every block to be there.
 */
#include "model/coll.h"
#include "model/symbolic.h"
#include "patterns/patterns.h"

#include <stdio.h>
#include <string.h>

/* Every rank that goes on after the fold is the real rank of its new rank;
 * the new ranks are 0 .. pofk-1, in rank order. */
static int fold_cases(void)
{
    int failures = 0;
    for (int k = 2; k <= 9; k++) {
        for (int p = 1; p <= 300; p++) {
            const int pofk = pat_pofk_below(p, k), rem = p - pofk;
            int next = 0;
            for (int r = 0; r < p && failures < 10; r++) {
                plan pl;
                plan_init(&pl, p, r);
                const pat_ref src = { BUF_SEND, 0 }, work = { BUF_RECV, 0 };
                const int nr = pat_fold_k(&pl, p, r, k, src, work, 1, 1, 0);
                plan_free(&pl);
                if (nr < 0)
                    continue;
                if (nr != next++ || pat_fold_real_k(nr, rem, k) != r) {
                    printf("FAIL fold k=%d p=%d: rank %d is new rank %d, whose real rank "
                           "is %d\n", k, p, r, nr, pat_fold_real_k(nr, rem, k));
                    failures++;
                }
            }
            if (next != pofk) {
                printf("FAIL fold k=%d p=%d: %d new ranks, not %d\n", k, p, next, pofk);
                failures++;
            }
        }
    }
    printf("fold: %s\n", failures ? "FAILED" : "k = 2..9, p = 1..300 passed");
    return failures;
}

/* An algorithm with k = 2 is the radix-2 one, message for message (from
 * p = 2: alone, recursive_doubling declares a scratch it never uses):
 * allreduce recursive_multiplying:k=2 is recursive_doubling, and
 * reduce_scatter_block's is recursive_halving, but for the scratch
 * declared (recursive_halving's is always 2n; any_tmp: not compared).
 * every_p: p = 2..1025, else p = 2..64 and p = 2^j - 1, 2^j, 2^j + 1 (the
 * fold's extremes: no rank folded, one pair, all but one), which keeps the
 * test short under CI's sanitizers. */
static int radix2_same(const coll_desc *d, const char *radix2, const char *radixk, int any_tmp,
                       int every_p)
{
    const coll_algo *rd = coll_algo_find(d, radix2);
    const coll_algo *rm = coll_algo_find(d, radixk);
    int failures = 0;
    if (!rd || !rm) {
        printf("FAIL radix 2: %s or %s not found\n", radix2, radixk);
        return 1;
    }
    for (int p = 2; p <= 1025 && failures < 10; p++) {
        if (!every_p && p > 64 && !pat_is_pow2(p - 1) && !pat_is_pow2(p) && !pat_is_pow2(p + 1))
            continue;
        for (int r = 0; r < p; r++) {
            plan_args a = { .p = p, .rank = r, .block = 24, .esize = 8, .param = { 2 } };
            plan x, y;
            if (plan_build(&x, rd->build, &a))
                return 1;
            if (plan_build(&y, rm->build, &a)) {
                plan_free(&x);
                return 1;
            }
            if (any_tmp)
                y.tmp_bytes = x.tmp_bytes;
            if (!plan_equal(&x, &y)) {
                printf("FAIL radix 2: %s p=%d rank %d: %s:k=2 differs from %s\n", d->name, p,
                       r, radixk, radix2);
                failures++;
            }
            plan_free(&x);
            plan_free(&y);
        }
    }
    printf("radix 2: %s %s:k=2 = %s: %s\n", d->name, radixk, radix2,
           failures ? "FAILED" : every_p ? "p = 2..1025 passed"
                                         : "p = 2..64 and 2^j - 1..2^j + 1 up to 1025 passed");
    return failures;
}

static int radix2_cases(void)
{
    return radix2_same(&allreduce_desc, "recursive_doubling", "recursive_multiplying", 0, 1)
           + radix2_same(&reduce_scatter_block_desc, "recursive_halving",
                         "recursive_multiplying", 1, 0);
}

/* The binomial trees as they were written before the radix k
 * (pat_bcast_binomial and pat_reduce_binomial as of 193476f): their callers'
 * plans must not change. */
static void old_bcast_binomial(plan *pl, int p, int rank, int root, int buf, size_t off,
                               size_t bytes)
{
    int rel = pat_mod(rank - root, p);
    for (long long d = 1; d < p; d *= 2) {
        if (rel < d && rel + d < p)
            plan_send(pl, buf, off, bytes, pat_mod(rank + d, p));
        else if (rel >= d && rel < 2 * d)
            plan_recv(pl, buf, off, bytes, pat_mod(rank - d, p));
        plan_end_round(pl);
    }
}

static void old_reduce_binomial(plan *pl, int p, int rank, int root, int commutative, size_t n,
                                pat_ref src, pat_ref acc, size_t tmp_off)
{
    int top = commutative ? root : 0;
    int rel = pat_mod(rank - top, p);
    plan_need_tmp(pl, tmp_off + n);
    plan_copy(pl, src.buf, src.off, acc.buf, acc.off, n);
    plan_end_round(pl);
    for (long long mask = 1; mask < p; mask <<= 1) {
        if (rel & mask) {
            plan_send(pl, acc.buf, acc.off, n, pat_mod(rank - mask, p));
            plan_end_round(pl);
            break;
        }
        if (rel + mask < p) {
            plan_recv(pl, BUF_TMP, tmp_off, n, pat_mod(rank + mask, p));
            plan_reduce_after(pl, BUF_TMP, tmp_off, acc.buf, acc.off, n);
            plan_end_round(pl);
        }
    }
    if (top != root) {
        if (rank == top)
            plan_send(pl, acc.buf, acc.off, n, root);
        else if (rank == root)
            plan_recv(pl, acc.buf, acc.off, n, top);
        plan_end_round(pl);
    }
}

/* Both finished plans are the same; frees them. */
static int same_plans(plan *x, plan *y)
{
    const int ok = plan_finish(x) == 0 && plan_finish(y) == 0 && plan_equal(x, y);
    plan_free(x);
    plan_free(y);
    return ok;
}

/* The communicator sizes of the tree tests: every p up to 64, then around
 * powers of two and a few others (every rank of each builds its plan; under
 * the sanitizers' slow unwinder every p up to 300 took minutes). */
static int tree_p(int p)
{
    return p <= 64 || p == 100 || (p >= 127 && p <= 129) || (p >= 255 && p <= 257) || p == 300;
}
#define TREE_PS "p = 1..64, 100, 127..129, 255..257, 300"

static int binomial_cases(void)
{
    int failures = 0;
    const pat_ref src = { BUF_SEND, 8 }, acc = { BUF_TMP, 0 };
    for (int p = 1; p <= 300 && failures < 10; p++) {
        if (!tree_p(p))
            continue;
        const int roots[] = { 0, 1 % p, p / 2, p - 1 };
        for (int ri = 0; ri < 4; ri++) {
            for (int r = 0; r < p; r++) {
                const int root = roots[ri];
                plan x, y;
                plan_init(&x, p, r);
                plan_init(&y, p, r);
                old_bcast_binomial(&x, p, r, root, BUF_RECV, 16, 24);
                pat_bcast_binomial(&y, p, r, root, BUF_RECV, 16, 24);
                if (!same_plans(&x, &y)) {
                    printf("FAIL binomial bcast p=%d root %d rank %d: the plan changed\n", p,
                           root, r);
                    failures++;
                }
                for (int comm = 0; comm <= 1; comm++) {
                    plan_init(&x, p, r);
                    plan_init(&y, p, r);
                    old_reduce_binomial(&x, p, r, root, comm, 24, src, acc, 24);
                    pat_reduce_binomial(&y, p, r, root, comm, 24, src, acc, 24);
                    if (!same_plans(&x, &y)) {
                        printf("FAIL binomial reduce p=%d root %d rank %d commutative %d: "
                               "the plan changed\n", p, root, r, comm);
                        failures++;
                    }
                }
            }
        }
    }
    printf("binomial trees: %s\n", failures ? "FAILED" : TREE_PS ", 4 roots passed");
    return failures;
}

/* The k-nomial broadcast: the root sends in each of ceil(log_k p) rounds,
 * every other rank receives exactly once, from its relative rank with its
 * leading base-k digit cleared, and sends only after that. */
static int knomial_cases(void)
{
    int failures = 0;
    for (int k = 2; k <= 9; k++) {
        for (int p = 1; p <= 300 && failures < 10; p++) {
            if (!tree_p(p))
                continue;
            const int root = p / 3;
            int rounds = 0;
            for (long long q = 1; q < p; q *= k)
                rounds++;
            for (int r = 0; r < p; r++) {
                plan pl;
                plan_init(&pl, p, r);
                pat_bcast_knomial(&pl, p, r, root, k, BUF_RECV, 0, 1);
                if (plan_finish(&pl)) {
                    plan_free(&pl);
                    return failures + 1;
                }
                const int rel = pat_mod(r - root, p);
                long long top = 1;   /* the leading digit's place */
                while (top * k <= rel)
                    top *= k;
                const int parent = pat_mod(root + rel % top, p);
                int recvs = 0, bad = 0;
                for (size_t i = 0; i < pl.nops; i++) {
                    const plan_op *o = &pl.ops[i];
                    if (o->kind == OP_RECV)
                        bad |= recvs++ || o->peer != parent;
                    else if (o->kind == OP_SEND)
                        bad |= r != root && !recvs;
                }
                bad |= recvs != (r != root);
                if (r == root && p > 1)
                    bad |= (int)pl.nrounds != rounds;
                if (bad) {
                    printf("FAIL knomial bcast k=%d p=%d root %d rank %d: %d receive(s), %zu "
                           "rounds (want %d)\n", k, p, root, r, recvs, pl.nrounds, rounds);
                    failures++;
                }
                plan_free(&pl);
            }
        }
    }
    printf("knomial bcast: %s\n", failures ? "FAILED" : "k = 2..9, " TREE_PS " passed");
    return failures;
}

/* knomial:k=2 is binomial, plan for plan, for bcast and reduce. */
static int knomial2_cases(void)
{
    const coll_desc *colls[] = { &bcast_desc, &reduce_desc };
    int failures = 0;
    for (int c = 0; c < 2; c++) {
        const coll_algo *bin = coll_algo_find(colls[c], "binomial");
        const coll_algo *kn = coll_algo_find(colls[c], "knomial");
        if (!bin || !kn) {
            printf("FAIL %s: binomial or knomial not found\n", colls[c]->name);
            return failures + 1;
        }
        for (int p = 1; p <= 300 && failures < 10; p++) {
            if (!tree_p(p))
                continue;
            for (int root = 0; root < p; root += 1 + p / 5) {
                for (int comm = 0; comm <= 1; comm++) {
                    for (int r = 0; r < p; r++) {
                        plan_args a = { .p = p, .rank = r, .block = 24, .esize = 8,
                                        .root = root, .commutative = comm, .param = { 2 } };
                        plan x, y;
                        if (plan_build(&x, bin->build, &a))
                            return failures + 1;
                        if (plan_build(&y, kn->build, &a)) {
                            plan_free(&x);
                            return failures + 1;
                        }
                        if (!plan_equal(&x, &y)) {
                            printf("FAIL %s: p=%d root %d rank %d commutative %d: knomial:k=2 "
                                   "differs from binomial\n", colls[c]->name, p, root, r, comm);
                            failures++;
                        }
                        plan_free(&x);
                        plan_free(&y);
                    }
                }
            }
        }
    }
    printf("knomial:k=2: %s\n", failures ? "FAILED" : "bcast and reduce, " TREE_PS " passed");
    return failures;
}

/* Swing: rho(s) = 1, -1, 3, -5, 11; the peer's peer is the rank; the
 * positions are a permutation of 0..p-1 in which, at every step s, the
 * peer lies in the aligned range of p/2^(s+1) positions next to the
 * rank's own (what swing_bandwidth's messages rely on); pat_swing_order is
 * their inverse (bine allgather's final permutation and reduce_scatter_block
 * bine's block order rely on it). */
static int swing_cases(void)
{
    static const long long rho[] = { 1, -1, 3, -5, 11, -21 };
    static int pos[1024], order[1024];
    static char seen[1024];
    int failures = 0;
    for (int s = 0; s < 6; s++)
        if (pat_swing_rho(s) != rho[s]) {
            printf("FAIL swing: rho(%d) = %lld, not %lld\n", s, pat_swing_rho(s), rho[s]);
            failures++;
        }
    for (int p = 1; p <= 1024 && failures < 10; p *= 2) {
        const int steps = pat_ceil_log2(p);
        memset(seen, 0, sizeof seen);
        for (int r = 0; r < p; r++) {
            pos[r] = pat_swing_position(p, r);
            if (pos[r] < 0 || pos[r] >= p || seen[pos[r]]++) {
                printf("FAIL swing p=%d: rank %d at position %d\n", p, r, pos[r]);
                failures++;
            }
        }
        memset(order, -1, sizeof order);
        pat_swing_order(p, order);
        for (int i = 0; i < p && failures < 10; i++)
            if (order[i] < 0 || order[i] >= p || pos[order[i]] != i) {
                printf("FAIL swing p=%d: pat_swing_order puts rank %d at position %d\n", p,
                       order[i], i);
                failures++;
            }
        for (int r = 0; r < p && failures < 10; r++) {
            for (int s = 0; s < steps; s++) {
                const int q = pat_swing_peer(r, s, p), w = p >> (s + 1);
                if (pat_swing_peer(q, s, p) != r || ((pos[q] / w) ^ 1) != pos[r] / w) {
                    printf("FAIL swing p=%d step %d: rank %d (position %d), peer %d "
                           "(position %d)\n", p, s, r, pos[r], q, pos[q]);
                    failures++;
                }
            }
        }
    }
    printf("swing: %s\n",
           failures ? "FAILED" : "positions and order, p = 1..1024 (powers of two) passed");
    return failures;
}

/* Bine: pat_bine_nb's digits are worth v mod P; in the tree, 2^s ranks
 * receive at step s, each from a rank that held the data before it (its
 * peer of that step, whose peer it is). */
static int bine_cases(void)
{
    static int at[1024];
    int failures = 0;
    for (int P = 1; P <= 1024 && failures < 10; P *= 2) {
        const int L = pat_ceil_log2(P);
        for (int v = 0; v < P && failures < 10; v++) {
            const unsigned nb = pat_bine_nb(v, P);
            long long val = 0, w = 1;
            for (int i = 0; i < L; i++, w *= -2)
                val += (nb >> i & 1) * w;
            at[v] = pat_bine_recv_step(v, P);
            if (pat_mod(val, P) != v || (v == 0) != (at[v] < 0)) {
                printf("FAIL bine P=%d: rank %d named %#x (worth %lld), step %d\n", P, v, nb,
                       val, at[v]);
                failures++;
            }
        }
        for (int s = 0; s < L && failures < 10; s++) {
            int count = 0;
            for (int v = 1; v < P; v++) {
                if (at[v] != s)
                    continue;
                const int q = pat_swing_peer(v, L - 1 - s, P);
                count++;
                if (at[q] >= s || pat_swing_peer(q, L - 1 - s, P) != v) {
                    printf("FAIL bine P=%d step %d: rank %d from %d (step %d)\n", P, s, v, q,
                           at[q]);
                    failures++;
                }
            }
            if (count != 1 << s) {
                printf("FAIL bine P=%d step %d: %d ranks receive\n", P, s, count);
                failures++;
            }
        }
    }
    printf("bine: %s\n", failures ? "FAILED" : "P = 1..1024 (powers of two) passed");
    return failures;
}

/* The checker proves bcast on messages of 1, 3 and 7 bytes, where the
 * blocks of a scatter + allgather are empty beyond the first few ranks:
 * here messages of p - 1, p, p + 1 and 3p + 2 bytes (every block there,
 * the last ones shorter or empty), roots 0, p - 1 and p / 2, in place and
 * not, p = 1..64; beyond, p and 3p + 2 bytes from roots 0 and p - 1, at
 * p = 100, 127..129, 255, 256 (the checker proves every p up to 256 with
 * small messages; this test runs under the sanitizers in CI), and at 1000,
 * 1024 and 1025 for the recursive-doubling variant,
 * which takes 2 log2 p rounds on a power of two, at most 3 ceil(log2 p) - 1
 * on others. */
static int scatter_allgather_cases(void)
{
    static const int more[] = { 100, 127, 128, 129, 255, 256, 1000, 1024, 1025 };
    enum { NMORE = sizeof more / sizeof more[0] };
    const char *names[] = { "scatter_allgather_rd", "scatter_allgather_ring" };
    int failures = 0, cases = 0;
    for (int ai = 0; ai < 2; ai++) {
        const coll_algo *a = coll_algo_find(&bcast_desc, names[ai]);
        for (int pi = 0; pi < 64 + NMORE && failures < 10; pi++) {
            const int p = pi < 64 ? pi + 1 : more[pi - 64];
            const size_t sizes[] = { (size_t)p - 1, (size_t)p, (size_t)p + 1, 3 * (size_t)p + 2 };
            const int roots[] = { 0, p - 1, p / 2 }, L = pat_ceil_log2(p);
            for (int si = 0; si < 4; si++)
                for (int ri = 0; ri < 3; ri++)
                    for (int inplace = 0; inplace < 2; inplace++) {
                        if ((ai == 1 && p > 256) || (p > 64 && (ri == 2 || si % 2 == 0)))
                            continue;
                        sym_opts o = { .call = { .p = p, .block = sizes[si], .esize = 1,
                                                 .root = roots[ri], .commutative = 1,
                                                 .inplace = inplace } };
                        sym_result r = { 0 };
                        cases++;
                        if (sym_run(&bcast_desc, a, &o, &r) || !r.ok) {
                            printf("FAIL bcast %s p=%d bytes=%zu root=%d inplace=%d: %s\n",
                                   names[ai], p, sizes[si], roots[ri], inplace, r.why);
                            failures++;
                        } else if (ai == 0 && p > 1 && o.call.block >= (size_t)p &&
                                   r.worst.rounds > (size_t)(pat_is_pow2(p) ? 2 * L : 3 * L - 1)) {
                            printf("FAIL bcast %s p=%d: %zu rounds\n", names[ai], p,
                                   r.worst.rounds);
                            failures++;
                        }
                    }
        }
    }
    printf("bcast scatter_allgather: %s (%d calls)\n", failures ? "FAILED" : "passed", cases);
    return failures;
}

int main(void)
{
    int failures = fold_cases() + radix2_cases() + binomial_cases() + knomial_cases()
                   + knomial2_cases() + swing_cases() + bine_cases()
                   + scatter_allgather_cases();
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
