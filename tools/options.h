/*
 * Command-line pieces shared by `mpicoll bench` and `mpicoll tune`. Every
 * rank parses the same command line and reaches the same verdict; rank 0
 * alone says why.
 */
#ifndef MPICOLL_TOOLS_OPTIONS_H
#define MPICOLL_TOOLS_OPTIONS_H

#include <stddef.h>

#define EXIT_FAILED 1 /* a measured algorithm failed, or the run could not be set up */
#define EXIT_USAGE 2  /* a bad command line */

/* Prints "mpicoll CMD: <message>" and "(see 'mpicoll CMD --help')" on
 * rank 0's stderr; returns EXIT_USAGE. */
int opt_error(const char *cmd, int rank, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Parses the decimal number spanning [s, stop) into *out, within [lo, hi];
 * 1 if it is one. */
int opt_long(const char *s, const char *stop, long lo, long hi, long *out);

/* 1 if argv[*i] is option `name` ("-m", "--delay"), with *val its value:
 * glued ("-m1:64", "--delay=10") or the next argument (then *i moves on
 * to it); *val is NULL when there is none. 0 if it is another argument. */
int opt_match(int argc, char **argv, int *i, const char *name, const char **val);

/* -m [MIN:]MAX, 1 <= MIN <= MAX <= INT_MAX, numbers that may end in K, M
 * or G (powers of 1024). 0, or EXIT_USAGE. */
int opt_sizes(const char *cmd, const char *val, long *min, long *max, int rank);

/* A count option (-i, -x) from lo to OPT_MAX_COUNT. 0, or EXIT_USAGE. */
#define OPT_MAX_COUNT (1 << 30)
int opt_count(const char *cmd, const char *name, const char *val, int lo, int *out, int rank);

/* The length of the first algorithm of the -a list s: up to the comma
 * before the next algorithm, for a parameter list goes with its
 * algorithm (in "a:x=1,y=2,ring", "a:x=1,y=2"). */
size_t opt_spec_len(const char *s);

/* 1 for -h and --help. */
int opt_is_help(const char *arg);

#endif
