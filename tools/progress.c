/*
 * The progress line of bench and tune (measure.h): on rank 0's stderr,
 * rewritten in place, only when that goes to a terminal.
 */
#include "measure.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MIN_INTERVAL 0.25 /* seconds between two updates of the line */

/* Under mpirun a rank's stderr is a pipe (or socket) to the launcher,
 * which copies it to its own stderr. So: is stderr a terminal, or else
 * is the first ancestor whose stderr is neither a pipe nor a socket
 * (Open MPI's mpirun; MPICH's mpiexec above its proxy) writing to one?
 * Linux's /proc tells; elsewhere only isatty answers. */
static int stderr_is_terminal(void)
{
    pid_t pid = getppid();

    if (isatty(STDERR_FILENO))
        return 1;
    for (int depth = 0; depth < 4 && pid > 1; depth++) {
        char path[64], target[256];
        ssize_t n;
        FILE *f;
        int ppid = 0;

        snprintf(path, sizeof path, "/proc/%d/fd/2", (int)pid);
        n = readlink(path, target, sizeof target - 1);
        if (n < 0)
            return 0;
        target[n] = '\0';
        if (strncmp(target, "pipe:", 5) != 0 && strncmp(target, "socket:", 7) != 0)
            return strncmp(target, "/dev/pts/", 9) == 0 || strncmp(target, "/dev/tty", 8) == 0;
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        f = fopen(path, "r");
        /* pid (comm) state ppid ...: comm may hold spaces, so from the last ')' */
        if (f == NULL || fgets(target, sizeof target, f) == NULL
            || strrchr(target, ')') == NULL
            || sscanf(strrchr(target, ')') + 1, " %*c %d", &ppid) != 1) {
            if (f)
                fclose(f);
            return 0;
        }
        fclose(f);
        pid = (pid_t)ppid;
    }
    return 0;
}

/* Seconds of a monotonic clock: not MPI_Wtime, since tune --model shows
 * progress without MPI_Init. */
static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void progress_init(struct progress *pg, int rank)
{
    *pg = (struct progress){ .on = rank == 0 && stderr_is_terminal(), .start = now_s(),
                             .last = -MIN_INTERVAL };
}

static void print_time(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);

    if (s < 0)
        snprintf(buf, len, "?");
    else if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

void progress_show(struct progress *pg, const char *what)
{
    double now = now_s(), elapsed = now - pg->start;
    char el[32], rem[32];

    if (!pg->on || now - pg->last < MIN_INTERVAL)
        return;
    pg->last = now;
    print_time(el, sizeof el, elapsed);
    print_time(rem, sizeof rem, pg->done > 0 && pg->total > pg->done
               ? elapsed * (pg->total - pg->done) / pg->done : pg->done > 0 ? 0 : -1);
    /* \r and "erase to the end of the line": one line, rewritten */
    fprintf(stderr, "\r\033[K%s  elapsed %s  remaining ~%s", what, el, rem);
    fflush(stderr);
    pg->shown = 1;
}

void progress_end(struct progress *pg)
{
    if (pg->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    pg->shown = 0;
}

/* A call costs about 10 us of latency plus the bytes the ranks move at
 * some GB/s: only the ratios matter (remaining = elapsed x units left /
 * units done). */
double measure_units(size_t bytes, int nranks, double calls)
{
    return calls * (10.0 + (double)bytes * nranks / 4000.0);
}
