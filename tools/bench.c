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
 * The size of a row is the bytes of one block for allgather (one rank's
 * contribution) and alltoall (what one rank sends to one peer), and of the
 * whole vector for allreduce, reduce, bcast and reduce_scatter_block (all p
 * blocks), as OSU's osu_allgather, osu_alltoall, osu_allreduce, osu_reduce,
 * osu_bcast and osu_reduce_scatter count them.
 *
 * The vector collectives run on a type (-T: char, int, float, double;
 * MPI_SIGNED_CHAR for char) with MPI_SUM, reduce and bcast at root 0. Their
 * data are small integers, so that every sum is exact whatever the order
 * of the additions, and every element of the result is checked.
 * --counts LIST gives the element counts of the rows instead of the byte
 * ladder, and prints milliseconds (seed 001's table: p, n, one column per
 * algorithm).
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

/* The element types of -T. */
struct etype {
    const char *name;
    MPI_Datatype type; /* set at run time: handles are not constants everywhere */
    size_t size;
};

enum { T_CHAR, T_INT, T_FLOAT, T_DOUBLE, NTYPES };

static struct etype etypes[NTYPES] = {
    { "char", MPI_DATATYPE_NULL, 1 },
    { "int", MPI_DATATYPE_NULL, sizeof(int) },
    { "float", MPI_DATATYPE_NULL, sizeof(float) },
    { "double", MPI_DATATYPE_NULL, sizeof(double) },
};

/* One call of a collective: `count` is its count argument (sendcount =
 * recvcount for allgather and alltoall, recvcount for reduce_scatter_block)
 * in elements of `type`. spec NULL means the MPI library's own
 * implementation; never pass NULL to mpicoll's *_with, for which it means
 * the automatic selection. */
typedef int (*run_fn)(const char *spec, const void *sendbuf, void *recvbuf,
                      int count, MPI_Datatype type, MPI_Comm comm);
/* 1 if recvbuf, on rank `rank`, holds what the collective must deliver
 * when the send buffers hold what fill() puts there. */
typedef int (*check_fn)(const unsigned char *recvbuf, size_t count, const struct etype *t,
                        int rank, int nranks);

struct collective {
    const char *name;
    run_fn run;
    check_fn check;
    int send_per_peer; /* 1: the send buffer holds one block per rank (alltoall,
                        * reduce_scatter_block); 0: one block */
    int recv_per_peer; /* 1: the receive buffer holds one block per rank (allgather,
                        * alltoall); 0: one block */
    int vector;        /* 1: typed values (fill_values); 0: bytes (pattern) */
    int default_type;
    const char *size_is; /* what a row's size counts, for the header */
};

struct options {
    const struct collective *coll;
    const struct etype *type;
    long min_bytes, max_bytes;
    long counts[64];        /* --counts: the elements of the rows */
    int ncounts;            /* 0: the -m ladder */
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
    size_t rows[96];        /* the count argument of each row's calls */
    int nrows;
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
                         int bytes, MPI_Datatype type, MPI_Comm comm)
{
    (void)type; /* MPI_BYTE: -T is char for the block collectives */
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

static int check_allgather(const unsigned char *recvbuf, size_t bytes, const struct etype *t,
                           int rank, int nranks)
{
    (void)rank;
    (void)t;
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < bytes; i++)
            if (recvbuf[(size_t)r * bytes + i] != pattern(r, i))
                return 0;
    return guard_intact(recvbuf, bytes, nranks);
}

static int run_alltoall(const char *spec, const void *sendbuf, void *recvbuf,
                        int bytes, MPI_Datatype type, MPI_Comm comm)
{
    (void)type;
    if (spec == NULL)
        return MPI_Alltoall(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, comm);
    return mpicoll_alltoall_with(spec, sendbuf, bytes, MPI_BYTE,
                                 recvbuf, bytes, MPI_BYTE, comm);
}

/* Block r must be block `rank` of rank r's send buffer: its bytes at
 * positions rank * bytes + i. */
static int check_alltoall(const unsigned char *recvbuf, size_t bytes, const struct etype *t,
                          int rank, int nranks)
{
    (void)t;
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < bytes; i++)
            if (recvbuf[(size_t)r * bytes + i] != pattern(r, (size_t)rank * bytes + i))
                return 0;
    return guard_intact(recvbuf, bytes, nranks);
}

/* ---- the vector collectives: typed values, MPI_SUM ---------------------- */

/* Element i of `rank`'s send vector: a small integer (exact sums in float
 * for up to 2^18 ranks; in signed char, ranks from 64 on send zeros). */
static long value(const struct etype *t, int rank, size_t i)
{
    if (t == &etypes[T_CHAR])
        return rank < 64 ? (long)(((size_t)rank + i) % 2) : 0;
    return (long)(((size_t)rank * 3 + i) % 64);
}

static void put(const struct etype *t, unsigned char *buf, size_t i, long v)
{
    switch ((int)(t - etypes)) {
    case T_CHAR: { signed char x = (signed char)v; memcpy(buf + i, &x, 1); break; }
    case T_INT: { int x = (int)v; memcpy(buf + i * sizeof x, &x, sizeof x); break; }
    case T_FLOAT: { float x = (float)v; memcpy(buf + i * sizeof x, &x, sizeof x); break; }
    default: { double x = (double)v; memcpy(buf + i * sizeof x, &x, sizeof x); break; }
    }
}

/* 1 if element i of buf is exactly v (a SENTINEL-filled float or double is
 * a NaN, equal to nothing). */
static int is(const struct etype *t, const unsigned char *buf, size_t i, long v)
{
    switch ((int)(t - etypes)) {
    case T_CHAR: { signed char x; memcpy(&x, buf + i, 1); return x == v; }
    case T_INT: { int x; memcpy(&x, buf + i * sizeof x, sizeof x); return x == v; }
    case T_FLOAT: { float x; memcpy(&x, buf + i * sizeof x, sizeof x); return x == (float)v; }
    default: { double x; memcpy(&x, buf + i * sizeof x, sizeof x); return x == (double)v; }
    }
}

static long sum_over_ranks(const struct etype *t, int nranks, size_t i)
{
    long s = 0;
    for (int r = 0; r < nranks; r++)
        s += value(t, r, i);
    return s;
}

static int guard_after(const unsigned char *end)
{
    for (size_t i = 0; i < GUARD_BYTES; i++)
        if (end[i] != SENTINEL)
            return 0;
    return 1;
}

#define BENCH_ROOT 0

static int run_allreduce(const char *spec, const void *sendbuf, void *recvbuf,
                         int count, MPI_Datatype type, MPI_Comm comm)
{
    if (spec == NULL)
        return MPI_Allreduce(sendbuf, recvbuf, count, type, MPI_SUM, comm);
    return mpicoll_allreduce_with(spec, sendbuf, recvbuf, count, type, MPI_SUM, comm);
}

static int check_allreduce(const unsigned char *recvbuf, size_t count, const struct etype *t,
                           int rank, int nranks)
{
    (void)rank;
    for (size_t i = 0; i < count; i++)
        if (!is(t, recvbuf, i, sum_over_ranks(t, nranks, i)))
            return 0;
    return guard_after(recvbuf + count * t->size);
}

static int run_reduce(const char *spec, const void *sendbuf, void *recvbuf,
                      int count, MPI_Datatype type, MPI_Comm comm)
{
    if (spec == NULL)
        return MPI_Reduce(sendbuf, recvbuf, count, type, MPI_SUM, BENCH_ROOT, comm);
    return mpicoll_reduce_with(spec, sendbuf, recvbuf, count, type, MPI_SUM, BENCH_ROOT, comm);
}

/* The root holds the sum (the receive buffer is insignificant elsewhere). */
static int check_reduce(const unsigned char *recvbuf, size_t count, const struct etype *t,
                        int rank, int nranks)
{
    if (rank == BENCH_ROOT)
        return check_allreduce(recvbuf, count, t, rank, nranks);
    return guard_after(recvbuf + count * t->size);
}

/* The buffer is the receive buffer; validate() fills the root's. */
static int run_bcast(const char *spec, const void *sendbuf, void *recvbuf,
                     int count, MPI_Datatype type, MPI_Comm comm)
{
    (void)sendbuf;
    if (spec == NULL)
        return MPI_Bcast(recvbuf, count, type, BENCH_ROOT, comm);
    return mpicoll_bcast_with(spec, recvbuf, count, type, BENCH_ROOT, comm);
}

static int check_bcast(const unsigned char *recvbuf, size_t count, const struct etype *t,
                       int rank, int nranks)
{
    (void)rank;
    (void)nranks;
    for (size_t i = 0; i < count; i++)
        if (!is(t, recvbuf, i, value(t, BENCH_ROOT, i)))
            return 0;
    return guard_after(recvbuf + count * t->size);
}

static int run_reduce_scatter_block(const char *spec, const void *sendbuf, void *recvbuf,
                                    int count, MPI_Datatype type, MPI_Comm comm)
{
    if (spec == NULL)
        return MPI_Reduce_scatter_block(sendbuf, recvbuf, count, type, MPI_SUM, comm);
    return mpicoll_reduce_scatter_block_with(spec, sendbuf, recvbuf, count, type, MPI_SUM,
                                             comm);
}

/* Block `rank` of the sum: elements rank * count + i of the vectors. */
static int check_reduce_scatter_block(const unsigned char *recvbuf, size_t count,
                                      const struct etype *t, int rank, int nranks)
{
    for (size_t i = 0; i < count; i++)
        if (!is(t, recvbuf, i, sum_over_ranks(t, nranks, (size_t)rank * count + i)))
            return 0;
    return guard_after(recvbuf + count * t->size);
}

static const struct collective collectives[] = {
    { "allgather", run_allgather, check_allgather, 0, 1, 0, T_CHAR, "one rank's block" },
    { "alltoall", run_alltoall, check_alltoall, 1, 1, 0, T_CHAR,
      "the block one rank sends to one peer" },
    { "allreduce", run_allreduce, check_allreduce, 0, 0, 1, T_FLOAT, "the whole vector" },
    { "reduce", run_reduce, check_reduce, 0, 0, 1, T_FLOAT, "the whole vector (root 0)" },
    { "bcast", run_bcast, check_bcast, 0, 0, 1, T_CHAR, "the whole vector (root 0)" },
    { "reduce_scatter_block", run_reduce_scatter_block, check_reduce_scatter_block, 1, 0, 1,
      T_FLOAT, "the whole vector: all p blocks (recvcount = n / p)" },
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
        "to one peer for alltoall (as OSU's osu_allgather and osu_alltoall); for\n"
        "allreduce, reduce, bcast and reduce_scatter_block a row's size is the\n"
        "whole vector (for reduce_scatter_block all p blocks: recvcount = n / p),\n"
        "as osu_allreduce counts it; they run MPI_SUM (reduce, bcast at root 0)\n"
        "on -T's type and check every element.\n"
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
        "  -T, --type TYPE  element type of allreduce, reduce, bcast and\n"
        "                reduce_scatter_block: char, int, float or double (default\n"
        "                float for the reductions, char for bcast; allgather and\n"
        "                alltoall: char, i.e. MPI_BYTE)\n"
        "  --counts LIST comma-separated element counts of the vector (allgather,\n"
        "                alltoall: of a block), instead of the -m ladder; rows are\n"
        "                (p, n) and cells milliseconds. Seed 001's table:\n"
        "                mpirun -n P mpicoll bench allreduce --type float \\\n"
        "                    --counts 1024,32768,1048576\n"
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

static int parse_type(const char *val, struct options *opt, int rank)
{
    for (int i = 0; i < NTYPES; i++)
        if (strcmp(val, etypes[i].name) == 0) {
            opt->type = &etypes[i];
            return 0;
        }
    return usage_error(rank, "--type: expected char, int, float or double, got '%s'", val);
}

static int parse_counts(const char *val, struct options *opt, int rank)
{
    const int cap = (int)(sizeof opt->counts / sizeof opt->counts[0]);
    const char *tok = val;

    opt->ncounts = 0;
    for (;;) {
        size_t len = strcspn(tok, ",");

        if (opt->ncounts == cap
            || !parse_long(tok, tok + len, 1, INT_MAX, &opt->counts[opt->ncounts]))
            return usage_error(rank, "--counts: expected up to %d comma-separated counts"
                               " from 1 to %d, got '%s'", cap, INT_MAX, val);
        opt->ncounts++;
        if (tok[len] == '\0')
            return 0;
        tok += len + 1;
    }
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
        } else if (strcmp(arg, "-T") == 0 || strcmp(arg, "--type") == 0
                   || strncmp(arg, "--type=", 7) == 0 || strncmp(arg, "-T", 2) == 0) {
            const char *val = strncmp(arg, "--type=", 7) == 0 ? arg + 7
                              : strncmp(arg, "-T", 2) == 0 && arg[2] ? arg + 2
                              : i + 1 < argc ? argv[++i] : NULL;

            if (val == NULL)
                return usage_error(rank, "%s needs a value", arg);
            if (parse_type(val, opt, rank) != 0)
                return EXIT_USAGE;
        } else if (strcmp(arg, "--counts") == 0 || strncmp(arg, "--counts=", 9) == 0) {
            const char *val = arg[8] ? arg + 9 : i + 1 < argc ? argv[++i] : NULL;

            if (val == NULL)
                return usage_error(rank, "%s needs a value", arg);
            if (parse_counts(val, opt, rank) != 0)
                return EXIT_USAGE;
            strcpy(given, "--counts");
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
    if (npos > 0 && !opt->help && set_positional(opt, pos, npos, given, rank) != 0)
        return EXIT_USAGE;
    if (opt->type == NULL)
        opt->type = &etypes[opt->coll->default_type];
    else if (!opt->coll->vector && opt->type != &etypes[T_CHAR])
        return usage_error(rank, "--type: %s moves bytes (MPI_BYTE): only 'char'",
                           opt->coll->name);
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

/* Elements of one rank's send buffer for a call of count `count`. */
static size_t send_elems(const struct collective *c, int nranks, size_t count)
{
    return c->send_per_peer ? (size_t)nranks * count : count;
}

/* Elements of one rank's receive buffer. */
static size_t recv_elems(const struct collective *c, int nranks, size_t count)
{
    return c->recv_per_peer ? (size_t)nranks * count : count;
}

/* The size of a row, in bytes: a block (allgather, alltoall) or the whole
 * vector (the others; all p blocks for reduce_scatter_block). */
static size_t row_bytes(const struct options *opt, int nranks, size_t count)
{
    const struct collective *c = opt->coll;

    return (c->vector && c->send_per_peer ? (size_t)nranks : 1) * count * opt->type->size;
}

/* The send data of `rank`: pattern() bytes, or typed values. */
static void fill(const struct bench *b, unsigned char *buf, int rank, size_t elems)
{
    const struct etype *t = b->opt->type;

    for (size_t i = 0; i < elems; i++) {
        if (b->opt->coll->vector)
            put(t, buf, i, value(t, rank, i));
        else
            buf[i] = pattern(rank, i);
    }
}

static int send_intact(const struct bench *b, size_t elems)
{
    const struct etype *t = b->opt->type;

    for (size_t i = 0; i < elems; i++)
        if (b->opt->coll->vector ? !is(t, b->sendbuf, i, value(t, b->rank, i))
            : b->sendbuf[i] != pattern(b->rank, i))
            return 0;
    return 1;
}

/* One call outside the timed region, into a receive buffer full of
 * SENTINEL (bcast: the root's holds the data). All ranks agree on the
 * verdict, since a wrong result may show on some ranks only. */
static int validate(const struct bench *b, const char *spec, size_t count)
{
    const struct collective *c = b->opt->coll;
    size_t selems = send_elems(c, b->nranks, count);
    int ok;

    fill(b, b->sendbuf, b->rank, selems);
    memset(b->recvbuf, SENTINEL, recv_elems(c, b->nranks, count) * b->opt->type->size
           + GUARD_BYTES);
    if (c->run == run_bcast && b->rank == BENCH_ROOT)
        fill(b, b->recvbuf, BENCH_ROOT, count);
    ok = c->run(spec, b->sendbuf, b->recvbuf, (int)count, b->opt->type->type, b->comm)
             == MPI_SUCCESS
         && c->check(b->recvbuf, count, b->opt->type, b->rank, b->nranks)
         && send_intact(b, selems);
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
static void time_iterations(struct bench *b, const char *spec, size_t count,
                            int warmup, int iters)
{
    int failed = 0;

    for (int i = -warmup; i < iters; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        int rc = b->opt->coll->run(spec, b->sendbuf, b->recvbuf, (int)count,
                                   b->opt->type->type, b->comm);
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

static void measure(struct bench *b, struct column *col, size_t count)
{
    size_t bytes = row_bytes(b->opt, b->nranks, count);
    int iters = iterations(b->opt, bytes);

    col->cell.failed = !validate(b, col->spec, count);
    if (!col->cell.failed) {
        time_iterations(b, col->spec, count, warmups(b->opt, bytes), iters);
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
    if (b->opt->ncounts)
        printf("\n# p: ranks; n: elements of %s", b->opt->coll->size_is);
    else
        printf("\n# bytes: %s", b->opt->coll->size_is);
    if (b->opt->coll->vector)
        printf("\n# type: %s, %s", b->opt->type->name,
               b->opt->coll->run == run_bcast ? "root 0" : b->opt->coll->run == run_reduce
               ? "MPI_SUM, root 0" : "MPI_SUM");
    printf("\n# cells: %s of the slowest rank's time per iteration, in %s;"
           " * = fastest of the row\n# date: %s\n",
           b->opt->median ? "median" : "average", b->opt->ncounts ? "ms" : "us", date);
    if (b->opt->ncounts)
        printf("%4s %*s", "p", BYTES_WIDTH, "n");
    else
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
static void print_row(const struct bench *b, const struct column *cols, int ncols,
                      size_t count)
{
    const int median = b->opt->median, ms = b->opt->ncounts > 0;
    int best = fastest(cols, ncols, median);
    size_t bytes = row_bytes(b->opt, b->nranks, count);

    if (ms)
        printf("%4d %*zu", b->nranks, BYTES_WIDTH, bytes / b->opt->type->size);
    else
        printf("%*zu", BYTES_WIDTH, bytes);
    for (int c = 0; c < ncols; c++) {
        if (cols[c].applicable != 1)
            continue;
        if (cols[c].cell.failed)
            printf("  %*s ", cols[c].width, "FAIL");
        else
            printf(ms ? "  %*.4f%c" : "  %*.2f%c", cols[c].width,
                   figure(&cols[c].cell, median) / (ms ? 1000 : 1), c == best ? '*' : ' ');
    }
    printf("  %s\n", best >= 0 ? cols[best].label : "-");
    fflush(stdout); /* a row at a time: large sizes take a while */
}

static void print_notes(const struct bench *b, const struct column *cols, int ncols,
                        int nranks, int failed_any)
{
    if (b->opt->coll->run == run_allreduce)
        printf("# seed 001's columns: MPI_Allreduce is native, Naive_Allreduce is"
               " basic_linear (reduce to rank 0, then broadcast), Ring_Allreduce is ring\n");
    if (b->opt->coll->run == run_reduce_scatter_block && b->opt->ncounts)
        printf("# n is p * recvcount, recvcount = requested n / p (rows where that is 0"
               " are left out)\n");
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
/* Appends a row of call count `count` unless it is 0 or the last one. */
static void add_row(struct bench *b, size_t count)
{
    const int cap = (int)(sizeof b->rows / sizeof b->rows[0]);

    if (count == 0 || b->nrows == cap || (b->nrows > 0 && b->rows[b->nrows - 1] == count))
        return;
    b->rows[b->nrows++] = count;
}

/* The rows: the -m ladder of sizes in bytes, or the --counts list of
 * vector elements, as call counts (reduce_scatter_block: n / p). */
static void plan_rows(struct bench *b)
{
    const struct options *opt = b->opt;
    size_t per = opt->coll->vector && opt->coll->send_per_peer ? (size_t)b->nranks : 1;

    b->nrows = 0;
    if (opt->ncounts) {
        for (int i = 0; i < opt->ncounts; i++)
            add_row(b, (size_t)opt->counts[i] / per);
        return;
    }
    for (size_t bytes = (size_t)opt->min_bytes; bytes <= (size_t)opt->max_bytes; bytes *= 2)
        add_row(b, bytes / opt->type->size / per);
}

static int setup(struct bench *b)
{
    const struct collective *c = b->opt->coll;
    size_t max = 0, tsize = b->opt->type->size;
    /* ITERS_SMALL is the larger default; +1 for the error slot */
    size_t slots = (size_t)(b->opt->iters >= 0 ? b->opt->iters : ITERS_SMALL) + 1;
    int ok;

    plan_rows(b);
    for (int i = 0; i < b->nrows; i++)
        if (b->rows[i] > max)
            max = b->rows[i];
    if (b->nrows > 0 && max <= (SIZE_MAX - GUARD_BYTES) / (size_t)b->nranks / tsize) {
        b->sendbuf = malloc(send_elems(c, b->nranks, max) * tsize);
        b->recvbuf = malloc(recv_elems(c, b->nranks, max) * tsize + GUARD_BYTES);
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
    for (int r = 0; r < b->nrows; r++) {
        for (int c = 0; c < ncols; c++)
            if (cols[c].applicable == 1)
                measure(b, &cols[c], b->rows[r]);
        if (b->rank == 0)
            print_row(b, cols, ncols, b->rows[r]);
    }
    if (b->rank == 0)
        print_notes(b, cols, ncols, b->nranks, b->failed_any);
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
        fprintf(stderr, PREFIX "cannot allocate the buffers for these sizes on %d ranks"
                " (or no size is left)\n", nranks);
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
    etypes[T_CHAR].type = MPI_SIGNED_CHAR;
    etypes[T_INT].type = MPI_INT;
    etypes[T_FLOAT].type = MPI_FLOAT;
    etypes[T_DOUBLE].type = MPI_DOUBLE;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    code = bench(argc, argv, rank, nranks);
    MPI_Finalize();
    return code;
}
