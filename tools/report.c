/*
 * The output of `mpicoll bench` (report.h).
 *
 * Table: a header of '#' lines, then one row per size, a column per case
 * with the main figure (median; for non-blocking cases the pure
 * communication), '*' on the fastest and its name in the last column,
 * streamed as sizes are measured; then the other figures as blocks of the
 * same shape (min; with -f average and max; non-blocking: overall,
 * computation, overlap), the ratio of every column to native, and notes.
 * CSV: a header line and exactly one line per (size, case). JSON: one
 * object with the run's settings and one record per (size, case).
 */
#include "report.h"
#include "model/coll.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MIN_CELL_WIDTH 9 /* "123456.78" */
#define BYTES_WIDTH 8    /* "1048576" and a margin */
#define ITERS_WIDTH 5

/* The figures a block or a plot shows. */
enum { F_MEDIAN, F_MIN, F_AVG, F_MAX, F_OVERALL, F_COMPUTE, F_OVERLAP, F_RATIO };

static const struct result *result_at(const struct report *r, int row, int k)
{
    return &r->results[(size_t)row * (size_t)r->ncases + (size_t)k];
}

/* The native column, or -1. */
static int native_case(const struct report *r)
{
    for (int k = 0; k < r->ncases; k++)
        if (r->cases[k].native)
            return k;
    return -1;
}

/* Figure f of case k at a row, in the unit printed (us; ms with --counts;
 * percent; a ratio); NAN when there is none. */
static double figure(const struct report *r, int row, int k, int f)
{
    const struct result *res = result_at(r, row, k);
    const double unit = r->ms ? 1000 : 1;
    int nat = native_case(r);

    if (!res->valid)
        return NAN;
    switch (f) {
    case F_MEDIAN: return res->time.median / unit;
    case F_MIN: return res->time.min / unit;
    case F_AVG: return res->time.avg / unit;
    case F_MAX: return res->time.max / unit;
    case F_OVERALL: return res->overall.median / unit;
    case F_COMPUTE: return res->compute.median / unit;
    case F_OVERLAP: return res->overlap;
    default:
        return nat >= 0 && result_at(r, row, nat)->valid
               ? res->time.median / result_at(r, row, nat)->time.median : NAN;
    }
}

/* ---- table -------------------------------------------------------------- */

static int cell_width(const struct mcase *k)
{
    int w = (int)strlen(k->label);

    return w < MIN_CELL_WIDTH ? MIN_CELL_WIDTH : w;
}

static void print_counts(const struct report *r)
{
    const struct counts *k = &r->counts;

    if (r->counts_set)
        printf("# iterations: %d", k->iters_small);
    else
        printf("# iterations: %d (%d above %d bytes)", k->iters_small, k->iters_large,
               MEASURE_LARGE_BYTES);
    if (r->warmup_set)
        printf(", warm-up: %d", k->warmup_small);
    else
        printf(", warm-up: %d (%d above %d bytes)", k->warmup_small, k->warmup_large,
               MEASURE_LARGE_BYTES);
    printf(";\n#   the cases of a size alternate in chunks of up to %d iterations (round-robin)",
           MEASURE_CHUNK_MAX);
    if (r->delay_us > 0)
        printf("; delay between iterations: %ld us (not timed)", r->delay_us);
    putchar('\n');
}

static void library_version(char *buf, int len)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;

    MPI_Get_library_version(version, &n);
    version[strcspn(version, "\n")] = '\0';
    snprintf(buf, (size_t)len, "%s", version);
}

static void now(char *buf, size_t len)
{
    time_t t = time(NULL);
    const struct tm *tm = localtime(&t);

    if (tm == NULL || strftime(buf, len, "%Y-%m-%d %H:%M:%S %z", tm) == 0)
        snprintf(buf, len, "unknown");
}

static void print_columns(const struct report *r, int best_column)
{
    if (r->ms)
        printf("%4s %*s", "p", BYTES_WIDTH, "n");
    else
        printf("%*s", BYTES_WIDTH, "bytes");
    printf(" %*s", ITERS_WIDTH, "iters");
    for (int k = 0; k < r->ncases; k++)
        printf("  %*s ", cell_width(&r->cases[k]), r->cases[k].label);
    printf(best_column ? "  best\n" : "\n");
}

static void table_header(const struct report *r)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING], date[64];

    library_version(version, sizeof version);
    now(date, sizeof date);
    printf("# mpicoll bench %s\n# ranks: %d\n# mpicoll: %s\n# MPI library: %s\n", r->command,
           r->nranks, MPICOLL_VERSION, version);
    print_counts(r);
    printf(r->ms ? "# p: ranks; n: elements of %s\n" : "# bytes: %s\n", r->coll->size_is);
    const coll_desc *d = coll_find(r->coll->name);
    if (r->coll->vector)
        printf("# type: %s%s%s\n", r->type->name, d->reduction ? ", MPI_SUM" : "",
               d->rooted ? ", root 0" : "");
    if (r->inplace)
        printf("# in place: MPI_IN_PLACE%s\n",
               r->coll->inplace == IP_ROOT || r->coll->inplace == IP_ROOT_RECV ? " at the root"
                                                                                : "");
    if (r->persistent)
        printf("# NAME/persistent: mpicoll_%s_init once per size, then per iteration"
               " mpicoll_start + mpicoll_wait; NAME: one blocking call\n", r->coll->name);
    if (r->nb)
        printf("# non-blocking (OSU's osu_i%s): start + wait alone (pure communication), then"
               " with a computation\n#   as long as the pure communication between start and"
               " wait (no MPI call in it); native: MPI_I%s\n", r->coll->name, r->coll->name);
    printf("# validation: every result checked before its case is timed%s\n",
           r->check ? ", and again after each of its chunks (-c)" : "");
    printf("# cells: %s, median of the slowest rank's time per iteration over 'iters'"
           " iterations, in %s;\n#   * = fastest of the row\n# date: %s\n",
           r->nb ? "pure communication" : "latency", r->ms ? "ms" : "us", date);
    print_columns(r, 1);
}

static void print_row_start(const struct report *r, int row)
{
    size_t bytes = mcoll_row_bytes(r->coll, r->type, r->nranks, r->rows[row]);
    int iters = 0;

    for (int k = 0; k < r->ncases; k++)
        if (result_at(r, row, k)->iters > iters)
            iters = result_at(r, row, k)->iters;
    if (r->ms)
        printf("%4d %*zu", r->nranks, BYTES_WIDTH, bytes / r->type->size);
    else
        printf("%*zu", BYTES_WIDTH, bytes);
    printf(" %*d", ITERS_WIDTH, iters);
}

/* The column with the lowest figure f at a row, or -1. */
static int fastest(const struct report *r, int row, int f)
{
    int best = -1;

    for (int k = 0; k < r->ncases; k++) {
        double x = figure(r, row, k, f);

        if (!isnan(x) && (best < 0 || x < figure(r, row, best, f)))
            best = k;
    }
    return best;
}

/* Cells keep one character after the figure for the '*', so that decimal
 * points line up whether or not a cell is marked. */
static void print_cells(const struct report *r, int row, int f, int mark)
{
    int best = mark ? fastest(r, row, f) : -1;
    const char *fmt = f == F_RATIO ? "  %*.2f%c" : f == F_OVERLAP ? "  %*.1f%c"
                      : r->ms ? "  %*.4f%c" : "  %*.2f%c";

    print_row_start(r, row);
    for (int k = 0; k < r->ncases; k++) {
        double x = figure(r, row, k, f);

        if (!result_at(r, row, k)->valid)
            printf("  %*s ", cell_width(&r->cases[k]), "FAIL");
        else if (isnan(x))
            printf("  %*s ", cell_width(&r->cases[k]), "-");
        else
            printf(fmt, cell_width(&r->cases[k]), x, k == best ? '*' : ' ');
    }
    if (mark)
        printf("  %s", best >= 0 ? r->cases[best].label : "-");
    putchar('\n');
}

static void print_block(const struct report *r, int f, const char *title)
{
    printf("#\n# %s\n", title);
    print_columns(r, 0);
    for (int row = 0; row < r->nrows; row++)
        print_cells(r, row, f, 0);
}

/* The sizes at which auto ran each algorithm, as ranges of rows. */
static void print_auto_choices(const struct report *r)
{
    int first = 0;

    if (r->chose == NULL || r->chose[0][0] == '\0')
        return;
    printf("# auto ran:");
    for (int row = 1; row <= r->nrows; row++) {
        if (row < r->nrows && strcmp(r->chose[row], r->chose[first]) == 0)
            continue;
        printf(" %zu", mcoll_row_bytes(r->coll, r->type, r->nranks, r->rows[first]));
        if (row - 1 > first)
            printf("-%zu", mcoll_row_bytes(r->coll, r->type, r->nranks, r->rows[row - 1]));
        printf(": %s%s", r->chose[first], row < r->nrows ? ";" : "");
        first = row;
    }
    printf("\n");
}

static void table_end(const struct report *r)
{
    const char *unit = r->ms ? "ms" : "us";
    char title[200];
    int failed = 0;

    snprintf(title, sizeof title, "min: the fastest of the iterations, in %s", unit);
    print_block(r, F_MIN, title);
    if (r->full) {
        snprintf(title, sizeof title, "average of the iterations, in %s", unit);
        print_block(r, F_AVG, title);
        snprintf(title, sizeof title, "max: the slowest of the iterations, in %s", unit);
        print_block(r, F_MAX, title);
    }
    if (r->nb) {
        snprintf(title, sizeof title, "overall: start + computation + wait, median, in %s", unit);
        print_block(r, F_OVERALL, title);
        snprintf(title, sizeof title, "computation between start and wait, median, in %s", unit);
        print_block(r, F_COMPUTE, title);
        print_block(r, F_OVERLAP, "overlap, percent: max(0, 100 (1 - (overall - computation)"
                    " / pure communication))");
    }
    if (native_case(r) >= 0)
        print_block(r, F_RATIO, "ratio to native: median / native's median (below 1: faster"
                    " than native)");
    print_auto_choices(r);
    for (int i = 0; i < r->nnotes; i++)
        printf("# not measured: %s\n", r->notes[i]);
    for (int row = 0; row < r->nrows; row++)
        for (int k = 0; k < r->ncases; k++)
            failed |= !result_at(r, row, k)->valid;
    if (failed)
        printf("# FAIL: wrong result or MPI error (validation or timing); no time reported\n");
}

/* ---- CSV and JSON ------------------------------------------------------- */

static void print_number(double x, const char *fmt, const char *none)
{
    if (isnan(x))
        fputs(none, stdout);
    else
        printf(fmt, x);
}

/* A label as one CSV field (quoted if it holds a comma: a spec with
 * several parameters). */
static void csv_label(const char *s)
{
    printf(strchr(s, ',') ? "\"%s\"" : "%s", s);
}

static void csv_row(const struct report *r, int row)
{
    size_t bytes = mcoll_row_bytes(r->coll, r->type, r->nranks, r->rows[row]);
    const int figs[2][4] = { { F_MEDIAN, F_MIN, F_AVG, F_MAX },
                             { F_MEDIAN, F_OVERALL, F_COMPUTE, F_OVERLAP } };

    for (int k = 0; k < r->ncases; k++) {
        const struct result *res = result_at(r, row, k);

        printf("%s,%d,%zu,%zu,", r->command, r->nranks, bytes, r->rows[row]);
        csv_label(r->cases[k].label);
        printf(",%d", res->iters);
        for (int i = 0; i < 4; i++) {
            putchar(',');
            /* microseconds whatever --counts says */
            print_number(figs[r->nb][i] == F_OVERLAP ? figure(r, row, k, F_OVERLAP)
                         : figure(r, row, k, figs[r->nb][i]) * (r->ms ? 1000 : 1),
                         "%.3f", "nan");
        }
        printf(",%d\n", res->valid);
    }
}

static void json_header(const struct report *r)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING], date[64];

    library_version(version, sizeof version);
    now(date, sizeof date);
    printf("{\n  \"command\": \"%s\",\n  \"collective\": \"%s\",\n  \"np\": %d,\n"
           "  \"mpicoll\": \"%s\",\n  \"mpi_library\": \"", r->command, r->coll->name,
           r->nranks, MPICOLL_VERSION);
    for (const char *c = version; *c; c++) /* JSON string: escape what needs it */
        printf((*c == '"' || *c == '\\') ? "\\%c" : (unsigned char)*c < 0x20 ? " " : "%c", *c);
    printf("\",\n  \"date\": \"%s\",\n  \"type\": \"%s\",\n  \"in_place\": %s,\n"
           "  \"iterations\": {\"small\": %d, \"large\": %d, \"warmup_small\": %d,"
           " \"warmup_large\": %d, \"large_above_bytes\": %d},\n"
           "  \"statistic\": \"slowest rank's time per iteration, in microseconds\",\n"
           "  \"results\": [", date, r->type->name, r->inplace ? "true" : "false",
           r->counts.iters_small, r->counts.iters_large, r->counts.warmup_small,
           r->counts.warmup_large, MEASURE_LARGE_BYTES);
}

static void json_field(const char *name, double x)
{
    printf(", \"%s\": ", name);
    print_number(x, "%.3f", "null");
}

static void json_row(const struct report *r, int row)
{
    size_t bytes = mcoll_row_bytes(r->coll, r->type, r->nranks, r->rows[row]);
    const double unit = r->ms ? 1000 : 1;
    static const char *const modes[] = { "blocking", "nonblocking", "persistent" };

    for (int k = 0; k < r->ncases; k++) {
        const struct result *res = result_at(r, row, k);
        const struct mcase *c = &r->cases[k];

        printf("%s\n    {\"bytes\": %zu, \"count\": %zu, \"algorithm\": \"%s\", \"mode\": \"%s\","
               " \"iterations\": %d, \"valid\": %s", row == 0 && k == 0 ? "" : ",", bytes,
               r->rows[row], c->label, modes[c->mode], res->iters, res->valid ? "true" : "false");
        json_field("median_us", figure(r, row, k, F_MEDIAN) * unit);
        json_field("min_us", figure(r, row, k, F_MIN) * unit);
        json_field("avg_us", figure(r, row, k, F_AVG) * unit);
        json_field("max_us", figure(r, row, k, F_MAX) * unit);
        if (r->nb) {
            json_field("overall_us", figure(r, row, k, F_OVERALL) * unit);
            json_field("compute_us", figure(r, row, k, F_COMPUTE) * unit);
            json_field("overlap_pct", figure(r, row, k, F_OVERLAP));
        }
        if (!c->native && strcmp(c->spec, "auto") == 0 && r->chose)
            printf(", \"auto_ran\": \"%s\"", r->chose[row]);
        putchar('}');
    }
}

static void json_end(const struct report *r)
{
    printf("\n  ],\n  \"not_measured\": [");
    for (int i = 0; i < r->nnotes; i++)
        printf("%s\"%s\"", i ? ", " : "", r->notes[i]);
    printf("]\n}\n");
}

/* ---- the three formats -------------------------------------------------- */

void report_begin(const struct report *r)
{
    if (r->format == FMT_TABLE)
        table_header(r);
    else if (r->format == FMT_CSV)
        printf("collective,np,bytes,count,algorithm,iterations,%s,valid\n", r->nb
               ? "pure_us,overall_us,compute_us,overlap_pct" : "median_us,min_us,avg_us,max_us");
    else
        json_header(r);
    fflush(stdout);
}

void report_row(const struct report *r, int row)
{
    if (r->format == FMT_TABLE)
        print_cells(r, row, F_MEDIAN, 1);
    else if (r->format == FMT_CSV)
        csv_row(r, row);
    else
        json_row(r, row);
    fflush(stdout); /* a row at a time: large sizes take a while */
}

void report_end(const struct report *r)
{
    if (r->format == FMT_TABLE)
        table_end(r);
    else if (r->format == FMT_JSON)
        json_end(r);
    fflush(stdout);
}

/* ---- the plot ----------------------------------------------------------- */

/* The gnuplot program: MPICOLL_GNUPLOT, or gnuplot on the PATH. */
static const char *gnuplot(void)
{
    const char *g = getenv("MPICOLL_GNUPLOT");

    return g && *g ? g : "gnuplot";
}

int report_have_gnuplot(void)
{
    const char *path = getenv("PATH"), *g = gnuplot();

    if (strchr(g, '/'))
        return access(g, X_OK) == 0;
    for (const char *dir = path; dir && *dir;) {
        size_t len = strcspn(dir, ":");
        char file[PATH_MAX];

        if (snprintf(file, sizeof file, "%.*s/%s", (int)len, len ? dir : ".", g)
                < (int)sizeof file
            && access(file, X_OK) == 0)
            return 1;
        dir += len + (dir[len] == ':');
    }
    return 0;
}

/* A gnuplot string in single quotes, where '' stands for a quote. */
static void gp_string(FILE *gp, const char *s)
{
    fputc('\'', gp);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', gp);
        fputc(*s, gp);
    }
    fputc('\'', gp);
}

/* Line i of n: its own colour (gnuplot's default cycle repeats after 8
 * lines): a qualitative palette up to 10 lines, else n hues spread around
 * the wheel, every other one darker. */
static void line_colour(int i, int n, char out[8])
{
    static const char *const palette[] = {
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    };
    const int npal = (int)(sizeof palette / sizeof palette[0]);
    double h = 6.0 * i / n, v = i % 2 ? 0.62 : 0.92, s = 0.8, c = v * s;
    double x = c * (1 - fabs(fmod(h, 2) - 1)), m = v - c, rgb[3];
    int sector = (int)h;
    unsigned char byte[3];

    if (n <= npal) {
        snprintf(out, 8, "%s", palette[i]);
        return;
    }
    rgb[0] = sector == 0 || sector == 5 ? c : sector == 1 || sector == 4 ? x : 0;
    rgb[1] = sector == 1 || sector == 2 ? c : sector == 0 || sector == 3 ? x : 0;
    rgb[2] = sector == 3 || sector == 4 ? c : sector == 2 || sector == 5 ? x : 0;
    for (int j = 0; j < 3; j++)
        byte[j] = (unsigned char)lround(255 * (rgb[j] + m));
    snprintf(out, 8, "#%02x%02x%02x", byte[0], byte[1], byte[2]);
}

int report_plot(const struct report *r, const char *file)
{
    FILE *gp = popen(gnuplot(), "w");
    char text[256];
    int status, lines = 0, nlines = 0;

    if (gp == NULL) {
        perror("mpicoll bench: --plot: cannot run gnuplot");
        return -1;
    }
    fprintf(gp, "set terminal pngcairo size 1100,700 noenhanced\nset output ");
    gp_string(gp, file);
    fprintf(gp, "\nset logscale y\nset logscale x 2\nset xtics 4\nset format x '%%.0b%%B'\n"
            "set autoscale xfix\nset offsets graph 0.02, graph 0.02, 0, 0\nset grid\n"
            "set key outside right\nset title ");
    snprintf(text, sizeof text, "mpicoll bench %s, %d ranks: median %s", r->command, r->nranks,
             r->nb ? "pure communication" : "latency");
    gp_string(gp, text);
    fprintf(gp, "\nset xlabel ");
    snprintf(text, sizeof text, "%s: %s", r->ms ? "elements" : "bytes", r->coll->size_is);
    gp_string(gp, text);
    fprintf(gp, "\nset ylabel '%s'\n", r->ms ? "ms" : "us");
    for (int k = 0; k < r->ncases; k++) {
        fprintf(gp, "$d%d << EOD\n", k);
        for (int row = 0; row < r->nrows; row++) {
            size_t bytes = mcoll_row_bytes(r->coll, r->type, r->nranks, r->rows[row]);
            double x = figure(r, row, k, F_MEDIAN);

            if (!isnan(x))
                fprintf(gp, "%zu %g\n", r->ms ? bytes / r->type->size : bytes, x);
        }
        fprintf(gp, "EOD\n");
    }
    for (int k = 0; k < r->ncases; k++)
        for (int row = 0; row < r->nrows; row++)
            if (!isnan(figure(r, row, k, F_MEDIAN))) {
                nlines++;
                break;
            }
    fprintf(gp, "plot");
    for (int k = 0; k < r->ncases; k++) {
        int points = 0;
        char colour[8];

        for (int row = 0; row < r->nrows; row++)
            points += !isnan(figure(r, row, k, F_MEDIAN));
        if (points > 0) {
            line_colour(lines, nlines, colour);
            fprintf(gp, "%s $d%d with linespoints lc rgb '%s' pt %d title ", lines ? "," : "",
                    k, colour, 1 + lines % 13);
            lines++;
            gp_string(gp, r->cases[k].label);
        }
    }
    fprintf(gp, lines ? "\n" : " NaN notitle\n");
    status = pclose(gp);
    if (status != 0) {
        fprintf(stderr, "mpicoll bench: --plot: gnuplot failed (status %d) writing %s\n",
                status, file);
        return -1;
    }
    return 0;
}
