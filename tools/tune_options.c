/*
 * The command line of mpicoll tune (tune_options.h): the options, the
 * collectives, the communicator sizes (--np's, or the default ladder up
 * to P) and the iteration counts they give, the check of -o's directory,
 * and the help with its defaults.
 */
#include "tune_options.h"

#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static const char *const default_colls[] = { "allgather", "alltoall", "allreduce" };

void tune_usage(FILE *f)
{
    fprintf(f,
        "usage: mpirun -n P mpicoll tune [-o FILE] [options] [COLLECTIVE...]\n"
        "Measures every algorithm of each COLLECTIVE (default: allgather alltoall\n"
        "allreduce) that runs as itself, with every value of its parameter sweep\n"
        "(values that make the same plan are measured once), at every size of the\n"
        "ladder, on P ranks and on smaller communicators split off the first ranks;\n"
        "writes the fastest as rules (docs/selection.md; auto's own choice, then\n"
        "default parameters, where they are within the noise of the fastest), with\n"
        "a header saying the machine, the MPI library, the date, the command and how\n"
        "it measured, and with each rule how sure it is.\n"
        "Use them with MPICOLL_RULES=FILE; the mpicoll bench 'auto' column then\n"
        "shows what they choose.\n"
        "\n"
        "options:\n"
        "  -o FILE       the rules file (default %s); written whole at the end\n"
        "                (a temporary file renamed), so an interrupted tune leaves FILE\n"
        "                as it was\n"
        "  -m [MIN:]MAX  sizes in bytes, powers of two times MIN (default 1:%ld); the\n"
        "                measure of the rules' bytes=: one rank's block (allgather,\n"
        "                alltoall, gather, scatter), the vector (allreduce, reduce, bcast), all p\n"
        "                blocks (reduce_scatter_block)\n"
        "  -i ITER       timed iterations per size and case (default %d, %d above %d\n"
        "                bytes)\n"
        "  -x WARMUP     warm-up iterations (default %d, %d above %d bytes)\n"
        "  --np LIST     comma-separated communicator sizes, 2..P (default: 2, 3, 4,\n"
        "                the powers of two and three times the powers of two up to P,\n"
        "                and P); other sizes fall through to the built-in rules\n"
        "  --model       no measurement, no mpirun: rules from the cost model for any\n"
        "                communicator sizes (mpicoll tune --model --help)\n"
        "  -h, --help    this help\n"
        "A progress line goes to stderr when it is a terminal. Exit status: 0; 1 if a\n"
        "case failed (the file is written without it) or the file could not be\n"
        "written; 2 for a bad command line.\n",
        DEFAULT_OUTPUT, DEFAULT_MAX_BYTES, ITERS_SMALL, ITERS_LARGE, MEASURE_LARGE_BYTES,
        WARMUP_SMALL, WARMUP_LARGE, MEASURE_LARGE_BYTES);
}

static int parse_nps(const char *val, struct tune_options *opt, int nranks, int rank)
{
    const char *tok = val;
    long n;

    opt->nnps = 0;
    for (;;) {
        size_t len = strcspn(tok, ",");

        if (opt->nnps == TUNE_MAX_NPS || !opt_long(tok, tok + len, 2, nranks, &n))
            return opt_error(CMD, rank, "--np: expected up to %d comma-separated sizes from 2"
                             " to %d (the ranks), got '%s'", TUNE_MAX_NPS, nranks, val);
        opt->nps[opt->nnps++] = (int)n;
        if (tok[len] == '\0')
            return 0;
        tok += len + 1;
    }
}

int tune_add_collective(const char *name, const struct mcoll **colls, int *ncolls, int max,
                        int rank)
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
    for (int i = 0; i < *ncolls; i++)
        if (colls[i] == c)
            return 0;
    if (*ncolls == max)
        return opt_error(CMD, rank, "too many collectives");
    colls[(*ncolls)++] = c;
    return 0;
}

static int add_collective(const char *name, struct tune_options *opt, int rank)
{
    return tune_add_collective(name, opt->colls, &opt->ncolls,
                               (int)(sizeof opt->colls / sizeof opt->colls[0]), rank);
}

int tune_parse_options(int argc, char **argv, struct tune_options *opt, int nranks, int rank)
{
    const char *val;
    int rc = 0;

    *opt = (struct tune_options){ .output = DEFAULT_OUTPUT, .min_bytes = 1,
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

void tune_communicator_sizes(struct tune_options *opt, int nranks)
{
    int n = 0;

    if (opt->nnps == 0) {
        for (int q = 2; q <= nranks && opt->nnps < TUNE_MAX_NPS - 2; q *= 2) {
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

int tune_output_writable(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');

    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return access(dir, W_OK | X_OK) == 0;
}

int tune_write_file(const char *path, int (*body)(FILE *f, void *arg), void *arg)
{
    char tmp[PATH_MAX];
    mode_t mask = umask(0);
    int fd, rc = -1;
    FILE *f = NULL;

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
    if (body(f, arg) != 0)
        rc = -2;
    if (rc == -2 || fflush(f) != 0 || fsync(fileno(f)) != 0 || ferror(f)) {
        fprintf(stderr, "mpicoll " CMD ": cannot write %s: %s\n", tmp,
                rc == -2 ? "out of memory" : strerror(errno));
        rc = -1;
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

struct counts tune_counts(const struct tune_options *opt)
{
    struct counts k = { ITERS_SMALL, WARMUP_SMALL, ITERS_LARGE, WARMUP_LARGE };

    if (opt->iters >= 0)
        k.iters_small = k.iters_large = opt->iters;
    if (opt->warmup >= 0)
        k.warmup_small = k.warmup_large = opt->warmup;
    return k;
}
