/*
 * The same call again. A communicator keeps its last call, blocking or
 * non-blocking, to run it again without its checks, selection and views
 * when the next call has the same arguments (coll_run: src/runtime/entry.c);
 * it must never run a call that only looks the same:
 *
 *  data: the same allreduce, allgather and bcast with new data each time
 *    (the kept call reads the buffers when it runs);
 *  between: a different call in between (another size, another
 *    collective, more different calls than the plan cache holds), then
 *    the first again;
 *  handles: a derived datatype and a user operation freed and made anew
 *    between two calls whose arguments are otherwise equal (the library
 *    may give the new object the old one's handle): the new layout and
 *    the new operation must be the ones used;
 *  requests: the same non-blocking allreduce started and waited for again
 *    and again, two of them outstanding at once, and a blocking one
 *    between;
 *  counts: allgatherv, gatherv, alltoallv and reduce_scatter, blocking
 *    and non-blocking, made again with the same arrays of counts and
 *    displacements holding other values (a call is kept with what its
 *    arrays held): each call must use what they hold at that call;
 *  ahead: a rank with nothing after its last node barrier (a two-copy
 *    bcast's root, a reduce's other ranks) returns without waiting there
 *    (shm_leave), and its next call passes that barrier before it
 *    writes the node's segment. Back to back, with the ranks it is
 *    ahead of late now and then, each call must still deliver its own
 *    data; with the single copy (cma=1, the others read the root's
 *    buffer) the root must not return before they have read it (it
 *    overwrites its buffer as soon as it returns);
 *  choices (the argument "choices", with tests/mpi/repeat_counts.rules):
 *    a reduce_scatter made again with the same array holding larger
 *    counts must be chosen again by its new size (mpicoll_last_choice).
 * Every result is checked against values computed locally.
 */
#include <mpicoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, np, failures;

#define CHECK(cond, ...)                                  \
    do {                                                  \
        if (!(cond)) {                                    \
            failures++;                                   \
            printf("FAIL repeat: rank %d: ", me);          \
            printf(__VA_ARGS__);                          \
            printf("\n");                                 \
        }                                                 \
    } while (0)

enum { N = 16 };

/* allreduce (sum) of v[i] = (rank + 1) * (round + i) */
static void check_sum(const int *out, int n, int round, const char *what)
{
    for (int i = 0; i < n; i++) {
        const int want = np * (np + 1) / 2 * (round + i);
        CHECK(out[i] == want, "%s round %d [%d]: %d, expected %d", what, round, i, out[i], want);
    }
}

static void fill(int *in, int n, int round)
{
    for (int i = 0; i < n; i++)
        in[i] = (me + 1) * (round + i);
}

static void data(void)
{
    int in[N], out[N], g[64], b[N];
    for (int round = 0; round < 5; round++) {
        fill(in, N, round);
        mpicoll_allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        check_sum(out, N, round, "data: allreduce");
        int mine = me * 100 + round;
        mpicoll_allgather(&mine, 1, MPI_INT, g, 1, MPI_INT, MPI_COMM_WORLD);
        for (int r = 0; r < np; r++)
            CHECK(g[r] == r * 100 + round, "data: allgather round %d [%d]: %d", round, r, g[r]);
        for (int i = 0; i < N; i++)
            b[i] = me == 0 ? round * 7 + i : -1;
        mpicoll_bcast(b, N, MPI_INT, 0, MPI_COMM_WORLD);
        for (int i = 0; i < N; i++)
            CHECK(b[i] == round * 7 + i, "data: bcast round %d [%d]: %d", round, i, b[i]);
    }
}

static void between(void)
{
    int in[4 * N], out[4 * N];
    for (int round = 0; round < 3; round++) {
        fill(in, N, round);
        mpicoll_allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        check_sum(out, N, round, "between: first");
        /* more different calls than the plan cache's 8 */
        for (int k = 1; k <= 10; k++) {
            fill(in, k, round + k);
            mpicoll_allreduce(in, out, k, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            check_sum(out, k, round + k, "between: other size");
        }
        fill(in, 4 * N, round);
        mpicoll_allreduce(in, out, 4 * N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        check_sum(out, 4 * N, round, "between: larger (more scratch)");
        fill(in, N, round + 1);
        mpicoll_allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        check_sum(out, N, round + 1, "between: first again");
    }
}

static void op_max(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

static void op_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void handles(void)
{
    int in[2 * N], out[2 * N];
    /* a user operation freed and made anew: sum, then max */
    for (int k = 0; k < 2; k++) {
        MPI_Op op;
        MPI_Op_create(k ? op_max : op_sum, 1, &op);
        fill(in, N, 3);
        mpicoll_allreduce(in, out, N, MPI_INT, op, MPI_COMM_WORLD);
        mpicoll_allreduce(in, out, N, MPI_INT, op, MPI_COMM_WORLD);
        for (int i = 0; i < N; i++) {
            const int want = k ? np * (3 + i) : np * (np + 1) / 2 * (3 + i);
            CHECK(out[i] == want, "handles: op %s [%d]: %d, expected %d", k ? "max" : "sum", i,
                  out[i], want);
        }
        MPI_Op_free(&op);
    }
    /* a datatype freed and made anew: N contiguous ints, then every other
     * int of 2N (the ints between must stay as they were) */
    for (int k = 0; k < 2; k++) {
        MPI_Datatype t;
        if (k)
            MPI_Type_vector(N, 1, 2, MPI_INT, &t);
        else
            MPI_Type_contiguous(N, MPI_INT, &t);
        MPI_Type_commit(&t);
        for (int rep = 0; rep < 2; rep++) {
            fill(in, 2 * N, 5);
            for (int i = 0; i < 2 * N; i++)
                out[i] = -7;
            mpicoll_allreduce(in, out, 1, t, MPI_SUM, MPI_COMM_WORLD);
            for (int i = 0; i < 2 * N; i++) {
                const int used = k ? i % 2 == 0 : i < N;
                const int want = used ? np * (np + 1) / 2 * (5 + i) : -7;
                CHECK(out[i] == want, "handles: type %s [%d]: %d, expected %d",
                      k ? "vector" : "contiguous", i, out[i], want);
            }
        }
        MPI_Type_free(&t);
    }
}

static void requests(void)
{
    int in[N], out[N], in2[N], out2[N];
    mpicoll_request r, r2;
    for (int round = 0; round < 6; round++) {
        fill(in, N, round);
        mpicoll_iallreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
        mpicoll_wait(&r);
        check_sum(out, N, round, "requests: one");
    }
    for (int round = 0; round < 3; round++) {
        fill(in, N, round);
        fill(in2, N, round + 10);
        mpicoll_iallreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
        mpicoll_iallreduce(in2, out2, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r2);
        mpicoll_wait(&r2);
        mpicoll_wait(&r);
        check_sum(out, N, round, "requests: first of two");
        check_sum(out2, N, round + 10, "requests: second of two");
        fill(in, N, round + 20);
        mpicoll_allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        check_sum(out, N, round + 20, "requests: blocking between");
    }
}

/* Busy for us microseconds. */
static void late(double us)
{
    for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < us * 1e-6;)
        ;
}

static void ahead(void)
{
    enum { M = 4096 };
    static int b[M], in[M], out[M];
    const char *bcasts[] = { "shm", "shm:cma=1,cma_min=0" };
    for (int s = 0; s < 2; s++)
        for (int round = 0; round < 300; round++) {
            for (int i = 0; i < M; i++)
                b[i] = me == 0 ? round * 3 + i : -1;
            if (me != 0 && round % 7 == 0)
                late(200);
            mpicoll_bcast_with(bcasts[s], b, M, MPI_INT, 0, MPI_COMM_WORLD);
            for (int i = 0; i < M; i++) {
                if (me == 0)
                    b[i] = -2;     /* the root's buffer, reused at once */
                else if (b[i] != round * 3 + i) {
                    CHECK(0, "ahead: bcast %s round %d [%d]: %d", bcasts[s], round, i, b[i]);
                    break;
                }
            }
        }
    for (int round = 0; round < 300; round++) {
        fill(in, M, round);
        if (me == 0 && round % 7 == 0)
            late(200);
        mpicoll_reduce_with("shm", in, out, M, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        for (int i = 0; i < M; i++)
            in[i] = -1;             /* a send buffer, reused at once */
        if (me == 0)
            for (int i = 0; i < M; i++)
                if (out[i] != np * (np + 1) / 2 * (round + i)) {
                    CHECK(0, "ahead: reduce round %d [%d]: %d", round, i, out[i]);
                    break;
                }
    }
}

/* Round k's counts: rank r's block (r + k) % 3 + 1 ints; the blocks in
 * rank order when k is even, in reverse rank order when odd. Returns the
 * total. */
static int layout(int *counts, int *displs, int k)
{
    int off = 0;
    for (int i = 0; i < np; i++) {
        const int r = k % 2 ? np - 1 - i : i;
        counts[r] = (r + k) % 3 + 1;
        displs[r] = off;
        off += counts[r];
    }
    return off;
}

/* rank r's j-th int of round k */
static int value(int r, int j, int k)
{
    return r * 1000 + k * 10 + j;
}

static void counts(void)
{
    int c[64], d[64], c2[64], d2[64], in[4 * 64], out[4 * 64];
    /* each layout twice in a row, the four in turn, blocking then not */
    for (int round = 0; round < 16; round++) {
        const int k = round % 8 / 2, nb = round / 8;
        mpicoll_request q;
        /* allgatherv */
        const int total = layout(c, d, k);
        for (int j = 0; j < c[me]; j++)
            in[j] = value(me, j, k);
        memset(out, 0xff, sizeof out);
        if (nb) {
            mpicoll_iallgatherv(in, c[me], MPI_INT, out, c, d, MPI_INT, MPI_COMM_WORLD, &q);
            mpicoll_wait(&q);
        } else {
            mpicoll_allgatherv(in, c[me], MPI_INT, out, c, d, MPI_INT, MPI_COMM_WORLD);
        }
        for (int r = 0; r < np; r++)
            for (int j = 0; j < c[r]; j++)
                CHECK(out[d[r] + j] == value(r, j, k), "counts: allgatherv round %d, rank %d's "
                      "[%d]: %d", round, r, j, out[d[r] + j]);
        /* gatherv at root 0 */
        memset(out, 0xff, sizeof out);
        if (nb) {
            mpicoll_igatherv(in, c[me], MPI_INT, out, c, d, MPI_INT, 0, MPI_COMM_WORLD, &q);
            mpicoll_wait(&q);
        } else {
            mpicoll_gatherv(in, c[me], MPI_INT, out, c, d, MPI_INT, 0, MPI_COMM_WORLD);
        }
        for (int r = 0; me == 0 && r < np; r++)
            for (int j = 0; j < c[r]; j++)
                CHECK(out[d[r] + j] == value(r, j, k), "counts: gatherv round %d, rank %d's "
                      "[%d]: %d", round, r, j, out[d[r] + j]);
        /* alltoallv: this rank sends c2[r] = (me + r + k) % 3 + 1 ints to r
         * and receives c[r] = (r + me + k) % 3 + 1 from it */
        int so = 0, ro = 0;
        for (int r = 0; r < np; r++) {
            c2[r] = (me + r + k) % 3 + 1;
            d2[r] = so;
            for (int j = 0; j < c2[r]; j++)
                in[so + j] = value(me, r * 4 + j, k);
            so += c2[r];
        }
        for (int i = 0; i < np; i++) {
            const int r = k % 2 ? np - 1 - i : i;
            c[r] = (r + me + k) % 3 + 1;
            d[r] = ro;
            ro += c[r];
        }
        memset(out, 0xff, sizeof out);
        if (nb) {
            mpicoll_ialltoallv(in, c2, d2, MPI_INT, out, c, d, MPI_INT, MPI_COMM_WORLD, &q);
            mpicoll_wait(&q);
        } else {
            mpicoll_alltoallv(in, c2, d2, MPI_INT, out, c, d, MPI_INT, MPI_COMM_WORLD);
        }
        for (int r = 0; r < np; r++)
            for (int j = 0; j < c[r]; j++)
                CHECK(out[d[r] + j] == value(r, me * 4 + j, k), "counts: alltoallv round %d, "
                      "from rank %d [%d]: %d", round, r, j, out[d[r] + j]);
        /* reduce_scatter (sum): every rank contributes value(rank, j, k) */
        layout(c, d, k);
        for (int j = 0; j < total; j++)
            in[j] = value(me, j, k);
        memset(out, 0xff, sizeof out);
        if (nb) {
            mpicoll_ireduce_scatter(in, out, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
            mpicoll_wait(&q);
        } else {
            mpicoll_reduce_scatter(in, out, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        }
        /* rank me's block: elements [sum of c[0..me-1], + c[me]) of the vector */
        int first = 0;
        for (int r = 0; r < me; r++)
            first += c[r];
        for (int j = 0; j < c[me]; j++) {
            long want = 0;
            for (int r = 0; r < np; r++)
                want += value(r, first + j, k);
            CHECK(out[j] == want, "counts: reduce_scatter round %d [%d]: %d, expected %ld",
                  round, j, out[j], want);
        }
    }
}

/* reduce_scatter of `count` ints a rank, twice, through the same array
 * of counts: the choice must be `want` both times, the sums right */
static void choice_of(int *c, int count, const char *want)
{
    int in[4 * 64], out[4];
    char got[64];
    for (int r = 0; r < np; r++)
        c[r] = count;
    for (int j = 0; j < count * np; j++)
        in[j] = value(me, j, count);
    for (int t = 0; t < 2; t++) {
        mpicoll_reduce_scatter(in, out, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(mpicoll_last_choice(MPI_COMM_WORLD, got, sizeof got) == 0 &&
              strncmp(got, want, strlen(want)) == 0,
              "choices: reduce_scatter of %d ints a rank, call %d: %s, expected %s", count, t,
              got, want);
        for (int j = 0; j < count; j++) {
            long sum = 0;
            for (int r = 0; r < np; r++)
                sum += value(r, me * count + j, count);
            CHECK(out[j] == sum, "choices: reduce_scatter of %d ints a rank [%d]: %d", count, j,
                  out[j]);
        }
    }
}

static void choices(void)
{
    int c[64];
    choice_of(c, 1, "native");
    choice_of(c, 4, "ring");
    choice_of(c, 1, "native");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc > 1 && strcmp(argv[1], "choices") == 0) {
        choices();
        goto end;
    }
    data();
    between();
    handles();
    requests();
    counts();
    ahead();
end:;
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("test_repeat: np=%d failures=%d\n", np, all);
    MPI_Finalize();
    return all != 0;
}
