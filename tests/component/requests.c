/*
 * A plain MPI program (no mpicoll header or library): collective requests
 * mixed with point-to-point ones in the completion calls a program uses,
 * MPI_Cancel of a collective request refused, and a persistent collective
 * restarted. Run through the Open MPI
 * component (tests/component), where the collectives' requests are
 * mpicoll's.
 *
 *   requests [ITERATIONS [STARTS [unchecked]]]     (defaults 10000, 1000)
 *
 * Each iteration posts a receive from the left neighbour, a send to the
 * right one, an MPI_Iallreduce, an MPI_Ibcast and an MPI_Ibarrier, and
 * completes the five in one call of the iteration's turn: MPI_Waitall,
 * MPI_Waitany until all are done, MPI_Testsome in a loop, MPI_Test on
 * each in a polling loop, MPI_Testall in a loop. Then a persistent
 * allreduce (MPI-4's MPI_Allreduce_init; Open MPI 4.1: MPIX_Allreduce_init)
 * is started STARTS times, and after its first start the process must
 * allocate (malloc, calloc and realloc are counted here) fewer than once
 * in 100 starts: a start of mpicoll's allocates nothing, but Open MPI's
 * PML may buffer a message that arrives out of order (at 8 ranks on 2
 * cores, about one run in three: one allocation in
 * mca_pml_ob1_recv_frag_callback_match), unless
 * the last argument is "unchecked": under the preload library
 * (tests/preload) each start is a generalized request, which the MPI
 * library allocates. Every result is checked; rank 0 prints one line,
 * "requests: ok ...", or the program fails with a message.
 */
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- counting the allocations of the whole process -------------------- */

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
static volatile long allocations;

void *malloc(size_t n)
{
    allocations++;
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    allocations++;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    allocations++;
    return __libc_realloc(p, n);
}

/* ---------------------------------------------------------------------- */

static int rank, size;

static void fail(const char *what, int it)
{
    fprintf(stderr, "requests: FAIL rank %d iteration %d: %s\n", rank, it, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

enum { NREQ = 5, TURNS = 5 };

/* Completes the n requests in q in the iteration's turn of completion call. */
static void complete(MPI_Request *q, int n, int it)
{
    int done = 0, flag, idx[NREQ], outcount;
    MPI_Status st[NREQ];    /* not MPI_STATUSES_IGNORE: gcc -O3 warns of MPICH's */
    switch (it % TURNS) {
    case 0:
        if (MPI_Waitall(n, q, st) != MPI_SUCCESS)
            fail("MPI_Waitall", it);
        return;
    case 1:
        while (done < n) {
            int i;
            if (MPI_Waitany(n, q, &i, MPI_STATUS_IGNORE) != MPI_SUCCESS || i == MPI_UNDEFINED)
                fail("MPI_Waitany", it);
            done++;
        }
        return;
    case 2:
        while (done < n) {
            if (MPI_Testsome(n, q, &outcount, idx, st) != MPI_SUCCESS ||
                outcount == MPI_UNDEFINED)
                fail("MPI_Testsome", it);
            done += outcount;
        }
        return;
    case 3:
        for (int i = 0; i < n; i++)
            do {
                if (MPI_Test(&q[i], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                    fail("MPI_Test", it);
            } while (!flag);
        return;
    default:
        do {
            if (MPI_Testall(n, q, &flag, st) != MPI_SUCCESS)
                fail("MPI_Testall", it);
        } while (!flag);
        return;
    }
}

static void mixed(int iterations)
{
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    for (int it = 0; it < iterations; it++) {
        MPI_Request q[NREQ];
        int got = -1, sent = it * size + rank, mine = rank + it, sum = 0, b[3];
        const int root = it % size;
        for (int k = 0; k < 3; k++)
            b[k] = rank == root ? it + k : -1;
        MPI_Irecv(&got, 1, MPI_INT, left, it % 32768, MPI_COMM_WORLD, &q[0]);
        MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[1]);
        MPI_Isend(&sent, 1, MPI_INT, right, it % 32768, MPI_COMM_WORLD, &q[2]);
        MPI_Ibcast(b, 3, MPI_INT, root, MPI_COMM_WORLD, &q[3]);
        MPI_Ibarrier(MPI_COMM_WORLD, &q[4]);
        complete(q, NREQ, it);
        for (int i = 0; i < NREQ; i++)
            if (q[i] != MPI_REQUEST_NULL)
                fail("a completed request is not MPI_REQUEST_NULL", it);
        if (got != it * size + left)
            fail("the point-to-point message", it);
        if (sum != size * (size - 1) / 2 + size * it)
            fail("MPI_Iallreduce's sum", it);
        if (b[0] != it || b[1] != it + 1 || b[2] != it + 2)
            fail("MPI_Ibcast's data", it);
    }
}

#if MPI_VERSION >= 4
#define ALLREDUCE_INIT MPI_Allreduce_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define ALLREDUCE_INIT MPIX_Allreduce_init
#endif

/* MPI_Cancel of a non-blocking collective fails (MPI: erroneous; Open
 * MPI's coll/libnbc and MPICH fail it) and leaves the request to complete
 * normally: the same call again and again, after a blocking one (on one
 * node, mpicoll's requests then take its shared memory), rank 0 late, so
 * that calls their start completed (returned complete) are among them. */
static void cancel(int times)
{
    int in = rank, out = -1;
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int k = 0; k < times; k++) {
        int cancelled = 1;
        in = rank + k;
        out = -1;
        for (double t0 = MPI_Wtime(); rank == 0 && MPI_Wtime() - t0 < 1e-3;)
            ;   /* rank 0 late: 1 ms */
        MPI_Request q;
        MPI_Status st;
        if (MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q) != MPI_SUCCESS)
            fail("MPI_Iallreduce before MPI_Cancel", k);
        if (MPI_Cancel(&q) == MPI_SUCCESS)
            fail("MPI_Cancel of a non-blocking collective succeeded", k);
        if (MPI_Wait(&q, &st) != MPI_SUCCESS || q != MPI_REQUEST_NULL)
            fail("MPI_Wait after a failed MPI_Cancel", k);
        MPI_Test_cancelled(&st, &cancelled);
        if (cancelled || out != size * (size - 1) / 2 + size * k)
            fail("the allreduce after a failed MPI_Cancel", k);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Allocations after the persistent request's first start (its first
 * completion included), over `starts` starts. */
static long persistent(int starts)
{
#ifdef ALLREDUCE_INIT
    int in = 0, out = 0;
    long before = 0;
    MPI_Request q;
    if (ALLREDUCE_INIT(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q) !=
        MPI_SUCCESS)
        fail("the persistent allreduce's init", 0);
    for (int s = 0; s < starts; s++) {
        in = rank * s;
        if (MPI_Start(&q) != MPI_SUCCESS || MPI_Wait(&q, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            fail("MPI_Start and MPI_Wait of the persistent allreduce", s);
        if (out != s * size * (size - 1) / 2)
            fail("the persistent allreduce's sum", s);
        if (s == 0)
            before = allocations;
    }
    long after = allocations;
    MPI_Request_free(&q);
    return after - before;
#else
    (void)starts;
    fail("this MPI has no persistent collectives", 0);
    return 0;
#endif
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int iterations = argc > 1 ? atoi(argv[1]) : 10000;
    const int starts = argc > 2 ? atoi(argv[2]) : 1000;
    const int counted = !(argc > 3 && strcmp(argv[3], "unchecked") == 0);
    if (iterations < 0 || starts < 1)
        fail("usage: requests [ITERATIONS [STARTS [unchecked]]]", 0);
    /* a blocking collective first, as a program's set-up makes one: a
     * non-blocking call is local, and makes no state of mpicoll's, so a
     * communicator's non-blocking calls before its first blocking one are
     * the MPI library's */
    int one = 1, all = 0;
    MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (all != size)
        fail("the first MPI_Allreduce", 0);
    mixed(iterations);
    cancel(50);
    long allocs = persistent(starts), most;
    MPI_Reduce(&allocs, &most, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (!counted)
        most = 0;
    if (rank == 0) {
        if (most * 100 >= starts - 1)
            printf("requests: FAIL a persistent allreduce restarted %d times allocated %ld "
                   "times on some rank\n", starts - 1, most);
        else
            printf("requests: ok, %d iterations of point-to-point and collective requests "
                   "completed by MPI_Waitall, MPI_Waitany, MPI_Testsome, MPI_Test and "
                   "MPI_Testall; MPI_Cancel of a collective refused; a persistent allreduce "
                   "restarted %d times %s\n", iterations,
                   starts - 1, !counted ? "(allocations not counted)"
                               : most ? "allocating less than once in 100 starts"
                                      : "allocated nothing");
    }
    MPI_Finalize();
    return most != 0 && rank == 0;
}
