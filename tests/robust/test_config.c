/*
 * Bad settings in the environment and in rules files: the behaviour
 * docs/selection.md defines, with the message it promises.
 *
 *   test_config COLLECTIVE EXPECT [TEXT]
 *
 * runs one call of COLLECTIVE (allgather, alltoall, allreduce or bcast, 3
 * ints per rank, MPI_ERRORS_RETURN) under the environment ctest gives it, and
 * requires the error class EXPECT ("ok" for MPI_SUCCESS, "arg" for
 * MPI_ERR_ARG, "unsupported" for MPI_ERR_UNSUPPORTED_OPERATION), right
 * results when it succeeds, and TEXT in what rank 0 prints on stderr
 * during the call (the message naming the variable, or the file and
 * line). Then a second call of the same collective must behave the same
 * (a setting is read once, and keeps failing: never a silent default).
 */
#include <mpicoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static int call(const char *coll, int *send, int *recv)
{
    if (!strcmp(coll, "allgather"))
        return mpicoll_allgather(send, 3, MPI_INT, recv, 3, MPI_INT, MPI_COMM_WORLD);
    if (!strcmp(coll, "alltoall"))
        return mpicoll_alltoall(send, 3, MPI_INT, recv, 3, MPI_INT, MPI_COMM_WORLD);
    if (!strcmp(coll, "bcast")) {   /* rank 0's send data */
        if (rank == 0)
            memcpy(recv, send, 3 * sizeof *recv);
        return mpicoll_bcast(recv, 3, MPI_INT, 0, MPI_COMM_WORLD);
    }
    return mpicoll_allreduce(send, recv, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

static int right(const char *coll, const int *recv)
{
    int n = strcmp(coll, "allreduce") && strcmp(coll, "bcast") ? 3 * size : 3;
    for (int i = 0; i < n; i++) {
        int want = !strcmp(coll, "allgather") ? (i / 3) * 100 + i % 3
                 : !strcmp(coll, "alltoall") ? (i / 3) * 100 + 3 * rank + i % 3
                 : !strcmp(coll, "bcast") ? i
                 : 100 * (size * (size - 1) / 2) + size * i;
        if (recv[i] != want)
            return 0;
    }
    return 1;
}

/* One call with rank 0's stderr captured into `out`. */
static int captured_call(const char *coll, int *send, int *recv, char *out, size_t len)
{
    FILE *tmp = rank == 0 ? tmpfile() : NULL;
    int saved = -1;
    if (tmp) {
        fflush(stderr);
        saved = dup(2);
        dup2(fileno(tmp), 2);
    }
    int rc = call(coll, send, recv);
    out[0] = '\0';
    if (tmp) {
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        rewind(tmp);
        size_t n = fread(out, 1, len - 1, tmp);
        out[n] = '\0';
        fclose(tmp);
    }
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int failures = 0;
    if (argc < 3) {
        if (rank == 0)
            printf("FAIL config: usage: test_config COLLECTIVE ok|arg|unsupported [TEXT]\n");
        MPI_Finalize();
        return 2;
    }
    const char *coll = argv[1], *text = argc > 3 ? argv[3] : NULL;
    const int want = !strcmp(argv[2], "ok") ? MPI_SUCCESS
                   : !strcmp(argv[2], "arg") ? MPI_ERR_ARG : MPI_ERR_UNSUPPORTED_OPERATION;
    int *send = malloc(3 * (size_t)size * sizeof *send);
    int *recv = malloc(3 * (size_t)size * sizeof *recv);
    static char out[1 << 16];   /* the verbose log lists every built-in rule */
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 3 * size; i++) {
            send[i] = rank * 100 + i;
            recv[i] = -1;
        }
        int rc = captured_call(coll, send, recv, out, sizeof out), cls = MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        if (cls != want) {
            printf("FAIL config: rank %d: call %d of %s: error class %d, expected %d\n", rank,
                   round + 1, coll, cls, want);
            failures++;
        } else if (want == MPI_SUCCESS && !right(coll, recv)) {
            printf("FAIL config: rank %d: call %d of %s: wrong results\n", rank, round + 1,
                   coll);
            failures++;
        }
        /* the message comes once: with the first call */
        if (rank == 0 && round == 0 && text && !strstr(out, text)) {
            printf("FAIL config: rank 0 printed no \"%s\" during the call; it printed:\n%s\n",
                   text, out);
            failures++;
        }
        if (rank == 0 && round == 0)
            fputs(out, stdout);
    }
    int any;
    MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("config %s: expected %s, %s\n", coll, argv[2], any ? "failed" : "passed");
    free(send);
    free(recv);
    MPI_Finalize();
    return any != 0;
}
