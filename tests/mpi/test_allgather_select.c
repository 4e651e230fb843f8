/*
 * test_allgather_select: the selection behaviour users rely on.
 *
 *   test_allgather_select fallback
 *       Run with MPICOLL_ALLGATHER=<spec> (recursive_doubling in the ctest
 *       tests) and MPICOLL_FALLBACK unset, warn, silent or error. On
 *       MPI_COMM_WORLD and on a communicator of 3 ranks when the world has
 *       4 or more: where the forced algorithm is not applicable, policy
 *       "error" must make mpicoll_allgather return an error of class
 *       MPI_ERR_UNSUPPORTED_OPERATION (errors return), any other policy must
 *       give correct data; where it is applicable, correct data.
 *
 *   test_allgather_select api
 *       Run with no MPICOLL_* variable. mpicoll_allgather_with() with named
 *       and numeric specs and bad specs, every algorithm of the table by its
 *       name, and the introspection functions of mpicoll.h.
 *
 * Each failure prints one line; rank 0 prints a summary; exit code 1 if any
 * rank failed a check.
 */
#include "block_check.h"

#include <mpicoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nchecks, nfailed;

static void check(int ok, const char *what, const char *detail)
{
    nchecks++;
    if (!ok) {
        nfailed++;
        printf("FAIL allgather_select: np=%d rank=%d: %s%s%s\n", bc_world_size(),
               bc_world_rank(), what, detail ? ": " : "", detail ? detail : "");
        fflush(stdout);
    }
}

/* One checked call on comm; counts as one check. */
static void run(const char *spec, const char *label, MPI_Comm comm, const char *comm_label,
                const struct bc_dtcase *dc, int n, int inplace, int expect_class)
{
    struct bc_call call = {
        .coll = BC_ALLGATHER, .spec = spec, .algo_label = label,
        .comm = comm, .comm_label = comm_label, .dc = dc, .n = n, .inplace = inplace, .expect_class = expect_class,
    };
    nchecks++;
    nfailed += bc_run(&call);
}

static int is_pow2(int p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

static void mode_fallback(void)
{
    const char *forced = getenv("MPICOLL_ALLGATHER");
    const char *policy = getenv("MPICOLL_FALLBACK");
    int strict = policy && strcmp(policy, "error") == 0;
    int np = bc_world_size(), rank = bc_world_rank();
    MPI_Comm comms[2] = { MPI_COMM_WORLD, MPI_COMM_NULL };
    const char *labels[2] = { "world", rank < 3 ? "first3" : "rest" };
    char label[128];

    if (!forced || !*forced) {
        check(0, "fallback mode needs MPICOLL_ALLGATHER set", NULL);
        return;
    }
    snprintf(label, sizeof label, "%s fallback=%s", forced, policy ? policy : "(unset)");
    /* A non-power-of-two communicator inside a power-of-two world: the check
     * must be on the communicator, not on MPI_COMM_WORLD. */
    if (np >= 4) {
        MPI_Comm_split(MPI_COMM_WORLD, rank < 3 ? 0 : 1, rank, &comms[1]);
        MPI_Comm_set_errhandler(comms[1], MPI_ERRORS_RETURN);
    }
    for (int ci = 0; ci < 2; ci++) {
        int size, app;
        char detail[160];
        if (comms[ci] == MPI_COMM_NULL)
            continue;
        MPI_Comm_size(comms[ci], &size);
        app = mpicoll_algorithm_applicable("allgather", forced, size);
        snprintf(detail, sizeof detail, "applicable(\"%s\", %d) = %d", forced, size, app);
        check(app == 0 || app == 1, "forced spec is not valid", detail);
        if (strcmp(forced, "recursive_doubling") == 0)
            check(app == is_pow2(size), "recursive_doubling applicable iff p is a power of two",
                  detail);
        for (int d = 0; d < bc_ncases; d++)
            for (int inplace = 0; inplace < 2; inplace++) {
                int expect = app == 0 && strict ? MPI_ERR_UNSUPPORTED_OPERATION : MPI_SUCCESS;
                run(NULL, label, comms[ci], labels[ci], &bc_cases[d], 7, inplace, expect);
            }
    }
    if (comms[1] != MPI_COMM_NULL)
        MPI_Comm_free(&comms[1]);
}

static void check_introspection(void)
{
    int n = mpicoll_algorithm_count("allgather");
    char detail[256], buf[128];
    const size_t sizes[] = { 0, 1, 1000, 100003, (size_t)1 << 24 };

    snprintf(detail, sizeof detail, "mpicoll_algorithm_count(\"allgather\") = %d", n);
    check(n > 0, "no allgather algorithm", detail);
    check(mpicoll_algorithm_count("bogus") == -1, "algorithm_count(\"bogus\") != -1", NULL);
    for (int i = 0; i < n; i++) {
        const char *name = mpicoll_algorithm_name("allgather", i);
        snprintf(detail, sizeof detail, "algorithm_name(\"allgather\", %d)", i);
        check(name != NULL, "NULL algorithm name", detail);
        if (!name)
            continue;
        for (int j = 0; j < i; j++) {
            const char *other = mpicoll_algorithm_name("allgather", j);
            snprintf(detail, sizeof detail, "\"%s\" at %d and %d", name, j, i);
            check(!other || strcmp(other, name) != 0, "duplicate algorithm name", detail);
        }
        snprintf(detail, sizeof detail, "applicable(\"%s\", 4) = %d", name,
                 mpicoll_algorithm_applicable("allgather", name, 4));
        check(mpicoll_algorithm_applicable("allgather", name, 4) >= 0,
              "a table name is not a valid spec", detail);
    }
    check(mpicoll_algorithm_name("allgather", n) == NULL, "algorithm_name(count) != NULL", NULL);
    check(mpicoll_algorithm_name("allgather", -1) == NULL, "algorithm_name(-1) != NULL", NULL);
    check(mpicoll_algorithm_name("bogus", 0) == NULL, "algorithm_name(\"bogus\", 0) != NULL",
          NULL);

    check(mpicoll_algorithm_applicable("allgather", "recursive_doubling", 6) == 0,
          "applicable(\"recursive_doubling\", 6) != 0", NULL);
    check(mpicoll_algorithm_applicable("allgather", "recursive_doubling", 8) == 1,
          "applicable(\"recursive_doubling\", 8) != 1", NULL);
    check(mpicoll_algorithm_applicable("allgather", "bogus", 4) == -1,
          "applicable(\"bogus\", 4) != -1", NULL);
    check(mpicoll_algorithm_applicable("allgather", "ring", 7) == 1,
          "applicable(\"ring\", 7) != 1", NULL);
    check(mpicoll_algorithm_applicable("allgather", "4", 7) == 1,
          "applicable(\"4\", 7) != 1 (Open MPI id 4 is ring)", NULL);
    check(mpicoll_algorithm_applicable("allgather", "k_bruck:k=1", 4) == -1,
          "applicable(\"k_bruck:k=1\", 4) != -1", NULL);

    /* 2 ranks of one node (the built-in rules): shm, with its single copy
     * from 16 KiB blocks */
    for (size_t s = 0; s <= sizeof sizes / sizeof sizes[0]; s++) {
        size_t bytes = s < sizeof sizes / sizeof sizes[0] ? sizes[s] : 1 << 20;
        const char *cma = bytes >= 16384 ? "cma=1," : "cma=0,";
        int rc = mpicoll_auto_choice("allgather", 2, bytes, buf, sizeof buf);
        size_t len = strcspn(buf, ":");
        snprintf(detail, sizeof detail, "auto_choice(p=2, bytes=%zu) = %d, \"%s\", not shm (%s)",
                 bytes, rc, rc == 0 ? buf : "", cma);
        check(rc == 0 && len == 3 && strncmp(buf, "shm", 3) == 0 && strstr(buf, cma),
              "the automatic choice for 2 ranks", detail);
    }
    /* What the automatic selection runs must run as itself. */
    for (int p = 1; p <= 16; p++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int rc = mpicoll_auto_choice("allgather", p, sizes[s], buf, sizeof buf);
            int app = rc == 0 ? mpicoll_algorithm_applicable("allgather", buf, p) : -2;
            snprintf(detail, sizeof detail, "auto_choice(p=%d, bytes=%zu) = %d, \"%s\";"
                     " applicable = %d", p, sizes[s], rc, rc == 0 ? buf : "", app);
            check(rc == 0 && app == 1, "automatic choice failed or not applicable", detail);
        }
    check(mpicoll_auto_choice("bogus", 4, 8, buf, sizeof buf) == -1,
          "auto_choice(\"bogus\") != -1", NULL);
    check(mpicoll_auto_choice("allgather", 4, 8, NULL, 0) == -1,
          "auto_choice(buf = NULL) != -1", NULL);
}

static void mode_api(void)
{
    /* Valid specs, each on every datatype case, count and placement. */
    const char *good[] = { "k_bruck:k=3", "4", "ring", "auto", NULL };
    /* Bad specs: an unknown name, a bad parameter value, an unknown
     * parameter, an id that Open MPI does not have. */
    const char *bad[] = { "no_such_algo", "k_bruck:k=1", "ring:no_such_param=3", "99" };
    MPI_Comm comms[2] = { MPI_COMM_WORLD, bc_split_comm() };
    const char *labels[2] = { "world", "split" };
    int n = mpicoll_algorithm_count("allgather");

    check_introspection();

    for (size_t g = 0; g < sizeof good / sizeof good[0]; g++)
        for (int ci = 0; ci < 2; ci++)
            for (int d = 0; d < bc_ncases; d++)
                for (int k = 0; k < bc_ncounts; k++)
                    for (int inplace = 0; inplace < 2; inplace++)
                        run(good[g], good[g] ? good[g] : "NULL",
                            comms[ci], labels[ci], &bc_cases[d],
                            bc_count_for(&bc_cases[d], bc_counts[k]), inplace, MPI_SUCCESS);

    /* Every algorithm of the table is reachable by its name (applicable or
     * through its fallback, the default policy being warn). */
    for (int i = 0; i < n; i++) {
        const char *name = mpicoll_algorithm_name("allgather", i);
        if (!name)
            continue;
        for (int ci = 0; ci < 2; ci++)
            for (int inplace = 0; inplace < 2; inplace++) {
                run(name, name, comms[ci], labels[ci], &bc_cases[0], 7, inplace, MPI_SUCCESS);
                run(name, name, comms[ci], labels[ci], &bc_cases[2], 1000, inplace,
                    MPI_SUCCESS);
            }
    }

    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++)
        for (int ci = 0; ci < 2; ci++)
            run(bad[b], bad[b], comms[ci], labels[ci], &bc_cases[0], 7, 0, MPI_ERR_ARG);

    MPI_Comm_free(&comms[1]);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int total[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check(bc_types_create() == 0, "test setup: datatypes", NULL);
    if (strcmp(mode, "fallback") == 0)
        mode_fallback();
    else if (strcmp(mode, "api") == 0)
        mode_api();
    else
        check(0, "usage: test_allgather_select fallback|api", NULL);
    bc_types_free();

    /* The verdict goes through the native MPI, not the library under test. */
    total[0] = nchecks;
    total[1] = nfailed;
    MPI_Allreduce(MPI_IN_PLACE, total, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (bc_world_rank() == 0)
        printf("test_allgather_select: mode=%s np=%d checks=%d failures=%d (summed over ranks)\n",
               mode, bc_world_size(), total[0], total[1]);
    MPI_Finalize();
    return total[1] ? 1 : 0;
}
