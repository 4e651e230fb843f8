/*
 * Every algorithm of each collective named, briefly: the program valgrind
 * runs (tests/robust/CMakeLists.txt, label valgrind), where a full matrix
 * would take too long.
 *
 *   test_sweep COLLECTIVE...
 *
 * Every algorithm of the table through mpicoll_<coll>_with, counts 0, 1,
 * 7 and 100 per block, not in place and in place; then the non-blocking
 * and persistent paths with the rules' choice; then a strided datatype
 * (packing, or typed copies to scratch) through the rules' choice. Every
 * result is checked.
 */
#include "robust.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures, calls;

static void one(enum rb_coll c, enum rb_form f, const char *alg, int n, int in_place)
{
    struct rb_data d;
    if (rb_data_init(&d, n, MPI_COMM_WORLD)) {
        printf("FAIL sweep: out of memory\n");
        failures++;
        return;
    }
    struct rb_args a = rb_prepare(c, &d, MPI_COMM_WORLD);
    a.algorithm = alg;
    if (!in_place || rb_in_place(c, &d, &a)) {
        int rc = rb_run(c, f, &a), at, got, want;
        calls++;
        if (rc != MPI_SUCCESS || (at = rb_check(c, &d, &got, &want)) >= 0) {
            failures++;
            if (rc != MPI_SUCCESS)
                printf("FAIL sweep: rank %d: %s %s %s n=%d in_place=%d: error %d\n", rank,
                       rb_names[c], rb_form_names[f], alg ? alg : "", n, in_place, rc);
            else
                printf("FAIL sweep: rank %d: %s %s %s n=%d in_place=%d: element %d is %d, "
                       "expected %d\n", rank, rb_names[c], rb_form_names[f], alg ? alg : "",
                       n, in_place, at, got, want);
        }
    }
    rb_data_free(&d);
}

/* Every second int of a buffer twice as long: MPI_INT data seen through
 * a vector type (extent 2 ints, resized), the other ints must stay. */
static void strided(enum rb_coll c, int n)
{
    struct rb_data d;
    MPI_Datatype vec, t;
    MPI_Type_vector(1, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 2 * sizeof(int), &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&vec);
    if (rb_data_init(&d, n, MPI_COMM_WORLD)) {
        failures++;
        MPI_Type_free(&t);
        return;
    }
    struct rb_args a = rb_prepare(c, &d, MPI_COMM_WORLD);
    const size_t total = (size_t)d.p * (size_t)n;
    int *sw = malloc(2 * total * sizeof(int)), *rw = malloc(2 * total * sizeof(int));
    for (size_t i = 0; sw && rw && i < 2 * total; i++) {
        sw[i] = i % 2 ? -7 : d.send[i / 2];
        rw[i] = i % 2 ? -9 : d.recv[i / 2];
    }
    a.sbuf = sw;
    a.rbuf = rw;
    a.stype = a.rtype = t;
    int rc = sw && rw ? rb_run(c, BLOCKING, &a) : MPI_ERR_NO_MEM, at, got, want;
    for (size_t i = 0; sw && rw && i < total; i++) {
        d.recv[i] = rw[2 * i];
        if (rw[2 * i + 1] != -9 || sw[2 * i + 1] != -7)
            rc = MPI_ERR_INTERN;    /* a gap was written */
    }
    calls++;
    if (rc != MPI_SUCCESS || (at = rb_check(c, &d, &got, &want)) >= 0) {
        failures++;
        printf("FAIL sweep: rank %d: %s strided n=%d: %s\n", rank, rb_names[c], n,
               rc == MPI_ERR_INTERN ? "a gap was written" : rc ? "error" : "wrong element");
    }
    free(sw);
    free(rw);
    rb_data_free(&d);
    MPI_Type_free(&t);
}

/* Every case of collective c; prints its line on rank 0. */
static void sweep(enum rb_coll c)
{
    static const int counts[] = { 0, 1, 7, 100 };
    const int failures0 = failures, calls0 = calls;
    const int nalg = mpicoll_algorithm_count(rb_names[c]);
    for (int i = 0; i < nalg; i++)
        for (int k = 0; k < 4; k++)
            for (int ip = 0; ip < 2; ip++)
                one(c, WITH, mpicoll_algorithm_name(rb_names[c], i), counts[k], ip);
    for (int f = NB; f <= PERSISTENT; f++)
        for (int k = 1; k < 4; k += 2)
            for (int ip = 0; ip < 2; ip++)
                one(c, (enum rb_form)f, NULL, counts[k], ip);
    strided(c, 7);
    int mine[2] = { failures - failures0, calls - calls0 }, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sweep %s: %d algorithms, %d checked calls on %d ranks: %s\n", rb_names[c], nalg,
               all[1], size, all[0] ? "failed" : "passed");
}

int main(int argc, char **argv)
{
    return rb_main_colls(argc, argv, "sweep", &rank, &size, sweep, &failures);
}
