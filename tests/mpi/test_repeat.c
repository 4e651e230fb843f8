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
 *    between.
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

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    data();
    between();
    handles();
    requests();
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("test_repeat: np=%d failures=%d\n", np, all);
    MPI_Finalize();
    return all != 0;
}
