/*
 * Bad arguments: every error case of one collective, through each of its
 * entry points (mpicoll_<coll>, mpicoll_<coll>_with, mpicoll_i<coll> +
 * wait, mpicoll_<coll>_init + start + wait + free), must return the
 * error class MPI gives it, and call the communicator's error handler
 * once with that code (MPI_COMM_WORLD's for MPI_COMM_NULL). The handlers
 * of the test record instead of aborting, as MPI_ERRORS_RETURN does.
 * Afterwards every entry point must still give right results on the same
 * communicator: a failed call leaves nothing behind.
 *
 *   test_errors WHAT...        each in turn, a summary line each:
 *     COLLECTIVE               a collective of include/mpicoll_collectives.h
 *     requests                 the request calls (start, test, wait, ...)
 *                              and a communicator freed under live requests
 *     fatal                    a negative count on MPI_ERRORS_ARE_FATAL:
 *                              must abort with MPI's message
 *
 * A case that is an error on some ranks only (a reduce's root; gather's
 * receive side and scatter's send side, significant at the root only) is
 * called on those ranks only, as the others would wait in the collective.
 */
#include "robust.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int comm_state_live(void);      /* libmpicoll's count of communicator states */

static int rank, size, failures, checks;

#define FAIL(...)                                                                         \
    do {                                                                                  \
        failures++;                                                                       \
        if (failures < 40) {                                                              \
            printf("FAIL errors: rank %d: ", rank);                                       \
            printf(__VA_ARGS__);                                                          \
            printf("\n");                                                                 \
        }                                                                                 \
    } while (0)

/* ---- the recording error handler -------------------------------------- */
static int handler_calls, handler_code;
static MPI_Comm handler_comm;

static void record(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

static const char *class_name(int cls)
{
    static char s[MPI_MAX_ERROR_STRING];
    int n;
    MPI_Error_string(cls, s, &n);
    return s;
}

/* The error classes the run checked, for its summary line. */
static const struct {
    int cls;
    const char *name;
} class_names[] = {
    { MPI_ERR_ARG, "MPI_ERR_ARG" },         { MPI_ERR_BUFFER, "MPI_ERR_BUFFER" },
    { MPI_ERR_COMM, "MPI_ERR_COMM" },       { MPI_ERR_COUNT, "MPI_ERR_COUNT" },
    { MPI_ERR_OP, "MPI_ERR_OP" },           { MPI_ERR_REQUEST, "MPI_ERR_REQUEST" },
    { MPI_ERR_ROOT, "MPI_ERR_ROOT" },       { MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE" },
    { MPI_ERR_TYPE, "MPI_ERR_TYPE" },
};
enum { NCLASSES = sizeof class_names / sizeof class_names[0] };
static int class_checked[NCLASSES];

/* The call must return `want` (an error class, or MPI_SUCCESS) and, for an
 * error, call the error handler of `on` once with the same code. */
static void expect_class(const char *what, int rc, int want, MPI_Comm on)
{
    int cls = MPI_SUCCESS, known = want == MPI_SUCCESS;
    checks++;
    for (int i = 0; i < NCLASSES; i++)
        if (class_names[i].cls == want)
            known = class_checked[i] = 1;
    if (!known)
        FAIL("%s: expected class %d is missing from the test's list of names", what, want);
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls != want)
        FAIL("%s: error class %d (%s), expected %d (%s)", what, cls, class_name(cls), want,
             class_name(want));
    else if (want != MPI_SUCCESS && (handler_calls != 1 || handler_code != rc))
        FAIL("%s: error handler called %d times (code %d), expected once with %d", what,
             handler_calls, handler_code, rc);
    else if (want != MPI_SUCCESS && handler_comm != on)
        FAIL("%s: the error handler of another communicator was called", what);
    else if (want == MPI_SUCCESS && handler_calls != 0)
        FAIL("%s: success, but the error handler was called", what);
    handler_calls = 0;
}

/* ---- the cases ---------------------------------------------------------- */
enum { EVERY, ROOT_ONLY, NONROOT_ONLY };    /* the ranks that make the call */

struct fixture {
    MPI_Comm comm, inter;
    MPI_Datatype uncommitted, bottom;   /* bottom: N ints at the address of sbuf */
    int *sbuf, *rbuf;
    double *dbuf;
};

enum { N = 4 };

static void setup(struct fixture *fx)
{
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(record, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &fx->comm);    /* inherits the handler */
    fx->inter = MPI_COMM_NULL;
    if (size >= 2) {
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &fx->inter);
        MPI_Comm_free(&half);
        MPI_Comm_set_errhandler(fx->inter, eh);
    }
    MPI_Errhandler_free(&eh);
    MPI_Type_contiguous(2, MPI_INT, &fx->uncommitted);
    fx->sbuf = calloc((size_t)size * N * 2, sizeof(int));
    fx->rbuf = calloc((size_t)size * N * 2, sizeof(int));
    fx->dbuf = calloc((size_t)size * N * 2, sizeof(double));
    MPI_Aint at;
    int len = N;
    MPI_Get_address(fx->sbuf, &at);
    MPI_Type_create_hindexed(1, &len, &at, MPI_INT, &fx->bottom);
    MPI_Type_commit(&fx->bottom);
}

static void teardown(struct fixture *fx)
{
    MPI_Type_free(&fx->uncommitted);
    MPI_Type_free(&fx->bottom);
    if (fx->inter != MPI_COMM_NULL)
        MPI_Comm_free(&fx->inter);
    MPI_Comm_free(&fx->comm);
    free(fx->sbuf);
    free(fx->rbuf);
    free(fx->dbuf);
}

/* Valid arguments of collective c on fx->comm, N elements. */
static struct rb_args valid(enum rb_coll c, const struct fixture *fx)
{
    struct rb_args a = { .sbuf = fx->sbuf, .rbuf = fx->rbuf, .scount = N, .rcount = N,
                         .stype = MPI_INT, .rtype = MPI_INT, .op = MPI_SUM, .root = 0,
                         .comm = fx->comm };
    if (c == BC || c == AG || c == AGV || c == A2A || c == GA || c == SC || c == BAR ||
        c == GV || c == SCV || c == A2AV)
        a.op = MPI_OP_NULL;
    return a;
}

struct ecase {
    const char *name;
    int want;           /* error class */
    int who;            /* EVERY, ROOT_ONLY, NONROOT_ONLY */
    unsigned colls;     /* bit per enum rb_coll */
};

#define BLOCKC ((1u << AG) | (1u << A2A) | (1u << AGV) | (1u << A2AV))
#define VECC ((1u << AR) | (1u << RED) | (1u << BC) | (1u << RSB) | (1u << RS) | (1u << SCAN) | \
              (1u << EXS))
#define REDC ((1u << AR) | (1u << RED) | (1u << RSB) | (1u << RS) | (1u << SCAN) | (1u << EXS))
#define GAC ((1u << GA) | (1u << GV))
#define SCC ((1u << SC) | (1u << SCV))
#define ALLC (BLOCKC | VECC | GAC | SCC)
#define BARC (1u << BAR)       /* a barrier: its communicator and request only */

/* gather's receive side and scatter's send side are significant at the
 * root only: their cases there are ROOT_ONLY (*_at_root). */
static const struct ecase cases[] = {
    { "comm_null", MPI_ERR_COMM, EVERY, ALLC | BARC },
    { "intercomm", MPI_ERR_COMM, EVERY, ALLC | BARC },
    { "negative_count", MPI_ERR_COUNT, EVERY, ALLC & ~GAC },
    { "negative_count_at_root", MPI_ERR_COUNT, ROOT_ONLY, GAC },
    { "negative_sendcount", MPI_ERR_COUNT, EVERY, BLOCKC | GAC },
    { "negative_sendcount_at_root", MPI_ERR_COUNT, ROOT_ONLY, SCC },
    { "datatype_null", MPI_ERR_TYPE, EVERY, ALLC & ~GAC },
    { "datatype_null_at_root", MPI_ERR_TYPE, ROOT_ONLY, GAC },
    { "sendtype_null", MPI_ERR_TYPE, EVERY, BLOCKC | GAC },
    { "sendtype_null_at_root", MPI_ERR_TYPE, ROOT_ONLY, SCC },
    { "uncommitted_type", MPI_ERR_TYPE, EVERY, ALLC & ~GAC },
    { "uncommitted_type_at_root", MPI_ERR_TYPE, ROOT_ONLY, GAC },
    { "uncommitted_sendtype", MPI_ERR_TYPE, EVERY, BLOCKC | GAC },
    { "uncommitted_sendtype_at_root", MPI_ERR_TYPE, ROOT_ONLY, SCC },
    { "op_null", MPI_ERR_OP, EVERY, REDC },
    { "band_on_double", MPI_ERR_OP, EVERY, REDC },
    { "sum_on_bool", MPI_ERR_OP, EVERY, REDC },
    { "maxloc_on_int", MPI_ERR_OP, EVERY, REDC },
    { "replace", MPI_ERR_OP, EVERY, REDC },
    { "root_negative", MPI_ERR_ROOT, EVERY, (1u << RED) | (1u << BC) | GAC | SCC },
    { "root_too_large", MPI_ERR_ROOT, EVERY, (1u << RED) | (1u << BC) | GAC | SCC },
    { "recvbuf_null", MPI_ERR_BUFFER, EVERY, ALLC & ~((1u << RED) | (1u << EXS) | GAC) },
    /* exscan's receive buffer is not significant at rank 0 (the root here) */
    { "recvbuf_null_past_rank0", MPI_ERR_BUFFER, NONROOT_ONLY, 1u << EXS },
    { "recvbuf_null_at_root", MPI_ERR_BUFFER, ROOT_ONLY, (1u << RED) | GAC },
    { "sendbuf_null", MPI_ERR_BUFFER, EVERY, ALLC & ~((1u << BC) | SCC) },
    { "sendbuf_null_at_root", MPI_ERR_BUFFER, ROOT_ONLY, SCC },
    { "recvbuf_in_place", MPI_ERR_BUFFER, EVERY, ALLC & ~(GAC | SCC) },
    { "recvbuf_in_place_at_root", MPI_ERR_BUFFER, ROOT_ONLY, GAC },
    { "recvbuf_in_place_at_nonroot", MPI_ERR_BUFFER, NONROOT_ONLY, SCC },
    { "in_place_at_nonroot", MPI_ERR_BUFFER, NONROOT_ONLY, (1u << RED) | GAC },
    { "sendbuf_in_place_at_root", MPI_ERR_BUFFER, ROOT_ONLY, SCC },
    { "sendbuf_is_recvbuf", MPI_ERR_BUFFER, EVERY,
      ALLC & ~((1u << BC) | (1u << RED) | (1u << EXS) | GAC | SCC) },
    { "sendbuf_is_recvbuf_past_rank0", MPI_ERR_BUFFER, NONROOT_ONLY, 1u << EXS },
    { "sendbuf_is_recvbuf_at_root", MPI_ERR_BUFFER, ROOT_ONLY, (1u << RED) | GAC | SCC },
    { "overlapping_buffers", MPI_ERR_BUFFER, EVERY,
      BLOCKC | (1u << AR) | (1u << RSB) | (1u << RS) | (1u << SCAN) },
    { "overlapping_buffers_past_rank0", MPI_ERR_BUFFER, NONROOT_ONLY, 1u << EXS },
    { "counts_differ", MPI_ERR_TRUNCATE, EVERY, BLOCKC },
    { "counts_differ_at_root", MPI_ERR_TRUNCATE, ROOT_ONLY, GAC | SCC },
    { "int_against_double", MPI_ERR_TYPE, EVERY, BLOCKC },
    { "int_against_double_at_root", MPI_ERR_TYPE, ROOT_ONLY, GAC | SCC },
    { "request_null", MPI_ERR_ARG, EVERY, ALLC | BARC },   /* nonblocking and persistent only */
    /* valid calls next to the checks: they must not be refused */
    { "count_0_null_buffers", MPI_SUCCESS, EVERY, ALLC },
    { "mpi_bottom", MPI_SUCCESS, EVERY, BLOCKC },
};

/* The arguments of case k from valid ones; 0 if the case does not apply. */
static int make_case(const struct ecase *k, enum rb_coll c, const struct fixture *fx,
                     struct rb_args *a)
{
    const int block = c == AG || c == A2A || c == AGV || c == GA || c == SC || c == GV ||
                      c == SCV || c == A2AV;
    char n[64];     /* the case's name without "_at_root": the same arguments */
    snprintf(n, sizeof n, "%s", k->name);
    if (strlen(n) > 8 && !strcmp(n + strlen(n) - 8, "_at_root"))
        n[strlen(n) - 8] = '\0';
    *a = valid(c, fx);
    if (!strcmp(n, "comm_null")) {
        a->comm = MPI_COMM_NULL;
    } else if (!strcmp(n, "intercomm")) {
        if (fx->inter == MPI_COMM_NULL)
            return 0;
        a->comm = fx->inter;
    } else if (!strcmp(n, "negative_count")) {
        a->rcount = -1;
    } else if (!strcmp(n, "negative_sendcount")) {
        a->scount = -1;
    } else if (!strcmp(n, "datatype_null")) {
        a->rtype = MPI_DATATYPE_NULL;
    } else if (!strcmp(n, "sendtype_null")) {
        a->stype = MPI_DATATYPE_NULL;
    } else if (!strcmp(n, "uncommitted_type")) {
        a->rtype = fx->uncommitted;
        a->rcount = block ? N / 2 : N;
    } else if (!strcmp(n, "uncommitted_sendtype")) {
        a->stype = fx->uncommitted;
        a->scount = N / 2;
    } else if (!strcmp(n, "op_null")) {
        a->op = MPI_OP_NULL;
    } else if (!strcmp(n, "band_on_double")) {
        /* refused by Open MPI and MPICH (MPI_LAND: MPICH takes it) */
        a->op = MPI_BAND;
        a->rtype = MPI_DOUBLE;
        a->sbuf = fx->dbuf;
        a->rbuf = fx->dbuf + (size_t)size * N;
    } else if (!strcmp(n, "sum_on_bool")) {
        a->rtype = MPI_C_BOOL;     /* refused by Open MPI and MPICH (MPI_BYTE: Open MPI sums it) */
    } else if (!strcmp(n, "maxloc_on_int")) {
        a->op = MPI_MAXLOC;
    } else if (!strcmp(n, "replace")) {
        a->op = MPI_REPLACE;
    } else if (!strcmp(n, "root_negative")) {
        a->root = -1;
    } else if (!strcmp(n, "root_too_large")) {
        a->root = size;
    } else if (!strcmp(n, "recvbuf_null") || !strcmp(n, "recvbuf_null_past_rank0")) {
        a->rbuf = NULL;
    } else if (!strcmp(n, "sendbuf_null")) {
        a->sbuf = NULL;
    } else if (!strcmp(n, "recvbuf_in_place")) {
        a->rbuf = MPI_IN_PLACE;
    } else if (!strcmp(n, "recvbuf_in_place_at_nonroot")) {
        if (size < 2)
            return 0;
        a->rbuf = MPI_IN_PLACE;
    } else if (!strcmp(n, "sendbuf_in_place")) {
        a->sbuf = MPI_IN_PLACE;
    } else if (!strcmp(n, "in_place_at_nonroot")) {
        if (size < 2)
            return 0;
        a->sbuf = MPI_IN_PLACE;
    } else if (!strcmp(n, "sendbuf_is_recvbuf") || !strcmp(n, "sendbuf_is_recvbuf_past_rank0")) {
        a->sbuf = a->rbuf;
    } else if (!strcmp(n, "overlapping_buffers") || !strcmp(n, "overlapping_buffers_past_rank0")) {
        a->sbuf = fx->rbuf + 1;     /* inside the receive data, not at its start */
    } else if (!strcmp(n, "counts_differ")) {
        a->rcount = N + 1;
    } else if (!strcmp(n, "int_against_double")) {
        a->scount = 2 * N;          /* 2N ints: the bytes of N doubles */
        a->rtype = MPI_DOUBLE;
        a->rbuf = fx->dbuf;
    } else if (!strcmp(n, "request_null")) {
        a->null_request = 1;
    } else if (!strcmp(n, "count_0_null_buffers")) {
        a->sbuf = NULL;
        a->rbuf = NULL;
        a->scount = a->rcount = 0;
    } else if (!strcmp(n, "mpi_bottom")) {
        if (c != AG)
            return 0;
        a->sbuf = MPI_BOTTOM;
        a->scount = 1;
        a->stype = fx->bottom;
    }
    return 1;
}

static void test_collective(enum rb_coll c)
{
    struct fixture fx;
    setup(&fx);
    const int live0 = comm_state_live();
    for (int i = 0; i < size * N; i++)
        fx.sbuf[i] = rank * 100 + i % N;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        if (!(cases[k].colls & (1u << c)))
            continue;
        for (int f = 0; f < NFORMS; f++) {
            struct rb_args a;
            if (!make_case(&cases[k], c, &fx, &a))
                continue;
            if (a.null_request && (f == BLOCKING || f == WITH))
                continue;
            const int root = a.root >= 0 && a.root < size ? a.root : 0;
            const int calls =
                cases[k].who == EVERY || (cases[k].who == ROOT_ONLY) == (rank == root);
            char what[160];
            snprintf(what, sizeof what, "%s %s %s", rb_names[c], rb_form_names[f],
                     cases[k].name);
            int rc = calls ? rb_run(c, (enum rb_form)f, &a) : MPI_SUCCESS;
            MPI_Comm on = a.comm == MPI_COMM_NULL ? MPI_COMM_WORLD : a.comm;
            if (calls)
                expect_class(what, rc, cases[k].want, on);
            if (!strcmp(cases[k].name, "mpi_bottom") && rc == MPI_SUCCESS)
                for (int i = 0; i < size * N; i++)
                    if (fx.rbuf[i] != (i / N) * 100 + i % N) {
                        FAIL("%s: element %d is %d, expected %d", what, i, fx.rbuf[i],
                             (i / N) * 100 + i % N);
                        break;
                    }
            /* the ranks that skipped a one-sided case meet the others here */
            MPI_Barrier(MPI_COMM_WORLD);
            for (int i = 0; i < size * N; i++)
                fx.sbuf[i] = rank * 100 + i % N;
        }
    }
    /* the communicator still works after the failed calls, in every form */
    struct rb_data d;
    if (rb_data_init(&d, N, fx.comm))
        FAIL("out of memory");
    for (int f = 0; f < NFORMS && d.send; f++) {
        struct rb_args a = rb_prepare(c, &d, fx.comm);
        char what[160];
        int got, want, at;
        snprintf(what, sizeof what, "%s %s valid call after the errors", rb_names[c],
                 rb_form_names[f]);
        expect_class(what, rb_run(c, (enum rb_form)f, &a), MPI_SUCCESS, fx.comm);
        if ((at = rb_check(c, &d, &got, &want)) >= 0)
            FAIL("%s: element %d is %d, expected %d", what, at, got, want);
    }
    rb_data_free(&d);
    teardown(&fx);
    if (comm_state_live() != live0)
        FAIL("%s: %d communicator states alive after freeing the communicators, %d before",
             rb_names[c], comm_state_live(), live0);
}

/* ---- the request calls -------------------------------------------------- */
static void test_requests(void)
{
    struct fixture fx;
    setup(&fx);
    mpicoll_request r = MPICOLL_REQUEST_NULL, none = MPICOLL_REQUEST_NULL, list[1];
    int flag, x = rank, sum = 0;
    expect_class("start(NULL)", mpicoll_start(NULL), MPI_ERR_ARG, MPI_COMM_WORLD);
    expect_class("start(null request)", mpicoll_start(&none), MPI_ERR_REQUEST, MPI_COMM_WORLD);
    expect_class("test(NULL)", mpicoll_test(NULL, &flag), MPI_ERR_ARG, MPI_COMM_WORLD);
    expect_class("wait(NULL)", mpicoll_wait(NULL), MPI_ERR_ARG, MPI_COMM_WORLD);
    expect_class("testall(-1)", mpicoll_testall(-1, list, &flag), MPI_ERR_COUNT, MPI_COMM_WORLD);
    expect_class("testall(1, NULL)", mpicoll_testall(1, NULL, &flag), MPI_ERR_ARG,
                 MPI_COMM_WORLD);
    expect_class("waitall(-1)", mpicoll_waitall(-1, list), MPI_ERR_COUNT, MPI_COMM_WORLD);
    expect_class("waitall(1, NULL)", mpicoll_waitall(1, NULL), MPI_ERR_ARG, MPI_COMM_WORLD);
    expect_class("request_free(NULL)", mpicoll_request_free(NULL), MPI_ERR_ARG,
                 MPI_COMM_WORLD);
    expect_class("request_free(null request)", mpicoll_request_free(&none), MPI_ERR_REQUEST,
                 MPI_COMM_WORLD);
    expect_class("test and wait on a null request", mpicoll_test(&none, &flag) |
                 mpicoll_wait(&none) | mpicoll_waitall(0, NULL), MPI_SUCCESS, MPI_COMM_WORLD);

    /* an active non-persistent request cannot be started or freed */
    expect_class("iallreduce", mpicoll_iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, fx.comm, &r),
                 MPI_SUCCESS, fx.comm);
    expect_class("start(active non-persistent)", mpicoll_start(&r), MPI_ERR_REQUEST,
                 MPI_COMM_WORLD);
    expect_class("request_free(active)", mpicoll_request_free(&r), MPI_ERR_REQUEST,
                 MPI_COMM_WORLD);
    expect_class("test(&r, NULL)", mpicoll_test(&r, NULL), MPI_ERR_ARG, MPI_COMM_WORLD);
    list[0] = r;
    expect_class("testall(flag NULL)", mpicoll_testall(1, list, NULL), MPI_ERR_ARG,
                 MPI_COMM_WORLD);
    expect_class("wait", mpicoll_wait(&r), MPI_SUCCESS, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2 || r != MPICOLL_REQUEST_NULL)
        FAIL("iallreduce after the errors: sum %d, request %s", sum, r ? "kept" : "freed");

    /* a persistent request started twice */
    expect_class("allreduce_init",
                 mpicoll_allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, fx.comm, &r),
                 MPI_SUCCESS, fx.comm);
    expect_class("start", mpicoll_start(&r), MPI_SUCCESS, MPI_COMM_WORLD);
    expect_class("start(active)", mpicoll_start(&r), MPI_ERR_REQUEST, MPI_COMM_WORLD);
    expect_class("wait", mpicoll_wait(&r), MPI_SUCCESS, MPI_COMM_WORLD);
    expect_class("request_free", mpicoll_request_free(&r), MPI_SUCCESS, MPI_COMM_WORLD);

    /* The communicator freed while requests live (MPI: pending operations
     * complete normally): a persistent request keeps working, a started
     * one completes, and the state goes when the last request does. */
    const int live0 = comm_state_live();
    MPI_Comm c;
    mpicoll_request nb = MPICOLL_REQUEST_NULL;
    int y = rank + 1, ysum = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    expect_class("allreduce_init on a comm to be freed",
                 mpicoll_allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, c, &r), MPI_SUCCESS, c);
    expect_class("iallreduce on a comm to be freed",
                 mpicoll_iallreduce(&y, &ysum, 1, MPI_INT, MPI_SUM, c, &nb), MPI_SUCCESS, c);
    MPI_Comm_free(&c);
    expect_class("wait after MPI_Comm_free", mpicoll_wait(&nb), MPI_SUCCESS, MPI_COMM_WORLD);
    if (ysum != size * (size + 1) / 2)
        FAIL("iallreduce completed after MPI_Comm_free: %d, expected %d", ysum,
             size * (size + 1) / 2);
    for (int i = 0; i < 3; i++) {
        sum = -1;
        expect_class("start after MPI_Comm_free", mpicoll_start(&r) | mpicoll_wait(&r),
                     MPI_SUCCESS, MPI_COMM_WORLD);
        if (sum != size * (size - 1) / 2)
            FAIL("persistent allreduce after MPI_Comm_free: %d, expected %d", sum,
                 size * (size - 1) / 2);
    }
    if (comm_state_live() != live0 + 1)
        FAIL("the state of a freed communicator went while a request held it");
    expect_class("request_free after MPI_Comm_free", mpicoll_request_free(&r), MPI_SUCCESS,
                 MPI_COMM_WORLD);
    if (comm_state_live() != live0)
        FAIL("%d communicator states alive after the last request was freed, expected %d",
             comm_state_live(), live0);
    teardown(&fx);
}

/* Under MPI_ERRORS_ARE_FATAL the call must not return: MPI aborts with
 * its message for the class. */
/* Rank 0 alone makes the bad call (the check is local) and the others
 * wait in a barrier until mpirun kills them: when two ranks abort at once,
 * Open MPI 4.1's mpirun can lose both messages ("ORTE_ERROR_LOG: Data
 * unpack ... show_help.c"; 2 runs in 6 here). */
static void test_fatal(void)
{
    int x = 0, y;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (rank == 0) {
        mpicoll_allreduce(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        FAIL("a negative count returned under MPI_ERRORS_ARE_FATAL");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* One WHAT: 0, or 1 if it is unknown; prints its summary line on rank 0. */
static int run(const char *what)
{
    const int failures0 = failures, checks0 = checks;
    memset(class_checked, 0, sizeof class_checked);
    const int c = rb_coll_index(what);
    int known = 1;
    if (!strcmp(what, "requests"))
        test_requests();
    else if (!strcmp(what, "fatal"))
        test_fatal();
    else if (c >= 0)
        test_collective((enum rb_coll)c);
    else
        known = 0;
    if (!known && rank == 0)
        printf("FAIL errors: usage: test_errors COLLECTIVE|requests|fatal...\n");
    int mine[2] = { failures - failures0 + !known, checks - checks0 }, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int classes[NCLASSES];
    MPI_Reduce(class_checked, classes, NCLASSES, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("errors %s: %d checks on %d ranks, %d failures; error classes checked:", what,
               all[1], size, all[0]);
        for (int i = 0; i < NCLASSES; i++)
            if (classes[i])
                printf(" %s", class_names[i].name);
        printf("\n");
    }
    return !known;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int unknown = argc < 2 ? run("") : 0;
    for (int i = 1; i < argc; i++)
        unknown += run(argv[i]);
    int any, mine = failures + unknown;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return any != 0;
}
