/*
 * The cost model's parameters (cost.h): their defaults and their file,
 * as `mpicoll calibrate` writes it and `mpicoll model --params` reads it.
 * No MPI here.
 *
 * One table (keys[]) lists every key with its field and what values it
 * takes; the reader, the writer and the tests go through it.
 */
#include "cost.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Where the defaults come from.
 *
 * net: platforms/flat.xml as SMPI runs it (see that file's comment): two
 * links of 0.5 us (1 us end to end), 10 GB/s (1e-10 s/B), smpi/os,
 * smpi/ois and smpi/or of 0.2 us a message, latency and bandwidth factors
 * of 1; `mpicoll calibrate` under SMPI on two hosts of flat measures
 * these (tests/smpi/calibrate.sh). eager 0: every message waits for its
 * receive. SMPI itself differs there: SimGrid 3.32 sends a message below
 * smpi/send-is-detached-thresh (64 KiB by default) detached, without its
 * receive (calibrate measures eager 32768), and charges smpi/os and
 * smpi/or only to such messages (smpi/ois to every MPI_Isend): a blocking
 * send of 64 KiB or more costs latency + n beta alone.
 *
 * node: typical of a shared-memory MPI transport (Open MPI's vader, MPICH's
 * nemesis) on a current x86 server: about 0.4 us of latency and 0.1 us of
 * CPU on each side for a small message, a copy at about 10 GB/s for large
 * ones, eager up to 4 KiB (Open MPI's btl_vader_eager_limit).
 *
 * far, group, oversubscription: a network of groups (a fat tree's leaf
 * switches, a dragonfly's groups): messages between nodes of different
 * groups of `group` consecutive nodes take the `far` link, and the links out
 * of a group carry 1 / oversubscription of its hosts' bandwidth. Defaults:
 * one group (far = net, never used). calibrate cannot see groups at two
 * ranks; platforms/<name>.params give them for the simulated platforms.
 *
 * nic: a node's link carries what one stream does (net.beta): the study's
 * platforms, where a node's ranks share one host link. calibrate measures
 * it with k ranks of a node streaming to k ranks of another at once.
 *
 * fanin: 0, a rank's messages within its node share one link of
 * node.beta (a rank copies them one after the other). calibrate measures
 * it where a node has three ranks or more.
 *
 * copy: 10 GB/s, memcpy of buffers larger than the caches on such a
 * server; reduce: 4 GB/s, a float sum streaming two inputs and one output.
 */
void cost_defaults(cost_params *cp)
{
    *cp = (cost_params){
        .net = { .latency = 1e-6, .beta = 1e-10, .send_overhead = 2e-7,
                 .recv_overhead = 2e-7, .eager = 0, .detach = 0 },
        .node = { .latency = 4e-7, .beta = 1e-10, .send_overhead = 1e-7,
                  .recv_overhead = 1e-7, .eager = 4096, .detach = 4096 },
        .group = 0,
        .oversubscription = 1,
        .nic = 1e-10,
        .copy = 1e-10,
        .reduce = 2.5e-10,
    };
    cp->far = cp->net;
}

/* What a key's value may be. */
enum kind {
    POSITIVE,   /* seconds, > 0: latency, beta */
    NONNEG,     /* seconds, >= 0: overheads, copy, reduce */
    BYTES,      /* a whole number of bytes >= 0: eager */
    COUNT,      /* a whole number >= 0: group */
    RATIO,      /* >= 1: oversubscription */
};

static const struct key {
    const char *name;
    size_t offset;      /* in cost_params */
    enum kind kind;
    const char *what;   /* the comment cost_write puts after the value */
} keys[] = {
    { "net.latency", offsetof(cost_params, net.latency), POSITIVE, "s, end to end" },
    { "net.beta", offsetof(cost_params, net.beta), POSITIVE, "s per byte (1 / bandwidth)" },
    { "net.send_overhead", offsetof(cost_params, net.send_overhead), NONNEG,
      "s of CPU per message sent" },
    { "net.recv_overhead", offsetof(cost_params, net.recv_overhead), NONNEG,
      "s of CPU per message received" },
    { "net.eager", offsetof(cost_params, net.eager), BYTES,
      "bytes sent without a posted receive" },
    { "net.detach", offsetof(cost_params, net.detach), BYTES,
      "bytes that free the sender at once" },
    { "node.latency", offsetof(cost_params, node.latency), POSITIVE, "s, end to end" },
    { "node.beta", offsetof(cost_params, node.beta), POSITIVE, "s per byte (1 / bandwidth)" },
    { "node.send_overhead", offsetof(cost_params, node.send_overhead), NONNEG,
      "s of CPU per message sent" },
    { "node.recv_overhead", offsetof(cost_params, node.recv_overhead), NONNEG,
      "s of CPU per message received" },
    { "node.eager", offsetof(cost_params, node.eager), BYTES,
      "bytes sent without a posted receive" },
    { "node.detach", offsetof(cost_params, node.detach), BYTES,
      "bytes that free the sender at once" },
    { "group", offsetof(cost_params, group), COUNT, "nodes a group (0: one group)" },
    { "far.latency", offsetof(cost_params, far.latency), POSITIVE, "s, end to end" },
    { "far.beta", offsetof(cost_params, far.beta), POSITIVE, "s per byte (1 / bandwidth)" },
    { "far.send_overhead", offsetof(cost_params, far.send_overhead), NONNEG,
      "s of CPU per message sent" },
    { "far.recv_overhead", offsetof(cost_params, far.recv_overhead), NONNEG,
      "s of CPU per message received" },
    { "far.eager", offsetof(cost_params, far.eager), BYTES,
      "bytes sent without a posted receive" },
    { "far.detach", offsetof(cost_params, far.detach), BYTES,
      "bytes that free the sender at once" },
    { "oversubscription", offsetof(cost_params, oversubscription), RATIO,
      "a group's hosts over its links out" },
    { "nic", offsetof(cost_params, nic), POSITIVE,
      "s per byte of a node's link, its ranks' off-node messages together" },
    { "fanin", offsetof(cost_params, fanin), NONNEG,
      "s per byte of a rank's link inside its node, its messages there together (0: node.beta)" },
    { "copy", offsetof(cost_params, copy), NONNEG, "s per byte copied" },
    { "reduce", offsetof(cost_params, reduce), NONNEG, "s per byte reduced" },
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* Bytes above this are not eager limits but typos (and 2^53 is where a
 * double stops holding every whole number). */
#define MAX_EAGER 9007199254740992.0

static const char *const space = " \t\r\n\f\v";

/* One value for key k into *cp: NULL, or what is wrong with it. */
static const char *set_value(const struct key *k, const char *text, cost_params *cp)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0')
        return "is not a number";
    if (isnan(v) || isinf(v))
        return "must be finite";
    switch (k->kind) {
    case POSITIVE:
        if (!(v > 0))
            return "must be > 0";
        break;
    case NONNEG:
        if (v < 0)
            return "must be >= 0";
        break;
    case RATIO:
        if (v < 1)
            return "must be >= 1";
        break;
    case BYTES:
    case COUNT:
        if (v < 0 || v != floor(v) || v > MAX_EAGER || v > (double)SIZE_MAX)
            return k->kind == BYTES ? "must be a whole number of bytes >= 0"
                                    : "must be a whole number >= 0";
        *(size_t *)((char *)cp + k->offset) = (size_t)v;
        return NULL;
    }
    *(double *)((char *)cp + k->offset) = v == 0 ? 0 : v;   /* no -0 */
    return NULL;
}

int cost_read(const char *path, cost_params *cp, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, seen[NKEYS] = { 0 };   /* the line that set each key */
    cost_params out = *cp;
    int rc = -1;

    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    for (;;) {
        errno = 0;
        if (getline(&line, &cap, f) < 0) {
            if (ferror(f)) {
                snprintf(err, errlen, "%s: cannot read: %s", path,
                         strerror(errno ? errno : EIO));
                goto done;
            }
            break;
        }
        lineno++;
        char *hash = strchr(line, '#'), *save = NULL;
        if (hash)
            *hash = '\0';
        char *name = strtok_r(line, space, &save);
        if (!name)
            continue;   /* blank or a comment */
        char *value = strtok_r(NULL, space, &save);
        char *extra = strtok_r(NULL, space, &save);
        size_t i = 0;
        while (i < NKEYS && strcmp(keys[i].name, name) != 0)
            i++;
        if (i == NKEYS) {
            snprintf(err, errlen, "%s:%ld: unknown key '%s'", path, lineno, name);
            goto done;
        }
        if (!value) {
            snprintf(err, errlen, "%s:%ld: %s: missing value", path, lineno, name);
            goto done;
        }
        if (extra) {
            snprintf(err, errlen, "%s:%ld: %s: unexpected '%s' after the value", path, lineno,
                     name, extra);
            goto done;
        }
        if (seen[i]) {
            snprintf(err, errlen, "%s:%ld: %s given twice (first on line %ld)", path, lineno,
                     name, seen[i]);
            goto done;
        }
        seen[i] = lineno;
        const char *why = set_value(&keys[i], value, &out);
        if (why) {
            snprintf(err, errlen, "%s:%ld: %s: '%s' %s", path, lineno, name, value, why);
            goto done;
        }
    }
    *cp = out;
    rc = 0;
done:
    free(line);
    fclose(f);
    return rc;
}

int cost_write(FILE *f, const cost_params *cp, const char *comment)
{
    int bad = 0;

    /* the comment, each of its lines after "# " */
    for (const char *s = comment; s && *s;) {
        size_t len = strcspn(s, "\n");
        bad |= (len ? fprintf(f, "# %.*s\n", (int)len, s) : fprintf(f, "#\n")) < 0;
        s += len + (s[len] == '\n');
    }
    for (size_t i = 0; i < NKEYS; i++) {
        const char *field = (const char *)cp + keys[i].offset;
        char value[64];
        if (keys[i].kind == BYTES || keys[i].kind == COUNT)   /* exact, not %g's 6 digits */
            snprintf(value, sizeof value, "%zu", *(const size_t *)field);
        else
            snprintf(value, sizeof value, "%.6g", *(const double *)field);
        bad |= fprintf(f, "%-18s %-12s # %s\n", keys[i].name, value, keys[i].what) < 0;
    }
    bad |= fflush(f) != 0 || ferror(f);
    return bad ? -1 : 0;
}
