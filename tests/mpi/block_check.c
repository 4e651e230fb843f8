/*
 * Shared machinery of the MPI tests of the block collectives; see
 * block_check.h.
 */
#include "block_check.h"

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

static int lines_printed, max_lines = MAX_LINES;
/* The collective being tested, for the lines printed outside a call. */
static const char *coll_name = "allgather";
static char context[160];

bc_fault_fn bc_fault;

static const char *const names[] = { "allgather", "alltoall", "allgatherv", "gather",
                                     "scatter", "gatherv", "scatterv", "alltoallv" };

const char *bc_coll_name(enum bc_coll coll)
{
    return names[coll];
}

int bc_coll_from_name(const char *name)
{
    for (int c = 0; c < (int)(sizeof names / sizeof names[0]); c++)
        if (strcmp(name, names[c]) == 0)
            return c;
    return -1;
}

/* A collective whose data differ per (source, destination): alltoall, and
 * scatter (from the root). */
static int pairwise(enum bc_coll coll)
{
    return coll == BC_ALLTOALL || coll == BC_SCATTER || coll == BC_SCATTERV ||
           coll == BC_ALLTOALLV;
}

void bc_set_context(const char *text)
{
    snprintf(context, sizeof context, "%s%s", text && *text ? " " : "", text ? text : "");
}

const char *bc_context(void)
{
    return context;
}

void bc_set_max_lines(int n)
{
    max_lines = n;
}

void bc_fail_line(const char *coll, const char *fmt, ...)
{
    va_list ap;
    if (lines_printed++ >= max_lines) {
        if (lines_printed == max_lines + 1)
            printf("FAIL %s: world_rank=%d: more failures, lines muted\n", coll,
                   bc_world_rank());
        return;
    }
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

/* printf for this file's FAIL lines. */
#define fail_line(...) bc_fail_line(coll_name, __VA_ARGS__)

int bc_choice_unseen(MPI_Comm comm)
{
#ifdef SWEEP_VIA_MPI
    int p;
    MPI_Comm_size(comm, &p);
    return p == 1;
#else
    (void)comm;
    return 0;
#endif
}

int bc_check_choice(const char *coll, const char *pre, MPI_Comm comm, const char *expect)
{
    char got[128];
    size_t n = strcspn(expect, ":");
    if (bc_choice_unseen(comm))
        return 0;
    if (mpicoll_last_choice(comm, got, sizeof got) != 0) {
        bc_fail_line(coll, "%s mpicoll_last_choice has no choice after the call\n", pre);
        return 1;
    }
    if (strncmp(got, expect, n) != 0 || (got[n] != '\0' && got[n] != ':')) {
        bc_fail_line(coll, "%s ran %s, not the forced %.*s\n", pre, got, (int)n, expect);
        return 1;
    }
    return 0;
}

static struct bc_layout l_int = { "MPI_INT", MPI_DATATYPE_NULL, sizeof(int), 1, 1, { 0 } };
static struct bc_layout l_byte = { "MPI_BYTE", MPI_DATATYPE_NULL, 1, 1, 1, { 0 } };
/* vector(2, 1, 3, MPI_INT) resized to 5 ints: data at ints 0 and 3, gaps at
 * 1, 2 and 4 (the trailing gap is inside the extent, between elements). */
static struct bc_layout l_vec = { "vector", MPI_DATATYPE_NULL, sizeof(int), 5, 2, { 0, 3 } };
/* contiguous(2, MPI_INT): the same signature as 2 MPI_INT. */
static struct bc_layout l_pair = { "pair", MPI_DATATYPE_NULL, sizeof(int), 2, 2, { 0, 1 } };

const struct bc_dtcase bc_cases[] = {
    { "int", &l_int, 1, &l_int, 1 },
    { "byte", &l_byte, 1, &l_byte, 1 },
    { "vector", &l_vec, 1, &l_vec, 1 },
    { "2int->pair", &l_int, 2, &l_pair, 1 },
    { "vector->2int", &l_vec, 1, &l_int, 2 },
    { "2int->vector", &l_int, 2, &l_vec, 1 },
};
const int bc_ncases = (int)(sizeof bc_cases / sizeof bc_cases[0]);

const int bc_counts[] = { 0, 1, 7, 1000, BC_BIG };
const int bc_ncounts = (int)(sizeof bc_counts / sizeof bc_counts[0]);

int bc_world_rank(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int bc_world_size(void)
{
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    return p;
}

/* Checks that MPI agrees with the layout the test assumes. */
static int layout_ok(const struct bc_layout *l)
{
    int size;
    MPI_Aint lb, extent;
    MPI_Type_size(l->type, &size);
    MPI_Type_get_extent(l->type, &lb, &extent);
    if (lb != 0 || (size_t)extent != (size_t)l->extent * l->unit
        || (size_t)size != (size_t)l->ndata * l->unit) {
        printf("FAIL %s: test setup: type %s has lb=%ld extent=%ld size=%d,"
               " expected lb=0 extent=%zu size=%zu\n", coll_name, l->name, (long)lb, (long)extent,
               size, (size_t)l->extent * l->unit, (size_t)l->ndata * l->unit);
        return 0;
    }
    return 1;
}

int bc_types_create(void)
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

void bc_types_free(void)
{
    MPI_Type_free(&l_vec.type);
    MPI_Type_free(&l_pair.type);
}

int bc_count_for(const struct bc_dtcase *dc, int c)
{
    size_t bytes;
    if (c != BC_BIG)
        return c;
    /* one unit of the case: smult send elements = rmult receive elements */
    bytes = (size_t)dc->smult * (size_t)dc->send->ndata * dc->send->unit;
    return (int)((100003 + bytes - 1) / bytes);
}

MPI_Comm bc_split_comm(void)
{
    int rank = bc_world_rank(), size = bc_world_size();
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, size >= 3 ? rank % 2 : 0, size - rank, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return c;
}


/* What the values of one call depend on. */
struct shape {
    enum bc_coll coll;
    int p;     /* communicator size */
    size_t K;  /* basic elements per block */
    int rblocks; /* blocks of this rank's receive buffer */
};

static int int_val(const struct shape *sh, int src, int dst, size_t j)
{
    if (pairwise(sh->coll))
        return (int)(1 + ((size_t)src * (size_t)sh->p + (size_t)dst) * sh->K + j);
    return (src + 1) * 1000000 + (int)j;
}

/* Cycles through 255 values (never the sentinel); element j and j+1, and
 * keys k and k+1 (blocks of neighbouring sources, or destinations) always
 * differ. */
static unsigned char byte_val(const struct shape *sh, int src, int dst, size_t j)
{
    unsigned key = pairwise(sh->coll) ? (unsigned)(src * sh->p + dst) : (unsigned)src;
    unsigned v = (unsigned)((97u * key + 13u * j + 7u * (j >> 8)) % 255u);
    return (unsigned char)(v >= SENTINEL ? v + 1 : v);
}

/* Writes the data that src sends to dst, `count` elements of layout l, at
 * base. */
static void place(unsigned char *base, const struct bc_layout *l, int count,
                  const struct shape *sh, int src, int dst)
{
    for (size_t e = 0; e < (size_t)count; e++)
        for (int k = 0; k < l->ndata; k++) {
            size_t j = e * (size_t)l->ndata + (size_t)k;
            unsigned char *at = base + (e * (size_t)l->extent + (size_t)l->offs[k]) * l->unit;
            if (l->unit == 1) {
                *at = byte_val(sh, src, dst, j);
            } else {
                int v = int_val(sh, src, dst, j);
                memcpy(at, &v, sizeof v);
            }
        }
}

static void describe_int(char *out, size_t len, int v, const struct shape *sh)
{
    size_t u = (size_t)v - 1, p = (size_t)sh->p;
    if ((unsigned)v == 0xA5A5A5A5u)
        snprintf(out, len, "%d (sentinel: never written)", v);
    else if ((unsigned)v == 0x5A5A5A5Au)
        snprintf(out, len, "%d (a gap of some send buffer)", v);
    else if (!pairwise(sh->coll) && v >= 1000000 && v / 1000000 <= sh->p)
        snprintf(out, len, "%d (rank %d element %d)", v, v / 1000000 - 1, v % 1000000);
    else if (pairwise(sh->coll) && v >= 1 && sh->K > 0 && u < p * p * sh->K)
        snprintf(out, len, "%d (source %zu's block for rank %zu, element %zu)", v,
                 u / sh->K / p, u / sh->K % p, u % sh->K);
    else
        snprintf(out, len, "%d (0x%08x)", v, (unsigned)v);
}

static void describe_byte(char *out, size_t len, unsigned char v)
{
    snprintf(out, len, "0x%02x%s", v, v == SENTINEL ? " (sentinel: never written)"
             : v == SEND_GAP ? " (0x5a, maybe a send-buffer gap)" : "");
}

static void prefix(char *out, size_t len, const struct bc_call *c, int rank, int p)
{
    char root[32] = "";
    if (c->coll == BC_GATHER || c->coll == BC_SCATTER || c->coll == BC_GATHERV ||
        c->coll == BC_SCATTERV)
        snprintf(root, sizeof root, " root=%d", c->root);
    snprintf(out, len, "FAIL %s: algorithm=%s%s%s%s%s np=%d comm=%s(size=%d) type=%s"
             " count=%d (sendcount=%d recvcount=%d) inplace=%d%s rank=%d world_rank=%d:",
             coll_name, c->algo_label, c->spec ? " (mpicoll_" : "", c->spec ? coll_name : "",
             c->spec ? "_with)" : "", context, bc_world_size(), c->comm_label, p,
             c->dc->name, c->n,
             c->n * c->dc->smult, c->n * c->dc->rmult, c->inplace, root, rank, bc_world_rank());
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
static void report_data(const char *pre, const struct bc_call *c, const struct shape *sh,
                        const unsigned char *got, const unsigned char *want, size_t total)
{
    const struct bc_layout *R = c->dc->recv;
    size_t unit = R->unit, nunits = total / unit, first = nunits, nwrong = 0;
    size_t block_units = (size_t)c->n * (size_t)c->dc->rmult * (size_t)R->extent;
    char where[160], exp[128], act[128];
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
    } else if ((size_t)idx >= (size_t)sh->rblocks * block_units) {
        snprintf(where, sizeof where, "past the end of recvbuf");
    } else {
        size_t b = (size_t)idx / block_units, w = (size_t)idx % block_units;
        size_t e = w / (size_t)R->extent;
        int o = (int)(w % (size_t)R->extent), k = -1;
        for (int i = 0; i < R->ndata; i++)
            if (R->offs[i] == o)
                k = i;
        if (k < 0)
            snprintf(where, sizeof where, "block %zu (source rank %zu's), %s element %zu, gap",
                     b, b, R->name, e);
        else
            snprintf(where, sizeof where, "block %zu (source rank %zu's), %s element %zu,"
                     " data %d", b, b, R->name, e, k);
    }
    if (unit == 1) {
        describe_byte(exp, sizeof exp, want[first]);
        describe_byte(act, sizeof act, got[first]);
    } else {
        int e, a;
        memcpy(&e, want + first * unit, sizeof e);
        memcpy(&a, got + first * unit, sizeof a);
        describe_int(exp, sizeof exp, e, sh);
        describe_int(act, sizeof act, a, sh);
    }
    fail_line("%s first wrong element recvbuf[%ld] (%s units; %s): expected %s, got %s"
           " (%zu wrong units in all)\n", pre, idx, unit == 1 ? "byte" : "int", where,
           exp, act, nwrong);
}

/* allgatherv's counts and displacements (BC_ALLGATHERV): rank r's block
 * n * ((r + 1) % 3) elements, the blocks in reverse rank order with a gap of one
 * element after each; the elements the receive buffer spans, returned. */
static size_t v_layout(int p, int n, int *counts, int *displs)
{
    size_t at = 0;
    for (int r = p - 1; r >= 0; r--) {
        counts[r] = n * ((r + 1) % 3);
        displs[r] = (int)at;
        at += (size_t)counts[r] + 1;
    }
    return at;
}

static int call_gatherv(const char *spec, const void *sarg, int scount, MPI_Datatype stype,
                        void *rbuf, const int *counts, const int *displs, MPI_Datatype rtype,
                        int root, MPI_Comm comm)
{
    return spec ? mpicoll_gatherv_with(spec, sarg, scount, stype, rbuf, counts, displs, rtype,
                                       root, comm)
                : mpicoll_gatherv(sarg, scount, stype, rbuf, counts, displs, rtype, root, comm);
}

static int call_scatterv(const char *spec, const void *sbuf, const int *counts,
                         const int *displs, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm)
{
    return spec ? mpicoll_scatterv_with(spec, sbuf, counts, displs, stype, rbuf, rcount, rtype,
                                        root, comm)
                : mpicoll_scatterv(sbuf, counts, displs, stype, rbuf, rcount, rtype, root, comm);
}

static int call_allgatherv(const char *spec, const void *sarg, int scount, MPI_Datatype stype,
                           void *rbuf, const int *counts, const int *displs,
                           MPI_Datatype rtype, MPI_Comm comm)
{
    return spec ? mpicoll_allgatherv_with(spec, sarg, scount, stype, rbuf, counts, displs, rtype,
                                          comm)
                : mpicoll_allgatherv(sarg, scount, stype, rbuf, counts, displs, rtype, comm);
}

typedef int (*plain_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
typedef int (*with_fn)(const char *, const void *, int, MPI_Datatype, void *, int,
                       MPI_Datatype, MPI_Comm);
typedef int (*rooted_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int,
                         MPI_Comm);
typedef int (*rooted_with_fn)(const char *, const void *, int, MPI_Datatype, void *, int,
                              MPI_Datatype, int, MPI_Comm);

/* The call itself, through mpicoll_<coll> or mpicoll_<coll>_with. */
static int call_coll(const struct bc_call *c, const void *sb, int sn, MPI_Datatype st,
                     void *rb, int rn, MPI_Datatype rt)
{
    static const plain_fn plain[] = { mpicoll_allgather, mpicoll_alltoall };
    static const with_fn with[] = { mpicoll_allgather_with, mpicoll_alltoall_with };
    static const rooted_fn rplain[] = { mpicoll_gather, mpicoll_scatter };
    static const rooted_with_fn rwith[] = { mpicoll_gather_with, mpicoll_scatter_with };
    if (c->coll == BC_GATHER || c->coll == BC_SCATTER) {
        int k = c->coll == BC_SCATTER;
        return c->spec ? rwith[k](c->spec, sb, sn, st, rb, rn, rt, c->root, c->comm)
                       : rplain[k](sb, sn, st, rb, rn, rt, c->root, c->comm);
    }
    int k = c->coll == BC_ALLTOALL;
    return c->spec ? with[k](c->spec, sb, sn, st, rb, rn, rt, c->comm)
                   : plain[k](sb, sn, st, rb, rn, rt, c->comm);
}

/* alltoallv's units (BC_ALLTOALLV) from rank s to rank d: uneven, zero
 * included, the same both ways in place (sendcounts are recvcounts). */
static int a2av_units(int n, int s, int d, int inplace)
{
    return n * ((s + (inplace ? 1 : 2) * d + 1) % 3);
}

/* Places `counts` blocks in the order of the ranks in `order`, one
 * element apart; the elements spanned, returned. */
static size_t a2av_place(int p, const int *order, const int *counts, int *displs)
{
    size_t at = 0;
    for (int i = 0; i < p; i++) {
        displs[order[i]] = (int)at;
        at += (size_t)counts[order[i]] + 1;
    }
    return at;
}

static int call_alltoallv(const char *spec, const void *sbuf, const int *scounts,
                          const int *sdispls, MPI_Datatype stype, void *rbuf,
                          const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                          MPI_Comm comm)
{
    return spec ? mpicoll_alltoallv_with(spec, sbuf, scounts, sdispls, stype, rbuf, rcounts,
                                         rdispls, rtype, comm)
                : mpicoll_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
                                    rtype, comm);
}

/* The result of a call that returned err: the expected error class, or
 * the data (want over GUARD-framed total bytes) and an untouched send
 * buffer. 0 if right; 1 and a FAIL line otherwise. */
static int verdict(const struct bc_call *c, const char *pre, const struct shape *sh, int err,
                   unsigned char *rraw, const unsigned char *want, size_t total,
                   const unsigned char *sbuf, const unsigned char *scopy, size_t sbytes,
                   int check_send, int has_data)
{
    char msg[MPI_MAX_ERROR_STRING + 64];
    if (c->expect_class != MPI_SUCCESS) {
        int cls = MPI_SUCCESS;
        if (err != MPI_SUCCESS)
            MPI_Error_class(err, &cls);
        if (cls == c->expect_class)
            return 0;
        char want_s[MPI_MAX_ERROR_STRING];
        int n;
        MPI_Error_string(c->expect_class, want_s, &n);
        if (err == MPI_SUCCESS)
            snprintf(msg, sizeof msg, "MPI_SUCCESS");
        else
            report_error_class(msg, sizeof msg, err);
        fail_line("%s returned %s, expected error class %d (%s)\n", pre, msg, c->expect_class,
                  want_s);
        return 1;
    }
    if (err != MPI_SUCCESS) {
        report_error_class(msg, sizeof msg, err);
        fail_line("%s returned error %s\n", pre, msg);
        return 1;
    }
    if (c->expect_algo && c->n > 0 && bc_check_choice(coll_name, pre, c->comm, c->expect_algo))
        return 1;
    if (bc_fault && has_data)   /* a test build's injected fault */
        bc_fault(coll_name, c->spec, rraw + GUARD, c->dc->recv->unit);
    if (memcmp(rraw, want, total) != 0) {
        report_data(pre, c, sh, rraw, want, total);
        return 1;
    }
    if (check_send && memcmp(sbuf, scopy, sbytes) != 0) {
        size_t i = 0;
        while (sbuf[i] == scopy[i])
            i++;
        fail_line("%s the send buffer was modified at byte %zu (0x%02x -> 0x%02x)\n", pre, i,
                  scopy[i], sbuf[i]);
        return 1;
    }
    return 0;
}

/* alltoallv (BC_ALLTOALLV): counts per (source, destination), both sides
 * laid out with gaps in orders of their own; in place, the receive blocks
 * hold the send data at entry. */
static int run_alltoallv(const struct bc_call *c, const char *pre, int rank, int p)
{
    const struct bc_dtcase *dc = c->dc;
    const struct bc_layout *S = dc->send, *R = dc->recv;
    const size_t sel = (size_t)S->extent * S->unit, rel = (size_t)R->extent * R->unit;
    int failed = 1, err;
    int *v = malloc(6 * (size_t)p * sizeof *v);
    unsigned char *rraw = NULL, *want = NULL, *sbuf = NULL, *scopy = NULL;
    if (!v) {
        fail_line("%s test setup: out of memory\n", pre);
        return 1;
    }
    int *sc = v, *sd = v + p, *rc = v + 2 * p, *rd = v + 3 * p, *sorder = v + 4 * p,
        *rorder = v + 5 * p;
    const int odd = p / 2;
    for (int i = 0; i < p; i++) {
        sorder[i] = p - 1 - i;                                  /* reverse rank order */
        rorder[i] = i < odd ? 2 * i + 1 : 2 * (i - odd);        /* odd ranks first */
        sc[i] = a2av_units(c->n, rank, i, c->inplace) * dc->smult;
        rc[i] = a2av_units(c->n, i, rank, c->inplace) * dc->rmult;
    }
    size_t sbytes = c->inplace ? 0 : a2av_place(p, sorder, sc, sd) * sel;
    size_t rbytes = a2av_place(p, rorder, rc, rd) * rel, total = rbytes + 2 * GUARD;
    /* K: the longest block's elements, so labels are unique per pair */
    struct shape sh = { BC_ALLTOALLV, p, (size_t)(2 * c->n * dc->rmult) * (size_t)R->ndata, p };
    if ((size_t)p * (size_t)p * sh.K >= (size_t)0x7fffffff) {
        fail_line("%s test setup: %d ranks x %zu elements do not fit the int labels\n", pre, p,
                  sh.K);
        goto out;
    }
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
    memset(sbuf, SEND_GAP, sbytes + 1);
    for (int q = 0; q < p; q++) {
        /* from q: its block for this rank; in place, the data to q at entry */
        place(want + GUARD + (size_t)rd[q] * rel, R, rc[q], &sh, q, rank);
        if (c->inplace)
            place(rraw + GUARD + (size_t)rd[q] * rel, R, rc[q], &sh, rank, q);
        else
            place(sbuf + (size_t)sd[q] * sel, S, sc[q], &sh, rank, q);
    }
    memcpy(scopy, sbuf, sbytes + 1);
    /* In place, sendcounts, sdispls and sendtype are ignored (MPI 3.1,
     * 5.8): pass values that would break an implementation that reads
     * them. */
    err = call_alltoallv(c->spec, c->inplace ? MPI_IN_PLACE : (const void *)sbuf,
                         c->inplace ? NULL : sc, c->inplace ? NULL : sd,
                         c->inplace ? MPI_DATATYPE_NULL : S->type, rraw + GUARD, rc, rd, R->type,
                         c->comm);
    failed = verdict(c, pre, &sh, err, rraw, want, total, sbuf, scopy, sbytes + 1, !c->inplace,
                     rc[rorder[0]] > 0);
out:
    fflush(stdout);
    free(rraw);
    free(want);
    free(sbuf);
    free(scopy);
    free(v);
    return failed;
}

int bc_run(const struct bc_call *c)
{
    const struct bc_dtcase *dc = c->dc;
    const struct bc_layout *S = dc->send, *R = dc->recv;
    const int a2a = c->coll == BC_ALLTOALL;
    int rank, p, err, failed = 1, scount = c->n * dc->smult, rcount = c->n * dc->rmult;
    int sblocks, rblocks, is_root, send_sig, recv_sig, in_send, in_recv;
    size_t block_bytes, sblock_bytes, rbytes, sbytes, total;
    size_t sv_span = 0;     /* scatterv: the root's send blocks' span, in elements */
    unsigned char *rraw = NULL, *want = NULL, *sbuf = NULL, *scopy = NULL;
    /* counts per rank: on the receive side (allgatherv, gatherv: rv) or
     * the root's send side (scatterv: sv) */
    const int sv = c->coll == BC_SCATTERV;
    const int v = c->coll == BC_ALLGATHERV || c->coll == BC_GATHERV || sv;
    const int rooted = c->coll == BC_GATHER || c->coll == BC_SCATTER || c->coll == BC_GATHERV ||
                       sv;
    const int gathers = c->coll == BC_GATHER || c->coll == BC_GATHERV;
    int *vcounts = NULL, *vdispls = NULL;
    char pre[512];
    struct shape sh;

    coll_name = bc_coll_name(c->coll);
    MPI_Comm_rank(c->comm, &rank);
    MPI_Comm_size(c->comm, &p);
    prefix(pre, sizeof pre, c, rank, p);
    if (c->coll == BC_ALLTOALLV)
        return run_alltoallv(c, pre, rank, p);
    /* what this rank sends and receives (the root's significance), and
     * which buffer MPI_IN_PLACE replaces: the send buffer, but scatter's
     * root's receive buffer (its block stays in its send data) */
    is_root = rank == c->root;
    const int scatters = c->coll == BC_SCATTER || sv;
    sblocks = a2a || (scatters && is_root) ? p : scatters ? 0 : 1;
    rblocks = scatters ? 1 : gathers && !is_root ? 0 : p;
    send_sig = !scatters || is_root;
    recv_sig = rblocks > 0;
    in_send = c->inplace && !scatters && (!gathers || is_root);
    in_recv = c->inplace && scatters && is_root;
    (void)rooted;
    sh = (struct shape){ c->coll, p, (size_t)rcount * (size_t)R->ndata, rblocks };
    if (pairwise(c->coll) && (size_t)p * (size_t)p * sh.K >= (size_t)0x7fffffff) {
        fail_line("%s test setup: %d ranks x %zu elements do not fit the int labels\n", pre,
                  p, sh.K);
        goto out;
    }
    block_bytes = (size_t)rcount * (size_t)R->extent * R->unit;
    rbytes = (size_t)rblocks * block_bytes;
    if (v) {    /* own counts; the counted blocks where v_layout puts them */
        vcounts = malloc(2 * (size_t)p * sizeof *vcounts);
        if (!vcounts) {
            fail_line("%s test setup: out of memory\n", pre);
            goto out;
        }
        vdispls = vcounts + p;
        if (sv) {   /* the root's send blocks; each rank receives its own */
            sv_span = v_layout(p, scount, vcounts, vdispls);
            rcount *= (rank + 1) % 3;
            rbytes = (size_t)rcount * (size_t)R->extent * R->unit;
        } else {
            size_t span = v_layout(p, rcount, vcounts, vdispls);
            rbytes = recv_sig ? span * (size_t)R->extent * R->unit : 0;
            scount *= (rank + 1) % 3;
        }
    }
    sblock_bytes = (size_t)scount * (size_t)S->extent * S->unit;
    sbytes = sv && is_root ? sv_span * (size_t)S->extent * S->unit
                           : (size_t)sblocks * sblock_bytes;
    total = rbytes + 2 * GUARD;
    rraw = malloc(total);
    want = malloc(total);
    sbuf = malloc(sbytes + 1);
    scopy = malloc(sbytes + 1);
    if (!rraw || !want || !sbuf || !scopy) {
        fail_line("%s test setup: out of memory\n", pre);
        goto out;
    }

    /* Block r of the result: what rank r sent to this rank (scatter: this
     * rank's block from the root; in place at its root, nothing). */
    memset(rraw, SENTINEL, total);
    memset(want, SENTINEL, total);
    for (int r = 0; r < rblocks && !in_recv; r++)
        if (v && !sv)
            place(want + GUARD + (size_t)vdispls[r] * (size_t)R->extent * R->unit, R,
                  vcounts[r], &sh, r, rank);
        else
            place(want + GUARD + (size_t)r * block_bytes, R, rcount, &sh,
                  scatters ? c->root : r, rank);
    /* Send block d: what this rank sends to rank d (one block for all in
     * allgather and gather). */
    memset(sbuf, SEND_GAP, sbytes + 1);
    for (int d = 0; d < sblocks; d++)
        if (sv)     /* the root's block for rank d, where v_layout puts it */
            place(sbuf + (size_t)vdispls[d] * (size_t)S->extent * S->unit, S, vcounts[d], &sh,
                  rank, d);
        else
            place(sbuf + (size_t)d * sblock_bytes, S, scount, &sh, rank,
                  gathers ? c->root : d);
    memcpy(scopy, sbuf, sbytes + 1);
    /* In place, the receive buffer holds the send data at entry, in the
     * receive type's layout: this rank's own block (allgather, gather's
     * root), or the block for every destination (alltoall). */
    if (in_send && v)
        place(rraw + GUARD + (size_t)vdispls[rank] * (size_t)R->extent * R->unit, R,
              vcounts[rank], &sh, rank, rank);
    else if (in_send)
        for (int d = a2a ? 0 : rank; d < (a2a ? p : rank + 1); d++)
            place(rraw + GUARD + (size_t)d * block_bytes, R, rcount, &sh, rank,
                  gathers ? c->root : d);

    /* In place, sendcount and sendtype are ignored (MPI 3.1, 5.7 and 5.8),
     * as are the arguments of a side that is not significant on this rank:
     * pass values that would break an implementation that reads them. */
    if (c->coll == BC_ALLGATHERV)
        err = call_allgatherv(c->spec, in_send ? MPI_IN_PLACE : (const void *)sbuf,
                              in_send ? 0 : scount, in_send ? MPI_DATATYPE_NULL : S->type,
                              rraw + GUARD, vcounts, vdispls, R->type, c->comm);
    else if (c->coll == BC_GATHERV)     /* the counts significant at the root only */
        err = call_gatherv(c->spec, in_send ? MPI_IN_PLACE : (const void *)sbuf,
                           in_send ? 0 : scount, in_send ? MPI_DATATYPE_NULL : S->type,
                           recv_sig ? (void *)(rraw + GUARD) : NULL, recv_sig ? vcounts : NULL,
                           recv_sig ? vdispls : NULL, recv_sig ? R->type : MPI_DATATYPE_NULL,
                           c->root, c->comm);
    else if (sv)
        err = call_scatterv(c->spec, send_sig ? (const void *)sbuf : NULL,
                            send_sig ? vcounts : NULL, send_sig ? vdispls : NULL,
                            send_sig ? S->type : MPI_DATATYPE_NULL,
                            in_recv ? MPI_IN_PLACE : (void *)(rraw + GUARD), in_recv ? 0 : rcount,
                            in_recv ? MPI_DATATYPE_NULL : R->type, c->root, c->comm);
    else
        err = call_coll(c, in_send ? MPI_IN_PLACE : send_sig ? (const void *)sbuf : NULL,
                        in_send ? 0 : send_sig ? scount : -1,
                        in_send || !send_sig ? MPI_DATATYPE_NULL : S->type,
                        in_recv ? MPI_IN_PLACE : recv_sig ? (void *)(rraw + GUARD) : NULL,
                        in_recv ? 0 : recv_sig ? rcount : -1,
                        in_recv || !recv_sig ? MPI_DATATYPE_NULL : R->type);

    failed = verdict(c, pre, &sh, err, rraw, want, total, sbuf, scopy, sbytes + 1, !in_send,
                     c->n > 0 && rblocks > 0 && !in_recv);
out:
    fflush(stdout);
    free(rraw);
    free(want);
    free(sbuf);
    free(scopy);
    free(vcounts);
    return failed;
}

/* ---- the matrix ---------------------------------------------------------- */

int bc_run_comm(const struct bc_call *base, int quick, int *calls)
{
    int nfailed = 0, p, roots[3] = { -1 }, nroots = 1;
    MPI_Comm_size(base->comm, &p);
    if (base->coll == BC_GATHER || base->coll == BC_SCATTER || base->coll == BC_GATHERV ||
        base->coll == BC_SCATTERV) {
        /* p / 2 first: the one root of the large counts */
        nroots = 0;
        for (int i = 0, cand[3] = { p / 2, 0, p - 1 }; i < 3; i++) {
            int seen = 0;
            for (int j = 0; j < nroots; j++)
                seen |= roots[j] == cand[i];
            if (!seen)
                roots[nroots++] = cand[i];
        }
    }
    for (int d = 0; d < bc_ncases; d++)
        for (int k = 0; k < bc_ncounts; k++) {
            const int large = bc_counts[k] == BC_BIG || bc_counts[k] > 7;
            if (quick && large)
                continue;
            for (int ri = 0; ri < (large ? 1 : nroots); ri++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    struct bc_call call = *base;
                    call.dc = &bc_cases[d];
                    call.n = bc_count_for(&bc_cases[d], bc_counts[k]);
                    call.inplace = inplace;
                    call.root = roots[ri];
                    call.expect_class = MPI_SUCCESS;
                    nfailed += bc_run(&call);
                    (*calls)++;
                }
        }
    return nfailed;
}

int bc_matrix_main(int argc, char **argv, enum bc_coll coll)
{
    const char *cname = bc_coll_name(coll);
    char env[32];
    size_t i = 0;
    for (const char *s = "MPICOLL_"; *s; s++)
        env[i++] = *s;
    for (const char *s = cname; *s && i < sizeof env - 1; s++)
        env[i++] = (char)(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s);
    env[i] = '\0';
    const char *forced = getenv(env);
    const char *algo = forced && *forced ? forced : "auto";
    int rank, np, tally[2] = { 0, 0 }, sum[2];  /* calls (per rank), failed calls */
    MPI_Comm comms[2];
    const char *comm_labels[2] = { "world", "split" };

    coll_name = cname;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rank = bc_world_rank();
    np = bc_world_size();
    if (bc_types_create() != 0)
        tally[1]++;
    comms[0] = MPI_COMM_WORLD;
    comms[1] = bc_split_comm();

    for (int ci = 0; ci < 2; ci++) {
        struct bc_call base = { .coll = coll, .spec = NULL, .algo_label = algo,
                                .comm = comms[ci], .comm_label = comm_labels[ci] };
        tally[1] += bc_run_comm(&base, 0, &tally[0]);
    }

    /* The verdict goes through the native MPI, not the library under test. */
    MPI_Allreduce(&tally[0], &sum[0], 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&tally[1], &sum[1], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        int app = forced && *forced ? mpicoll_algorithm_applicable(cname, forced, np) : 1;
        printf("test_%s: algorithm=%s%s np=%d calls=%d failures=%d (failed calls, summed over"
               " ranks)\n", cname, algo, app == 1 ? "" : app == 0 ? " (not applicable at this np:"
               " its fallback ran)" : " (not a valid spec)", np, sum[0], sum[1]);
    }
    MPI_Comm_free(&comms[1]);
    bc_types_free();
    MPI_Finalize();
    return sum[1] ? 1 : 0;
}
