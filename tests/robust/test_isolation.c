/*
 * Message isolation: the application's point-to-point traffic and
 * mpicoll's never match each other.
 *
 *   test_isolation COLLECTIVE...
 *
 * Before any collective, every rank posts a receive from MPI_ANY_SOURCE
 * with MPI_ANY_TAG on MPI_COMM_WORLD, and sends its right neighbour four
 * messages (tags 0 to 3, the tags mpicoll's first collectives use on its
 * own communicator) on a duplicate `other` that nobody receives yet. Then
 * every algorithm of COLLECTIVE runs (mpicoll_<coll>_with) on both
 * communicators, and the non-blocking and persistent forms with a
 * request outstanding while the application sends and receives on a third
 * communicator. Each result is checked. After a barrier (no collective
 * message is in flight any more), the receive posted first must still be
 * pending; after a second barrier (every rank has looked), it must take
 * the message the left neighbour sends it, and the four early messages
 * must arrive intact, in order. Each collective named, in turn.
 */
#include "robust.h"

#include <stdio.h>
#include <string.h>

static int rank, size, failures;

#define FAIL(...)                                                                         \
    do {                                                                                  \
        failures++;                                                                       \
        if (failures < 20) {                                                              \
            printf("FAIL isolation: rank %d: ", rank);                                    \
            printf(__VA_ARGS__);                                                          \
            printf("\n");                                                                 \
        }                                                                                 \
    } while (0)

enum { N = 5, EARLY = 4, LATE_TAG = 42 };

static void checked(enum rb_coll c, enum rb_form f, const char *alg, MPI_Comm comm,
                    struct rb_data *d, const char *where)
{
    struct rb_args a = rb_prepare(c, d, comm);
    a.algorithm = alg;
    int rc = rb_run(c, f, &a), at, got, want;
    if (rc != MPI_SUCCESS)
        FAIL("%s %s %s on %s: error %d", rb_names[c], rb_form_names[f], alg ? alg : "", where,
             rc);
    else if ((at = rb_check(c, d, &got, &want)) >= 0)
        FAIL("%s %s %s on %s: element %d is %d, expected %d", rb_names[c], rb_form_names[f],
             alg ? alg : "", where, at, got, want);
}

/* A request outstanding while the application exchanges messages (with
 * MPI_ANY_TAG receives) on `side`. */
static void overlapped(enum rb_coll c, enum rb_form f, MPI_Comm comm, MPI_Comm side,
                       struct rb_data *d)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    struct rb_args a = rb_prepare(c, d, comm);
    mpicoll_request r = MPICOLL_REQUEST_NULL;
    int rc = rb_start(c, f, &a, &r), flag = 0, in[2] = { -1, -1 }, out[2] = { rank, 7 }, at,
        got, want;
    if (rc == MPI_SUCCESS && f == PERSISTENT)
        rc = mpicoll_start(&r);
    if (rc == MPI_SUCCESS)
        rc = mpicoll_test(&r, &flag);
    MPI_Status st;
    MPI_Sendrecv(out, 2, MPI_INT, right, 9, in, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, side,
                 &st);
    if (in[0] != left || in[1] != 7 || st.MPI_TAG != 9 || st.MPI_SOURCE != left)
        FAIL("%s %s: the application's message during the collective: from %d tag %d "
             "holding (%d, %d), expected from %d tag 9 holding (%d, 7)", rb_names[c],
             rb_form_names[f], st.MPI_SOURCE, st.MPI_TAG, in[0], in[1], left, left);
    if (rc == MPI_SUCCESS)
        rc = mpicoll_wait(&r);
    if (rc == MPI_SUCCESS && f == PERSISTENT)
        rc = mpicoll_request_free(&r);
    if (rc != MPI_SUCCESS)
        FAIL("%s %s with messages alongside: error %d", rb_names[c], rb_form_names[f], rc);
    else if ((at = rb_check(c, d, &got, &want)) >= 0)
        FAIL("%s %s with messages alongside: element %d is %d, expected %d", rb_names[c],
             rb_form_names[f], at, got, want);
}

/* The test of collective c; prints its line on rank 0. */
static void isolation(enum rb_coll c)
{
    const int failures0 = failures;
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Comm other, side;
    MPI_Comm_dup(MPI_COMM_WORLD, &other);
    MPI_Comm_dup(MPI_COMM_WORLD, &side);

    /* the application's traffic, posted before any collective */
    int pre_buf[2] = { -1, -1 }, early_out[EARLY][2];
    MPI_Request pre, early[EARLY];
    MPI_Irecv(pre_buf, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pre);
    for (int t = 0; t < EARLY; t++) {
        early_out[t][0] = rank;
        early_out[t][1] = 1000 + t;
        MPI_Isend(early_out[t], 2, MPI_INT, right, t, other, &early[t]);
    }

    struct rb_data d;
    if (rb_data_init(&d, N, MPI_COMM_WORLD)) {
        printf("FAIL isolation: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const int nalg = mpicoll_algorithm_count(rb_names[c]);
    for (int i = 0; i < nalg; i++) {
        const char *alg = mpicoll_algorithm_name(rb_names[c], i);
        checked(c, WITH, alg, MPI_COMM_WORLD, &d, "MPI_COMM_WORLD");
        checked(c, WITH, alg, other, &d, "other");
    }
    for (int f = NB; f <= PERSISTENT; f++) {
        checked(c, (enum rb_form)f, NULL, MPI_COMM_WORLD, &d, "MPI_COMM_WORLD");
        overlapped(c, (enum rb_form)f, MPI_COMM_WORLD, side, &d);
        overlapped(c, (enum rb_form)f, other, side, &d);
    }
    rb_data_free(&d);

    /* no collective message is in flight after the barrier */
    MPI_Barrier(MPI_COMM_WORLD);
    int flag = 0;
    MPI_Status st;
    MPI_Test(&pre, &flag, &st);
    if (flag)
        FAIL("the MPI_ANY_SOURCE/MPI_ANY_TAG receive posted first took a message from %d, "
             "tag %d, holding (%d, %d), during the collectives", st.MPI_SOURCE, st.MPI_TAG,
             pre_buf[0], pre_buf[1]);
    /* every rank has looked before anyone sends the message it waits for */
    MPI_Barrier(MPI_COMM_WORLD);
    int late[2] = { rank, LATE_TAG };
    MPI_Send(late, 2, MPI_INT, right, LATE_TAG, MPI_COMM_WORLD);
    if (!flag) {
        MPI_Wait(&pre, &st);
        if (st.MPI_SOURCE != left || st.MPI_TAG != LATE_TAG || pre_buf[0] != left ||
            pre_buf[1] != LATE_TAG)
            FAIL("the receive posted first took from %d tag %d (%d, %d), expected the left "
                 "neighbour's message", st.MPI_SOURCE, st.MPI_TAG, pre_buf[0], pre_buf[1]);
    } else {
        MPI_Recv(pre_buf, 2, MPI_INT, left, LATE_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int t = 0; t < EARLY; t++) {
        int in[2] = { -1, -1 };
        MPI_Recv(in, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, other, &st);
        if (st.MPI_SOURCE != left || st.MPI_TAG != t || in[0] != left || in[1] != 1000 + t)
            FAIL("early message %d: from %d tag %d holding (%d, %d), expected from %d "
                 "tag %d holding (%d, %d)", t, st.MPI_SOURCE, st.MPI_TAG, in[0], in[1], left,
                 t, left, 1000 + t);
    }
    MPI_Status early_st[EARLY];     /* (MPICH's MPI_STATUSES_IGNORE upsets gcc) */
    MPI_Waitall(EARLY, early, early_st);
    MPI_Comm_free(&other);
    MPI_Comm_free(&side);
    int mine = failures - failures0, any;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("isolation %s: %d algorithms, np %d: %s\n", rb_names[c], nalg, size,
               any ? "failed" : "passed");
}

int main(int argc, char **argv)
{
    return rb_main_colls(argc, argv, "isolation", &rank, &size, isolation, &failures);
}
