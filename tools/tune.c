/*
 * mpicoll tune: for each collective, each communicator size (the whole
 * communicator, and smaller ones split off its first ranks) and each size
 * of the ladder, every algorithm that runs as itself with every value of
 * its parameter sweep is timed as `mpicoll bench` times it (measure.h);
 * the fastest median wins, and adjacent sizes with the same winner merge
 * into one rule. Rank 0 writes the rules file whole at the end: a
 * temporary file in the same directory, renamed over the target, so an
 * interrupted tune leaves the target as it was.
 */
#include "tune.h"

#include "measure.h"
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define CMD "tune"
#define DEFAULT_OUTPUT "mpicoll.rules"
#define DEFAULT_MAX_BYTES (1L << 20)
/* OSU's 100 + 10 above 8 KiB, and 400 + 40 (not 1000 + 100) up to it: a
 * tune measures some 10 to 25 cases per size on several communicator
 * sizes; these keep allgather, alltoall and allreduce on 4 ranks of a
 * 2-core machine to a minute or two (docs/benchmarks.md), with medians
 * that hold to a few percent from run to run. */
#define ITERS_SMALL 400
#define WARMUP_SMALL 40
#define ITERS_LARGE 100
#define WARMUP_LARGE 10
/* A case within this much of the fastest median at a size may win it
 * (differences below are noise on a shared machine): among those, the one
 * that stays so over the longest run of sizes, so there are few rules. */
#define TOLERANCE 0.05
#define MAX_SIZES 64
#define MAX_NPS 32

static const char *const default_colls[] = { "allgather", "alltoall", "allreduce" };

struct options {
    const char *output;
    long min_bytes, max_bytes;
    int iters, warmup;      /* -1: the defaults above */
    int nps[MAX_NPS], nnps; /* 0: the default sizes */
    const struct mcoll *colls[8];
    int ncolls;
    int help;
};

/* What was measured at one size: the median of every valid case. */
struct cand {
    char spec[64];
    double median;
};

struct point {
    size_t bytes;
    struct cand *c;
    int n;
    double best;               /* the fastest median */
    int winner;                /* index in c, set by choose() */
};

/* One collective on one communicator size. */
struct table {
    const struct mcoll *coll;
    int np;
    struct point pts[MAX_SIZES];
    int npts;
    char failed[512];          /* cases that failed validation or a call */
};

/* ---- command line ------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
        "usage: mpirun -n P mpicoll tune [-o FILE] [options] [COLLECTIVE...]\n"
        "Measures every algorithm of each COLLECTIVE (default: allgather alltoall\n"
        "allreduce) that runs as itself, with every value of its parameter sweep\n"
        "(values that make the same plan are measured once), at every size of the\n"
        "ladder, on P ranks and on smaller communicators split off the first ranks;\n"
        "writes the fastest as rules (docs/selection.md), with a header saying the\n"
        "machine, the MPI library, the date, the command and how it measured.\n"
        "Use them with MPICOLL_RULES=FILE; the mpicoll bench 'auto' column then\n"
        "shows what they choose.\n"
        "\n"
        "options:\n"
        "  -o FILE       the rules file (default %s); written whole at the end\n"
        "                (a temporary file renamed), so an interrupted tune leaves FILE\n"
        "                as it was\n"
        "  -m [MIN:]MAX  sizes in bytes, powers of two times MIN (default 1:%ld); the\n"
        "                measure of the rules' bytes=: one rank's block (allgather,\n"
        "                alltoall), the vector (allreduce, reduce, bcast), all p\n"
        "                blocks (reduce_scatter_block)\n"
        "  -i ITER       timed iterations per size and case (default %d, %d above %d\n"
        "                bytes)\n"
        "  -x WARMUP     warm-up iterations (default %d, %d above %d bytes)\n"
        "  --np LIST     comma-separated communicator sizes, 2..P (default: 2, 3, 4,\n"
        "                the powers of two and three times the powers of two up to P,\n"
        "                and P); other sizes fall through to the built-in rules\n"
        "  -h, --help    this help\n"
        "A progress line goes to stderr when it is a terminal. Exit status: 0; 1 if a\n"
        "case failed (the file is written without it) or the file could not be\n"
        "written; 2 for a bad command line.\n",
        DEFAULT_OUTPUT, DEFAULT_MAX_BYTES, ITERS_SMALL, ITERS_LARGE, MEASURE_LARGE_BYTES,
        WARMUP_SMALL, WARMUP_LARGE, MEASURE_LARGE_BYTES);
}

static int parse_nps(const char *val, struct options *opt, int nranks, int rank)
{
    const char *tok = val;
    long n;

    opt->nnps = 0;
    for (;;) {
        size_t len = strcspn(tok, ",");

        if (opt->nnps == MAX_NPS || !opt_long(tok, tok + len, 2, nranks, &n))
            return opt_error(CMD, rank, "--np: expected up to %d comma-separated sizes from 2"
                             " to %d (the ranks), got '%s'", MAX_NPS, nranks, val);
        opt->nps[opt->nnps++] = (int)n;
        if (tok[len] == '\0')
            return 0;
        tok += len + 1;
    }
}

static int add_collective(const char *name, struct options *opt, int rank)
{
    const struct mcoll *c = mcoll_find(name);

    if (c == NULL) {
        if (rank == 0) {
            fprintf(stderr, "mpicoll " CMD ": unknown collective '%s'; supported:", name);
            for (int i = 0; mcolls[i]; i++)
                fprintf(stderr, " %s", mcolls[i]->name);
            fputc('\n', stderr);
        }
        return EXIT_USAGE;
    }
    for (int i = 0; i < opt->ncolls; i++)
        if (opt->colls[i] == c)
            return 0;
    if (opt->ncolls == (int)(sizeof opt->colls / sizeof opt->colls[0]))
        return opt_error(CMD, rank, "too many collectives");
    opt->colls[opt->ncolls++] = c;
    return 0;
}

static int parse_options(int argc, char **argv, struct options *opt, int nranks, int rank)
{
    const char *val;
    int rc = 0;

    *opt = (struct options){ .output = DEFAULT_OUTPUT, .min_bytes = 1,
                             .max_bytes = DEFAULT_MAX_BYTES, .iters = -1, .warmup = -1 };
    for (int i = 1; i < argc && rc == 0; i++) {
        if (opt_is_help(argv[i]))
            opt->help = 1;
        else if (opt_match(argc, argv, &i, "-o", &val))
            rc = val ? (opt->output = val, 0) : opt_error(CMD, rank, "-o needs a value");
        else if (opt_match(argc, argv, &i, "-m", &val))
            rc = val ? opt_sizes(CMD, val, &opt->min_bytes, &opt->max_bytes, rank)
                     : opt_error(CMD, rank, "-m needs a value");
        else if (opt_match(argc, argv, &i, "-i", &val))
            rc = val ? opt_count(CMD, "-i", val, 1, &opt->iters, rank)
                     : opt_error(CMD, rank, "-i needs a value");
        else if (opt_match(argc, argv, &i, "-x", &val))
            rc = val ? opt_count(CMD, "-x", val, 0, &opt->warmup, rank)
                     : opt_error(CMD, rank, "-x needs a value");
        else if (opt_match(argc, argv, &i, "--np", &val))
            rc = val ? parse_nps(val, opt, nranks, rank)
                     : opt_error(CMD, rank, "--np needs a value");
        else if (argv[i][0] == '-')
            rc = opt_error(CMD, rank, "unknown option '%s'", argv[i]);
        else
            rc = add_collective(argv[i], opt, rank);
    }
    if (opt->ncolls == 0)
        for (int i = 0; rc == 0 && i < 3; i++)
            rc = add_collective(default_colls[i], opt, rank);
    return rc;
}

static int compare_ints(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* The communicator sizes, ascending, each once: --np's, or 2, 3, 4, the
 * powers of two and three times the powers of two up to P, and P. */
static void communicator_sizes(struct options *opt, int nranks)
{
    int n = 0;

    if (opt->nnps == 0) {
        for (int q = 2; q <= nranks && opt->nnps < MAX_NPS - 2; q *= 2) {
            opt->nps[opt->nnps++] = q;
            if (3 * q / 2 <= nranks)
                opt->nps[opt->nnps++] = 3 * q / 2;
        }
        opt->nps[opt->nnps++] = nranks;
    }
    qsort(opt->nps, (size_t)opt->nnps, sizeof opt->nps[0], compare_ints);
    for (int i = 0; i < opt->nnps; i++)
        if (n == 0 || opt->nps[i] != opt->nps[n - 1])
            opt->nps[n++] = opt->nps[i];
    opt->nnps = n;
}

/* The directory of the output must take a new file (checked before
 * anything is measured). */
static int output_writable(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');

    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return access(dir, W_OK | X_OK) == 0;
}

/* ---- measuring ---------------------------------------------------------- */

static struct counts tune_counts(const struct options *opt)
{
    struct counts k = { ITERS_SMALL, WARMUP_SMALL, ITERS_LARGE, WARMUP_LARGE };

    if (opt->iters >= 0)
        k.iters_small = k.iters_large = opt->iters;
    if (opt->warmup >= 0)
        k.warmup_small = k.warmup_large = opt->warmup;
    return k;
}

/* The call counts of the ladder for a collective on np ranks. */
static int ladder(const struct options *opt, const struct mcoll *c, int np, size_t *counts)
{
    const struct etype *t = &etypes[c->default_type];
    int n = 0;

    for (size_t bytes = (size_t)opt->min_bytes; bytes <= (size_t)opt->max_bytes
         && n < MAX_SIZES; bytes *= 2) {
        size_t count = mcoll_count_for(c, t, np, bytes);

        if (count > 0 && (n == 0 || counts[n - 1] != count))
            counts[n++] = count;
    }
    return n;
}

/* The cases of `all` at one size, leaving out a parameter value whose
 * plan is the same as an earlier one's (measured once, under the
 * smallest value). */
static int distinct_cases(const struct caselist *all, const struct mcoll *c, int np,
                          size_t count, struct caselist *out)
{
    size_t esize = c->vector ? etypes[c->default_type].size : 1;

    out->n = 0;
    for (int i = 0; i < all->n; i++) {
        int dup = 0;

        for (int j = 0; j < out->n && !dup; j++)
            dup = cases_same_plan(c->name, out->v[j].spec, all->v[i].spec, np, count, esize);
        if (!dup && cases_add(out, 0, all->v[i].spec, MODE_BLOCKING) != 0)
            return -1;
    }
    return 0;
}

static void note_failures(struct table *tb, const struct caselist *cl, size_t bytes)
{
    for (int i = 0; i < cl->n; i++) {
        size_t n = strlen(tb->failed);

        if (!cl->v[i].res.valid)
            snprintf(tb->failed + n, sizeof tb->failed - n, "%s%s at %zu B", n ? ", " : "",
                     cl->v[i].label, bytes);
    }
}

/* Keeps the medians of the valid cases of a measured size. */
static int record(struct table *tb, const struct caselist *cl, size_t bytes)
{
    struct point *pt = &tb->pts[tb->npts];

    note_failures(tb, cl, bytes);
    *pt = (struct point){ .bytes = bytes, .c = calloc((size_t)cl->n, sizeof *pt->c),
                          .best = INFINITY };
    if (pt->c == NULL)
        return 0;
    for (int i = 0; i < cl->n; i++) {
        if (!cl->v[i].res.valid)
            continue;
        snprintf(pt->c[pt->n].spec, sizeof pt->c[0].spec, "%s", cl->v[i].spec);
        pt->c[pt->n].median = cl->v[i].res.time.median;
        pt->best = fmin(pt->best, pt->c[pt->n].median);
        pt->n++;
    }
    if (pt->n > 0)
        tb->npts++;
    else
        free(pt->c);
    return 1;
}

/* Where spec is among a point's candidates within TOLERANCE, or -1. */
static int within(const struct point *pt, const char *spec)
{
    for (int i = 0; i < pt->n; i++)
        if (strcmp(pt->c[i].spec, spec) == 0)
            return pt->c[i].median <= (1 + TOLERANCE) * pt->best ? i : -1;
    return -1;
}

/* Where two candidates reach equally far: an algorithm's default
 * parameters before a swept value (a value within TOLERANCE of the
 * fastest is noise more often than a better setting, and the default is
 * what a forced algorithm runs), then the faster at the first size. */
static int preferred(const struct table *tb, const struct cand *x, const struct cand *y)
{
    int dx = cases_default_params(tb->coll->name, x->spec);
    int dy = cases_default_params(tb->coll->name, y->spec);
    return dx != dy ? dx > dy : x->median < y->median;
}

/* The winners: from the first size on, the candidate that stays within
 * TOLERANCE of the fastest over the longest run of sizes (see preferred()
 * where runs tie), then again from the first size after its run.
 * This gives the fewest rules that keep every size within TOLERANCE. */
static void choose(struct table *tb)
{
    for (int i = 0; i < tb->npts;) {
        const struct point *pt = &tb->pts[i];
        int best = -1, reach = -1;

        for (int k = 0; k < pt->n; k++) {
            int j = i;

            if (within(pt, pt->c[k].spec) < 0)
                continue;
            while (j + 1 < tb->npts && within(&tb->pts[j + 1], pt->c[k].spec) >= 0)
                j++;
            if (j > reach || (j == reach && preferred(tb, &pt->c[k], &pt->c[best]))) {
                best = k;
                reach = j;
            }
        }
        for (int j = i; j <= reach; j++)
            tb->pts[j].winner = within(&tb->pts[j], pt->c[best].spec);
        i = reach + 1;
    }
}

static void free_table(struct table *tb)
{
    for (int i = 0; i < tb->npts; i++)
        free(tb->pts[i].c);
    tb->npts = 0;
}

/* Measures one collective on the communicator `comm` (its np ranks). */
static int tune_one(const struct options *opt, struct table *tb, MPI_Comm comm,
                    struct progress *pg)
{
    const struct mcoll *c = tb->coll;
    struct meas m = { .coll = c, .type = &etypes[c->default_type], .counts = tune_counts(opt),
                      .pg = pg };
    struct caselist all = { 0 }, cases = { 0 };
    size_t counts[MAX_SIZES];
    int n = ladder(opt, c, tb->np, counts), ok, kept = 1;
    char label[64];

    snprintf(label, sizeof label, "tune %s np=%d:", c->name, tb->np);
    ok = cases_add_all(&all, c->name, tb->np, measure_nodes(comm), 1, MODE_BLOCKING) == 0;
    ok = meas_open(&m, comm, n > 0 ? counts[n - 1] : 1) && ok;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
    for (int s = 0; ok && s < n; s++) {
        /* every rank measures the same cases, or none does */
        ok = distinct_cases(&all, c, tb->np, counts[s], &cases) == 0;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
        if (ok) {
            meas_size(&m, cases.v, cases.n, counts[s], label);
            kept = record(tb, &cases, mcoll_row_bytes(c, m.type, tb->np, counts[s])) && kept;
        }
    }
    choose(tb);
    meas_close(&m);
    cases_free(&all);
    cases_free(&cases);
    return ok && kept;
}

/* The work of the whole tune, for the progress estimate. */
static double total_units(const struct options *opt)
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

            all.n = 0;
            /* one node: an estimate, before the communicators exist */
            if (cases_add_all(&all, c->name, opt->nps[q], 1, 1, MODE_BLOCKING) != 0)
                break;
            for (int s = 0; s < n; s++)
                if (distinct_cases(&all, c, opt->nps[q], counts[s], &cases) == 0)
                    total += meas_size_units(&m, cases.v, cases.n, counts[s]);
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

/* Where a range ends between two measured sizes: their geometric mean. */
static unsigned long long boundary(size_t a, size_t b)
{
    return (unsigned long long)floor(sqrt((double)a * (double)b));
}

static const char *winner(const struct point *pt)
{
    return pt->c[pt->winner].spec;
}

/* A rule's comment: where it was measured, the winner's medians, and how
 * often it was the fastest (else how far behind, at worst). */
static void rule_comment(FILE *f, const struct table *tb, int first, int last)
{
    double lo = INFINITY, hi = 0, behind = 0;
    size_t behind_at = 0;
    int fastest = 0;

    for (int j = first; j <= last; j++) {
        const struct point *pt = &tb->pts[j];
        double m = pt->c[pt->winner].median;

        lo = fmin(lo, m);
        hi = fmax(hi, m);
        fastest += m == pt->best;
        if (m / pt->best - 1 > behind) {
            behind = m / pt->best - 1;
            behind_at = pt->bytes;
        }
    }
    fprintf(f, "   # %zu-%zu B: %.2f-%.2f us, the fastest at %d of %d sizes", tb->pts[first].bytes,
            tb->pts[last].bytes, lo, hi, fastest, last - first + 1);
    if (fastest < last - first + 1)
        fprintf(f, ", at most %.1f%% behind (%zu B)", 100 * behind, behind_at);
    fputc('\n', f);
}

/* The rules of one table: adjacent sizes with the same winner as one
 * rule, with a comment saying what was measured. */
static void write_rules(FILE *f, const struct table *tb)
{
    unsigned long long lo = 0;

    fprintf(f, "\n# %s on %d ranks\n", tb->coll->name, tb->np);
    if (tb->failed[0])
        fprintf(f, "# failed (wrong result or MPI error), left out: %s\n", tb->failed);
    for (int i = 0, first = 0; i < tb->npts; i++) {
        const struct point *b = &tb->pts[i];
        char range[64];

        if (i + 1 < tb->npts && strcmp(winner(&tb->pts[i + 1]), winner(b)) == 0)
            continue;
        if (i + 1 < tb->npts)
            snprintf(range, sizeof range, "%llu-%llu", lo, boundary(b->bytes, tb->pts[i + 1].bytes));
        else
            snprintf(range, sizeof range, "%llu-", lo);
        fprintf(f, "%s np=%d bytes=%s %s", tb->coll->name, tb->np, range, winner(b));
        rule_comment(f, tb, first, i);
        if (i + 1 < tb->npts)
            lo = boundary(b->bytes, tb->pts[i + 1].bytes) + 1;
        first = i + 1;
    }
}

static void write_header(FILE *f, const struct options *opt, int argc, char **argv,
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
        "#   itself, with every value of its parameter sweep (values that make the same\n"
        "#   plan measured once), timed as mpicoll bench does: a barrier before each\n"
        "#   iteration, the cases alternating in chunks; a case's figure is the median\n"
        "#   of the slowest rank's time per iteration. A case within %.0f%% of the\n"
        "#   fastest at a size may win it; from the smallest size on, the one that\n"
        "#   stays so over the longest run of sizes wins them (the fewest rules that\n"
        "#   keep every size within %.0f%%; where runs tie, default parameters before\n"
        "#   swept values, then the faster). Adjacent sizes with the same winner make\n"
        "#   one rule; a range ends halfway (geometric mean) between two measured\n"
        "#   sizes. bytes= is the message size of docs/selection.md: one rank's\n"
        "#   block for allgather and alltoall, the vector for allreduce, reduce and\n"
        "#   bcast (float; char for bcast), all p blocks for reduce_scatter_block.\n"
        "#   A rule's comment: the sizes it was measured at, the winner's medians\n"
        "#   there, and how often it was the fastest (else how far behind, at worst).\n",
        opt->min_bytes, opt->max_bytes, 100 * TOLERANCE, 100 * TOLERANCE);
}

/* Writes the whole file to a temporary file beside `path`, then renames
 * it over path. 0, or -1 with a message. */
static int write_file(const char *path, const struct options *opt, const struct table *tbs,
                      int ntbs, int argc, char **argv, int nranks)
{
    char tmp[PATH_MAX];
    int fd, rc = -1;
    FILE *f = NULL;

    mode_t mask = umask(0);

    umask(mask);
    if (snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= (int)sizeof tmp) {
        fprintf(stderr, "mpicoll " CMD ": %s: path too long\n", path);
        return -1;
    }
    fd = mkstemp(tmp);
    if (fd >= 0)
        f = fdopen(fd, "w");
    if (f == NULL) {
        fprintf(stderr, "mpicoll " CMD ": cannot create %s: %s\n", tmp, strerror(errno));
        if (fd >= 0)
            close(fd);
        goto out;
    }
    write_header(f, opt, argc, argv, nranks);
    for (int i = 0; i < ntbs; i++)
        write_rules(f, &tbs[i]);
    if (fflush(f) != 0 || fsync(fileno(f)) != 0 || ferror(f)) {
        fprintf(stderr, "mpicoll " CMD ": cannot write %s: %s\n", tmp, strerror(errno));
        fclose(f);
        goto out;
    }
    if (fclose(f) != 0 || chmod(tmp, 0666 & ~mask) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "mpicoll " CMD ": cannot write %s: %s\n", path, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    if (rc != 0)
        unlink(tmp);
    return rc;
}

/* ---- the run ------------------------------------------------------------ */

static int tune(int argc, char **argv, int rank, int nranks)
{
    struct options opt;
    struct table *tbs;
    struct progress pg;
    MPI_Comm world;
    int code = parse_options(argc, argv, &opt, nranks, rank), ntbs = 0, ok = 1, failed = 0;

    if (code != 0 || opt.help) {
        if (code == 0 && rank == 0)
            usage(stdout);
        return code;
    }
    if (nranks < 2)
        return opt_error(CMD, rank, "run it under mpirun on 2 or more ranks");
    communicator_sizes(&opt, nranks);
    ok = rank != 0 || output_writable(opt.output);
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
    if (rank == 0 && ok && write_file(opt.output, &opt, tbs, ntbs, argc, argv, nranks) != 0)
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

    measure_init(&argc, &argv, &rank, &nranks);
    code = tune(argc, argv, rank, nranks);
    MPI_Finalize();
    return code;
}
