/*
 * mpicoll bench: latency of every algorithm of a collective, of what
 * mpicoll's automatic selection runs, and of the MPI library's own
 * implementation, over a ladder of sizes (bench_options.h reads the
 * command line, measure.h times, report.h prints).
 *
 * Timing follows the OSU micro-benchmarks so that the figures can be set
 * beside theirs (osu_allgather & co., osu_iallgather & co. for the
 * non-blocking forms): per size, warm-up then timed iterations, each
 * preceded by a barrier and timed on every rank; an iteration's figure is
 * the slowest rank's time (with --rank-mean the ranks' mean, OSU's
 * average latency). The cases of a size alternate in chunks, and
 * each cell gives the median (and the minimum, ...) over the iterations,
 * with their number. Every (size, case) is validated before it is timed.
 *
 * The size of a row is the bytes of one block for allgather (one rank's
 * contribution) and alltoall (what one rank sends to one peer), and of the
 * whole vector for allreduce, reduce, bcast and reduce_scatter_block (all p
 * blocks), as OSU counts them. --counts LIST gives the element counts of
 * the rows instead, and prints milliseconds (seed 001's table: p, n, one
 * column per algorithm).
 */
#define _GNU_SOURCE /* sched_getcpu */
#include "bench.h"

#include "bench_options.h"
#include "measure.h"
#include "options.h"
#include "report.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>

#define MAX_ROWS 96

/* What a run keeps until the end (the plot is drawn after MPI_Finalize). */
struct bench {
    struct bench_options opt;
    int nranks, nnodes;
    struct caselist cases;
    size_t rows[MAX_ROWS];
    struct result *results;
    char (*chose)[64];
    char notes[REPORT_MAX_NOTES][384];  /* INAPPLICABLE with a 255-byte name */
    struct report rep;
};

/* ---- what to measure ---------------------------------------------------- */

#define INAPPLICABLE "%s: not applicable on %d ranks%s (would run its fallback)"

static void note(struct bench *b, const char *name, int mode)
{
    static const char *const how[] = { "", ", non-blocking", ", persistent" };
    char where[48];     /* the longest: " spanning several nodes, non-blocking" */

    snprintf(where, sizeof where, "%s%s", b->nnodes > 1 ? " spanning several nodes" : "",
             how[mode]);
    if (b->rep.nnotes == REPORT_MAX_NOTES)
        return;
    snprintf(b->notes[b->rep.nnotes], sizeof b->notes[0], INAPPLICABLE, name, b->nranks, where);
    b->rep.notes[b->rep.nnotes] = b->notes[b->rep.nnotes];
    b->rep.nnotes++;
}

/* The algorithms that 'all' leaves out on this communicator. */
static void note_inapplicable(struct bench *b)
{
    const char *coll = b->opt.coll->name;
    int n = mpicoll_algorithm_count(coll);

    for (int i = 0; i < n; i++) {
        const char *name = mpicoll_algorithm_name(coll, i);

        if (cases_applicable(coll, name, b->nranks, b->nnodes, b->opt.mode) != 1)
            note(b, name, b->opt.mode);
    }
}

/* A -a token that is no algorithm: the library's own message (the one
 * MPICOLL_<COLL> would give), and what else -a takes. */
static int bad_algorithm(const char *why, int rank)
{
    if (rank == 0)
        fprintf(stderr, "mpicoll " CMD ": -a: %s%s\n", why, strncmp(why, "unknown", 7) == 0
                ? "; -a also takes all, auto and native (see 'mpicoll list')" : "");
    return EXIT_USAGE;
}

/* Adds the cases of one -a token; 0, EXIT_USAGE or EXIT_FAILED. */
static int add_token(struct bench *b, const char *tok, int rank)
{
    const struct bench_options *opt = &b->opt;
    const char *coll = opt->coll->name;
    char spec[256], why[512];
    int rc = 0;

    if (strcmp(tok, "native") == 0)
        rc = cases_add(&b->cases, 1, "native", opt->mode);
    else if (strcmp(tok, "auto") == 0)
        rc = cases_add(&b->cases, 0, "auto", opt->mode);
    else if (strcmp(tok, "all") == 0) {
        rc = cases_add_all(&b->cases, coll, b->nranks, b->nnodes, opt->sweep, opt->mode);
        note_inapplicable(b);
    } else if (cases_spec(coll, tok, spec, sizeof spec, why, sizeof why) != 0)
        return bad_algorithm(why, rank);
    else if (cases_applicable(coll, spec, b->nranks, b->nnodes, opt->mode) == 1)
        rc = cases_add(&b->cases, 0, spec, opt->mode);
    else
        note(b, spec, opt->mode);
    return rc ? EXIT_FAILED : 0;
}

/* With --persistent, every mpicoll case is followed by its persistent
 * form, where the algorithm runs as a request. */
static int add_persistent(struct bench *b)
{
    struct caselist blocking = b->cases;
    int rc = 0;

    b->cases = (struct caselist){ 0 };
    for (int i = 0; i < blocking.n && rc == 0; i++) {
        const struct mcase *k = &blocking.v[i];
        int twin = strcmp(k->spec, "auto") == 0
                   || cases_applicable(b->opt.coll->name, k->spec, b->nranks, b->nnodes,
                                       MODE_PERSISTENT) == 1;

        rc = cases_add(&b->cases, k->native, k->spec, MODE_BLOCKING);
        if (rc == 0 && twin)
            rc = cases_add(&b->cases, 0, k->spec, MODE_PERSISTENT);
        else if (!twin)
            note(b, k->spec, MODE_PERSISTENT);
    }
    cases_free(&blocking);
    return rc ? EXIT_FAILED : 0;
}

/* The cases from the -a list, in its order. A parameter list goes with its
 * algorithm: in "a:x=1,y=2,ring", "y=2" continues "a:x=1". */
static int build_cases(struct bench *b, int rank)
{
    const char *s = b->opt.algorithms;
    int rc = 0;

    while (rc == 0) {
        char spec[256];
        size_t len = opt_spec_len(s);

        if (len == 0 || len >= sizeof spec)
            return opt_error(CMD, rank, "-a: an empty or too long name in '%s'",
                             b->opt.algorithms);
        memcpy(spec, s, len);
        spec[len] = '\0';
        rc = add_token(b, spec, rank);
        if (s[len] == '\0')
            break;
        s += len + 1;
    }
    if (rc == 0 && b->opt.persistent)
        rc = add_persistent(b);
    if (rc == 0 && b->cases.n == 0)
        return opt_error(CMD, rank, "nothing to measure: no requested algorithm is applicable"
                         " on %d ranks", b->nranks);
    return rc;
}

/* ---- the run ------------------------------------------------------------ */

/* The rows: the -m ladder of sizes in bytes, or the --counts list of
 * elements, as call counts (reduce_scatter_block: n / p); a count of 0 or
 * the same as the row before is left out. */
static int plan_rows(const struct bench_options *opt, size_t *rows, int nranks)
{
    const struct mcoll *c = opt->coll;
    int n = 0;

    if (c->no_data) {       /* one row: the call itself */
        rows[0] = 0;
        return 1;
    }
    for (int i = 0; n < MAX_ROWS; i++) {
        size_t count;

        if (opt->ncounts) {
            if (i == opt->ncounts)
                break;
            count = mcoll_count_for(c, opt->type, nranks, (size_t)opt->counts[i] * opt->type->size);
        } else {
            size_t bytes = (size_t)opt->min_bytes << i;

            if (bytes > (size_t)opt->max_bytes)
                break;
            count = mcoll_count_for(c, opt->type, nranks, bytes);
        }
        if (count > 0 && (n == 0 || rows[n - 1] != count))
            rows[n++] = count;
    }
    return n;
}


static int has_auto(const struct caselist *cl)
{
    for (int i = 0; i < cl->n; i++)
        if (!cl->v[i].native && strcmp(cl->v[i].spec, "auto") == 0)
            return 1;
    return 0;
}

static void describe(struct bench *b, int nrows, int nranks)
{
    const struct bench_options *opt = &b->opt;
    struct report *r = &b->rep;

    r->command = opt->command;
    r->coll = opt->coll;
    r->type = opt->type;
    r->nranks = nranks;
    bench_counts(opt, &r->counts);
    r->counts_set = opt->iters >= 0;
    r->warmup_set = opt->warmup >= 0;
    r->delay_us = opt->delay_us;
    r->full = opt->full;
    r->check = opt->check;
    r->inplace = opt->inplace;
    r->nb = opt->mode == MODE_NB;
    r->persistent = opt->persistent;
    r->ms = opt->ncounts > 0;
    r->format = opt->format;
    r->cases = b->cases.v;
    r->ncases = b->cases.n;
    r->rows = b->rows;
    r->nrows = nrows;
    r->results = b->results;
    r->chose = has_auto(&b->cases) ? b->chose : NULL;
}

/* --evidence: what tells one launch from another, per rank. */
struct evidence {
    int cpu0;
    double t0;
    struct rusage ru0;
};

static void evidence_begin(struct evidence *e)
{
    e->cpu0 = sched_getcpu();
    getrusage(RUSAGE_SELF, &e->ru0);
    mpicoll_phases_record(1);
    e->t0 = MPI_Wtime();
}

/* The page size of the mapping that holds seg (/proc/self/smaps'
 * KernelPageSize, kB; 0 if not found) and whether it is a hugetlbfs one. */
static long seg_page_kb(const void *seg, int *huge)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    unsigned long lo, hi, at = (unsigned long)(uintptr_t)seg;
    long kb = 0;
    int in = 0;

    *huge = 0;
    while (f && seg && kb == 0 && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, ' ') > strchr(line, '-')) {
            in = at >= lo && at < hi;
            *huge = in && strstr(line, "huge") != NULL;
        } else if (in) {
            sscanf(line, "KernelPageSize: %ld kB", &kb);
        }
    }
    if (f)
        fclose(f);
    return kb;
}

/* The CPU's model name, as lscpu gives it (/proc/cpuinfo's "model name"). */
static void cpu_model(char *out, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];

    snprintf(out, n, "?");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            snprintf(out, n, "%s", strchr(line, ':') + 2);
            out[strcspn(out, "\n")] = '\0';
            break;
        }
    if (f)
        fclose(f);
}

/* One line per rank on rank 0's stderr, in rank order. */
static void evidence_end(const struct evidence *e, int rank, int nranks)
{
    double us = (MPI_Wtime() - e->t0) * 1e6;
    mpicoll_phases ph;
    struct rusage ru;
    char model[128], mine[512], *all = NULL;
    int huge;
    long kb;

    mpicoll_phases_get(&ph);
    mpicoll_phases_record(0);
    getrusage(RUSAGE_SELF, &ru);
    cpu_model(model, sizeof model);
    kb = seg_page_kb(ph.seg, &huge);
    snprintf(mine, sizeof mine, "evidence: rank=%d cpu_start=%d cpu_end=%d minflt=%ld majflt=%ld"
             " nvcsw=%ld nivcsw=%ld elapsed_us=%.0f shm_calls=%ld copy_in_us=%.1f wait_us=%.1f"
             " copy_out_us=%.1f pull_us=%.1f seg=%p seg_page_kb=%ld seg_huge=%d model=\"%s\"",
             rank, e->cpu0, sched_getcpu(), ru.ru_minflt - e->ru0.ru_minflt,
             ru.ru_majflt - e->ru0.ru_majflt, ru.ru_nvcsw - e->ru0.ru_nvcsw,
             ru.ru_nivcsw - e->ru0.ru_nivcsw, us, ph.calls, ph.copy_in * 1e6, ph.wait * 1e6,
             ph.copy_out * 1e6, ph.pull * 1e6, ph.seg, kb, huge, model);
    if (rank == 0)
        all = malloc((size_t)nranks * sizeof mine);
    MPI_Gather(mine, (int)sizeof mine, MPI_CHAR, all, (int)sizeof mine, MPI_CHAR, 0,
               MPI_COMM_WORLD);
    fflush(stdout);     /* after the table, not in it */
    for (int r = 0; all && r < nranks; r++)
        fprintf(stderr, "%s\n", all + (size_t)r * sizeof mine);
    free(all);
}

/* Measures every row; returns the exit code. */
static int measure_rows(struct bench *b, int nrows, int rank, int nranks)
{
    struct meas m = { .coll = b->opt.coll, .type = b->opt.type, .inplace = b->opt.inplace,
                      .check_chunks = b->opt.check, .no_validate = b->opt.no_validate,
                      .rank_mean = b->opt.rank_mean,
                      .delay_us = b->opt.delay_us };
    struct progress pg;
    struct evidence ev;
    size_t max = 0;
    int failed = 0;

    bench_counts(&b->opt, &m.counts);
    for (int r = 0; r < nrows; r++)
        max = b->rows[r] > max ? b->rows[r] : max;
    if (!meas_open(&m, MPI_COMM_WORLD, max)) {
        if (rank == 0)
            fprintf(stderr, "mpicoll " CMD ": cannot allocate the buffers for these sizes on %d"
                    " ranks\n", nranks);
        meas_close(&m);
        return EXIT_FAILED;
    }
    progress_init(&pg, rank);
    m.pg = &pg;
    for (int r = 0; r < nrows; r++)
        pg.total += meas_size_units(&m, b->cases.v, b->cases.n, b->rows[r]);
    if (b->opt.evidence)
        evidence_begin(&ev);
    if (rank == 0)
        report_begin(&b->rep);
    for (int r = 0; r < nrows; r++) {
        meas_size(&m, b->cases.v, b->cases.n, b->rows[r], b->opt.command);
        for (int k = 0; k < b->cases.n; k++) {
            b->results[(size_t)r * (size_t)b->cases.n + (size_t)k] = b->cases.v[k].res;
            failed |= !b->cases.v[k].res.valid;
        }
        if (b->rep.chose) {     /* what auto's blocking call ran at this size */
            snprintf(b->chose[r], sizeof b->chose[r], "?");
            for (int k = b->cases.n - 1; k >= 0; k--)
                if (strcmp(b->cases.v[k].spec, "auto") == 0 && b->cases.v[k].ran[0]
                    && (b->cases.v[k].mode == MODE_BLOCKING || b->chose[r][0] == '?'))
                    snprintf(b->chose[r], sizeof b->chose[r], "%s", b->cases.v[k].ran);
        }
        if (rank == 0) {
            progress_end(&pg);
            report_row(&b->rep, r);
        }
    }
    if (rank == 0)
        report_end(&b->rep);
    if (b->opt.evidence)
        evidence_end(&ev, rank, nranks);
    meas_close(&m);
    return failed ? EXIT_FAILED : EXIT_SUCCESS;
}

/* A --plot run needs gnuplot: said before anything is measured. */
static int check_plot(const struct bench_options *opt, int rank)
{
    int have = 1;

    if (opt->plot == NULL)
        return 0;
    if (rank == 0)
        have = report_have_gnuplot();
    MPI_Bcast(&have, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!have && rank == 0)
        fprintf(stderr, "mpicoll " CMD ": --plot needs gnuplot, which is not on the PATH"
                " (Debian: apt-get install gnuplot-nox), or MPICOLL_GNUPLOT names no program;"
                " nothing was measured\n");
    return have ? 0 : EXIT_FAILED;
}

static int bench(int argc, char **argv, struct bench *b, int rank, int nranks)
{
    int nrows, code = bench_parse_options(argc, argv, &b->opt, rank);

    if (code != 0 || b->opt.help) {
        if (code == 0 && rank == 0)
            bench_usage(stdout);
        return code;
    }
    b->nranks = nranks;
    b->nnodes = measure_nodes(MPI_COMM_WORLD);
    code = build_cases(b, rank);
    /* out of memory on one rank stops them all */
    MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (code == 0)
        code = check_plot(&b->opt, rank);
    if (code != 0)
        return code;
    nrows = plan_rows(&b->opt, b->rows, nranks);
    if (nrows == 0)
        return opt_error(CMD, rank, "no size left: every row would hold no element of %s"
                         " (%zu bytes)", b->opt.type->name, b->opt.type->size);
    b->results = calloc((size_t)nrows * (size_t)b->cases.n, sizeof *b->results);
    b->chose = calloc((size_t)nrows, sizeof *b->chose);
    code = b->results == NULL || b->chose == NULL;
    MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (code) {
        if (rank == 0)
            fprintf(stderr, "mpicoll " CMD ": out of memory\n");
        return EXIT_FAILED;
    }
    describe(b, nrows, nranks);
    return measure_rows(b, nrows, rank, nranks);
}

int mpicoll_cli_bench(int argc, char **argv)
{
    struct bench *b = calloc(1, sizeof *b);
    int rank, nranks, code;

    measure_init(&argc, &argv, &rank, &nranks);
    code = b ? bench(argc, argv, b, rank, nranks) : EXIT_FAILED;
    MPI_Finalize();
    /* gnuplot runs once MPI is done (no fork inside an MPI process) */
    if (b && b->results && b->opt.plot && rank == 0 && report_plot(&b->rep, b->opt.plot) != 0)
        code = EXIT_FAILED;
    if (b) {
        cases_free(&b->cases);
        free(b->results);
        free(b->chose);
    }
    free(b);
    return code;
}
