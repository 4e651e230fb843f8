/*
 * Threads: under MPI_THREAD_MULTIPLE, THREADS threads per rank run
 * collectives at once, each on its own communicator (thread t of every
 * rank on communicator t).
 *
 *   test_threads [ITERATIONS]
 *
 * Each thread, ITERATIONS times (default 40): every collective through
 * the blocking, non-blocking and persistent paths, with a count that
 * changes every iteration (more shapes than the plan cache holds, so
 * plans are evicted and rebuilt while other threads use theirs), calling
 * mpicoll_progress() while its requests are outstanding (which advances
 * the other threads' requests too); and every fourth iteration it
 * duplicates its communicator, runs an allreduce on the copy and frees it
 * (mpicoll's state is created and deleted while the others run). The
 * first call on each communicator happens in the threads, all at once.
 * Every result is checked; at the end the number of mpicoll's
 * communicator states is back to what it was before the threads.
 */
#include "robust.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int comm_state_live(void);      /* libmpicoll's count of communicator states */

enum { THREADS = 4 };

static int rank, size, iterations = 40;

struct worker {
    int id;
    MPI_Comm comm;
    int failures;
    char first_failure[256];
    int calls;
};

static void fail(struct worker *w, const char *what, int iter, int detail1, int detail2)
{
    if (w->failures++ == 0)
        snprintf(w->first_failure, sizeof w->first_failure, "thread %d iteration %d: %s (%d, %d)",
                 w->id, iter, what, detail1, detail2);
}

/* One collective in form f, with mpicoll_progress while it is pending. */
static void one(struct worker *w, enum rb_coll c, enum rb_form f, struct rb_data *d, int iter)
{
    struct rb_args a = rb_prepare(c, d, w->comm);
    mpicoll_request r = MPICOLL_REQUEST_NULL;
    int rc, flag = 0, at, got, want;
    if (f == BLOCKING) {
        rc = rb_run(c, f, &a);
    } else {
        rc = rb_start(c, f, &a, &r);
        if (rc == MPI_SUCCESS && f == PERSISTENT)
            rc = mpicoll_start(&r);
        while (rc == MPI_SUCCESS && !flag) {
            rc = mpicoll_progress();
            if (rc == MPI_SUCCESS)
                rc = mpicoll_test(&r, &flag);
        }
        if (rc == MPI_SUCCESS && f == PERSISTENT)
            rc = mpicoll_request_free(&r);
    }
    w->calls++;
    char what[128];
    snprintf(what, sizeof what, "%s %s: error, or (element, value)", rb_names[c],
             rb_form_names[f]);
    if (rc != MPI_SUCCESS)
        fail(w, what, iter, rc, 0);
    else if ((at = rb_check(c, d, &got, &want)) >= 0)
        fail(w, what, iter, at, got);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    struct rb_data d = { 0 };
    for (int iter = 0; iter < iterations && !w->failures; iter++) {
        int n = 1 + (iter * 7 + w->id * 3) % 23;
        if (rb_data_init(&d, n, w->comm)) {
            fail(w, "out of memory", iter, 0, 0);
            break;
        }
        for (int c = 0; c < NCOLL; c++)
            for (int f = BLOCKING; f < NFORMS; f++)
                if (f != WITH)
                    one(w, (enum rb_coll)c, (enum rb_form)f, &d, iter);
        rb_data_free(&d);
        if (iter % 4 == 3) {
            MPI_Comm copy;
            int x = rank + w->id, sum = -1;
            MPI_Comm_dup(w->comm, &copy);
            int rc = mpicoll_allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, copy);
            if (rc != MPI_SUCCESS || sum != size * (size - 1) / 2 + size * w->id)
                fail(w, "allreduce on a fresh duplicate: error, sum", iter, rc, sum);
            MPI_Comm_free(&copy);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        iterations = atoi(argv[1]);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("FAIL threads: the MPI library gives thread level %d, not "
                   "MPI_THREAD_MULTIPLE\n", provided);
        MPI_Finalize();
        return 1;
    }
    struct worker w[THREADS];
    pthread_t tid[THREADS];
    const int live0 = comm_state_live();
    for (int t = 0; t < THREADS; t++) {
        w[t] = (struct worker){ .id = t };
        MPI_Comm_dup(MPI_COMM_WORLD, &w[t].comm);
        MPI_Comm_set_errhandler(w[t].comm, MPI_ERRORS_RETURN);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_create(&tid[t], NULL, work, &w[t]);
    int failures = 0, calls = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(tid[t], NULL);
        if (w[t].failures)
            printf("FAIL threads: rank %d: %s\n", rank, w[t].first_failure);
        failures += w[t].failures;
        calls += w[t].calls;
    }
    const int live_threads = comm_state_live();
    for (int t = 0; t < THREADS; t++)
        MPI_Comm_free(&w[t].comm);
    if (live_threads != live0 + THREADS || comm_state_live() != live0) {
        printf("FAIL threads: rank %d: %d communicator states before, %d after the threads "
               "(expected %d), %d after freeing their communicators\n", rank, live0,
               live_threads, live0 + THREADS, comm_state_live());
        failures++;
    }
    int any, total;
    MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(&calls, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("threads: %d threads x %d communicators on %d ranks, %d iterations, %d checked "
               "collective calls: %s\n", THREADS, THREADS, size, iterations, total,
               any ? "failed" : "passed");
    MPI_Finalize();
    return any != 0;
}
