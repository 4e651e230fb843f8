/*
 * The command line of mpicoll bench (bench_options.h): the collective
 * (i<collective>: its non-blocking form), the options, OSU's second form
 * SIZE ITERATIONS DELAY, what they say together, the iteration counts
 * they give, and the help with its defaults.
 */
#include "bench_options.h"

#include "options.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_MIN_BYTES 1L
#define DEFAULT_MAX_BYTES (1L << 20)
/* OSU's defaults. */
#define ITERS_SMALL 1000
#define WARMUP_SMALL 100
#define ITERS_LARGE 100
#define WARMUP_LARGE 10

static void print_list(FILE *f, const char *coll)
{
    int n = mpicoll_algorithm_count(coll);

    for (int i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? ", " : "", mpicoll_algorithm_name(coll, i));
}

void bench_usage(FILE *f)
{
    fprintf(f,
        "usage: mpirun -n P mpicoll bench COLLECTIVE [options]\n"
        "       mpirun -n P mpicoll bench COLLECTIVE SIZE ITERATIONS DELAY [options]\n"
        "Times every algorithm mpicoll has for COLLECTIVE, what its automatic\n"
        "selection runs ('auto') and the MPI library's own ('native'), on P ranks;\n"
        "prints one row per size and one column per algorithm.\n"
        "A row's size is one rank's block for allgather, gather and scatter (root\n"
        "0), what one rank sends to one peer for alltoall (as OSU's osu_allgather,\n"
        "osu_gather, osu_scatter and osu_alltoall); the whole\n"
        "vector for allreduce, reduce, bcast and reduce_scatter_block (for the last,\n"
        "all p blocks: recvcount = n / p), as osu_allreduce counts it; those run\n"
        "MPI_SUM (reduce, bcast at root 0) on -T's type.\n"
        "iCOLLECTIVE (iallgather, ialltoall, iallreduce, ireduce, ibcast,\n"
        "ireduce_scatter_block, igather, iscatter): the non-blocking forms, as OSU's osu_iallgather:\n"
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
        "  --rank-mean   an iteration's figure is the mean of the ranks' times (OSU's\n"
        "                average latency), not the slowest rank's\n"
        "  --evidence    after the run, one line per rank on stderr: the CPU at\n"
        "                start and end, faults and context switches (getrusage) and\n"
        "                the elapsed us over the measured rows; the shm plans'\n"
        "                calls and their total us copying in, waiting, copying out\n"
        "                and pulling; the segment's address, page size (kB) and\n"
        "                whether it is huge-page backed; the CPU model\n"
        "  -l            in place (MPI_IN_PLACE; reduce, gather: at the root; scatter:\n"
        "                the root's receive buffer)\n"
        "  -T, --type TYPE  element type of allreduce, reduce, bcast and\n"
        "                reduce_scatter_block: char, int, float or double, or as OSU\n"
        "                spells them, mpi_char ... mpi_double (default float for the\n"
        "                reductions, char for bcast; allgather, alltoall, gather\n"
        "                and scatter move bytes: char, i.e. MPI_BYTE)\n"
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
static int parse_type(const char *val, struct bench_options *opt, int rank)
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

static int parse_counts(const char *val, struct bench_options *opt, int rank)
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

static int parse_format(const char *val, struct bench_options *opt, int rank)
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
static int set_positional(struct bench_options *opt, char **pos, int npos, const char *given,
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
static int value_option(int argc, char **argv, int *i, struct bench_options *opt, char *given,
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

static int flag_option(const char *arg, struct bench_options *opt)
{
    static const char *const names[] = { "-f", "-c", "-l", "--sweep", "--persistent",
                                         "--no-validate", "--evidence", "--rank-mean" };
    int *flags[] = { &opt->full, &opt->check, &opt->inplace, &opt->sweep, &opt->persistent,
                     &opt->no_validate, &opt->evidence, &opt->rank_mean };

    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++)
        if (strcmp(arg, names[n]) == 0) {
            *flags[n] = 1;
            return 1;
        }
    return 0;
}

/* The collective: a name, or 'i' and a name for the non-blocking form. */
static int set_collective(const char *name, struct bench_options *opt, int rank)
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
static int check_options(struct bench_options *opt, int rank)
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
int bench_parse_options(int argc, char **argv, struct bench_options *opt, int rank)
{
    char *pos[3];
    int npos = 0, rc;
    char given[32] = ""; /* an option that the second form excludes */

    *opt = (struct bench_options){ .min_bytes = DEFAULT_MIN_BYTES, .max_bytes = DEFAULT_MAX_BYTES,
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

void bench_counts(const struct bench_options *opt, struct counts *k)
{
    *k = (struct counts){ ITERS_SMALL, WARMUP_SMALL, ITERS_LARGE, WARMUP_LARGE };
    if (opt->iters >= 0)
        k->iters_small = k->iters_large = opt->iters;
    if (opt->warmup >= 0)
        k->warmup_small = k->warmup_large = opt->warmup;
}
