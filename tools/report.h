/*
 * The output of `mpicoll bench` (rank 0): a table (one row per size, a
 * column per case), CSV (one line per size and case) or JSON, and the
 * plot through gnuplot.
 */
#ifndef MPICOLL_TOOLS_REPORT_H
#define MPICOLL_TOOLS_REPORT_H

#include "measure.h"

enum { FMT_TABLE, FMT_CSV, FMT_JSON };

#define REPORT_MAX_NOTES 64

struct report {
    const char *command;       /* "allgather", "iallgather" */
    const struct mcoll *coll;
    const struct etype *type;
    int nranks;
    struct counts counts;
    int counts_set;            /* -i given: one count at every size */
    int warmup_set;            /* -x given */
    long delay_us;
    int full, check, inplace, nb, persistent;
    int ms;                    /* --counts: rows are (p, n), cells milliseconds */
    int format;
    const struct mcase *cases;
    int ncases;
    const size_t *rows;        /* the call count of each row */
    int nrows;
    const struct result *results; /* nrows x ncases, row by row as measured */
    char (*chose)[64];         /* per row: what auto ran ("" if auto is not measured) */
    const char *notes[REPORT_MAX_NOTES]; /* not measured, and why */
    int nnotes;
};

void report_begin(const struct report *r);
/* Prints row `row` once its results are in (a table or CSV streams). */
void report_row(const struct report *r, int row);
void report_end(const struct report *r);

/* 1 if gnuplot is on the PATH. */
int report_have_gnuplot(void);
/* Draws the main figure against size, log-log, one line per case, into a
 * PNG file. 0, or -1 with a message on stderr. */
int report_plot(const struct report *r, const char *file);

#endif
