/*
 * Non-blocking and persistent collectives.
 *
 *  outstanding: six collectives started at once on MPI_COMM_WORLD and a
 *    split communicator (in the same order on every rank), completed in
 *    reverse order; then the same completed through mpicoll_test and
 *    mpicoll_progress. Results checked against values computed locally.
 *  persistent: allgather, allreduce and alltoall requests started 10000
 *    times (or argv[1] times); a malloc counter (this program's malloc wraps glibc's and
 *    counts the calls made from libmpicoll, found with dladdr) must not
 *    move after the first start.
 *  many: more requests outstanding on each communicator than the
 *    shared-memory channels of a communicator's pool (4): 10 allgathers on
 *    each of the two communicators, interleaved, completed in reverse
 *    order (with a forced shared-memory algorithm, each start past the
 *    fourth waits for the request that holds its channel).
 *  starts do not wait: on a communicator whose first blocking allgather
 *    made the pool (shm forced: its channels), rank 0 starts MANY
 *    allgathers, more than the pool has channels, and then sends rank 1
 *    the message that rank 1 receives before it starts its own: correct
 *    MPI, which hangs if a start waits for the request holding its channel
 *    (that one needs rank 1); each request begins at its channel's turn.
 *  big elements: an allreduce whose elements (a user type of 150000 bytes,
 *    a user operation) are too large for a request's shared-memory channel
 *    (4 slots and 2 areas of one element: 1.2 MB > 1 MiB) from 3 ranks a
 *    node on: the request must fall back (or, under MPICOLL_FALLBACK=error,
 *    fail) on every rank alike, also on nodes of unequal sizes where the
 *    smaller one alone would fit; the blocking call runs it.
 * Algorithms come from MPICOLL_<COLL> as for the blocking tests. Every
 * request started checks, through mpicoll_last_choice, that it runs the
 * algorithm forced for its collective (the ctest runs also set
 * MPICOLL_FALLBACK=error), so that a fallback cannot pass for it.
 */
#define _GNU_SOURCE
#include <mpicoll.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- counting mpicoll's allocations ------------------------------------ */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
static volatile long mpicoll_allocs;

static void count_caller(void *ret)
{
    static __thread int busy;     /* dladdr may allocate itself */
    Dl_info info;
    if (busy)
        return;
    busy = 1;
    if (dladdr(ret, &info) && info.dli_fname && strstr(info.dli_fname, "libmpicoll"))
        mpicoll_allocs++;
    busy = 0;
}

void *malloc(size_t n)
{
    count_caller(__builtin_return_address(0));
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
    count_caller(__builtin_return_address(0));
    return __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
    count_caller(__builtin_return_address(0));
    return __libc_realloc(p, n);
}

void free(void *p) { __libc_free(p); }

/* ---- checks --------------------------------------------------------------- */
static int failures;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            failures++;                                                                   \
            if (failures < 20) {                                                          \
                printf("FAIL nonblocking: rank %d: ", wrank);                             \
                printf(__VA_ARGS__);                                                      \
                printf("\n");                                                             \
            }                                                                             \
        }                                                                                 \
    } while (0)

static int wrank;

enum { N = 7 };

typedef struct bufs {
    int ag_s[N], *ag_r, *a2a_s, *a2a_r, ar_s[N], ar_r[N], bc[N], rd_s[N], rd_r[N];
    int *rs_s, rs_r[N];
} bufs;

static void fill(bufs *b, int me, int p)
{
    b->ag_r = calloc((size_t)p * N, sizeof(int));
    b->a2a_s = calloc((size_t)p * N, sizeof(int));
    b->a2a_r = calloc((size_t)p * N, sizeof(int));
    b->rs_s = calloc((size_t)p * N, sizeof(int));
    for (int i = 0; i < N; i++) {
        b->ag_s[i] = me * 100 + i;
        b->ar_s[i] = me + i;
        b->bc[i] = me == 0 ? 5000 + i : -1;
        b->rd_s[i] = me * 3 + i;
    }
    for (int i = 0; i < p * N; i++) {
        b->a2a_s[i] = me * 10000 + i;
        b->rs_s[i] = me + i;
    }
}

static void verify(const bufs *b, int me, int p, const char *how)
{
    for (int j = 0; j < p; j++)
        for (int i = 0; i < N; i++) {
            CHECK(b->ag_r[j * N + i] == j * 100 + i, "%s allgather [%d][%d]", how, j, i);
            CHECK(b->a2a_r[j * N + i] == j * 10000 + me * N + i, "%s alltoall [%d][%d]", how, j, i);
        }
    for (int i = 0; i < N; i++) {
        CHECK(b->ar_r[i] == p * (p - 1) / 2 + p * i, "%s allreduce [%d]", how, i);
        CHECK(b->bc[i] == 5000 + i, "%s bcast [%d]", how, i);
        if (me == p - 1)
            CHECK(b->rd_r[i] == 3 * p * (p - 1) / 2 + p * i, "%s reduce [%d]", how, i);
        CHECK(b->rs_r[i] == p * (p - 1) / 2 + p * (me * N + i), "%s reduce_scatter [%d]", how, i);
    }
}

static void release(bufs *b)
{
    free(b->ag_r);
    free(b->a2a_s);
    free(b->a2a_r);
    free(b->rs_s);
}

/* The algorithm MPICOLL_<COLL> forces (without parameters) must be what
 * the last call on comm chose. */
static void expect_forced(MPI_Comm comm, const char *coll, const char *env)
{
    const char *want = getenv(env);
    char got[128];
    if (!want || !*want || strcmp(want, "auto") == 0)
        return;
    size_t n = strcspn(want, ":");
    int rc = mpicoll_last_choice(comm, got, sizeof got);
    CHECK(rc == 0 && strncmp(got, want, n) == 0 && (got[n] == '\0' || got[n] == ':'),
          "%s request ran %s, %s=%s forced", coll, rc == 0 ? got : "(none)", env, want);
}

/* Six collectives, three on each communicator, interleaved. */
static void start_all(bufs *w, bufs *h, MPI_Comm world, MPI_Comm half, mpicoll_request r[12])
{
    int pw, ph;
    MPI_Comm_size(world, &pw);
    MPI_Comm_size(half, &ph);
    mpicoll_iallgather(w->ag_s, N, MPI_INT, w->ag_r, N, MPI_INT, world, &r[0]);
    expect_forced(world, "allgather", "MPICOLL_ALLGATHER");
    mpicoll_iallgather(h->ag_s, N, MPI_INT, h->ag_r, N, MPI_INT, half, &r[1]);
    expect_forced(half, "allgather", "MPICOLL_ALLGATHER");
    mpicoll_ialltoall(w->a2a_s, N, MPI_INT, w->a2a_r, N, MPI_INT, world, &r[2]);
    expect_forced(world, "alltoall", "MPICOLL_ALLTOALL");
    mpicoll_iallreduce(h->ar_s, h->ar_r, N, MPI_INT, MPI_SUM, half, &r[3]);
    expect_forced(half, "allreduce", "MPICOLL_ALLREDUCE");
    mpicoll_iallreduce(w->ar_s, w->ar_r, N, MPI_INT, MPI_SUM, world, &r[4]);
    expect_forced(world, "allreduce", "MPICOLL_ALLREDUCE");
    mpicoll_ialltoall(h->a2a_s, N, MPI_INT, h->a2a_r, N, MPI_INT, half, &r[5]);
    expect_forced(half, "alltoall", "MPICOLL_ALLTOALL");
    mpicoll_ibcast(w->bc, N, MPI_INT, 0, world, &r[6]);
    expect_forced(world, "bcast", "MPICOLL_BCAST");
    mpicoll_ibcast(h->bc, N, MPI_INT, 0, half, &r[7]);
    expect_forced(half, "bcast", "MPICOLL_BCAST");
    mpicoll_ireduce(w->rd_s, w->rd_r, N, MPI_INT, MPI_SUM, pw - 1, world, &r[8]);
    expect_forced(world, "reduce", "MPICOLL_REDUCE");
    mpicoll_ireduce(h->rd_s, h->rd_r, N, MPI_INT, MPI_SUM, ph - 1, half, &r[9]);
    expect_forced(half, "reduce", "MPICOLL_REDUCE");
    mpicoll_ireduce_scatter_block(w->rs_s, w->rs_r, N, MPI_INT, MPI_SUM, world, &r[10]);
    mpicoll_ireduce_scatter_block(h->rs_s, h->rs_r, N, MPI_INT, MPI_SUM, half, &r[11]);
}

static void outstanding(MPI_Comm half, int by_test)
{
    int pw, me, ph, hme;
    MPI_Comm_size(MPI_COMM_WORLD, &pw);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(half, &ph);
    MPI_Comm_rank(half, &hme);
    bufs w, h;
    fill(&w, me, pw);
    fill(&h, hme, ph);
    mpicoll_request r[12];
    start_all(&w, &h, MPI_COMM_WORLD, half, r);
    if (by_test) {
        int flag = 0;
        while (!flag) {
            mpicoll_progress();
            mpicoll_testall(12, r, &flag);
        }
    } else {
        for (int i = 11; i >= 0; i--)
            CHECK(mpicoll_wait(&r[i]) == MPI_SUCCESS, "wait %d", i);
    }
    for (int i = 0; i < 12; i++)
        CHECK(r[i] == MPICOLL_REQUEST_NULL, "request %d not released", i);
    verify(&w, me, pw, by_test ? "test/progress world" : "reverse-wait world");
    verify(&h, hme, ph, by_test ? "test/progress half" : "reverse-wait half");
    release(&w);
    release(&h);
}

enum { MANY = 10 };

static void many(MPI_Comm half)
{
    int pw, me, ph, hme;
    MPI_Comm_size(MPI_COMM_WORLD, &pw);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(half, &ph);
    MPI_Comm_rank(half, &hme);
    int *send = malloc(sizeof(int) * 2 * MANY);
    int *recv = calloc((size_t)(pw + ph) * MANY, sizeof(int));
    mpicoll_request r[2 * MANY];
    for (int k = 0; k < MANY; k++) {
        send[2 * k] = me * 1000 + k;
        send[2 * k + 1] = hme * 1000 + k + 500;
        mpicoll_iallgather(&send[2 * k], 1, MPI_INT, recv + (size_t)k * pw, 1, MPI_INT,
                           MPI_COMM_WORLD, &r[2 * k]);
        expect_forced(MPI_COMM_WORLD, "allgather", "MPICOLL_ALLGATHER");
        mpicoll_iallgather(&send[2 * k + 1], 1, MPI_INT,
                           recv + (size_t)MANY * pw + (size_t)k * ph, 1, MPI_INT, half,
                           &r[2 * k + 1]);
        expect_forced(half, "allgather", "MPICOLL_ALLGATHER");
    }
    for (int i = 2 * MANY - 1; i >= 0; i--)
        CHECK(mpicoll_wait(&r[i]) == MPI_SUCCESS, "many: wait %d", i);
    for (int k = 0; k < MANY; k++) {
        for (int j = 0; j < pw; j++)
            CHECK(recv[k * pw + j] == j * 1000 + k, "many: world allgather %d [%d]", k, j);
        for (int j = 0; j < ph; j++)
            CHECK(recv[MANY * pw + k * ph + j] == j * 1000 + k + 500,
                  "many: half allgather %d [%d]", k, j);
    }
    free(send);
    free(recv);
}

static void starts_do_not_wait(void)
{
    int p, me;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &me);
    int *recv = calloc((size_t)p * (MANY + 1), sizeof(int)), token = 0;
    int *send = malloc(sizeof(int) * (MANY + 1));
    mpicoll_request r[MANY];
    for (int k = 0; k <= MANY; k++)
        send[k] = me * 1000 + k;
    CHECK(mpicoll_allgather(&send[MANY], 1, MPI_INT, recv + (size_t)MANY * p, 1, MPI_INT,
                            comm) == MPI_SUCCESS, "starts: the blocking allgather");
    if (me == 1)
        MPI_Recv(&token, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int k = 0; k < MANY; k++) {
        mpicoll_iallgather(&send[k], 1, MPI_INT, recv + (size_t)k * p, 1, MPI_INT, comm, &r[k]);
        expect_forced(comm, "allgather", "MPICOLL_ALLGATHER");
    }
    if (me == 0 && p > 1)
        MPI_Send(&token, 1, MPI_INT, 1, 77, MPI_COMM_WORLD);
    CHECK(mpicoll_waitall(MANY, r) == MPI_SUCCESS, "starts: waitall");
    for (int k = 0; k <= MANY; k++)
        for (int j = 0; j < p; j++)
            CHECK(recv[(size_t)k * p + j] == j * 1000 + k, "starts: allgather %d [%d]", k, j);
    free(send);
    free(recv);
    MPI_Comm_free(&comm);
}

enum { BIG = 37500 };   /* ints in one element: 150000 bytes */

static void big_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    const int *a = in;
    int *b = inout;
    (void)t;
    for (long i = 0; i < (long)*len * BIG; i++)
        b[i] += a[i];
}

static void big_elements(MPI_Comm comm, const char *label)
{
    int p, me, lo = 0, hi = 0, rc;
    MPI_Comm c;
    MPI_Comm_dup(comm, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Comm_size(c, &p);
    MPI_Comm_rank(c, &me);
    MPI_Datatype t;
    MPI_Type_contiguous(BIG, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Op op;
    MPI_Op_create(big_sum, 1, &op);
    int *s = malloc(sizeof(int) * 2 * BIG), *r = malloc(sizeof(int) * 2 * BIG);
    for (int i = 0; i < 2 * BIG; i++)
        s[i] = me + i % 1000;
    for (int blocking = 0; blocking < 2; blocking++) {
        mpicoll_request q = MPICOLL_REQUEST_NULL;
        memset(r, 0, sizeof(int) * 2 * BIG);
        rc = blocking ? mpicoll_allreduce(s, r, 2, t, op, c)
                      : mpicoll_iallreduce(s, r, 2, t, op, c, &q);
        int ok = rc == MPI_SUCCESS;
        if (ok)
            expect_forced(c, "allreduce", "MPICOLL_ALLREDUCE");
        /* every rank alike (a request not yet waited for: MPI's own) */
        MPI_Allreduce(&ok, &lo, 1, MPI_INT, MPI_MIN, c);
        MPI_Allreduce(&ok, &hi, 1, MPI_INT, MPI_MAX, c);
        CHECK(lo == hi, "%s big elements %s: the call succeeded on some ranks only", label,
              blocking ? "blocking" : "request");
        if (lo != hi)
            break;      /* a request that cannot complete: left */
        if (!ok) {
            int cls;
            const char *policy = getenv("MPICOLL_FALLBACK");
            MPI_Error_class(rc, &cls);
            CHECK(!blocking && cls == MPI_ERR_UNSUPPORTED_OPERATION && policy
                  && strcmp(policy, "error") == 0,
                  "%s big elements %s: error %d", label, blocking ? "blocking" : "request", cls);
            continue;
        }
        if (!blocking)
            CHECK(mpicoll_wait(&q) == MPI_SUCCESS, "%s big elements: wait", label);
        for (int i = 0; i < 2 * BIG; i++)
            if (r[i] != p * (p - 1) / 2 + p * (i % 1000)) {
                CHECK(0, "%s big elements %s: [%d] = %d", label,
                      blocking ? "blocking" : "request", i, r[i]);
                break;
            }
    }
    free(s);
    free(r);
    MPI_Op_free(&op);
    MPI_Type_free(&t);
    if (lo == hi)
        MPI_Comm_free(&c);  /* else it would wait for the request left */
}

static void persistent(int starts)
{
    int p, me;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    bufs b;
    fill(&b, me, p);
    mpicoll_request r[3];
    mpicoll_allgather_init(b.ag_s, N, MPI_INT, b.ag_r, N, MPI_INT, MPI_COMM_WORLD, &r[0]);
    expect_forced(MPI_COMM_WORLD, "allgather", "MPICOLL_ALLGATHER");
    mpicoll_allreduce_init(b.ar_s, b.ar_r, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
    expect_forced(MPI_COMM_WORLD, "allreduce", "MPICOLL_ALLREDUCE");
    mpicoll_alltoall_init(b.a2a_s, N, MPI_INT, b.a2a_r, N, MPI_INT, MPI_COMM_WORLD, &r[2]);
    expect_forced(MPI_COMM_WORLD, "alltoall", "MPICOLL_ALLTOALL");
    long after_first = 0;
    for (int it = 0; it < starts; it++) {
        for (int k = 0; k < 3; k++)
            mpicoll_start(&r[k]);
        mpicoll_waitall(3, r);
        if (it == 0)
            after_first = mpicoll_allocs;
        if (it % 2500 == 0 || it == starts - 1) {
            for (int j = 0; j < p; j++)
                CHECK(b.ag_r[j * N] == j * 100, "persistent allgather start %d", it);
            CHECK(b.ar_r[0] == p * (p - 1) / 2, "persistent allreduce start %d", it);
            CHECK(b.a2a_r[0] == me * N, "persistent alltoall start %d", it);
            memset(b.ag_r, 0, sizeof(int) * (size_t)p * N);
        }
    }
    /* the counter must see mpicoll's allocations at all (the init calls
     * make plans), or its silence below would prove nothing */
    CHECK(after_first > 0, "the allocation counter saw no allocation in mpicoll");
    CHECK(mpicoll_allocs == after_first,
          "%d persistent starts allocated %ld times in mpicoll after the first", starts,
          mpicoll_allocs - after_first);
    for (int k = 0; k < 3; k++)
        CHECK(r[k] != MPICOLL_REQUEST_NULL && mpicoll_request_free(&r[k]) == MPI_SUCCESS,
              "persistent request %d", k);
    if (me == 0)
        printf("test_nonblocking: persistent: 3 x %d starts; allocations in mpicoll: %ld up to "
               "the first start, %ld after\n", starts, after_first, mpicoll_allocs - after_first);
    release(&b);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int p;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, p - wrank, &half);
    outstanding(half, 0);
    outstanding(half, 1);
    many(half);
    starts_do_not_wait();
    big_elements(MPI_COMM_WORLD, "world");
    big_elements(half, "half");
    persistent(argc > 1 ? atoi(argv[1]) : 10000);
    MPI_Comm_free(&half);
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("test_nonblocking: np=%d failures=%d\n", p, all);
    MPI_Finalize();
    return all != 0;
}
