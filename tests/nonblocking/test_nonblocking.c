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
 * Algorithms come from MPICOLL_<COLL> as for the blocking tests.
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

/* Six collectives, three on each communicator, interleaved. */
static void start_all(bufs *w, bufs *h, MPI_Comm world, MPI_Comm half, mpicoll_request r[12])
{
    int pw, ph;
    MPI_Comm_size(world, &pw);
    MPI_Comm_size(half, &ph);
    mpicoll_iallgather(w->ag_s, N, MPI_INT, w->ag_r, N, MPI_INT, world, &r[0]);
    mpicoll_iallgather(h->ag_s, N, MPI_INT, h->ag_r, N, MPI_INT, half, &r[1]);
    mpicoll_ialltoall(w->a2a_s, N, MPI_INT, w->a2a_r, N, MPI_INT, world, &r[2]);
    mpicoll_iallreduce(h->ar_s, h->ar_r, N, MPI_INT, MPI_SUM, half, &r[3]);
    mpicoll_iallreduce(w->ar_s, w->ar_r, N, MPI_INT, MPI_SUM, world, &r[4]);
    mpicoll_ialltoall(h->a2a_s, N, MPI_INT, h->a2a_r, N, MPI_INT, half, &r[5]);
    mpicoll_ibcast(w->bc, N, MPI_INT, 0, world, &r[6]);
    mpicoll_ibcast(h->bc, N, MPI_INT, 0, half, &r[7]);
    mpicoll_ireduce(w->rd_s, w->rd_r, N, MPI_INT, MPI_SUM, pw - 1, world, &r[8]);
    mpicoll_ireduce(h->rd_s, h->rd_r, N, MPI_INT, MPI_SUM, ph - 1, half, &r[9]);
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

static void persistent(int starts)
{
    int p, me;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    bufs b;
    fill(&b, me, p);
    mpicoll_request r[3];
    mpicoll_allgather_init(b.ag_s, N, MPI_INT, b.ag_r, N, MPI_INT, MPI_COMM_WORLD, &r[0]);
    mpicoll_allreduce_init(b.ar_s, b.ar_r, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
    mpicoll_alltoall_init(b.a2a_s, N, MPI_INT, b.a2a_r, N, MPI_INT, MPI_COMM_WORLD, &r[2]);
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
    persistent(argc > 1 ? atoi(argv[1]) : 10000);
    MPI_Comm_free(&half);
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("test_nonblocking: np=%d failures=%d\n", p, all);
    MPI_Finalize();
    return all != 0;
}
