/*
 * The symbolic checker must catch every kind of broken plan: these
 * builders exist only here, each with one deliberate fault, and each must
 * be reported with the right diagnosis. A correct one must pass. Prefix
 * reductions (scan, exscan) too: a result holding the next rank, or
 * missing rank 0, reversed (non-commutative), bytes of one result combined
 * in different trees, and exscan's rank 0 written.
 */
#include "model/symbolic.h"
#include "patterns/patterns.h"

#include <stdio.h>
#include <string.h>

/* A correct ring, and variants with one fault each. */
static void ring_with(plan *pl, const plan_args *a, int fault)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block;
    if (fault != 1)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)r * B, B);
    plan_end_round(pl);
    for (int i = 0; i < p - 1; i++) {
        size_t sb = (size_t)pat_mod(r - i, p) * B, rb = (size_t)pat_mod(r - i - 1, p) * B;
        int from = pat_mod(r - 1, p);
        if (fault == 2)
            from = pat_mod(r + 1, p);               /* waits for the wrong peer */
        if (fault == 3)
            rb = sb;                                /* receives over what it sends */
        if (fault == 4 && i == 0)
            rb = (size_t)p * B;                     /* past the end */
        if (fault == 6 && r == 0)
            plan_send(pl, BUF_RECV, sb, B, pat_mod(r + 1, p));   /* one message too many */
        plan_send(pl, BUF_RECV, sb, fault == 7 ? B + 1 : B, pat_mod(r + 1, p));
        plan_recv(pl, fault == 5 ? BUF_SEND : BUF_RECV, fault == 5 ? 0 : rb, B, from);
        plan_end_round(pl);
    }
    if (fault == 8 && r == p - 1)
        plan_copy(pl, BUF_RECV, 0, BUF_RECV, B, B);  /* overwrites block 1 with block 0 */
}

#define FAULT(n) static void fault##n(plan *pl, const plan_args *a) { ring_with(pl, a, n); }
FAULT(0) FAULT(1) FAULT(2) FAULT(3) FAULT(4) FAULT(5) FAULT(6) FAULT(7) FAULT(8)

static const struct {
    plan_builder build;
    const char *expect;         /* in the diagnosis; NULL: must pass */
} cases[] = {
    { fault0, NULL },
    { fault1, "never written" },
    { fault2, "deadlock" },
    { fault3, "overlaps" },
    { fault4, "outside the buffer" },
    { fault5, "receives into the send buffer" },
    { fault6, "deadlock" },
    { fault7, "sends 2 bytes" },
    { fault8, "holds rank 0's byte" },
};

/* Reductions: every rank gathers all vectors, then reduces locally. */
static void gather_all(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t n = a->block;
    plan_need_tmp(pl, (size_t)p * n);
    for (int i = 0; i < p; i++) {
        if (i == r)
            continue;
        plan_send(pl, BUF_SEND, 0, n, i);
        plan_recv(pl, BUF_TMP, (size_t)i * n, n, i);
    }
    plan_copy(pl, BUF_SEND, 0, BUF_TMP, (size_t)r * n, n);
    plan_end_round(pl);
}

/* Right: from the top, a_i ⊕ acc, the same on every rank. */
static void reduce_same_order(plan *pl, const plan_args *a)
{
    const size_t n = a->block;
    gather_all(pl, a);
    plan_copy(pl, BUF_TMP, (size_t)(a->p - 1) * n, BUF_RECV, 0, n);
    for (int i = a->p - 2; i >= 0; i--)
        plan_reduce(pl, BUF_TMP, (size_t)i * n, BUF_RECV, 0, n);
    plan_end_round(pl);
}

/* Wrong: each rank starts from its own vector and wraps around: every rank
 * holds every contribution once, but combined in its own order. */
static void reduce_own_order(plan *pl, const plan_args *a)
{
    const int p = a->p, r = a->rank;
    const size_t n = a->block;
    gather_all(pl, a);
    plan_copy(pl, BUF_TMP, (size_t)r * n, BUF_RECV, 0, n);
    for (int k = 1; k < p; k++)
        plan_reduce_after(pl, BUF_TMP, (size_t)pat_mod(r + k, p) * n, BUF_RECV, 0, n);
    plan_end_round(pl);
}

/* Wrong: the own vector counted twice. */
static void reduce_twice(plan *pl, const plan_args *a)
{
    reduce_same_order(pl, a);
    plan_reduce(pl, BUF_SEND, 0, BUF_RECV, 0, a->block);
    plan_end_round(pl);
}

/* Wrong with elements of several bytes: half an element reduced. */
static void reduce_half_element(plan *pl, const plan_args *a)
{
    const size_t n = a->block;
    gather_all(pl, a);
    plan_copy(pl, BUF_TMP, (size_t)(a->p - 1) * n, BUF_RECV, 0, n);
    for (int i = a->p - 2; i >= 0; i--) {
        plan_reduce(pl, BUF_TMP, (size_t)i * n, BUF_RECV, 0, 1);
        plan_reduce(pl, BUF_TMP, (size_t)i * n + 1, BUF_RECV, 1, n - 1);
    }
    plan_end_round(pl);
}

static int reduction_cases(void)
{
    static const struct {
        plan_builder build;
        int ordered;
        size_t esize;
        const char *expect;
    } rc[] = {
        { reduce_same_order, 1, 1, NULL },
        { reduce_same_order, 0, 3, NULL },
        { reduce_own_order, 0, 1, "not be bitwise identical" },
        { reduce_own_order, 1, 1, "not in rank order" },
        { reduce_twice, 0, 1, "twice" },
        { reduce_half_element, 0, 1, NULL },
        { reduce_half_element, 0, 3, "part of an element" },
    };
    int failures = 0, n = (int)(sizeof rc / sizeof rc[0]);
    for (int i = 0; i < n; i++) {
        coll_algo a = { .name = "allreduce_under_test", .build = rc[i].build };
        sym_opts o = { .call = { .p = 5, .block = 7 * rc[i].esize, .esize = rc[i].esize,
                                 .commutative = !rc[i].ordered } };
        sym_result r;
        if (sym_run(&allreduce_desc, &a, &o, &r))
            return -1;
        int ok = rc[i].expect ? !r.ok && strstr(r.why, rc[i].expect) != NULL : r.ok;
        if (!ok) {
            printf("FAIL reduction case %d: expected %s, got: %s\n", i,
                   rc[i].expect ? rc[i].expect : "a pass", r.ok ? "a pass" : r.why);
            failures++;
        }
    }
    printf("reductions: %d passed, %d failed\n", n - failures, failures);
    return failures;
}

/* Prefix reductions (scan, exscan): every rank gathers all vectors, then
 * reduces ranks lo..hi (hi = rank for scan, rank - 1 for exscan) into its
 * receive buffer. A correct one and variants with one fault each. */
enum { PREFIX_OK, PREFIX_NEXT, PREFIX_NO_RANK0, PREFIX_REVERSED, PREFIX_BYTE_ORDER,
       PREFIX_RANK0_WRITES };

static void prefix_with(plan *pl, const plan_args *a, int exclusive, int fault)
{
    const int p = a->p, r = a->rank;
    const size_t n = a->block;
    int lo = 0, hi = exclusive ? r - 1 : r;
    if (fault == PREFIX_NEXT && r > 0 && r < p - 1)
        hi++;                                   /* the next rank too */
    if (fault == PREFIX_NO_RANK0 && r > 0)
        lo = 1;                                 /* rank 0's missing */
    gather_all(pl, a);
    if (fault == PREFIX_RANK0_WRITES && r == 0)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, 0, n);   /* exscan's rank 0 has none */
    if (hi < lo) {
        plan_end_round(pl);
        return;
    }
    if (fault == PREFIX_REVERSED) {
        /* the same contributions, the higher ranks on the left */
        plan_copy(pl, BUF_TMP, (size_t)lo * n, BUF_RECV, 0, n);
        for (int i = lo + 1; i <= hi; i++)
            plan_reduce(pl, BUF_TMP, (size_t)i * n, BUF_RECV, 0, n);
    } else if (fault == PREFIX_BYTE_ORDER && hi - lo >= 2) {
        /* byte 0 as ((x_lo x_lo+1) x_lo+2 ...), the rest as
         * (x_lo (x_lo+1 (... x_hi))): both in rank order, different trees */
        plan_copy(pl, BUF_TMP, (size_t)lo * n, BUF_RECV, 0, 1);
        for (int i = lo + 1; i <= hi; i++)
            plan_reduce_after(pl, BUF_TMP, (size_t)i * n, BUF_RECV, 0, 1);
        plan_copy(pl, BUF_TMP, (size_t)hi * n + 1, BUF_RECV, 1, n - 1);
        for (int i = hi - 1; i >= lo; i--)
            plan_reduce(pl, BUF_TMP, (size_t)i * n + 1, BUF_RECV, 1, n - 1);
    } else {
        plan_copy(pl, BUF_TMP, (size_t)lo * n, BUF_RECV, 0, n);
        for (int i = lo + 1; i <= hi; i++)
            plan_reduce_after(pl, BUF_TMP, (size_t)i * n, BUF_RECV, 0, n);
    }
    plan_end_round(pl);
}

#define PREFIX_FAULT(name, excl, f) \
    static void name(plan *pl, const plan_args *a) { prefix_with(pl, a, excl, f); }
PREFIX_FAULT(scan_ok, 0, PREFIX_OK)
PREFIX_FAULT(scan_next, 0, PREFIX_NEXT)
PREFIX_FAULT(scan_no_rank0, 0, PREFIX_NO_RANK0)
PREFIX_FAULT(scan_reversed, 0, PREFIX_REVERSED)
PREFIX_FAULT(scan_byte_order, 0, PREFIX_BYTE_ORDER)
PREFIX_FAULT(exscan_ok, 1, PREFIX_OK)
PREFIX_FAULT(exscan_next, 1, PREFIX_NEXT)
PREFIX_FAULT(exscan_rank0_writes, 1, PREFIX_RANK0_WRITES)

static int prefix_cases(int *ncases)
{
    static const struct {
        const coll_desc *c;
        plan_builder build;
        int ordered;
        const char *expect;
    } pc[] = {
        { &scan_desc, scan_ok, 1, NULL },
        { &scan_desc, scan_ok, 0, NULL },
        { &scan_desc, scan_next, 0, "it must hold those of ranks 0..1 only" },
        { &scan_desc, scan_no_rank0, 0, "holds 1 of the 2 contributions (ranks 0..1)" },
        { &scan_desc, scan_reversed, 1, "not in rank order" },
        { &scan_desc, scan_reversed, 0, NULL },     /* commutative: any order */
        { &scan_desc, scan_byte_order, 0, "combined in different orders" },
        { &scan_desc, scan_byte_order, 1, "combined in different orders" },
        { &exscan_desc, exscan_ok, 1, NULL },
        { &exscan_desc, exscan_next, 0, "it must hold those of ranks 0..0 only" },
        { &exscan_desc, exscan_rank0_writes, 0, "outside the buffer of 0 bytes" },
    };
    int failures = 0, n = (int)(sizeof pc / sizeof pc[0]);
    *ncases = 2 * n;
    for (int i = 0; i < n; i++)
        for (int inplace = 0; inplace < 2; inplace++) {
            coll_algo a = { .name = "prefix_under_test", .build = pc[i].build };
            sym_opts o = { .call = { .p = 5, .block = 7, .commutative = !pc[i].ordered,
                                     .inplace = inplace } };
            sym_result r;
            if (sym_run(pc[i].c, &a, &o, &r))
                return -1;
            int ok = pc[i].expect ? !r.ok && strstr(r.why, pc[i].expect) != NULL : r.ok;
            if (!ok) {
                printf("FAIL prefix case %d inplace=%d: expected %s, got: %s\n", i, inplace,
                       pc[i].expect ? pc[i].expect : "a pass", r.ok ? "a pass" : r.why);
                failures++;
            }
        }
    printf("prefix reductions: %d passed, %d failed\n", 2 * n - failures, failures);
    return failures;
}

/* Through a node's shared segment: each rank copies its block into its
 * slot, a barrier, all copy every slot out. Variants with one fault each. */
static void shm_with(plan *pl, const plan_args *a, int fault)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block;
    plan_need_shm(pl, (size_t)p * B + (fault == 4 && r == 1));  /* one byte more */
    plan_copy(pl, BUF_SEND, 0, BUF_SHM, (size_t)r * B, B);
    if (fault != 1 && fault != 3)
        plan_sync(pl);
    if (fault == 2 && r == 0)
        plan_sync(pl);                  /* a barrier the others never reach */
    for (int s = 0; s < p; s++)
        plan_copy(pl, BUF_SHM, (size_t)s * B, BUF_RECV, (size_t)s * B, B);
    if (fault == 5 && r > 0)            /* a slot the others read */
        plan_copy(pl, BUF_SEND, 0, BUF_SHM, (size_t)(r - 1) * B, B);
    if (fault == 1)
        plan_sync(pl);                  /* after the reads: too late */
}

/* In one copy (plan_pull): each rank publishes its buffers, a barrier, all
 * copy every other block from its owner's buffer, a barrier. Faults from
 * 6 on. */
static void cma_with(plan *pl, const plan_args *a, int fault)
{
    const int p = a->p, r = a->rank;
    const size_t B = a->block, P = PLAN_PUB_BYTES;
    plan_need_shm(pl, (size_t)p * P);
    plan_publish(pl, (size_t)r * P);
    if (fault != 8)
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)r * B, B);
    if (fault != 6)
        plan_sync(pl);
    if (fault == 8)         /* its block into RECV while the others read it there */
        plan_copy(pl, BUF_SEND, 0, BUF_RECV, (size_t)r * B, B);
    for (int i = 1; i < p; i++) {
        int q = (r + i) % p, from = fault == 9 ? (q + 1) % p : q;   /* 9: another's record */
        plan_pull(pl, q, (size_t)from * P, fault == 8 ? BUF_RECV : BUF_SEND,
                  fault == 8 ? (size_t)q * B : 0, BUF_RECV, (size_t)q * B, B);
    }
    if (fault != 7)
        plan_sync(pl);
}

#define SHM_FAULT(n) static void shm##n(plan *pl, const plan_args *a) { shm_with(pl, a, n); }
SHM_FAULT(0) SHM_FAULT(1) SHM_FAULT(2) SHM_FAULT(3) SHM_FAULT(4) SHM_FAULT(5)
#define CMA_FAULT(n) static void cma##n(plan *pl, const plan_args *a) { cma_with(pl, a, n); }
CMA_FAULT(0) CMA_FAULT(6) CMA_FAULT(7) CMA_FAULT(8) CMA_FAULT(9)

static int shm_cases(int *ncases)
{
    static const struct {
        plan_builder build;
        const char *expect;
    } sc[] = {
        { shm0, NULL },
        { shm1, "race" },
        { shm2, "waits at its node's barrier" },
        { shm3, "without a barrier" },
        { shm4, "declare shared segments" },
        { shm5, "read since the last barrier" },
        { cma0, NULL },
        { cma6, "record" },
        { cma7, "no barrier after it" },
        { cma8, "RECV, which rank" },
        { cma9, "does not hold rank" },
    };
    int failures = 0, n = (int)(sizeof sc / sizeof sc[0]);
    *ncases = n;
    for (int i = 0; i < n; i++) {
        coll_algo a = { .name = "shm_under_test", .build = sc[i].build };
        sym_opts o = { .call = { .p = 5, .block = 3, .commutative = 1 } };
        sym_result r;
        if (sym_run(&allgather_desc, &a, &o, &r))
            return -1;
        int ok = sc[i].expect ? !r.ok && strstr(r.why, sc[i].expect) != NULL : r.ok;
        if (!ok) {
            printf("FAIL shared-memory case %d: expected %s, got: %s\n", i,
                   sc[i].expect ? sc[i].expect : "a pass", r.ok ? "a pass" : r.why);
            failures++;
        }
    }
    printf("shared memory: %d passed, %d failed\n", n - failures, failures);
    return failures;
}

/* Barriers (a synchronising collective): no rank may finish before every
 * rank has started, which the checker proves by causality. A correct
 * dissemination barrier, and barriers with one fault each. */
static void barrier_with(plan *pl, const plan_args *a, int fault)
{
    const int p = a->p, r = a->rank;
    if (fault == 0 || fault == 1) {     /* dissemination; 1: its last round missing */
        for (int d = 1; d < p && !(fault == 1 && 2 * d >= p); d *= 2) {
            plan_send_token(pl, (r + d) % p);
            plan_recv_token(pl, (r + p - d) % p);
            plan_end_round(pl);
        }
    } else if (fault == 2) {            /* rank 0 releases the others at once */
        if (r != 0) {
            plan_send_token(pl, 0);
            plan_end_round(pl);
            plan_recv_token(pl, 0);
            return;
        }
        for (int q = 1; q < p; q++) {
            plan_recv_token(pl, q);
            plan_send_token(pl, q);
        }
    } else if (fault == 3) {            /* a binomial fan-in without the fan-out */
        for (int jump = 1; jump < p; jump *= 2) {
            if (r & (jump - 1))
                break;
            if ((r & jump) == 0 && r + jump < p)
                plan_recv_token(pl, r + jump);
            else if (r & jump)
                plan_send_token(pl, r - jump);
            plan_end_round(pl);
        }
    } else if (fault == 4 || fault == 5) {
        /* a ring: each round every rank sends to rank + 1 and receives from
         * rank - 1, both posted at the round's start, so news moves one rank
         * a round; 4: p - 1 rounds (right), 5: p - 2 (one short) */
        for (int k = 0; k < p - (fault == 4 ? 1 : 2); k++) {
            plan_send_token(pl, (r + 1) % p);
            plan_recv_token(pl, (r + p - 1) % p);
            plan_end_round(pl);
        }
    } else if (fault == 6) {            /* a token received as a byte */
        plan_need_tmp(pl, 1);
        plan_send_token(pl, (r + 1) % p);
        plan_recv(pl, BUF_TMP, 0, 1, (r + p - 1) % p);
    } else {                            /* 7: a node barrier alone, on two nodes */
        plan_sync(pl);
    }
}

#define BAR_FAULT(n) \
    static void bar##n(plan *pl, const plan_args *a) { barrier_with(pl, a, n); }
BAR_FAULT(0) BAR_FAULT(1) BAR_FAULT(2) BAR_FAULT(3) BAR_FAULT(4) BAR_FAULT(5) BAR_FAULT(6)
BAR_FAULT(7)

static int barrier_cases(int *ncases)
{
    static const int one_node[6] = { 0 }, two_nodes[6] = { 0, 0, 0, 1, 1, 1 };
    static const struct {
        plan_builder build;
        const int *node_of;
        const char *expect;
    } bc[] = {
        { bar0, NULL, NULL },
        { bar1, NULL, "rank 0 finishes its plan without hearing from rank 1" },
        { bar2, NULL, "rank 1 finishes its plan without hearing from rank 2" },
        { bar3, NULL, "rank 1 finishes its plan without hearing from rank 0" },
        { bar4, NULL, NULL },
        { bar5, NULL, "finishes its plan without hearing from rank" },
        { bar6, NULL, "which receives 1 bytes" },
        { bar7, one_node, NULL },
        { bar7, two_nodes, "rank 0 finishes its plan without hearing from rank 3" },
    };
    int failures = 0, n = (int)(sizeof bc / sizeof bc[0]);
    *ncases = n;
    for (int i = 0; i < n; i++) {
        coll_algo a = { .name = "barrier_under_test", .build = bc[i].build };
        sym_opts o = { .call = { .p = 6, .block = 1, .commutative = 1,
                                 .node_of = bc[i].node_of } };
        sym_result r;
        if (sym_run(&barrier_desc, &a, &o, &r))
            return -1;
        int ok = bc[i].expect ? !r.ok && strstr(r.why, bc[i].expect) != NULL : r.ok;
        if (!ok) {
            printf("FAIL barrier case %d: expected %s, got: %s\n", i,
                   bc[i].expect ? bc[i].expect : "a pass", r.ok ? "a pass" : r.why);
            failures++;
        }
    }
    printf("barriers: %d passed, %d failed\n", n - failures, failures);
    return failures;
}

int main(void)
{
    int failures = 0, n = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n; i++) {
        coll_algo a = { .name = "ring_under_test", .build = cases[i].build };
        for (int inplace = 0; inplace < 2; inplace++) {
            sym_result r;
            sym_opts o = { .call = { .p = 5, .block = 1, .commutative = 1, .inplace = inplace } };
            if (sym_run(&allgather_desc, &a, &o, &r)) {
                printf("FAIL case %d: out of memory\n", i);
                return 1;
            }
            /* a plan without the initial copy is right in place */
            const char *expect = i == 1 && inplace ? NULL : cases[i].expect;
            int ok = expect ? !r.ok && strstr(r.why, expect) != NULL : r.ok;
            if (!ok) {
                printf("FAIL case %d inplace=%d: expected %s, got: %s\n", i, inplace,
                       expect ? expect : "a pass", r.ok ? "a pass" : r.why);
                failures++;
            }
        }
    }
    int nshm, npre, nbar, rfail = reduction_cases(), sfail = shm_cases(&nshm);
    int pfail = prefix_cases(&npre), bfail = barrier_cases(&nbar);
    if (rfail < 0 || sfail < 0 || pfail < 0 || bfail < 0) {
        printf("FAIL: out of memory\n");
        return 1;
    }
    printf("%d passed, %d failed\n",
           2 * n - failures + 7 - rfail + nshm - sfail + npre - pfail + nbar - bfail,
           failures + rfail + sfail + pfail + bfail);
    return failures + rfail + sfail + pfail + bfail != 0;
}
