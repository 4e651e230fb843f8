/*
 * test_allgather: correctness of mpicoll_allgather over
 *   datatype cases (MPI_INT, MPI_BYTE, a vector type with gaps, and three
 *   pairs of different send/receive types of one signature)
 *   x counts {0, 1, 7, 1000, 100003 bytes' worth} x {not in place, in place}
 *   x {MPI_COMM_WORLD, a split communicator in reverse rank order}.
 *
 * The program does not choose the algorithm: run it with
 * MPICOLL_ALLGATHER=<name> to force one, as a user would, or without to
 * test the automatic selection. Each failure prints one line; rank 0 prints
 * a summary; the exit code is 1 if any rank failed any case.
 */
#include "allgather_check.h"

#include <mpicoll.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const char *forced = getenv("MPICOLL_ALLGATHER");
    const char *algo = forced && *forced ? forced : "auto";
    int rank, np, ncases = 2 * ag_ncases * ag_ncounts * 2, idx = 0, nfailed = 0;
    int *failed = calloc((size_t)ncases, sizeof *failed);
    MPI_Comm comms[2];
    const char *comm_labels[2] = { "world", "split" };

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rank = ag_world_rank();
    np = ag_world_size();
    if (!failed) {
        printf("FAIL allgather: test setup: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (ag_types_create() != 0)
        failed[0] = 1;
    comms[0] = MPI_COMM_WORLD;
    comms[1] = ag_split_comm();

    for (int ci = 0; ci < 2; ci++)
        for (int d = 0; d < ag_ncases; d++)
            for (int k = 0; k < ag_ncounts; k++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    struct ag_call call = {
                        .spec = NULL, .algo_label = algo,
                        .comm = comms[ci], .comm_label = comm_labels[ci],
                        .dc = &ag_cases[d], .n = ag_count_for(&ag_cases[d], ag_counts[k]),
                        .inplace = inplace, .expect_class = MPI_SUCCESS,
                    };
                    failed[idx++] |= ag_run(&call);
                }

    /* The verdict goes through the native MPI, not the library under test. */
    MPI_Allreduce(MPI_IN_PLACE, failed, ncases, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    for (int i = 0; i < ncases; i++)
        nfailed += failed[i] != 0;
    if (rank == 0) {
        int app = forced && *forced ? mpicoll_algorithm_applicable("allgather", forced, np) : 1;
        printf("test_allgather: algorithm=%s%s np=%d cases=%d failures=%d\n", algo,
               app == 1 ? "" : app == 0 ? " (not applicable at this np: its fallback ran)"
               : " (not a valid spec)", np, ncases, nfailed);
    }
    MPI_Comm_free(&comms[1]);
    ag_types_free();
    free(failed);
    MPI_Finalize();
    return nfailed ? 1 : 0;
}
