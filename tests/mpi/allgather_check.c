/*
 * Shared machinery of the allgather MPI tests; see allgather_check.h.
 */
#include "allgather_check.h"

#include <mpicoll.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    SENTINEL = 0xA5,   /* every receive byte not written by the collective */
    SEND_GAP = 0x5A,   /* the gaps of the send buffer */
    GUARD = 64,        /* sentinel bytes before and after the receive buffer */
    MAX_LINES = 20     /* FAIL lines one rank prints; failures still count */
};

static int lines_printed;

/* printf for FAIL lines, muted past MAX_LINES on this rank. */
static void fail_line(const char *fmt, ...)
{
    va_list ap;
    if (lines_printed++ >= MAX_LINES) {
        if (lines_printed == MAX_LINES + 1)
            printf("FAIL allgather: world_rank=%d: more failures, lines muted\n",
                   ag_world_rank());
        return;
    }
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

static struct ag_layout l_int = { "MPI_INT", MPI_DATATYPE_NULL, sizeof(int), 1, 1, { 0 } };
static struct ag_layout l_byte = { "MPI_BYTE", MPI_DATATYPE_NULL, 1, 1, 1, { 0 } };
/* vector(2, 1, 3, MPI_INT) resized to 5 ints: data at ints 0 and 3, gaps at
 * 1, 2 and 4 (the trailing gap is inside the extent, between elements). */
static struct ag_layout l_vec = { "vector", MPI_DATATYPE_NULL, sizeof(int), 5, 2, { 0, 3 } };
/* contiguous(2, MPI_INT): the same signature as 2 MPI_INT. */
static struct ag_layout l_pair = { "pair", MPI_DATATYPE_NULL, sizeof(int), 2, 2, { 0, 1 } };

const struct ag_dtcase ag_cases[] = {
    { "int", &l_int, 1, &l_int, 1 },
    { "byte", &l_byte, 1, &l_byte, 1 },
    { "vector", &l_vec, 1, &l_vec, 1 },
    { "2int->pair", &l_int, 2, &l_pair, 1 },
    { "vector->2int", &l_vec, 1, &l_int, 2 },
    { "2int->vector", &l_int, 2, &l_vec, 1 },
};
const int ag_ncases = (int)(sizeof ag_cases / sizeof ag_cases[0]);

const int ag_counts[] = { 0, 1, 7, 1000, AG_BIG };
const int ag_ncounts = (int)(sizeof ag_counts / sizeof ag_counts[0]);

int ag_world_rank(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int ag_world_size(void)
{
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    return p;
}

/* Checks that MPI agrees with the layout the test assumes. */
static int layout_ok(const struct ag_layout *l)
{
    int size;
    MPI_Aint lb, extent;
    MPI_Type_size(l->type, &size);
    MPI_Type_get_extent(l->type, &lb, &extent);
    if (lb != 0 || (size_t)extent != (size_t)l->extent * l->unit
        || (size_t)size != (size_t)l->ndata * l->unit) {
        printf("FAIL allgather: test setup: type %s has lb=%ld extent=%ld size=%d,"
               " expected lb=0 extent=%zu size=%zu\n", l->name, (long)lb, (long)extent,
               size, (size_t)l->extent * l->unit, (size_t)l->ndata * l->unit);
        return 0;
    }
    return 1;
}

int ag_types_create(void)
{
    MPI_Datatype vec;
    l_int.type = MPI_INT;
    l_byte.type = MPI_BYTE;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(5 * sizeof(int)), &l_vec.type);
    MPI_Type_free(&vec);
    MPI_Type_commit(&l_vec.type);
    MPI_Type_contiguous(2, MPI_INT, &l_pair.type);
    MPI_Type_commit(&l_pair.type);
    return layout_ok(&l_int) && layout_ok(&l_byte) && layout_ok(&l_vec)
        && layout_ok(&l_pair) ? 0 : 1;
}

void ag_types_free(void)
{
    MPI_Type_free(&l_vec.type);
    MPI_Type_free(&l_pair.type);
}

int ag_count_for(const struct ag_dtcase *dc, int c)
{
    size_t bytes;
    if (c != AG_BIG)
        return c;
    /* one unit of the case: smult send elements = rmult receive elements */
    bytes = (size_t)dc->smult * (size_t)dc->send->ndata * dc->send->unit;
    return (int)((100003 + bytes - 1) / bytes);
}

MPI_Comm ag_split_comm(void)
{
    int rank = ag_world_rank(), size = ag_world_size();
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, size >= 3 ? rank % 2 : 0, size - rank, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return c;
}

static int int_val(int rank, size_t j)
{
    return (rank + 1) * 1000000 + (int)j;
}

/* Cycles through 255 values (never the sentinel); element j and j+1, block
 * r and r+1 always differ. */
static unsigned char byte_val(int rank, size_t j)
{
    unsigned v = (unsigned)((97u * (unsigned)rank + 13u * j + 7u * (j >> 8)) % 255u);
    return (unsigned char)(v >= SENTINEL ? v + 1 : v);
}

/* Writes rank's data for `count` elements of layout l at base. */
static void place(unsigned char *base, const struct ag_layout *l, int count, int rank)
{
    for (size_t e = 0; e < (size_t)count; e++)
        for (int k = 0; k < l->ndata; k++) {
            size_t j = e * (size_t)l->ndata + (size_t)k;
            unsigned char *at = base + (e * (size_t)l->extent + (size_t)l->offs[k]) * l->unit;
            if (l->unit == 1) {
                *at = byte_val(rank, j);
            } else {
                int v = int_val(rank, j);
                memcpy(at, &v, sizeof v);
            }
        }
}

static void describe_int(char *out, size_t len, int v, int nranks)
{
    if ((unsigned)v == 0xA5A5A5A5u)
        snprintf(out, len, "%d (sentinel: never written)", v);
    else if ((unsigned)v == 0x5A5A5A5Au)
        snprintf(out, len, "%d (a gap of some send buffer)", v);
    else if (v >= 1000000 && v / 1000000 <= nranks)
        snprintf(out, len, "%d (rank %d element %d)", v, v / 1000000 - 1, v % 1000000);
    else
        snprintf(out, len, "%d (0x%08x)", v, (unsigned)v);
}

static void describe_byte(char *out, size_t len, unsigned char v)
{
    snprintf(out, len, "0x%02x%s", v, v == SENTINEL ? " (sentinel: never written)"
             : v == SEND_GAP ? " (0x5a, maybe a send-buffer gap)" : "");
}

static void prefix(char *out, size_t len, const struct ag_call *c, int rank, int p)
{
    snprintf(out, len, "FAIL allgather: algorithm=%s%s np=%d comm=%s(size=%d) type=%s"
             " count=%d (sendcount=%d recvcount=%d) inplace=%d rank=%d world_rank=%d:",
             c->algo_label, c->spec ? " (mpicoll_allgather_with)" : "", ag_world_size(), c->comm_label, p, c->dc->name, c->n,
             c->n * c->dc->smult, c->n * c->dc->rmult, c->inplace, rank, ag_world_rank());
}

static void report_error_class(char *out, size_t len, int err)
{
    int cls, n;
    char s[MPI_MAX_ERROR_STRING];
    MPI_Error_class(err, &cls);
    MPI_Error_string(err, s, &n);
    snprintf(out, len, "class %d (%s)", cls, s);
}

/* The first wrong unit of the receive image, as a failure line. */
static void report_data(const char *pre, const struct ag_call *c, int p,
                        const unsigned char *got, const unsigned char *want, size_t total)
{
    const struct ag_layout *R = c->dc->recv;
    size_t unit = R->unit, nunits = total / unit, first = nunits, nwrong = 0;
    size_t block_units = (size_t)c->n * (size_t)c->dc->rmult * (size_t)R->extent;
    char where[160], exp[96], act[96];
    long idx;

    for (size_t u = 0; u < nunits; u++)
        if (memcmp(got + u * unit, want + u * unit, unit) != 0) {
            if (first == nunits)
                first = u;
            nwrong++;
        }
    idx = (long)first - (long)(GUARD / unit);
    if (idx < 0) {
        snprintf(where, sizeof where, "guard zone before recvbuf");
    } else if ((size_t)idx >= (size_t)p * block_units) {
        snprintf(where, sizeof where, "past the end of recvbuf");
    } else {
        size_t w = (size_t)idx % block_units, e = w / (size_t)R->extent;
        int o = (int)(w % (size_t)R->extent), k = -1;
        for (int i = 0; i < R->ndata; i++)
            if (R->offs[i] == o)
                k = i;
        if (k < 0)
            snprintf(where, sizeof where, "block %zu, %s element %zu, gap", (size_t)idx / block_units,
                     R->name, e);
        else
            snprintf(where, sizeof where, "block %zu, %s element %zu, data %d",
                     (size_t)idx / block_units, R->name, e, k);
    }
    if (unit == 1) {
        describe_byte(exp, sizeof exp, want[first]);
        describe_byte(act, sizeof act, got[first]);
    } else {
        int e, a;
        memcpy(&e, want + first * unit, sizeof e);
        memcpy(&a, got + first * unit, sizeof a);
        describe_int(exp, sizeof exp, e, p);
        describe_int(act, sizeof act, a, p);
    }
    fail_line("%s first wrong element recvbuf[%ld] (%s units; %s): expected %s, got %s"
           " (%zu wrong units in all)\n", pre, idx, unit == 1 ? "byte" : "int", where,
           exp, act, nwrong);
}

int ag_run(const struct ag_call *c)
{
    const struct ag_dtcase *dc = c->dc;
    const struct ag_layout *S = dc->send, *R = dc->recv;
    int rank, p, err, failed = 1, scount = c->n * dc->smult, rcount = c->n * dc->rmult;
    size_t block_bytes, rbytes, sbytes, total;
    unsigned char *rraw, *want, *sbuf, *scopy;
    char pre[512], msg[MPI_MAX_ERROR_STRING + 64];

    MPI_Comm_rank(c->comm, &rank);
    MPI_Comm_size(c->comm, &p);
    prefix(pre, sizeof pre, c, rank, p);
    block_bytes = (size_t)rcount * (size_t)R->extent * R->unit;
    rbytes = (size_t)p * block_bytes;
    sbytes = (size_t)scount * (size_t)S->extent * S->unit;
    total = rbytes + 2 * GUARD;
    rraw = malloc(total);
    want = malloc(total);
    sbuf = malloc(sbytes + 1);
    scopy = malloc(sbytes + 1);
    if (!rraw || !want || !sbuf || !scopy) {
        fail_line("%s test setup: out of memory\n", pre);
        goto out;
    }

    memset(rraw, SENTINEL, total);
    memset(want, SENTINEL, total);
    for (int r = 0; r < p; r++)
        place(want + GUARD + (size_t)r * block_bytes, R, rcount, r);
    memset(sbuf, SEND_GAP, sbytes + 1);
    place(sbuf, S, scount, rank);
    memcpy(scopy, sbuf, sbytes + 1);
    if (c->inplace)
        place(rraw + GUARD + (size_t)rank * block_bytes, R, rcount, rank);

    /* In place, sendcount and sendtype are ignored (MPI 3.1, 5.7): pass
     * values that would break an implementation that reads them. */
    if (c->spec)
        err = mpicoll_allgather_with(c->spec, c->inplace ? MPI_IN_PLACE : sbuf,
                                     c->inplace ? 0 : scount,
                                     c->inplace ? MPI_DATATYPE_NULL : S->type,
                                     rraw + GUARD, rcount, R->type, c->comm);
    else
        err = mpicoll_allgather(c->inplace ? MPI_IN_PLACE : sbuf, c->inplace ? 0 : scount,
                                c->inplace ? MPI_DATATYPE_NULL : S->type,
                                rraw + GUARD, rcount, R->type, c->comm);

    if (c->expect_class != MPI_SUCCESS) {
        int cls = MPI_SUCCESS;
        if (err != MPI_SUCCESS)
            MPI_Error_class(err, &cls);
        if (cls != c->expect_class) {
            char want_s[MPI_MAX_ERROR_STRING];
            int n;
            MPI_Error_string(c->expect_class, want_s, &n);
            if (err == MPI_SUCCESS)
                snprintf(msg, sizeof msg, "MPI_SUCCESS");
            else
                report_error_class(msg, sizeof msg, err);
            fail_line("%s returned %s, expected error class %d (%s)\n", pre, msg,
                   c->expect_class, want_s);
            goto out;
        }
        failed = 0;
        goto out;
    }
    if (err != MPI_SUCCESS) {
        report_error_class(msg, sizeof msg, err);
        fail_line("%s returned error %s\n", pre, msg);
        goto out;
    }
    if (memcmp(rraw, want, total) != 0) {
        report_data(pre, c, p, rraw, want, total);
        goto out;
    }
    if (!c->inplace && memcmp(sbuf, scopy, sbytes + 1) != 0) {
        size_t i = 0;
        while (sbuf[i] == scopy[i])
            i++;
        fail_line("%s the send buffer was modified at byte %zu (0x%02x -> 0x%02x)\n", pre, i,
               scopy[i], sbuf[i]);
        goto out;
    }
    failed = 0;
out:
    fflush(stdout);
    free(rraw);
    free(want);
    free(sbuf);
    free(scopy);
    return failed;
}
