/*
 * mpicoll bench: latency of every algorithm of a collective, and of the MPI
 * library's own implementation, over a ladder of block sizes.
 *
 * Timing follows the OSU micro-benchmarks so that the figures can be set
 * beside theirs: per size, warm-up then timed iterations, each preceded by a
 * barrier and timed on every rank; an iteration's figure is the slowest
 * rank's time, and a cell is the average (or median) of those figures.
 * Every (size, algorithm) is validated once before it is timed.
 *
 * The size of a row is the bytes of one block: one rank's contribution for
 * allgather, what one rank sends to one peer for alltoall (as OSU's
 * osu_allgather and osu_alltoall count them).
 */
#include "bench.h"

#include <mpicoll.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXIT_FAILED 1
#define EXIT_USAGE 2

#define DEFAULT_MIN_BYTES 1L
#define DEFAULT_MAX_BYTES (1L << 20)
/* OSU's LARGE_MESSAGE_SIZE and its iteration counts on either side of it. */
#define LARGE_BYTES 8192
#define ITERS_SMALL 1000
#define WARMUP_SMALL 100
#define ITERS_LARGE 100
#define WARMUP_LARGE 10
/* Keeps warm-up + iterations (and the +1 of the error slot) within an int. */
#define MAX_COUNT (INT_MAX / 2)

#define SENTINEL 0xFF    /* pattern() never yields it */
#define GUARD_BYTES 64   /* checked past the received data, to catch overruns */
#define MIN_CELL_WIDTH 9 /* "123456.78" */
#define BYTES_WIDTH 8    /* "1048576" and a margin */

#define PREFIX "mpicoll bench: "

/* One call of a collective on blocks of `bytes` bytes. spec NULL means the
 * MPI library's own implementation; never pass NULL to mpicoll's *_with, for
 * which it means the automatic selection. */
typedef int (*run_fn)(const char *spec, const void *sendbuf, void *recvbuf,
                      int bytes, MPI_Comm comm);
/* 1 if recvbuf, on rank `rank`, holds what the collective must deliver when
 * byte i of every rank's send buffer is pattern(rank, i). */
typedef int (*check_fn)(const unsigned char *recvbuf, size_t bytes, int rank, int nranks);

struct collective {
    const char *name;
    run_fn run;
    check_fn check;
    int send_per_peer; /* 1: the send buffer holds one block per rank (alltoall);
                        * 0: one block (allgather) */
};

struct options {
    const struct collective *coll;
    long min_bytes, max_bytes;
    int iters, warmup;      /* -1: OSU's defaults, which depend on the size */
    const char *algorithms; /* the -a list */
    long delay_us;          /* sleep between iterations, outside the timed region */
    int median;
    int help;
};

struct cell {
    int failed;
    double avg_us, median_us;
};

struct column {
    const char *spec;  /* mpicoll algorithm name; NULL: the MPI library's own */
    const char *label;
    int applicable;    /* mpicoll_algorithm_applicable(); only 1 is measured */
    int width;
    struct cell cell;  /* at the size being measured */
};

struct bench {
    const struct options *opt;
    int rank, nranks;
    MPI_Comm comm; /* where the measured calls run */
    unsigned char *sendbuf, *recvbuf;
    double *times, *maxima; /* per timed iteration, plus an error slot */
    int failed_any;         /* known on rank 0 only */
};

/* ---- the collectives ---------------------------------------------------- */

/* Byte `pos` of `rank`'s send block. At a given position each rank (up to
 * 255 of them) has its own value, and positions are scrambled so that data
 * shifted by some bytes is caught too. Never SENTINEL, so a byte left
 * unwritten is caught. */
static unsigned char pattern(int rank, size_t pos)
{
    uint32_t h = (uint32_t)pos * 2654435761u; /* Knuth's multiplicative hash */

    return (unsigned char)(((uint32_t)rank + (h >> 16)) % 255u);
}

static int run_allgather(const char *spec, const void *sendbuf, void *recvbuf,
                         int bytes, MPI_Comm comm)
{
    if (spec == NULL)
        return MPI_Allgather(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, comm);
    return mpicoll_allgather_with(spec, sendbuf, bytes, MPI_BYTE,
                                  recvbuf, bytes, MPI_BYTE, comm);
}

static int guard_intact(const unsigned char *recvbuf, size_t bytes, int nranks)
{
    const unsigned char *guard = recvbuf + (size_t)nranks * bytes;

    for (size_t i = 0; i < GUARD_BYTES; i++)
        if (guard[i] != SENTINEL)
            return 0;
    return 1;
}

static int check_allgather(const unsigned char *recvbuf, size_t bytes, int rank, int nranks)
{
    (void)rank;
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < bytes; i++)
            if (recvbuf[(size_t)r * bytes + i] != pattern(r, i))
                return 0;
    return guard_intact(recvbuf, bytes, nranks);
}

static int run_alltoall(const char *spec, const void *sendbuf, void *recvbuf,
                        int bytes, MPI_Comm comm)
{
    if (spec == NULL)
        return MPI_Alltoall(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, comm);
    return mpicoll_alltoall_with(spec, sendbuf, bytes, MPI_BYTE,
                                 recvbuf, bytes, MPI_BYTE, comm);
}

/* Block r must be block `rank` of rank r's send buffer: its bytes at
 * positions rank * bytes + i. */
static int check_alltoall(const unsigned char *recvbuf, size_t bytes, int rank, int nranks)
{
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < bytes; i++)
            if (recvbuf[(size_t)r * bytes + i] != pattern(r, (size_t)rank * bytes + i))
                return 0;
    return guard_intact(recvbuf, bytes, nranks);
}

static const struct collective collectives[] = {
    { "allgather", run_allgather, check_allgather, 0 },
    { "alltoall", run_alltoall, check_alltoall, 1 },
};
#define NCOLLECTIVES ((int)(sizeof collectives / sizeof collectives[0]))

static const struct collective *find_collective(const char *name)
{
    for (int i = 0; i < NCOLLECTIVES; i++)
        if (strcmp(collectives[i].name, name) == 0)
            return &collectives[i];
    return NULL;
}

/* ---- command line ------------------------------------------------------- */

static void print_collectives(FILE *f)
{
    for (int i = 0; i < NCOLLECTIVES; i++)
        fprintf(f, "%s%s", i ? ", " : "", collectives[i].name);
}

static void print_algorithms(FILE *f, const char *coll)
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
        "Times every algorithm mpicoll has for COLLECTIVE, and the MPI library's\n"
        "own (column 'native'), on P ranks; prints one row per block size.\n"
        "A block is one rank's contribution for allgather, and what one rank sends\n"
        "to one peer for alltoall (as OSU's osu_allgather and osu_alltoall).\n"
        "\n"
        "The second form measures the one size SIZE (bytes per block) with\n"
        "ITERATIONS timed iterations and DELAY microseconds between iterations\n"
        "(the command line of the AllToAll study programs): the same as\n"
        "'-m SIZE:SIZE -i ITERATIONS --delay DELAY'.\n"
        "\n"
        "options:\n"
        "  -m [MIN:]MAX  block sizes in bytes: powers of two times MIN up to MAX\n"
        "                (default %ld:%ld)\n"
        "  -i ITER       timed iterations per size (default %d, %d above %d bytes)\n"
        "  -x WARMUP     warm-up iterations per size (default %d, %d above %d bytes)\n"
        "  -a LIST       comma-separated algorithms: names, 'all' (every mpicoll\n"
        "                algorithm), 'native' (default native,all)\n"
        "  --delay US    sleep US microseconds between iterations (warm-up ones\n"
        "                included), outside the timed region (default 0)\n"
        "  --median      report the median of the iterations, not their average\n"
        "  -h, --help    this help\n"
        "\n"
        "collectives: ",
        DEFAULT_MIN_BYTES, DEFAULT_MAX_BYTES, ITERS_SMALL, ITERS_LARGE, LARGE_BYTES,
        WARMUP_SMALL, WARMUP_LARGE, LARGE_BYTES);
    print_collectives(f);
    fputc('\n', f);
    for (int i = 0; i < NCOLLECTIVES; i++) {
        fprintf(f, "%s algorithms: ", collectives[i].name);
        print_algorithms(f, collectives[i].name);
        fputc('\n', f);
    }
}

/* Every rank parses the same command line and reaches the same verdict;
 * rank 0 alone says why. Returns EXIT_USAGE. */
static int usage_error(int rank, const char *fmt, ...)
{
    va_list ap;

    if (rank == 0) {
        fputs(PREFIX, stderr);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputs("\n(see 'mpicoll bench --help')\n", stderr);
    }
    return EXIT_USAGE;
}

/* Parses the decimal number spanning [s, stop) into *out, within [lo, hi]. */
static int parse_long(const char *s, const char *stop, long lo, long hi, long *out)
{
    char *end;

    errno = 0;
    *out = strtol(s, &end, 10);
    return end != s && end == stop && errno == 0 && *out >= lo && *out <= hi;
}

static int parse_sizes(const char *val, struct options *opt, int rank)
{
    const char *colon = strchr(val, ':');
    const char *max = colon ? colon + 1 : val;
    int ok = parse_long(max, max + strlen(max), 1, INT_MAX, &opt->max_bytes);

    if (ok && colon)
        ok = parse_long(val, colon, 1, opt->max_bytes, &opt->min_bytes);
    if (!ok)
        return usage_error(rank, "-m: expected [MIN:]MAX with 1 <= MIN <= MAX <= %d, got '%s'",
                           INT_MAX, val);
    return 0;
}

static int parse_count(const char *val, char key, int lo, int *out, int rank)
{
    long n;

    if (!parse_long(val, val + strlen(val), lo, MAX_COUNT, &n))
        return usage_error(rank, "-%c: expected a number from %d to %d, got '%s'",
                           key, lo, MAX_COUNT, val);
    *out = (int)n;
    return 0;
}

static int set_option(struct options *opt, char key, const char *val, int rank)
{
    switch (key) {
    case 'm':
        return parse_sizes(val, opt, rank);
    case 'i':
        return parse_count(val, key, 1, &opt->iters, rank);
    case 'x':
        return parse_count(val, key, 0, &opt->warmup, rank);
    default: /* 'a', checked against the library once MPI runs */
        opt->algorithms = val;
        return 0;
    }
}

static int unknown_collective(const char *name, int rank)
{
    if (rank == 0) {
        fprintf(stderr, PREFIX "unknown collective '%s'; supported: ", name);
        print_collectives(stderr);
        fputc('\n', stderr);
    }
    return EXIT_USAGE;
}

static int is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

static int parse_delay(const char *val, struct options *opt, int rank)
{
    if (!parse_long(val, val + strlen(val), 0, INT_MAX, &opt->delay_us))
        return usage_error(rank, "--delay: expected microseconds from 0 to %d, got '%s'",
                           INT_MAX, val);
    return 0;
}

/* The second form: SIZE ITERATIONS DELAY after the collective. */
static int set_positional(struct options *opt, char **pos, int npos, const char *given,
                          int rank)
{
    long n;

    if (npos != 3)
        return usage_error(rank, "expected three numbers after the collective (SIZE"
                           " ITERATIONS DELAY), got %d", npos);
    if (*given)
        return usage_error(rank, "SIZE ITERATIONS DELAY set what %s would set: give one"
                           " or the other", given);
    if (!parse_long(pos[0], pos[0] + strlen(pos[0]), 1, INT_MAX, &n))
        return usage_error(rank, "SIZE: expected bytes per block from 1 to %d, got '%s'",
                           INT_MAX, pos[0]);
    opt->min_bytes = opt->max_bytes = n;
    if (!parse_long(pos[1], pos[1] + strlen(pos[1]), 1, MAX_COUNT, &n))
        return usage_error(rank, "ITERATIONS: expected a number from 1 to %d, got '%s'",
                           MAX_COUNT, pos[1]);
    opt->iters = (int)n;
    if (!parse_long(pos[2], pos[2] + strlen(pos[2]), 0, INT_MAX, &opt->delay_us))
        return usage_error(rank, "DELAY: expected microseconds from 0 to %d, got '%s'",
                           INT_MAX, pos[2]);
    return 0;
}

/* Options come after the collective; values either follow the option as
 * the next argument or are glued to it ("-m 1:64", "-m1:64"), as getopt
 * allows in OSU ("--delay 10" or "--delay=10"). Arguments that are not
 * options are the SIZE ITERATIONS DELAY of the second form. */
static int parse_options(int argc, char **argv, struct options *opt, int rank)
{
    char *pos[3];
    int npos = 0;
    char given[32] = ""; /* the options that the second form excludes */

    *opt = (struct options){ .min_bytes = DEFAULT_MIN_BYTES, .max_bytes = DEFAULT_MAX_BYTES,
                             .iters = -1, .warmup = -1, .algorithms = "native,all" };
    if (argc < 2)
        return usage_error(rank, "missing collective");
    if (is_help(argv[1])) {
        opt->help = 1;
        return 0;
    }
    opt->coll = find_collective(argv[1]);
    if (opt->coll == NULL)
        return unknown_collective(argv[1], rank);
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];

        if (is_help(arg)) {
            opt->help = 1;
        } else if (strcmp(arg, "--median") == 0) {
            opt->median = 1;
        } else if (strcmp(arg, "--delay") == 0 || strncmp(arg, "--delay=", 8) == 0) {
            const char *val = arg[7] ? arg + 8 : i + 1 < argc ? argv[++i] : NULL;

            if (val == NULL)
                return usage_error(rank, "%s needs a value", arg);
            if (parse_delay(val, opt, rank) != 0)
                return EXIT_USAGE;
            strcpy(given, "--delay");
        } else if (arg[0] == '-' && arg[1] != '\0' && strchr("mixa", arg[1])) {
            const char *val = arg[2] ? arg + 2 : i + 1 < argc ? argv[++i] : NULL;

            if (val == NULL)
                return usage_error(rank, "%s needs a value", arg);
            if (set_option(opt, arg[1], val, rank) != 0)
                return EXIT_USAGE;
            if (arg[1] == 'm' || arg[1] == 'i')
                snprintf(given, sizeof given, "-%c", arg[1]);
        } else if (arg[0] != '-' && npos < 3) {
            pos[npos++] = argv[i];
        } else if (arg[0] != '-') {
            return usage_error(rank, "unexpected argument '%s' after SIZE ITERATIONS DELAY",
                               arg);
        } else {
            return usage_error(rank, "unknown option '%s'", arg);
        }
    }
    if (npos > 0 && !opt->help)
        return set_positional(opt, pos, npos, given, rank);
    return 0;
}

/* ---- what to measure ---------------------------------------------------- */

static int same_spec(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Appends a column unless already there: a name listed twice, or also
 * covered by 'all', is measured once. */
static void add_column(struct column *cols, int *ncols, const char *coll,
                       const char *spec, int nranks)
{
    struct column *c = &cols[*ncols];

    for (int i = 0; i < *ncols; i++)
        if (same_spec(cols[i].spec, spec))
            return;
    c->spec = spec;
    c->label = spec ? spec : "native";
    c->applicable = spec ? mpicoll_algorithm_applicable(coll, spec, nranks) : 1;
    c->width = (int)strlen(c->label);
    if (c->width < MIN_CELL_WIDTH)
        c->width = MIN_CELL_WIDTH;
    ++*ncols;
}

static int token_is(const char *tok, size_t len, const char *name)
{
    return strlen(name) == len && strncmp(tok, name, len) == 0;
}

/* Adds the columns one -a token asks for; 0 if the token names nothing. */
static int add_token(struct column *cols, int *ncols, const char *coll,
                     const char *tok, size_t len, int nranks)
{
    int n = mpicoll_algorithm_count(coll);
    int all = token_is(tok, len, "all"), found = all;

    if (token_is(tok, len, "native")) {
        add_column(cols, ncols, coll, NULL, nranks);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        const char *name = mpicoll_algorithm_name(coll, i);

        if (all || token_is(tok, len, name)) {
            add_column(cols, ncols, coll, name, nranks);
            found = 1;
        }
    }
    return found;
}

static int unknown_algorithm(const char *coll, const char *tok, size_t len, int rank)
{
    if (rank == 0) {
        fprintf(stderr, PREFIX "-a: unknown %s algorithm '%.*s'; known: ",
                coll, (int)len, tok);
        print_algorithms(stderr, coll);
        fputs(", all, native\n", stderr);
    }
    return EXIT_USAGE;
}

/* Fills cols (room for every algorithm and native) from the -a list, in
 * its order. Returns 0, or EXIT_USAGE. */
static int build_columns(const struct options *opt, struct column *cols, int *ncols,
                         int nranks, int rank)
{
    const char *coll = opt->coll->name;
    size_t len;
    int measured = 0;

    *ncols = 0;
    for (const char *tok = opt->algorithms;; tok += len + 1) {
        len = strcspn(tok, ",");
        if (!add_token(cols, ncols, coll, tok, len, nranks))
            return unknown_algorithm(coll, tok, len, rank);
        if (tok[len] == '\0')
            break;
    }
    for (int i = 0; i < *ncols; i++)
        measured += cols[i].applicable == 1;
    if (measured == 0)
        return usage_error(rank, "nothing to measure: no requested algorithm is"
                           " applicable on %d ranks", nranks);
    return 0;
}

/* ---- measuring ---------------------------------------------------------- */

static int iterations(const struct options *opt, size_t bytes)
{
    if (opt->iters >= 0)
        return opt->iters;
    return bytes > LARGE_BYTES ? ITERS_LARGE : ITERS_SMALL;
}

static int warmups(const struct options *opt, size_t bytes)
{
    if (opt->warmup >= 0)
        return opt->warmup;
    return bytes > LARGE_BYTES ? WARMUP_LARGE : WARMUP_SMALL;
}

/* Bytes of one rank's send buffer for blocks of `bytes`. */
static size_t send_len(const struct bench *b, size_t bytes)
{
    return b->opt->coll->send_per_peer ? (size_t)b->nranks * bytes : bytes;
}

static int send_intact(const unsigned char *sendbuf, int rank, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        if (sendbuf[i] != pattern(rank, i))
            return 0;
    return 1;
}

/* One call outside the timed region, into a receive buffer full of
 * SENTINEL. All ranks agree on the verdict, since a wrong result may show
 * on some ranks only. */
static int validate(const struct bench *b, const char *spec, size_t bytes)
{
    int ok;
    size_t slen = send_len(b, bytes);

    for (size_t i = 0; i < slen; i++)
        b->sendbuf[i] = pattern(b->rank, i);
    memset(b->recvbuf, SENTINEL, (size_t)b->nranks * bytes + GUARD_BYTES);
    ok = b->opt->coll->run(spec, b->sendbuf, b->recvbuf, (int)bytes, b->comm) == MPI_SUCCESS
         && b->opt->coll->check(b->recvbuf, bytes, b->rank, b->nranks)
         && send_intact(b->sendbuf, b->rank, slen);
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return ok;
}

static void sleep_us(long us)
{
    struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000 };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Fills b->times[0..iters) with this rank's time of each timed iteration
 * and b->times[iters] with 1 if any call failed: the flag rides along the
 * MAX reduction of the times, so one reduction tells rank 0 both. The
 * --delay sleep follows each iteration, after its time is taken and before
 * the next iteration's barrier. */
static void time_iterations(struct bench *b, const char *spec, size_t bytes,
                            int warmup, int iters)
{
    int failed = 0;

    for (int i = -warmup; i < iters; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        int rc = b->opt->coll->run(spec, b->sendbuf, b->recvbuf, (int)bytes, b->comm);
        double elapsed = MPI_Wtime() - start;

        failed |= rc != MPI_SUCCESS;
        if (i >= 0)
            b->times[i] = elapsed;
        if (b->opt->delay_us > 0 && i + 1 < iters)
            sleep_us(b->opt->delay_us);
    }
    b->times[iters] = failed;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* maxima: the slowest rank's time of each iteration, then the error flag. */
static void summarize(double *maxima, int iters, struct cell *cell)
{
    double sum = 0;

    cell->failed = maxima[iters] != 0;
    for (int i = 0; i < iters; i++)
        sum += maxima[i];
    qsort(maxima, (size_t)iters, sizeof *maxima, compare_doubles);
    cell->avg_us = sum / iters * 1e6;
    cell->median_us = (maxima[(iters - 1) / 2] + maxima[iters / 2]) / 2 * 1e6;
}

static void measure(struct bench *b, struct column *col, size_t bytes)
{
    int iters = iterations(b->opt, bytes);

    col->cell.failed = !validate(b, col->spec, bytes);
    if (!col->cell.failed) {
        time_iterations(b, col->spec, bytes, warmups(b->opt, bytes), iters);
        MPI_Reduce(b->times, b->maxima, iters + 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (b->rank == 0)
            summarize(b->maxima, iters, &col->cell);
    }
    b->failed_any |= col->cell.failed;
}

/* ---- output (rank 0) ---------------------------------------------------- */

static void print_count(const char *what, int set, int small, int large)
{
    if (set >= 0)
        printf("%s: %d", what, set);
    else
        printf("%s: %d (%d above %d bytes)", what, small, large, LARGE_BYTES);
}

static void print_header(const struct bench *b, const struct column *cols, int ncols)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING], date[64];
    int len;
    time_t now = time(NULL);
    const struct tm *tm = localtime(&now);

    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0';
    if (tm == NULL || strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", tm) == 0)
        strcpy(date, "unknown");
    printf("# mpicoll bench %s\n# ranks: %d\n# mpicoll: %s\n# MPI library: %s\n",
           b->opt->coll->name, b->nranks, MPICOLL_VERSION, version);
    print_count("# iterations", b->opt->iters, ITERS_SMALL, ITERS_LARGE);
    print_count(", warm-up", b->opt->warmup, WARMUP_SMALL, WARMUP_LARGE);
    if (b->opt->delay_us > 0)
        printf(", delay between iterations: %ld us (not timed)", b->opt->delay_us);
    printf("\n# bytes: %s\n# cells: %s of the slowest rank's time per iteration, in us;"
           " * = fastest of the row\n# date: %s\n",
           b->opt->coll->send_per_peer ? "the block one rank sends to one peer"
           : "one rank's block", b->opt->median ? "median" : "average", date);
    printf("%*s", BYTES_WIDTH, "bytes");
    for (int c = 0; c < ncols; c++)
        if (cols[c].applicable == 1)
            printf("  %*s ", cols[c].width, cols[c].label);
    printf("  best\n");
}

static double figure(const struct cell *cell, int median)
{
    return median ? cell->median_us : cell->avg_us;
}

/* Index of the fastest measured column that did not fail, or -1. */
static int fastest(const struct column *cols, int ncols, int median)
{
    int best = -1;

    for (int c = 0; c < ncols; c++) {
        if (cols[c].applicable != 1 || cols[c].cell.failed)
            continue;
        if (best < 0 || figure(&cols[c].cell, median) < figure(&cols[best].cell, median))
            best = c;
    }
    return best;
}

/* Cells keep one character after the figure for the '*', so that decimal
 * points line up whether or not a cell is marked. */
static void print_row(const struct column *cols, int ncols, size_t bytes, int median)
{
    int best = fastest(cols, ncols, median);

    printf("%*zu", BYTES_WIDTH, bytes);
    for (int c = 0; c < ncols; c++) {
        if (cols[c].applicable != 1)
            continue;
        if (cols[c].cell.failed)
            printf("  %*s ", cols[c].width, "FAIL");
        else
            printf("  %*.2f%c", cols[c].width, figure(&cols[c].cell, median),
                   c == best ? '*' : ' ');
    }
    printf("  %s\n", best >= 0 ? cols[best].label : "-");
    fflush(stdout); /* a row at a time: large sizes take a while */
}

static void print_notes(const struct column *cols, int ncols, int nranks, int failed_any)
{
    for (int c = 0; c < ncols; c++) {
        if (cols[c].applicable == 0)
            printf("# not measured: %s: not applicable on %d ranks"
                   " (would run its fallback)\n", cols[c].label, nranks);
        else if (cols[c].applicable != 1)
            printf("# not measured: %s: the library rejects the name\n", cols[c].label);
    }
    if (failed_any)
        printf("# FAIL: wrong result or MPI error (validation pass or timing);"
               " no time reported\n");
}

/* ---- driver ------------------------------------------------------------- */

/* Allocates the buffers for the largest size, and the communicator the
 * measured calls run on: errors there are returned, so that a failing
 * algorithm shows as FAIL instead of aborting the run, while the harness's
 * own calls stay on MPI_COMM_WORLD where errors are fatal. Returns 1 if
 * every rank succeeded. */
static int setup(struct bench *b)
{
    size_t max = (size_t)b->opt->max_bytes;
    /* ITERS_SMALL is the larger default; +1 for the error slot */
    size_t slots = (size_t)(b->opt->iters >= 0 ? b->opt->iters : ITERS_SMALL) + 1;
    int ok;

    if (max <= (SIZE_MAX - GUARD_BYTES) / (size_t)b->nranks) {
        b->sendbuf = malloc(send_len(b, max));
        b->recvbuf = malloc((size_t)b->nranks * max + GUARD_BYTES);
    }
    b->times = malloc(slots * sizeof *b->times);
    b->maxima = malloc(slots * sizeof *b->maxima);
    ok = b->sendbuf && b->recvbuf && b->times && b->maxima;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (ok) {
        MPI_Comm_dup(MPI_COMM_WORLD, &b->comm);
        MPI_Comm_set_errhandler(b->comm, MPI_ERRORS_RETURN);
    }
    return ok;
}

static void teardown(struct bench *b)
{
    if (b->comm != MPI_COMM_NULL)
        MPI_Comm_free(&b->comm);
    free(b->sendbuf);
    free(b->recvbuf);
    free(b->times);
    free(b->maxima);
}

/* Sizes in the outer loop, so that all algorithms at size s run before any
 * at 2s and a drift of the machine spreads over all columns. */
static void measure_all(struct bench *b, struct column *cols, int ncols)
{
    if (b->rank == 0)
        print_header(b, cols, ncols);
    for (size_t bytes = (size_t)b->opt->min_bytes; bytes <= (size_t)b->opt->max_bytes;
         bytes *= 2) {
        for (int c = 0; c < ncols; c++)
            if (cols[c].applicable == 1)
                measure(b, &cols[c], bytes);
        if (b->rank == 0)
            print_row(cols, ncols, bytes, b->opt->median);
    }
    if (b->rank == 0)
        print_notes(cols, ncols, b->nranks, b->failed_any);
}

static int run_bench(const struct options *opt, struct column *cols, int ncols,
                     int rank, int nranks)
{
    struct bench b = { .opt = opt, .rank = rank, .nranks = nranks, .comm = MPI_COMM_NULL };
    int code = EXIT_FAILED;

    if (setup(&b)) {
        measure_all(&b, cols, ncols);
        code = b.failed_any ? EXIT_FAILED : EXIT_SUCCESS;
        /* only rank 0 saw errors raised while timing */
        MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (rank == 0) {
        fprintf(stderr, PREFIX "cannot allocate buffers for %ld-byte blocks on %d ranks\n",
                opt->max_bytes, nranks);
    }
    teardown(&b);
    return code;
}

static int bench(int argc, char **argv, int rank, int nranks)
{
    struct options opt;
    struct column *cols = NULL;
    int ncols, nalgs, code = parse_options(argc, argv, &opt, rank);

    if (code != 0 || opt.help) {
        if (code == 0 && rank == 0)
            usage(stdout);
        return code;
    }
    nalgs = mpicoll_algorithm_count(opt.coll->name);
    if (nalgs >= 0)
        cols = malloc(((size_t)nalgs + 1) * sizeof *cols);
    if (cols == NULL) {
        if (rank == 0)
            fprintf(stderr, PREFIX "cannot get the %s algorithms from the library\n", opt.coll->name);
        return EXIT_FAILED;
    }
    code = build_columns(&opt, cols, &ncols, nranks, rank);
    if (code == 0)
        code = run_bench(&opt, cols, ncols, rank, nranks);
    free(cols);
    return code;
}

int mpicoll_cli_bench(int argc, char **argv)
{
    int provided, rank, nranks, code;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    code = bench(argc, argv, rank, nranks);
    MPI_Finalize();
    return code;
}
