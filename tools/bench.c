/*
 * mpicoll bench: latency of every algorithm of a collective, of what
 * mpicoll's automatic selection runs, and of the MPI library's own
 * implementation, over a ladder of sizes (measure.h times, report.h
 * prints).
 *
 * Timing follows the OSU micro-benchmarks so that the figures can be set
 * beside theirs (osu_allgather & co., osu_iallgather & co. for the
 * non-blocking forms): per size, warm-up then timed iterations, each
 * preceded by a barrier and timed on every rank; an iteration's figure is
 * the slowest rank's time. The cases of a size alternate in chunks, and
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
#include "bench.h"

#include "measure.h"
#include "options.h"
#include "report.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_MIN_BYTES 1L
#define DEFAULT_MAX_BYTES (1L << 20)
/* OSU's defaults. */
#define ITERS_SMALL 1000
#define WARMUP_SMALL 100
#define ITERS_LARGE 100
#define WARMUP_LARGE 10

#define CMD "bench"
#define MAX_ROWS 96

struct options {
    const char *command;    /* the collective as given: "allgather", "iallgather" */
    const struct mcoll *coll;
    int mode;               /* MODE_BLOCKING, or MODE_NB for i<collective> */
    int persistent;         /* --persistent */
    const struct etype *type;
    long min_bytes, max_bytes;
    long counts[64];        /* --counts: the elements of the rows */
    int ncounts;            /* 0: the -m ladder */
    int iters, warmup;      /* -1: OSU's defaults, which depend on the size */
    const char *algorithms; /* the -a list */
    long delay_us;
    int full, check, inplace, sweep, format, no_validate;
    const char *plot;
    int help;
};

/* What a run keeps until the end (the plot is drawn after MPI_Finalize). */
struct bench {
    struct options opt;
    int nranks, nnodes;
    struct caselist cases;
    size_t rows[MAX_ROWS];
    struct result *results;
    char (*chose)[64];
    char notes[REPORT_MAX_NOTES][384];  /* INAPPLICABLE with a 255-byte name */
    struct report rep;
};

/* ---- command line ------------------------------------------------------- */

static void print_list(FILE *f, const char *coll)
{
    int n = mpicoll_algorithm_count(coll);

    for (int i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? ", " : "", mpicoll_algorithm_name(coll, i));
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: mpirun -n P mpicoll bench COLLECTIVE [options]\n"
        "       mpirun -n P mpicoll bench COLLECTIVE SIZE ITERATIONS DELAY [options]\n"
        "Times every algorithm mpicoll has for COLLECTIVE, what its automatic\n"
        "selection runs ('auto') and the MPI library's own ('native'), on P ranks;\n"
        "prints one row per size and one column per algorithm.\n"
        "A row's size is one rank's block for allgather, what one rank sends to one\n"
        "peer for alltoall (as OSU's osu_allgather and osu_alltoall); the whole\n"
        "vector for allreduce, reduce, bcast and reduce_scatter_block (for the last,\n"
        "all p blocks: recvcount = n / p), as osu_allreduce counts it; those run\n"
        "MPI_SUM (reduce, bcast at root 0) on -T's type.\n"
        "iCOLLECTIVE (iallgather, ialltoall, iallreduce, ireduce, ibcast,\n"
        "ireduce_scatter_block): the non-blocking forms, as OSU's osu_iallgather:\n"
        "start + wait alone, then with a computation as long as that between start\n"
        "and wait; overlap = max(0, 100 (1 - (overall - computation) / pure)).\n"
        "\n"
        "The second form measures the one size SIZE (bytes) with ITERATIONS timed\n"
        "iterations and DELAY microseconds between iterations (the command line of\n"
        "the AllToAll study programs): '-m SIZE:SIZE -i ITERATIONS --delay DELAY'.\n"
        "\n"
        "options:\n"
        "  -m [MIN:]MAX  sizes in bytes: powers of two times MIN up to MAX\n"
        "                (default %ld:%ld)\n"
        "  -i ITER       timed iterations per size and case (default %d, %d above\n"
        "                %d bytes: OSU's)\n"
        "  -x WARMUP     warm-up iterations per size and case (default %d, %d above\n"
        "                %d bytes)\n"
        "  -a LIST       comma-separated: algorithm names (with parameters:\n"
        "                k_bruck:k=8; Open MPI 4.1's names and ids too, as in\n"
        "                MPICOLL_<COLLECTIVE>), 'all' (every algorithm that runs as\n"
        "                itself on P ranks), 'auto' (what mpicoll's selection runs),\n"
        "                'native' (the MPI library's own, an algorithm of every\n"
        "                collective: one column, also under 'all'); default\n"
        "                native,auto,all\n"
        "  --sweep       'all' also tries each algorithm's parameters (radix, segment\n"
        "                size, requests in flight): the default x 1/4 .. 4 and small\n"
        "                whole values\n"
        "  -f            full: also the average and the slowest iteration\n"
        "  -c            validate every case again after each chunk of its timed\n"
        "                iterations (every case is always validated before timing)\n"
        "  --no-validate time without validating, nor writing the buffers before\n"
        "                (SMPI's shared malloc, where all ranks' buffers are one\n"
        "                memory: docs/scale.md)\n"
        "  -l            in place (MPI_IN_PLACE; reduce: at the root)\n"
        "  -T, --type TYPE  element type of allreduce, reduce, bcast and\n"
        "                reduce_scatter_block: char, int, float or double, or as OSU\n"
        "                spells them, mpi_char ... mpi_double (default float for the\n"
        "                reductions, char for bcast; allgather and alltoall move\n"
        "                bytes: char, i.e. MPI_BYTE)\n"
        "  --persistent  also each mpicoll case as a persistent request\n"
        "                (mpicoll_<coll>_init once, then mpicoll_start + wait)\n"
        "  --delay US    sleep US microseconds after each iteration, outside the\n"
        "                timed region (default 0)\n"
        "  --counts LIST comma-separated element counts of the vector (allgather,\n"
        "                alltoall: of a block), instead of the -m ladder; rows are\n"
        "                (p, n) and cells milliseconds. Seed 001's table:\n"
        "                mpirun -n P mpicoll bench allreduce --type float \\\n"
        "                    --counts 1024,32768,1048576\n"
        "  --format F    table (default), csv (one line per size and case:\n"
        "                collective,np,bytes,count,algorithm,iterations,median_us,\n"
        "                min_us,avg_us,max_us,valid) or json\n"
        "  --plot FILE   also draw median latency against size (log-log), one line\n"
        "                per case, into FILE (PNG), with gnuplot (MPICOLL_GNUPLOT, or\n"
        "                gnuplot on the PATH)\n"
        "  -h, --help    this help\n"
        "A progress line (size, case, elapsed, remaining) goes to stderr when it is\n"
        "a terminal. Exit status: 0; 1 if a case failed (wrong result or MPI error);\n"
        "2 for a bad command line.\n"
        "\n"
        "collectives:",
        DEFAULT_MIN_BYTES, DEFAULT_MAX_BYTES, ITERS_SMALL, ITERS_LARGE, MEASURE_LARGE_BYTES,
        WARMUP_SMALL, WARMUP_LARGE, MEASURE_LARGE_BYTES);
    for (int i = 0; mcolls[i]; i++)
        fprintf(f, " %s", mcolls[i]->name);
    fputc('\n', f);
    for (int i = 0; mcolls[i]; i++) {
        fprintf(f, "%s algorithms: ", mcolls[i]->name);
        print_list(f, mcolls[i]->name);
        fputc('\n', f);
    }
}

static int unknown_collective(const char *name, int rank)
{
    if (rank == 0) {
        fprintf(stderr, "mpicoll " CMD ": unknown collective '%s'; supported:", name);
        for (int i = 0; mcolls[i]; i++)
            fprintf(stderr, " %s i%s", mcolls[i]->name, mcolls[i]->name);
        fputc('\n', stderr);
    }
    return EXIT_USAGE;
}

/* char, int, float, double; also as OSU spells them (-T mpi_float) and as
 * MPI does (MPI_FLOAT). */
static int parse_type(const char *val, struct options *opt, int rank)
{
    const char *name = strncasecmp(val, "mpi_", 4) == 0 ? val + 4 : val;

    for (int i = 0; i < NTYPES; i++)
        if (strcasecmp(name, etypes[i].name) == 0) {
            opt->type = &etypes[i];
            return 0;
        }
    if (strcmp(val, "all") == 0)
        return opt_error(CMD, rank, "--type: one type a run (OSU's 'all' is not taken):"
                         " char, int, float or double");
    return opt_error(CMD, rank, "--type: expected char, int, float or double (or OSU's"
                     " mpi_char, mpi_int, mpi_float, mpi_double), got '%s'", val);
}

static int parse_counts(const char *val, struct options *opt, int rank)
{
    const int cap = (int)(sizeof opt->counts / sizeof opt->counts[0]);
    const char *tok = val;

    opt->ncounts = 0;
    for (;;) {
        size_t len = strcspn(tok, ",");

        if (opt->ncounts == cap
            || !opt_long(tok, tok + len, 1, INT_MAX, &opt->counts[opt->ncounts]))
            return opt_error(CMD, rank, "--counts: expected up to %d comma-separated counts"
                             " from 1 to %d, got '%s'", cap, INT_MAX, val);
        opt->ncounts++;
        if (tok[len] == '\0')
            return 0;
        tok += len + 1;
    }
}

static int parse_format(const char *val, struct options *opt, int rank)
{
    static const char *const names[] = { "table", "csv", "json" };

    for (int i = 0; i < 3; i++)
        if (strcmp(val, names[i]) == 0) {
            opt->format = i;
            return 0;
        }
    return opt_error(CMD, rank, "--format: expected table, csv or json, got '%s'", val);
}

/* The second form: SIZE ITERATIONS DELAY after the collective. */
static int set_positional(struct options *opt, char **pos, int npos, const char *given,
                          int rank)
{
    long n;

    if (npos != 3)
        return opt_error(CMD, rank, "expected three numbers after the collective (SIZE"
                         " ITERATIONS DELAY), got %d", npos);
    if (*given)
        return opt_error(CMD, rank, "SIZE ITERATIONS DELAY set what %s would set: give one"
                         " or the other", given);
    if (!opt_long(pos[0], pos[0] + strlen(pos[0]), 1, INT_MAX, &n))
        return opt_error(CMD, rank, "SIZE: expected bytes from 1 to %d, got '%s'", INT_MAX,
                         pos[0]);
    opt->min_bytes = opt->max_bytes = n;
    if (!opt_long(pos[1], pos[1] + strlen(pos[1]), 1, OPT_MAX_COUNT, &n))
        return opt_error(CMD, rank, "ITERATIONS: expected a number from 1 to %d, got '%s'",
                         OPT_MAX_COUNT, pos[1]);
    opt->iters = (int)n;
    if (!opt_long(pos[2], pos[2] + strlen(pos[2]), 0, INT_MAX, &opt->delay_us))
        return opt_error(CMD, rank, "DELAY: expected microseconds from 0 to %d, got '%s'",
                         INT_MAX, pos[2]);
    return 0;
}

/* An option that takes a value; 0, EXIT_USAGE, or -1 if argv[*i] is none. */
static int value_option(int argc, char **argv, int *i, struct options *opt, char *given,
                        int rank)
{
    static const char *const names[] = { "-m", "-i", "-x", "-a", "-T", "--type", "--counts",
                                         "--delay", "--format", "--plot" };
    const char *val;
    long delay;

    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        const char *name = names[n];

        if (!opt_match(argc, argv, i, name, &val))
            continue;
        if (val == NULL || *val == '\0')
            return opt_error(CMD, rank, "%s needs a value%s", name,
                             strcmp(name, "--plot") == 0 ? " (the PNG file to write)" : "");
        /* "--plot -m 8": the next argument is an option, not the value */
        if (val == argv[*i] && val[0] == '-' && val[1] != '\0')
            return opt_error(CMD, rank, "%s needs a value%s, but the next argument is the"
                             " option '%s'", name, strcmp(name, "--plot") == 0
                             ? " (the PNG file to write)" : "", val);
        if (strcmp(name, "-m") == 0 || strcmp(name, "-i") == 0 || strcmp(name, "--counts") == 0
            || strcmp(name, "--delay") == 0)
            snprintf(given, 32, "%s", name); /* what the second form sets */
        if (strcmp(name, "-m") == 0)
            return opt_sizes(CMD, val, &opt->min_bytes, &opt->max_bytes, rank);
        if (strcmp(name, "-i") == 0)
            return opt_count(CMD, name, val, 1, &opt->iters, rank);
        if (strcmp(name, "-x") == 0)
            return opt_count(CMD, name, val, 0, &opt->warmup, rank);
        if (strcmp(name, "-a") == 0) {
            opt->algorithms = val; /* checked against the library once MPI runs */
            return 0;
        }
        if (strcmp(name, "--counts") == 0)
            return parse_counts(val, opt, rank);
        if (strcmp(name, "--delay") == 0) {
            if (!opt_long(val, val + strlen(val), 0, INT_MAX, &delay))
                return opt_error(CMD, rank, "--delay: expected microseconds from 0 to %d,"
                                 " got '%s'", INT_MAX, val);
            opt->delay_us = delay;
            return 0;
        }
        if (strcmp(name, "--format") == 0)
            return parse_format(val, opt, rank);
        if (strcmp(name, "--plot") == 0) {
            opt->plot = val;
            return 0;
        }
        return parse_type(val, opt, rank);
    }
    return -1;
}

static int flag_option(const char *arg, struct options *opt)
{
    static const char *const names[] = { "-f", "-c", "-l", "--sweep", "--persistent",
                                         "--no-validate" };
    int *flags[] = { &opt->full, &opt->check, &opt->inplace, &opt->sweep, &opt->persistent,
                     &opt->no_validate };

    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++)
        if (strcmp(arg, names[n]) == 0) {
            *flags[n] = 1;
            return 1;
        }
    return 0;
}

/* The collective: a name, or 'i' and a name for the non-blocking form. */
static int set_collective(const char *name, struct options *opt, int rank)
{
    opt->command = name;
    opt->coll = mcoll_find(name);
    opt->mode = MODE_BLOCKING;
    if (opt->coll == NULL && name[0] == 'i' && mcoll_find(name + 1)) {
        opt->coll = mcoll_find(name + 1);
        opt->mode = MODE_NB;
    }
    return opt->coll ? 0 : unknown_collective(name, rank);
}

/* Checks what the options say together. */
static int check_options(struct options *opt, int rank)
{
    if (opt->type == NULL)
        opt->type = &etypes[opt->coll->default_type];
    else if (!opt->coll->vector && opt->type != &etypes[T_CHAR])
        return opt_error(CMD, rank, "--type: %s moves bytes (MPI_BYTE): only 'char'",
                         opt->coll->name);
    if (opt->inplace && !mcoll_has_inplace(opt->coll))
        return opt_error(CMD, rank, "-l: %s has no in-place form", opt->coll->name);
    if (opt->persistent && opt->mode == MODE_NB)
        return opt_error(CMD, rank, "--persistent: with a blocking collective (%s"
                         " --persistent compares persistent and blocking calls)", opt->command + 1);
    return 0;
}

/* Options come after the collective; values either follow the option as
 * the next argument or are glued to it ("-m 1:64", "-m1:64", "--delay=10"),
 * as getopt allows in OSU. Arguments that are not options are the SIZE
 * ITERATIONS DELAY of the second form. */
static int parse_options(int argc, char **argv, struct options *opt, int rank)
{
    char *pos[3];
    int npos = 0, rc;
    char given[32] = ""; /* an option that the second form excludes */

    *opt = (struct options){ .min_bytes = DEFAULT_MIN_BYTES, .max_bytes = DEFAULT_MAX_BYTES,
                             .iters = -1, .warmup = -1, .algorithms = "native,auto,all" };
    if (argc < 2)
        return opt_error(CMD, rank, "missing collective");
    if (opt_is_help(argv[1])) {
        opt->help = 1;
        return 0;
    }
    if (set_collective(argv[1], opt, rank) != 0)
        return EXIT_USAGE;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];

        if (opt_is_help(arg))
            opt->help = 1;
        else if (flag_option(arg, opt))
            continue;
        else if ((rc = value_option(argc, argv, &i, opt, given, rank)) >= 0) {
            if (rc != 0)
                return rc;
        } else if (arg[0] != '-' && npos < 3)
            pos[npos++] = argv[i];
        else if (arg[0] != '-')
            return opt_error(CMD, rank, "unexpected argument '%s' after SIZE ITERATIONS DELAY",
                             arg);
        else
            return opt_error(CMD, rank, "unknown option '%s'", arg);
    }
    if (npos > 0 && !opt->help && set_positional(opt, pos, npos, given, rank) != 0)
        return EXIT_USAGE;
    return opt->help ? 0 : check_options(opt, rank);
}

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
    const struct options *opt = &b->opt;
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
static int plan_rows(const struct options *opt, size_t *rows, int nranks)
{
    const struct mcoll *c = opt->coll;
    int n = 0;

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

static void set_counts(const struct options *opt, struct counts *k)
{
    *k = (struct counts){ ITERS_SMALL, WARMUP_SMALL, ITERS_LARGE, WARMUP_LARGE };
    if (opt->iters >= 0)
        k->iters_small = k->iters_large = opt->iters;
    if (opt->warmup >= 0)
        k->warmup_small = k->warmup_large = opt->warmup;
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
    const struct options *opt = &b->opt;
    struct report *r = &b->rep;

    r->command = opt->command;
    r->coll = opt->coll;
    r->type = opt->type;
    r->nranks = nranks;
    set_counts(opt, &r->counts);
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

/* Measures every row; returns the exit code. */
static int measure_rows(struct bench *b, int nrows, int rank, int nranks)
{
    struct meas m = { .coll = b->opt.coll, .type = b->opt.type, .inplace = b->opt.inplace,
                      .check_chunks = b->opt.check, .no_validate = b->opt.no_validate,
                      .delay_us = b->opt.delay_us };
    struct progress pg;
    size_t max = 0;
    int failed = 0;

    set_counts(&b->opt, &m.counts);
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
    meas_close(&m);
    return failed ? EXIT_FAILED : EXIT_SUCCESS;
}

/* A --plot run needs gnuplot: said before anything is measured. */
static int check_plot(const struct options *opt, int rank)
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
    int nrows, code = parse_options(argc, argv, &b->opt, rank);

    if (code != 0 || b->opt.help) {
        if (code == 0 && rank == 0)
            usage(stdout);
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
