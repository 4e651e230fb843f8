/* The MPI test of barriers (see barrier_check.h). */
#include "barrier_check.h"
#include "block_check.h"
#include "yield_wait.h"

#include <mpicoll.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* How long the late rank sleeps before it enters: long enough that a
 * barrier that lets ranks go early shows, short enough for the sweep. */
#define LATE_NS 3000000L

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int fail_line(const struct bar_call *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail_line(const struct bar_call *b, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    int p, rank;
    MPI_Comm_size(b->comm, &p);
    MPI_Comm_rank(b->comm, &rank);
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    printf("FAIL barrier: algorithm=%s %s comm=%s p=%d rank=%d: %s\n", b->algo_label,
           b->context ? b->context : "", b->comm_label, p, rank, what);
    fflush(stdout);
    return 1;
}

static int barrier_on(const struct bar_call *b, MPI_Comm comm)
{
    return mpicoll_barrier_with(b->spec, comm);
}

/* The forced algorithm ran, if one was expected. */
static int check_choice(const struct bar_call *b)
{
    char got[128];
    if (!b->expect_algo)
        return 0;
    size_t n = strlen(b->expect_algo);
    if (bc_choice_unseen(b->comm))
        return 0;
    if (mpicoll_last_choice(b->comm, got, sizeof got) != 0)
        return fail_line(b, "mpicoll_last_choice has no choice after the call");
    if (strncmp(got, b->expect_algo, n) != 0 || (got[n] != '\0' && got[n] != ':'))
        return fail_line(b, "ran %s, not the forced %s", got, b->expect_algo);
    return 0;
}

/* One barrier with rank `late` entering LATE_NS after the others: no rank
 * may leave before the last one has entered. */
static int semantics(const struct bar_call *b, int late)
{
    int p, rank, failed = 0;
    MPI_Comm_size(b->comm, &p);
    MPI_Comm_rank(b->comm, &rank);
    double t[2], all[2 * 64];
    if (p > 64)
        return fail_line(b, "more than 64 ranks");
    if (rank == late)
        nanosleep(&(struct timespec){ 0, LATE_NS }, NULL);
    t[0] = now();
    int rc = barrier_on(b, b->comm);
    t[1] = now();
    if (rc != MPI_SUCCESS)
        failed += fail_line(b, "mpicoll_barrier returned %d", rc);
    /* the verdict through the MPI library's own collective */
    MPI_Request req;
    if (yield_wait(MPI_Iallgather(t, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, b->comm, &req), &req)
        != MPI_SUCCESS)
        return failed + fail_line(b, "the reference MPI_Iallgather failed");
    int last = 0;
    for (int q = 1; q < p; q++)
        last = all[2 * q] > all[2 * last] ? q : last;
    if (t[1] < all[2 * last])
        failed += fail_line(b, "left the barrier %.0f us before rank %d entered it (late "
                            "rank %d)", 1e6 * (all[2 * last] - t[1]), last, late);
    return failed;
}

/* Barriers on comm, a duplicate and a split of it, between a bcast and an
 * allreduce whose results are checked, then non-blocking barriers on
 * comm and the duplicate around an allreduce, completed in reverse order. */
void bar_comms_make(MPI_Comm comm, MPI_Comm *dup, MPI_Comm *half)
{
    int p, rank;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_dup(comm, dup);
    MPI_Comm_split(comm, rank % 2, p - rank, half);
}

void bar_comms_free(MPI_Comm *dup, MPI_Comm *half)
{
    MPI_Comm_free(half);
    MPI_Comm_free(dup);
}

static int mixed(const struct bar_call *b, int rounds, int *calls)
{
    int p, rank, failed = 0, rc = MPI_SUCCESS;
    MPI_Comm dup = b->dup, half = b->half;
    const int own = dup == MPI_COMM_NULL;
    MPI_Comm_size(b->comm, &p);
    MPI_Comm_rank(b->comm, &rank);
    if (own)
        bar_comms_make(b->comm, &dup, &half);
    for (int i = 0; i < rounds && rc == MPI_SUCCESS; i++) {
        int root = i % p, x = rank == root ? 1000 * i + root : -1, sum = 0;
        rc = barrier_on(b, b->comm);
        if (rc == MPI_SUCCESS)
            rc = mpicoll_bcast(&x, 1, MPI_INT, root, dup);
        if (rc == MPI_SUCCESS)
            rc = barrier_on(b, half);
        if (rc == MPI_SUCCESS)
            rc = mpicoll_allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, b->comm);
        if (rc == MPI_SUCCESS)
            rc = barrier_on(b, dup);
        *calls += 3;
        if (rc == MPI_SUCCESS && (x != 1000 * i + root || sum != p * (p - 1) / 2))
            failed += fail_line(b, "round %d among barriers: bcast gave %d (want %d), "
                                "allreduce %d (want %d)", i, x, 1000 * i + root, sum,
                                p * (p - 1) / 2);
    }
    mpicoll_request req[3] = { MPICOLL_REQUEST_NULL, MPICOLL_REQUEST_NULL,
                               MPICOLL_REQUEST_NULL };
    int sum = 0;
    if (rc == MPI_SUCCESS)
        rc = mpicoll_ibarrier_with(b->spec, b->comm, &req[0]);
    if (rc == MPI_SUCCESS)
        rc = mpicoll_iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup, &req[1]);
    if (rc == MPI_SUCCESS)
        rc = mpicoll_ibarrier_with(b->spec, dup, &req[2]);
    for (int k = 2; k >= 0 && rc == MPI_SUCCESS; k--)
        rc = mpicoll_wait(&req[k]);
    *calls += 2;
    if (rc != MPI_SUCCESS)
        failed += fail_line(b, "barriers among other collectives: error %d", rc);
    else if (sum != p * (p - 1) / 2)
        failed += fail_line(b, "iallreduce between ibarriers gave %d, want %d", sum,
                            p * (p - 1) / 2);
    if (own)
        bar_comms_free(&dup, &half);
    return failed;
}

int bar_run_comm(const struct bar_call *b, int quick, int *calls)
{
    int p, failed = 0;
    MPI_Comm_size(b->comm, &p);
    for (int late = quick ? p - 1 : 0; late < p; late++) {
        failed += semantics(b, late);
        (*calls)++;
    }
    failed += check_choice(b);
    failed += mixed(b, quick ? 2 : 5, calls);
    return failed;
}
