/*
 * A plain MPI program (no mpicoll header or library) whose first
 * collective is a communicator's constructor, and whose first call on the
 * new communicator is non-blocking and local, as MPI allows:
 *
 * - MPI_Comm_dup(MPI_COMM_WORLD) right after MPI_Init. Open MPI agrees on
 *   the new context id with MPI_Iallreduce calls on MPI_COMM_WORLD from
 *   inside its own progress, and those reach the component: mpicoll must
 *   hand them to the library without making anything of its own there
 *   (its keys' duplicate of MPI_COMM_SELF waited forever for the agreement
 *   it was inside of).
 * - On the duplicate, rank 0 calls MPI_Ibcast and then sends to rank 1,
 *   which receives before it calls MPI_Ibcast: a non-blocking call must
 *   return without waiting for the other ranks (mpicoll's state of a
 *   communicator, made collectively, was made inside it).
 * - Then every rank's blocking MPI_Allreduce and MPI_Bcast on it, an
 *   MPI_Comm_split and an MPI_Iallreduce on the split.
 * - Then the collectives Open MPI makes inside its own calls: a shared
 *   window (MPI_Win_allocate_shared, fences) and a collective file write
 *   and read (ompio's collectives on datatypes of its own, which
 *   MPI_Type_get_envelope cannot describe: mpicoll must leave them to the
 *   library).
 *
 * Every result is checked; rank 0 prints "firstcalls: ok" or the program
 * aborts with a message. The test's timeout catches a hang.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int rank, size;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL firstcalls: rank %d: %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup, half;
    check(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS, "MPI_Comm_dup");

    int b[4] = { -1, -1, -1, -1 }, token = 0;
    if (rank == 0)
        for (int k = 0; k < 4; k++)
            b[k] = 10 + k;
    MPI_Request q;
    if (rank == 0) {
        MPI_Ibcast(b, 4, MPI_INT, 0, dup, &q);
        if (size > 1)
            MPI_Send(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else {
        if (rank == 1)
            MPI_Recv(&token, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibcast(b, 4, MPI_INT, 0, dup, &q);
    }
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    for (int k = 0; k < 4; k++)
        check(b[k] == 10 + k, "MPI_Ibcast's data");

    int in = rank + 1, sum = 0;
    MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, dup);
    check(sum == size * (size + 1) / 2, "MPI_Allreduce's sum");
    for (int k = 0; k < 4; k++)
        b[k] = rank == size - 1 ? 20 + k : -1;
    MPI_Bcast(b, 4, MPI_INT, size - 1, dup);
    for (int k = 0; k < 4; k++)
        check(b[k] == 20 + k, "MPI_Bcast's data");

    check(MPI_Comm_split(dup, rank % 2, rank, &half) == MPI_SUCCESS, "MPI_Comm_split");
    int hsize, most = -1;
    MPI_Comm_size(half, &hsize);
    MPI_Iallreduce(&rank, &most, 1, MPI_INT, MPI_MAX, half, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    check(most == rank % 2 + 2 * (hsize - 1), "MPI_Iallreduce's maximum on the split");

    MPI_Win shared;
    int *mine, *theirs, disp;
    MPI_Aint bytes;
    check(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, dup, &mine, &shared) ==
              MPI_SUCCESS, "MPI_Win_allocate_shared");
    MPI_Win_fence(0, shared);
    *mine = 30 + rank;
    MPI_Win_fence(0, shared);
    MPI_Win_shared_query(shared, (rank + 1) % size, &bytes, &disp, &theirs);
    check(*theirs == 30 + (rank + 1) % size, "the next rank's value in the shared window");
    MPI_Win_fence(MPI_MODE_NOSUCCEED, shared);
    MPI_Win_free(&shared);

    char name[64];
    if (rank == 0)
        snprintf(name, sizeof name, "/tmp/mpicoll-firstcalls-%ld.dat", (long)getpid());
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, dup);
    MPI_File f;
    int back[2] = { -1, -1 };
    check(MPI_File_open(dup, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &f) == MPI_SUCCESS, "MPI_File_open");
    int mine2[2] = { rank, 100 + rank };
    check(MPI_File_write_at_all(f, (MPI_Offset)(2 * rank * sizeof(int)), mine2, 2, MPI_INT,
                                MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_File_write_at_all");
    MPI_File_sync(f);
    MPI_Barrier(dup);
    const int next = (rank + 1) % size;
    check(MPI_File_read_at_all(f, (MPI_Offset)(2 * next * sizeof(int)), back, 2, MPI_INT,
                               MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_File_read_at_all");
    check(back[0] == next && back[1] == 100 + next, "the file's data");
    MPI_File_close(&f);

    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    if (rank == 0)
        printf("firstcalls: ok\n");
    MPI_Finalize();
    return 0;
}
