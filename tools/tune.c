/*
 * mpicoll tune: for each collective, each communicator size (the whole
 * communicator, and smaller ones split off its first ranks) and each size
 * of the ladder, every algorithm that runs as itself with every value of
 * its parameter sweep is timed as `mpicoll bench` times it (measure.h),
 * once per distinct plan (tune_plans.h); the rules are chosen from the
 * medians by tune_choose.h. Rank 0 writes the rules file whole at the end: a
 * temporary file in the same directory, renamed over the target, so an
 * interrupted tune leaves the target as it was. The command line:
 * tune_options.h.
 */
#include "tune.h"

#include "measure.h"
#include "options.h"
#include "tune_choose.h"
#include "tune_options.h"
#include "tune_plans.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZES 64

/* One collective on one communicator size: the candidates (every case
 * of the sweep, the same at every size) and, per measured size, what is
 * known of each (tune_choose.h). */
struct table {
    const struct mcoll *coll;
    int np;
    struct caselist all;
    size_t bytes[MAX_SIZES];
    struct tc_cell *cells[MAX_SIZES];
    int npts;
    char failed[512];          /* cases that failed validation or a call */
    char ran_as[512];          /* cases that ran as another algorithm */
};

/* ---- measuring ---------------------------------------------------------- */

/* The call counts of the ladder for a collective on np ranks. */
static int ladder(const struct tune_options *opt, const struct mcoll *c, int np, size_t *counts)
{
    const struct etype *t = &etypes[c->default_type];
    int n = 0;

    if (c->no_data) {       /* one point: the call itself */
        counts[0] = 0;
        return 1;
    }
    for (size_t bytes = (size_t)opt->min_bytes; bytes <= (size_t)opt->max_bytes
         && n < MAX_SIZES; bytes *= 2) {
        size_t count = mcoll_count_for(c, t, np, bytes);

        if (count > 0 && (n == 0 || counts[n - 1] != count))
            counts[n++] = count;
    }
    return n;
}

/* The cases of `all` at one size, one per group of cases that make the
 * same plan (tune_plan_groups: group[i] is the case measured for case i),
 * into out; pos[i]: where case i's group is in out. 0, or -1. */
static int distinct_cases(const struct caselist *all, const struct mcoll *c, int np, int nnodes,
                          size_t count, struct caselist *out, int *group, int *pos)
{
    size_t esize = c->vector ? etypes[c->default_type].size : 1;

    out->n = 0;
    if (tune_plan_groups(c->name, all, np, nnodes, count, esize, group) != 0)
        return -1;
    for (int i = 0; i < all->n; i++) {
        if (group[i] != i)
            continue;
        pos[i] = out->n;
        if (cases_add(out, 0, all->v[i].spec, MODE_BLOCKING) != 0)
            return -1;
    }
    for (int i = 0; i < all->n; i++)
        pos[i] = pos[group[i]];
    return 0;
}

/* Appends "what at N B" to a list in buf. */
static void note(char *buf, size_t size, const char *what, size_t bytes)
{
    size_t n = strlen(buf);

    snprintf(buf + n, size - n, "%s%s at %zu B", n ? ", " : "", what, bytes);
}

static void note_failures(struct table *tb, const struct caselist *cl, size_t bytes)
{
    for (int i = 0; i < cl->n; i++)
        if (!cl->v[i].res.valid)
            note(tb->failed, sizeof tb->failed, cl->v[i].label, bytes);
}

/* Keeps what a measured size says of every candidate: its group's median
 * (INFINITY if it failed), whether it may be named (it ran as itself and
 * its group is measured under its algorithm's name) and whether its plan
 * is auto's own choice there. */
static int record(struct table *tb, const struct caselist *cl, const int *group, const int *pos,
                  int nnodes, size_t count, size_t bytes)
{
    const struct mcoll *c = tb->coll;
    size_t esize = c->vector ? etypes[c->default_type].size : 1;
    struct tc_cell *cells = calloc((size_t)tb->all.n + 1, sizeof *cells);
    char builtin[64] = "";
    int valid = 0;

    note_failures(tb, cl, bytes);
    if (cells == NULL)
        return 0;
    if (tune_auto_choice(c->name, tb->np, nnodes, bytes, builtin, sizeof builtin) != 0)
        builtin[0] = '\0';
    /* the measured cases first, then the others of their groups */
    for (int i = 0; i < 2 * tb->all.n; i++) {
        int k = i % tb->all.n;
        const struct mcase *m = &cl->v[pos[k]];
        const char *rep = tb->all.v[group[k]].spec;
        int as_itself = m->ran[0] == '\0' || tune_same_algorithm(c->name, m->ran, rep);

        if ((group[k] == k) != (i < tb->all.n))
            continue;
        cells[k].group = group[k];
        cells[k].median = m->res.valid ? m->res.time.median : INFINITY;
        if (as_itself && tune_same_algorithm(c->name, tb->all.v[k].spec, rep))
            cells[k].flags |= TC_ELIGIBLE;
        if (group[k] != k) {
            cells[k].flags |= cells[group[k]].flags & TC_BUILTIN;
            continue;
        }
        valid |= m->res.valid;
        if (builtin[0] && tune_same_plan(c->name, rep, builtin, tb->np, nnodes, count, esize))
            cells[k].flags |= TC_BUILTIN;
        if (!as_itself && m->res.valid) {
            char what[160];

            snprintf(what, sizeof what, "%s (ran %s)", rep, m->ran);
            note(tb->ran_as, sizeof tb->ran_as, what, bytes);
        }
    }
    if (!valid) {
        free(cells);
        return 1;
    }
    tb->bytes[tb->npts] = bytes;
    tb->cells[tb->npts++] = cells;
    return 1;
}

static void free_table(struct table *tb)
{
    for (int i = 0; i < tb->npts; i++)
        free(tb->cells[i]);
    tb->npts = 0;
    cases_free(&tb->all);
}

/* Measures one collective on the communicator `comm` (its np ranks). */
static int tune_one(const struct tune_options *opt, struct table *tb, MPI_Comm comm,
                    struct progress *pg)
{
    const struct mcoll *c = tb->coll;
    struct meas m = { .coll = c, .type = &etypes[c->default_type], .counts = tune_counts(opt),
                      .pg = pg };
    struct caselist cases = { 0 };
    size_t counts[MAX_SIZES];
    int n = ladder(opt, c, tb->np, counts), ok, kept = 1, nnodes = measure_nodes(comm);
    int *group = NULL, *pos = NULL;
    char label[64];

    snprintf(label, sizeof label, "tune %s np=%d:", c->name, tb->np);
    ok = cases_add_all(&tb->all, c->name, tb->np, nnodes, 1, MODE_BLOCKING) == 0
         && (group = calloc((size_t)tb->all.n + 1, sizeof *group)) != NULL
         && (pos = calloc((size_t)tb->all.n + 1, sizeof *pos)) != NULL;
    ok = meas_open(&m, comm, n > 0 ? counts[n - 1] : 1) && ok;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
    for (int s = 0; ok && s < n; s++) {
        /* every rank measures the same cases, or none does */
        ok = distinct_cases(&tb->all, c, tb->np, nnodes, counts[s], &cases, group, pos) == 0;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
        if (ok) {
            meas_size(&m, cases.v, cases.n, counts[s], label);
            kept = record(tb, &cases, group, pos, nnodes, counts[s],
                          mcoll_row_bytes(c, m.type, tb->np, counts[s])) && kept;
        }
    }
    meas_close(&m);
    cases_free(&cases);
    free(group);
    free(pos);
    return ok && kept;
}

/* The work of the whole tune, for the progress estimate. */
static double total_units(const struct tune_options *opt)
{
    struct caselist all = { 0 }, cases = { 0 };
    size_t counts[MAX_SIZES];
    double total = 0;

    for (int i = 0; i < opt->ncolls; i++) {
        const struct mcoll *c = opt->colls[i];

        for (int q = 0; q < opt->nnps; q++) {
            struct meas m = { .coll = c, .type = &etypes[c->default_type],
                              .counts = tune_counts(opt), .nranks = opt->nps[q] };
            int n = ladder(opt, c, opt->nps[q], counts);

            int *group, *pos;

            all.n = 0;
            /* one node: an estimate, before the communicators exist */
            if (cases_add_all(&all, c->name, opt->nps[q], 1, 1, MODE_BLOCKING) != 0)
                break;
            group = calloc((size_t)all.n + 1, sizeof *group);
            pos = calloc((size_t)all.n + 1, sizeof *pos);
            for (int s = 0; group && pos && s < n; s++)
                if (distinct_cases(&all, c, opt->nps[q], 1, counts[s], &cases, group, pos) == 0)
                    total += meas_size_units(&m, cases.v, cases.n, counts[s]);
            free(group);
            free(pos);
        }
    }
    cases_free(&all);
    cases_free(&cases);
    return total;
}

/* Ranks outside the communicator being measured wait here without
 * spinning (they would take a core from the ranks that measure); those
 * inside come when they are done. */
static void meet(MPI_Comm world, int measuring)
{
    MPI_Request req;
    int done = 0;
    const struct timespec ms = { 0, 1000000 };

    MPI_Ibarrier(world, &req);
    if (measuring) {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        return;
    }
    while (MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&ms, NULL);
}

/* ---- the rules file ----------------------------------------------------- */

/* The rules of one table (tune_choose.h), after what was left out.
 * 0, or -1 out of memory. */
static int write_rules(FILE *f, const struct table *tb)
{
    int n = tb->all.n, rc = -1;
    const char **specs = calloc((size_t)n + 1, sizeof *specs);
    int *defaults = calloc((size_t)n + 1, sizeof *defaults);
    struct tc_cell *cells = calloc((size_t)(n * tb->npts) + 1, sizeof *cells);

    fprintf(f, "\n# %s on %d ranks\n", tb->coll->name, tb->np);
    if (tb->failed[0])
        fprintf(f, "# failed (wrong result or MPI error), left out: %s\n", tb->failed);
    if (tb->ran_as[0])
        fprintf(f, "# ran as another algorithm, never named: %s\n", tb->ran_as);
    if (specs && defaults && cells) {
        struct tc_table t = { .coll = tb->coll->name, .np = tb->np, .nsizes = tb->npts,
                              .ncands = n, .bytes = tb->bytes, .specs = specs,
                              .defaults = defaults, .cell = cells };

        for (int k = 0; k < n; k++) {
            specs[k] = tb->all.v[k].spec;
            defaults[k] = cases_default_params(tb->coll->name, specs[k]);
        }
        for (int s = 0; s < tb->npts; s++)
            memcpy(&cells[s * n], tb->cells[s], (size_t)n * sizeof *cells);
        rc = tc_write_rules(f, &t) < 0 ? -1 : 0;
    }
    free(specs);
    free(defaults);
    free(cells);
    return rc;
}

static void write_header(FILE *f, const struct tune_options *opt, int argc, char **argv,
                         int nranks)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING], date[64];
    struct utsname u;
    int len;
    time_t t = time(NULL);
    const struct tm *tm = localtime(&t);
    struct counts k = tune_counts(opt);

    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0';
    if (tm == NULL || strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", tm) == 0)
        snprintf(date, sizeof date, "unknown");
    fprintf(f, "# mpicoll rules, measured by mpicoll tune (use: MPICOLL_RULES=this file)\n");
    if (uname(&u) == 0)
        fprintf(f, "# machine: %s %s %s %s %s, %ld cores online\n", u.sysname, u.nodename,
                u.release, u.version, u.machine, sysconf(_SC_NPROCESSORS_ONLN));
    fprintf(f, "# MPI library: %s\n# mpicoll: %s\n# date: %s\n# command: mpicoll", version,
            MPICOLL_VERSION, date);
    for (int i = 0; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, " (on %d ranks)\n", nranks);
    fprintf(f, "# communicator sizes:");
    for (int i = 0; i < opt->nnps; i++)
        fprintf(f, " %d", opt->nps[i]);
    fprintf(f, " (the first np ranks, split off MPI_COMM_WORLD); other sizes fall\n"
            "#   through to the built-in rules\n"
            "# iterations: %d timed after %d warm-up up to %d bytes, %d after %d above\n",
            k.iters_small, k.warmup_small, MEASURE_LARGE_BYTES, k.iters_large, k.warmup_large);
    fprintf(f,
        "# how: at each size of the ladder (-m %ld:%ld), every algorithm that runs as\n"
        "#   itself, with every value of its parameter sweep, timed as mpicoll bench\n"
        "#   does (a barrier before each iteration, the cases alternating in chunks; a\n"
        "#   case's figure is the median of the slowest rank's time per iteration).\n"
        "#   Cases that make the same plan at a size (a segment at or above the\n"
        "#   message; shm_hier on one node and shm) are one candidate there, measured\n"
        "#   once under the name that says what runs (a plan that does not read the\n"
        "#   node layout, default parameters); a case that ran as another algorithm\n"
        "#   is never named. Within the noise (%.0f%% or %.2f us of the fastest) any\n"
        "#   may win a size; of those choices: the most sizes where auto's own\n"
        "#   choice wins (what auto ran during the tune: the built-in rules, or the\n"
        "#   MPICOLL_RULES file then), then default parameters, then the fewest\n"
        "#   rules, then the faster. A range ends halfway (geometric mean) between\n"
        "#   two measured sizes. bytes= is the message size of docs/selection.md:\n"
        "#   one rank's block for allgather, alltoall, gather and scatter, the vector\n"
        "#   for allreduce, reduce and bcast (float; char for bcast), all p blocks\n"
        "#   for reduce_scatter_block.\n"
        "#   A rule's comment: the sizes it was measured at, the winner's medians\n"
        "#   there, at how many it was the fastest and by more than the noise, its\n"
        "#   margin over the runner-up (the fastest other plan; negative: behind),\n"
        "#   least (who, where) to most, and where it is auto's own choice.\n",
        opt->min_bytes, opt->max_bytes, 100 * TC_NOISE_REL, TC_NOISE_US);
}

/* The rules file's contents (tune_write_file's body). */
struct file_args {
    const struct tune_options *opt;
    const struct table *tbs;
    int ntbs, argc, nranks;
    char **argv;
};

static int file_body(FILE *f, void *arg)
{
    const struct file_args *x = arg;
    write_header(f, x->opt, x->argc, x->argv, x->nranks);
    for (int i = 0; i < x->ntbs; i++)
        if (write_rules(f, &x->tbs[i]) != 0)
            return -1;
    return 0;
}

/* ---- the run ------------------------------------------------------------ */

static int tune(int argc, char **argv, int rank, int nranks)
{
    struct tune_options opt;
    struct table *tbs;
    struct progress pg;
    MPI_Comm world;
    int code = tune_parse_options(argc, argv, &opt, nranks, rank), ntbs = 0, ok = 1, failed = 0;

    if (code != 0 || opt.help) {
        if (code == 0 && rank == 0)
            tune_usage(stdout);
        return code;
    }
    if (nranks < 2)
        return opt_error(CMD, rank, "run it under mpirun on 2 or more ranks");
    tune_communicator_sizes(&opt, nranks);
    ok = rank != 0 || tune_output_writable(opt.output);
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        if (rank == 0)
            fprintf(stderr, "mpicoll " CMD ": -o %s: its directory is not writable; nothing"
                    " was measured\n", opt.output);
        return EXIT_FAILED;
    }
    tbs = calloc((size_t)opt.ncolls * (size_t)opt.nnps, sizeof *tbs);
    if (tbs == NULL)
        return EXIT_FAILED;
    MPI_Comm_dup(MPI_COMM_WORLD, &world);
    progress_init(&pg, rank);
    pg.total = total_units(&opt);
    for (int i = 0; i < opt.ncolls; i++) {
        for (int q = 0; q < opt.nnps; q++) {
            struct table *tb = &tbs[ntbs++];
            MPI_Comm comm;

            tb->coll = opt.colls[i];
            tb->np = opt.nps[q];
            MPI_Comm_split(world, rank < tb->np ? 0 : MPI_UNDEFINED, rank, &comm);
            if (comm != MPI_COMM_NULL) {
                ok &= tune_one(&opt, tb, comm, &pg);
                failed |= tb->failed[0] != '\0';
                MPI_Comm_free(&comm);
            }
            meet(world, rank < tb->np);
        }
    }
    progress_end(&pg);
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, world);
    if (rank == 0 && !ok)
        fprintf(stderr, "mpicoll " CMD ": out of memory; %s not written\n", opt.output);
    struct file_args fa = { &opt, tbs, ntbs, argc, nranks, argv };
    if (rank == 0 && ok && tune_write_file(opt.output, file_body, &fa) != 0)
        ok = 0;
    if (rank == 0 && ok)
        fprintf(stderr, "mpicoll " CMD ": wrote %s%s\n", opt.output,
                failed ? " (some cases failed and were left out: see its comments)" : "");
    MPI_Bcast(&ok, 1, MPI_INT, 0, world);
    MPI_Bcast(&failed, 1, MPI_INT, 0, world); /* rank 0 took part in every measurement */
    MPI_Comm_free(&world);
    for (int i = 0; i < ntbs; i++)
        free_table(&tbs[i]);
    free(tbs);
    return ok && !failed ? EXIT_SUCCESS : EXIT_FAILED;
}

int mpicoll_cli_tune(int argc, char **argv)
{
    int rank, nranks, code;

    /* --model predicts instead of measuring: no MPI (tune_model.c) */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--model") == 0)
            return tune_model(argc, argv);
    measure_init(&argc, &argv, &rank, &nranks);
    code = tune(argc, argv, rank, nranks);
    MPI_Finalize();
    return code;
}
