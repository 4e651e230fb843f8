/*
 * A plain MPI program: persistent collective requests (MPI-4's
 * MPI_<Name>_init; Open MPI 4.1: MPIX_<Name>_init) mixed with persistent
 * point-to-point ones in one array, started by MPI_Startall and MPI_Start
 * and completed by every completion call in turn (MPI_Waitall,
 * MPI_Waitany, MPI_Waitsome, MPI_Testall, MPI_Testany, MPI_Testsome,
 * MPI_Test, MPI_Wait after MPI_Request_get_status); each stays allocated
 * and inactive after its completion and is restarted, the results checked
 * at every round. And the errors a collective request gives: MPI_Start of
 * an active one, MPI_Request_free of an active persistent one and
 * MPI_Cancel of a non-blocking one fail (with MPI_ERRORS_RETURN) and
 * leave it usable. Rank 0 prints "persistent: ok ..." or the program
 * fails with a message. The preload test runs it under the preload
 * library (tests/preload/CMakeLists.txt).
 *
 *   persistent [ROUNDS]    (default 200)
 */
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#if MPI_VERSION >= 4
#define INIT(Name) MPI_##Name##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define INIT(Name) MPIX_##Name##_init
#endif

static int rank, size;

static void fail(const char *what, int round)
{
    fprintf(stderr, "persistent: FAIL rank %d round %d: %s\n", rank, round, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

enum { N = 5, TURNS = 8 };

/* Completes the n active requests of q by the round's completion call. */
static void complete(MPI_Request *q, int n, int round)
{
    int done = 0, flag = 0, idx[N], out, i;
    MPI_Status st[N];
    switch (round % TURNS) {
    case 0:
        if (MPI_Waitall(n, q, st) != MPI_SUCCESS)
            fail("MPI_Waitall", round);
        return;
    case 1:
        for (; done < n; done++)
            if (MPI_Waitany(n, q, &i, &st[0]) != MPI_SUCCESS || i == MPI_UNDEFINED)
                fail("MPI_Waitany", round);
        /* every one inactive again: MPI_UNDEFINED */
        if (MPI_Waitany(n, q, &i, &st[0]) != MPI_SUCCESS || i != MPI_UNDEFINED)
            fail("MPI_Waitany of inactive requests", round);
        return;
    case 2:
        while (done < n) {
            if (MPI_Waitsome(n, q, &out, idx, st) != MPI_SUCCESS || out == MPI_UNDEFINED)
                fail("MPI_Waitsome", round);
            done += out;
        }
        return;
    case 3:
        while (!flag)
            if (MPI_Testall(n, q, &flag, st) != MPI_SUCCESS)
                fail("MPI_Testall", round);
        return;
    case 4:
        while (done < n) {
            if (MPI_Testany(n, q, &i, &flag, &st[0]) != MPI_SUCCESS)
                fail("MPI_Testany", round);
            done += flag && i != MPI_UNDEFINED;
        }
        return;
    case 5:
        while (done < n) {
            if (MPI_Testsome(n, q, &out, idx, st) != MPI_SUCCESS || out == MPI_UNDEFINED)
                fail("MPI_Testsome", round);
            done += out;
        }
        return;
    case 6:
        for (i = n - 1; i >= 0; i--)
            do {
                if (MPI_Test(&q[i], &flag, &st[0]) != MPI_SUCCESS)
                    fail("MPI_Test", round);
            } while (!flag);
        return;
    default:
        for (i = 0; i < n; i++) {
            do {
                if (MPI_Request_get_status(q[i], &flag, &st[0]) != MPI_SUCCESS)
                    fail("MPI_Request_get_status", round);
            } while (!flag);
            if (MPI_Wait(&q[i], &st[0]) != MPI_SUCCESS)
                fail("MPI_Wait after MPI_Request_get_status", round);
        }
        return;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int rounds = argc > 1 ? atoi(argv[1]) : 200;
#ifdef INIT
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int in = 0, sum = 0, b[4], all[64], got = -1, sent = 0;
    MPI_Request q[N];
    if (size > 64)
        fail("more than 64 ranks", 0);
    /* the collectives' requests interleaved with the point-to-point ones */
    if (INIT(Allreduce)(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]) ||
        MPI_Recv_init(&got, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &q[1]) ||
        INIT(Bcast)(b, 4, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]) ||
        MPI_Send_init(&sent, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &q[3]) ||
        INIT(Allgather)(&in, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &q[4]))
        fail("the persistent requests' init", 0);
    for (int round = 0; round < rounds; round++) {
        in = rank * round + 1;
        sent = round * size + rank;
        for (int k = 0; k < 4; k++)
            b[k] = rank == size - 1 ? round + k : -1;
        if (round % 2 == 0) {
            if (MPI_Startall(N, q) != MPI_SUCCESS)
                fail("MPI_Startall", round);
        } else {
            for (int i = N - 1; i >= 0; i--)
                if (MPI_Start(&q[i]) != MPI_SUCCESS)
                    fail("MPI_Start", round);
        }
        complete(q, N, round);
        for (int i = 0; i < N; i++)
            if (q[i] == MPI_REQUEST_NULL)
                fail("a completed persistent request is MPI_REQUEST_NULL", round);
        if (sum != round * size * (size - 1) / 2 + size)
            fail("the allreduce's sum", round);
        if (b[0] != round || b[3] != round + 3)
            fail("the bcast's data", round);
        for (int r = 0; r < size; r++)
            if (all[r] != r * round + 1)
                fail("the allgather's data", round);
        if (got != round * size + left)
            fail("the point-to-point message", round);
    }
    /* the errors, returned */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Request nb;
    if (MPI_Start(&q[0]) != MPI_SUCCESS)
        fail("MPI_Start", rounds);
    if (MPI_Start(&q[0]) == MPI_SUCCESS)
        fail("MPI_Start of an active persistent collective succeeded", rounds);
    if (MPI_Request_free(&q[0]) == MPI_SUCCESS || q[0] == MPI_REQUEST_NULL)
        fail("MPI_Request_free of an active persistent collective succeeded", rounds);
    if (MPI_Iallreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &nb) != MPI_SUCCESS)
        fail("MPI_Iallreduce", rounds);
    if (MPI_Cancel(&nb) == MPI_SUCCESS)
        fail("MPI_Cancel of a non-blocking collective succeeded", rounds);
    MPI_Request last[2] = { q[0], nb };
    MPI_Status st[2];       /* not MPI_STATUSES_IGNORE: gcc -O3 warns of MPICH's */
    if (MPI_Waitall(2, last, st) != MPI_SUCCESS || last[1] != MPI_REQUEST_NULL ||
        last[0] == MPI_REQUEST_NULL)
        fail("the requests after the errors", rounds);
    q[0] = last[0];
    for (int i = 0; i < N; i++)
        if (MPI_Request_free(&q[i]) != MPI_SUCCESS || q[i] != MPI_REQUEST_NULL)
            fail("MPI_Request_free", rounds);
    if (rank == 0)
        printf("persistent: ok, %d rounds of 3 persistent collectives and 2 persistent "
               "point-to-point requests started by MPI_Startall and MPI_Start, completed by "
               "every completion call; the errors of active collective requests\n", rounds);
#else
    (void)rounds;
    fail("this MPI has no persistent collectives", 0);
#endif
    MPI_Finalize();
    return 0;
}
