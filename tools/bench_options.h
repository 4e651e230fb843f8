/*
 * The command line of `mpicoll bench` (bench_options.c): what it says,
 * parsed and checked on every rank alike, and the help.
 */
#ifndef MPICOLL_TOOLS_BENCH_OPTIONS_H
#define MPICOLL_TOOLS_BENCH_OPTIONS_H

#include "measure.h"

#include <stdio.h>

#define CMD "bench" /* in messages: "mpicoll bench: ..." */

struct bench_options {
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
    int evidence;           /* --evidence: per-rank faults, switches, CPUs on stderr */
    int rank_mean;          /* --rank-mean: an iteration's figure is the ranks' mean */
    const char *plot;
    int help;
};

/* Parses argv (argv[1] the collective, options after it) into opt, with
 * the checks of what the options say together; -h or --help sets
 * opt->help and stops there. 0, or EXIT_USAGE with the message on rank
 * 0's stderr. */
int bench_parse_options(int argc, char **argv, struct bench_options *opt, int rank);

/* The help of `mpicoll bench --help`. */
void bench_usage(FILE *f);

/* The iteration counts of the options: OSU's defaults, or -i's and -x's
 * at every size. */
void bench_counts(const struct bench_options *opt, struct counts *k);

#endif
