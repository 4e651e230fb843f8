/*
 * The command line of `mpicoll tune` (tune_options.c), and the pieces of
 * it that `mpicoll tune --model` (tune_model.c) shares: the collectives
 * and the check of the rules file's directory. Every rank parses the same
 * command line and reaches the same verdict; rank 0 alone says why.
 */
#ifndef MPICOLL_TOOLS_TUNE_OPTIONS_H
#define MPICOLL_TOOLS_TUNE_OPTIONS_H

#include "measure.h"

#include <stdio.h>

#define CMD "tune" /* in messages: "mpicoll tune: ..." */
#define TUNE_MAX_NPS 32

struct tune_options {
    const char *output;
    long min_bytes, max_bytes;
    int iters, warmup;      /* -1: the defaults (tune_counts) */
    int nps[TUNE_MAX_NPS], nnps; /* 0: the default sizes */
    const struct mcoll *colls[MCOLLS];
    int ncolls;
    int help;
};

/* Parses argv (argv[0] "tune") into opt; the collectives default to
 * allgather, alltoall and allreduce. -h or --help sets opt->help. 0, or
 * EXIT_USAGE with the message on rank 0's stderr. */
int tune_parse_options(int argc, char **argv, struct tune_options *opt, int nranks, int rank);

/* The help of `mpicoll tune --help`. */
void tune_usage(FILE *f);

/* The communicator sizes, ascending, each once: --np's, or 2, 3, 4, the
 * powers of two and three times the powers of two up to nranks, and
 * nranks. */
void tune_communicator_sizes(struct tune_options *opt, int nranks);

/* The iteration counts: the defaults, or -i's and -x's at every size. */
struct counts tune_counts(const struct tune_options *opt);

/* 1 if the directory of the rules file `path` takes a new file (checked
 * before anything is measured or predicted). */
int tune_output_writable(const char *path);

/* Writes the rules file `path` whole: body(f, arg) into a temporary file
 * beside it, flushed to disk, then renamed over it (made as an ordinary
 * file under the umask). body returns 0, or -1 when out of memory. 0, or
 * -1 with a message. */
int tune_write_file(const char *path, int (*body)(FILE *f, void *arg), void *arg);

/* Adds the collective `name` to colls[0..*ncolls) (max entries) once; an
 * unknown name or too many: the message (on rank 0) and EXIT_USAGE. */
int tune_add_collective(const char *name, const struct mcoll **colls, int *ncolls, int max,
                        int rank);

#endif
