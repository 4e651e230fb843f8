/* Command-line pieces shared by bench and tune (options.h). */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int opt_error(const char *cmd, int rank, const char *fmt, ...)
{
    va_list ap;

    if (rank == 0) {
        fprintf(stderr, "mpicoll %s: ", cmd);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n(see 'mpicoll %s --help')\n", cmd);
    }
    return EXIT_USAGE;
}

int opt_long(const char *s, const char *stop, long lo, long hi, long *out)
{
    char *end;

    errno = 0;
    *out = strtol(s, &end, 10);
    return end != s && end == stop && errno == 0 && *out >= lo && *out <= hi;
}

int opt_match(int argc, char **argv, int *i, const char *name, const char **val)
{
    const char *arg = argv[*i];
    size_t len = strlen(name);
    int is_long = name[1] == '-';

    if (strncmp(arg, name, len) != 0)
        return 0;
    if (arg[len] == '\0') {
        *val = *i + 1 < argc ? argv[++*i] : NULL;
        return 1;
    }
    if (is_long && arg[len] != '=')
        return 0; /* --delays is not --delay */
    *val = arg + len + is_long;
    return 1;
}

/* A size in [s, stop): a number, with K, M or G for powers of 1024. */
static int size_in(const char *s, const char *stop, long hi, long *out)
{
    const char *last = stop > s ? stop - 1 : s;
    int shift = *last == 'K' ? 10 : *last == 'M' ? 20 : *last == 'G' ? 30 : 0;

    if (!opt_long(s, shift ? last : stop, 1, hi >> shift, out))
        return 0;
    *out <<= shift;
    return 1;
}

int opt_sizes(const char *cmd, const char *val, long *min, long *max, int rank)
{
    const char *colon = strchr(val, ':');
    const char *hi = colon ? colon + 1 : val;
    int ok = size_in(hi, hi + strlen(hi), INT_MAX, max);

    if (ok && colon)
        ok = size_in(val, colon, *max, min);
    if (!ok)
        return opt_error(cmd, rank, "-m: expected [MIN:]MAX with 1 <= MIN <= MAX <= %d"
                         " (K, M, G: powers of 1024), got '%s'", INT_MAX, val);
    return 0;
}

int opt_count(const char *cmd, const char *name, const char *val, int lo, int *out, int rank)
{
    long n;

    if (!opt_long(val, val + strlen(val), lo, OPT_MAX_COUNT, &n))
        return opt_error(cmd, rank, "%s: expected a number from %d to %d, got '%s'", name, lo,
                         OPT_MAX_COUNT, val);
    *out = (int)n;
    return 0;
}

int opt_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

/* "y=2" (no ':', an '=') continues the algorithm before it. */
static int continues(const char *t)
{
    size_t len = strcspn(t, ",");
    const char *eq = memchr(t, '=', len);

    return eq != NULL && memchr(t, ':', len) == NULL;
}

size_t opt_spec_len(const char *s)
{
    size_t len = strcspn(s, ",");

    while (s[len] == ',' && continues(s + len + 1))
        len += 1 + strcspn(s + len + 1, ",");
    return len;
}
