/*
 * The measuring core of `mpicoll bench` and `mpicoll tune` (measure.h):
 * the buffers, the validation of a case (its data and checks: mcoll.c)
 * and the interleaved timing of the cases of one size.
 */
#include "measure.h"


#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SENTINEL 0xFF    /* mcoll_fill never writes it */
#define GUARD_BYTES 64   /* checked past the receive buffer, to catch overruns */
/* The interleaving: a case's iterations at a size go in chunks of at most
 * MEASURE_CHUNK_MAX, and in at least MIN_ROUNDS chunks when there are
 * that many. */
#define MIN_ROUNDS 10

struct etype etypes[NTYPES] = {
    { "char", MPI_DATATYPE_NULL, 1 },
    { "int", MPI_DATATYPE_NULL, sizeof(int) },
    { "float", MPI_DATATYPE_NULL, sizeof(float) },
    { "double", MPI_DATATYPE_NULL, sizeof(double) },
};

void measure_init(int *argc, char ***argv, int *rank, int *nranks)
{
    int provided;

    MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided);
    etypes[T_CHAR].type = MPI_SIGNED_CHAR;
    etypes[T_INT].type = MPI_INT;
    etypes[T_FLOAT].type = MPI_FLOAT;
    etypes[T_DOUBLE].type = MPI_DOUBLE;
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, nranks);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

int measure_nodes(MPI_Comm comm)
{
    int nnodes = 1;

    if (mpicoll_comm_nodes(comm, &nnodes) != MPI_SUCCESS)
        nnodes = 1;
    return nnodes;
}

/* ---- iteration counts --------------------------------------------------- */

int counts_iters(const struct counts *k, size_t bytes)
{
    return bytes > MEASURE_LARGE_BYTES ? k->iters_large : k->iters_small;
}

int counts_warmup(const struct counts *k, size_t bytes)
{
    return bytes > MEASURE_LARGE_BYTES ? k->warmup_large : k->warmup_small;
}

/* ---- buffers and validation --------------------------------------------- */

int meas_open(struct meas *m, MPI_Comm comm, size_t max_count)
{
    const struct mcoll *c = m->coll;
    size_t t = m->type->size, send = 0;
    int ok;

    MPI_Comm_rank(comm, &m->rank);
    MPI_Comm_size(comm, &m->nranks);
    m->max_count = max_count;
    m->sendbuf = m->recvbuf = NULL;
    m->harness = m->comm = MPI_COMM_NULL;
    m->vcounts = malloc(2 * (size_t)m->nranks * sizeof *m->vcounts);
    if (max_count <= (SIZE_MAX - GUARD_BYTES) / (size_t)m->nranks / t) {
        send = mcoll_send_elems(c, m->nranks, max_count) * t;
        m->room = mcoll_recv_elems(c, m->nranks, max_count) * t;
        if (send > m->room) /* in place, reduce_scatter_block's input is the whole vector */
            m->room = send;
        m->sendbuf = malloc(send + 1);
        m->recvbuf = malloc(m->room + GUARD_BYTES);
    }
    ok = m->sendbuf && m->recvbuf && m->vcounts;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
    MPI_Comm_dup(comm, &m->harness);
    MPI_Comm_set_errhandler(m->harness, MPI_ERRORS_ARE_FATAL);
    /* errors of the measured calls are returned, so that a failing
     * algorithm shows as failed instead of aborting the run */
    MPI_Comm_dup(comm, &m->comm);
    MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);
    return ok;
}

void meas_close(struct meas *m)
{
    if (m->comm != MPI_COMM_NULL)
        MPI_Comm_free(&m->comm);
    if (m->harness != MPI_COMM_NULL)
        MPI_Comm_free(&m->harness);
    free(m->sendbuf);
    free(m->recvbuf);
    free(m->vcounts);
    m->sendbuf = m->recvbuf = NULL;
    m->vcounts = NULL;
}

/* 1 if this rank calls with MPI_IN_PLACE. */
static int in_place(const struct meas *m)
{
    return m->inplace && ((m->coll->inplace != IP_ROOT && m->coll->inplace != IP_ROOT_RECV)
                          || m->rank == MEASURE_ROOT);
}

/* Puts the in-place input into the receive buffer: the send data that
 * sendbuf keeps (the call consumes it: a reduction in place overwrites
 * its input). Scatter's root in place receives nothing: its own block,
 * which stays in its send buffer, goes where the check reads it. */
static void refill(const struct meas *m, size_t count)
{
    size_t bytes = mcoll_send_elems(m->coll, m->nranks, count) * m->type->size;
    size_t at = m->coll->inplace == IP_OWN_BLOCK ? (size_t)m->rank * bytes : 0;

    if (in_place(m) && m->coll->inplace == IP_ROOT_RECV)
        memcpy(m->recvbuf, m->sendbuf + (size_t)m->rank * count * m->type->size,
               count * m->type->size);
    else if (in_place(m))
        memcpy(m->recvbuf + at, m->sendbuf, bytes);
}

static struct call call_of(const struct meas *m, const struct mcase *k, size_t count,
                           mpicoll_request *creq)
{
    for (int i = 0; i < m->nranks; i++) {
        m->vcounts[i] = (int)count;
        m->vcounts[m->nranks + i] = i * (int)count;
    }
    return (struct call){ .counts = m->vcounts, .displs = m->vcounts + m->nranks,
                          .spec = k->spec, .mode = k->mode,
                          .sendbuf = in_place(m) && m->coll->inplace != IP_ROOT_RECV
                                     ? MPI_IN_PLACE : m->sendbuf,
                          .recvbuf = in_place(m) && m->coll->inplace == IP_ROOT_RECV
                                     ? MPI_IN_PLACE : m->recvbuf,
                          .count = (int)count, .type = m->type->type,
                          .comm = m->comm, .creq = creq };
}

/* The per-size state of a case while it is measured. */
struct run {
    struct mcase *k;
    mpicoll_request preq; /* MODE_PERSISTENT: made once per size */
    double target;        /* MODE_NB overlap phase: seconds of computation */
    int valid, failed;
    double *t, *overall, *compute; /* per timed iteration */
};

/* Calls `seconds` of computation that touches no memory, as OSU's
 * dummy_compute does (no MPI call between start and wait). */
static volatile double compute_sink; /* keeps the computation from being optimized out */

static void compute_for(double seconds)
{
    double x = 1.0, t0 = MPI_Wtime();

    while (MPI_Wtime() - t0 < seconds)
        for (int i = 0; i < 64; i++)
            x = x * 1.0000001 + 1e-9;
    compute_sink = x;
}

/* One call of the case as it is timed: blocking; start, computation (in
 * the overlap phase), wait; or start and wait of the persistent request.
 * *comp gets the computation's time. */
static int one_call(const struct meas *m, struct run *r, size_t count, int overlap,
                    double *comp)
{
    mpicoll_request creq = MPICOLL_REQUEST_NULL;
    struct call c = call_of(m, r->k, count, &creq);
    int rc;

    *comp = 0;
    if (r->k->mode == MODE_BLOCKING)
        return m->coll->call(&c);
    if (r->k->mode == MODE_PERSISTENT) {
        rc = mpicoll_start(&r->preq);
        return rc == MPI_SUCCESS ? mpicoll_wait(&r->preq) : rc;
    }
    rc = m->coll->call(&c);
    if (overlap) {
        double t0 = MPI_Wtime();
        compute_for(r->target);
        *comp = MPI_Wtime() - t0;
    }
    if (rc != MPI_SUCCESS)
        return rc;
    return mpicoll_wait(&creq);
}

static void sleep_us(long us)
{
    struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000 };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static int guard_intact(const unsigned char *at)
{
    for (size_t i = 0; i < GUARD_BYTES; i++)
        if (at[i] != SENTINEL)
            return 0;
    return 1;
}

/* One call outside the timed region, into a receive buffer full of
 * SENTINEL (bcast: the root's holds the data; in place: the input), then
 * every element of the result, the guard past it and the send data are
 * checked. All ranks agree on the verdict, since a wrong result may show
 * on some ranks only. With --no-validate the call runs on the buffers as
 * they are: under SMPI's shared malloc their data are not real, and
 * writing them is most of the simulation's wall time at 1 MiB (p^2 * n
 * bytes over all ranks: 1 TiB of alltoall at 1024 ranks). */
static int validate(const struct meas *m, struct run *r, size_t count)
{
    const struct mcoll *c = m->coll;
    size_t sbytes = mcoll_send_elems(c, m->nranks, count) * m->type->size;
    size_t region = mcoll_recv_elems(c, m->nranks, count) * m->type->size;
    double comp;
    int ok;

    if (m->no_validate) {
        ok = one_call(m, r, count, 0, &comp) == MPI_SUCCESS;
    } else {
        if (in_place(m) && sbytes > region)
            region = sbytes;
        mcoll_fill(c, m->type, m->sendbuf, m->rank, sbytes / m->type->size);
        memset(m->recvbuf, SENTINEL, region + GUARD_BYTES);
        if (c == mcoll_find("bcast") && m->rank == MEASURE_ROOT)
            mcoll_fill(c, m->type, m->recvbuf, MEASURE_ROOT, count);
        refill(m, count);
        ok = one_call(m, r, count, 0, &comp) == MPI_SUCCESS
             && c->check(m->recvbuf, count, m->type, m->rank, m->nranks)
             && guard_intact(m->recvbuf + region)
             && ((in_place(m) && c->inplace != IP_ROOT_RECV)
                 || mcoll_filled(c, m->type, m->sendbuf, m->rank, sbytes / m->type->size));
    }
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, m->harness);
    return ok;
}

/* The barrier before each timed call, as OSU's benchmarks do; on an
 * oversubscribed node it tests and yields (mpicoll_node_oversubscribed), since
 * MPICH's MPI_Barrier spins there: 8 ms a barrier at 3 ranks on 2 cores. */
static void harness_barrier(MPI_Comm comm)
{
    MPI_Request req;
    int done = 0;
    if (!mpicoll_node_oversubscribed()) {
        MPI_Barrier(comm);
        return;
    }
    MPI_Ibarrier(comm, &req);
    while (MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        sched_yield();
}

/* `warm` untimed then n timed iterations of one case, from timed
 * iteration `first` on; in the overlap phase (MODE_NB) with the
 * computation between start and wait. */
static void time_chunk(const struct meas *m, struct run *r, size_t count, int warm, int first,
                       int n, int overlap)
{
    for (int i = -warm; i < n; i++) {
        double comp, start, elapsed;
        int rc;

        refill(m, count);
        harness_barrier(m->harness);
        start = MPI_Wtime();
        rc = one_call(m, r, count, overlap, &comp);
        elapsed = MPI_Wtime() - start;
        r->failed |= rc != MPI_SUCCESS;
        if (i >= 0 && overlap) {
            r->overall[first + i] = elapsed;
            r->compute[first + i] = comp;
        } else if (i >= 0) {
            r->t[first + i] = elapsed;
        }
        if (m->delay_us > 0)
            sleep_us(m->delay_us);
    }
}

static int chunk_of(int iters)
{
    int chunk = (iters + MIN_ROUNDS - 1) / MIN_ROUNDS;

    return chunk < MEASURE_CHUNK_MAX ? chunk : MEASURE_CHUNK_MAX;
}

/* All valid cases, `iters` timed iterations each, in chunks taken
 * round-robin (in reverse order every other round, so that no case always
 * follows the same one). A case's warm-up runs before its first chunk;
 * every later chunk begins with one untimed call, which brings its plan
 * and data back after the other cases ran. */
static void time_phase(const struct meas *m, struct run *runs, int n, size_t count,
                       int warmup, int iters, int overlap, const char *label)
{
    const size_t bytes = mcoll_row_bytes(m->coll, m->type, m->nranks, count);
    const int chunk = chunk_of(iters);
    int nvalid = 0;
    char what[200];

    for (int j = 0; j < n; j++)
        nvalid += runs[j].valid;
    for (int first = 0, round = 0; first < iters; first += chunk, round++) {
        for (int j = 0; j < n; j++) {
            struct run *r = &runs[round % 2 ? n - 1 - j : j];
            int len = iters - first < chunk ? iters - first : chunk;
            int warm = first == 0 ? warmup : nvalid > 1;

            if (!r->valid)
                continue;
            time_chunk(m, r, count, warm, first, len, overlap);
            if (m->check_chunks)
                r->valid = validate(m, r, count);
            if (m->pg) {
                m->pg->done += measure_units(bytes, m->nranks, warm + len + 1);
                snprintf(what, sizeof what, "%s %zu B %s%s", label, bytes, r->k->label,
                         overlap ? " (overlap)" : "");
                progress_show(m->pg, what);
            }
        }
    }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* v: this rank's seconds per iteration, then the failure flag in v[n].
 * Takes the slowest rank's (max over ranks, flag included), or with
 * rank_mean the ranks' mean (the flags summed: nonzero if any rank's is),
 * and its statistics in microseconds. Returns the flag. */
static int summarize(const struct meas *m, double *v, int n, struct stats *s)
{
    double sum = 0;

    MPI_Allreduce(MPI_IN_PLACE, v, n + 1, MPI_DOUBLE, m->rank_mean ? MPI_SUM : MPI_MAX,
                  m->harness);
    for (int i = 0; m->rank_mean && i < n; i++)
        v[i] /= m->nranks;
    for (int i = 0; i < n; i++)
        sum += v[i];
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    s->median = (v[(n - 1) / 2] + v[n / 2]) / 2 * 1e6;
    s->min = v[0] * 1e6;
    s->max = v[n - 1] * 1e6;
    s->avg = sum / n * 1e6;
    return v[n] != 0;
}

double meas_size_units(const struct meas *m, const struct mcase *cases, int ncases,
                       size_t count)
{
    size_t bytes = mcoll_row_bytes(m->coll, m->type, m->nranks, count);
    int iters = counts_iters(&m->counts, bytes), warmup = counts_warmup(&m->counts, bytes);
    double calls = 0;

    for (int j = 0; j < ncases; j++)
        calls += (cases[j].mode == MODE_NB ? 2 : 1)
                 * (warmup + iters + 2.0 * iters / chunk_of(iters));
    return measure_units(bytes, m->nranks, calls);
}

/* The persistent request of a case, bound to the buffers for this size;
 * all ranks agree whether it was made. */
static int make_persistent(const struct meas *m, struct run *r, size_t count)
{
    struct call c = call_of(m, r->k, count, &r->preq);
    int ok = m->coll->call(&c) == MPI_SUCCESS;

    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, m->harness);
    return ok;
}

static void finish(const struct meas *m, struct run *runs, int n, int iters)
{
    for (int j = 0; j < n; j++) {
        struct result *res = &runs[j].k->res;

        res->iters = iters;
        if (runs[j].valid) {
            runs[j].t[iters] = runs[j].failed;
            res->valid = !summarize(m, runs[j].t, iters, &res->time);
        }
        runs[j].valid = res->valid;
    }
}

/* OSU's overlap: the computation between start and wait lasts as long as
 * the pure communication did (the slowest rank's median). */
static void overlap_phase(const struct meas *m, struct run *runs, int n, size_t count,
                          int warmup, int iters, const char *label)
{
    for (int j = 0; j < n; j++) {
        runs[j].target = runs[j].k->res.time.median / 1e6;
        runs[j].valid &= runs[j].k->mode == MODE_NB;
    }
    time_phase(m, runs, n, count, warmup, iters, 1, label);
    for (int j = 0; j < n; j++) {
        struct result *res = &runs[j].k->res;
        double comm;

        if (!runs[j].valid)
            continue;
        runs[j].overall[iters] = runs[j].compute[iters] = runs[j].failed;
        res->valid = !summarize(m, runs[j].overall, iters, &res->overall);
        summarize(m, runs[j].compute, iters, &res->compute);
        comm = res->overall.median - res->compute.median;
        res->overlap = res->time.median > 0 ? 100 * (1 - comm / res->time.median) : 0;
        if (res->overlap < 0)
            res->overlap = 0;
    }
}

void meas_size(struct meas *m, struct mcase *cases, int ncases, size_t count,
               const char *label)
{
    const size_t bytes = mcoll_row_bytes(m->coll, m->type, m->nranks, count);
    const int iters = counts_iters(&m->counts, bytes), warmup = counts_warmup(&m->counts, bytes);
    const size_t slots = (size_t)iters + 1;
    double done = m->pg ? m->pg->done + meas_size_units(m, cases, ncases, count) : 0;
    struct run *runs = calloc((size_t)ncases, sizeof *runs);
    double *mem = malloc((size_t)ncases * 3 * slots * sizeof *mem);
    int ok = runs && mem, nb = 0;

    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, m->harness);
    for (int j = 0; j < ncases; j++) {
        memset(&cases[j].res, 0, sizeof cases[j].res);
        if (!ok)
            continue;
        runs[j] = (struct run){ .k = &cases[j], .t = mem + 3 * slots * (size_t)j };
        runs[j].overall = runs[j].t + slots;
        runs[j].compute = runs[j].overall + slots;
        runs[j].valid = cases[j].mode != MODE_PERSISTENT || make_persistent(m, &runs[j], count);
        runs[j].valid = runs[j].valid && validate(m, &runs[j], count);
        if (cases[j].native || mpicoll_last_choice(m->comm, cases[j].ran, sizeof cases[j].ran))
            cases[j].ran[0] = '\0';
        nb |= cases[j].mode == MODE_NB;
    }
    if (ok) {
        time_phase(m, runs, ncases, count, warmup, iters, 0, label);
        finish(m, runs, ncases, iters);
        if (nb)
            overlap_phase(m, runs, ncases, count, warmup, iters, label);
        for (int j = 0; j < ncases; j++)
            if (runs[j].preq != MPICOLL_REQUEST_NULL)
                mpicoll_request_free(&runs[j].preq);
    }
    if (m->pg)
        m->pg->done = done;
    free(runs);
    free(mem);
}
