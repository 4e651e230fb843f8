/*
 * The collectives as the harness of bench and tune calls them (struct
 * mcoll, measure.h): the MPI library's own or mpicoll's with a named
 * algorithm, blocking, non-blocking or persistent; the send data each
 * rank fills in, and the check of every element a rank receives.
 *
 * Data: the block collectives (allgather, alltoall, gather and scatter
 * at root 0) move bytes whose
 * value names the sending rank and the position; the vector collectives
 * (allreduce, reduce, bcast, reduce_scatter_block, scan, exscan) run
 * MPI_SUM (reduce and bcast at root 0) on small integers, so that every
 * sum is exact whatever the order of the additions, and every element is
 * checked.
 */
#include "measure.h"


#include <stdint.h>
#include <string.h>

/* ---- data --------------------------------------------------------------- */

/* Byte `pos` of `rank`'s send data. At a given position each rank (up to
 * 255 of them) has its own value, and positions are scrambled so that data
 * shifted by some bytes is caught too. Never 0xFF (measure.c's SENTINEL),
 * so a byte left unwritten is caught. */
static unsigned char pattern(int rank, size_t pos)
{
    uint32_t h = (uint32_t)pos * 2654435761u; /* Knuth's multiplicative hash */

    return (unsigned char)(((uint32_t)rank + (h >> 16)) % 255u);
}

/* Element i of `rank`'s send vector: a small integer (exact sums in float
 * for up to 2^18 ranks; in signed char, ranks from 64 on send zeros). */
static long value(const struct etype *t, int rank, size_t i)
{
    if (t == &etypes[T_CHAR])
        return rank < 64 ? (long)(((size_t)rank + i) % 2) : 0;
    return (long)(((size_t)rank * 3 + i) % 64);
}

static void put(const struct etype *t, unsigned char *buf, size_t i, long v)
{
    switch ((int)(t - etypes)) {
    case T_CHAR: { signed char x = (signed char)v; memcpy(buf + i, &x, 1); break; }
    case T_INT: { int x = (int)v; memcpy(buf + i * sizeof x, &x, sizeof x); break; }
    case T_FLOAT: { float x = (float)v; memcpy(buf + i * sizeof x, &x, sizeof x); break; }
    default: { double x = (double)v; memcpy(buf + i * sizeof x, &x, sizeof x); break; }
    }
}

/* 1 if element i of buf is exactly v (a float or double of SENTINEL bytes
 * is a NaN, equal to nothing). */
static int is(const struct etype *t, const unsigned char *buf, size_t i, long v)
{
    switch ((int)(t - etypes)) {
    case T_CHAR: { signed char x; memcpy(&x, buf + i, 1); return x == v; }
    case T_INT: { int x; memcpy(&x, buf + i * sizeof x, sizeof x); return x == v; }
    case T_FLOAT: { float x; memcpy(&x, buf + i * sizeof x, sizeof x); return x == (float)v; }
    default: { double x; memcpy(&x, buf + i * sizeof x, sizeof x); return x == (double)v; }
    }
}

static long sum_over_ranks(const struct etype *t, int nranks, size_t i)
{
    long s = 0;

    for (int r = 0; r < nranks; r++)
        s += value(t, r, i);
    return s;
}

void mcoll_fill(const struct mcoll *c, const struct etype *t, unsigned char *buf, int rank,
                size_t elems)
{
    for (size_t i = 0; i < elems; i++) {
        if (c->vector)
            put(t, buf, i, value(t, rank, i));
        else
            buf[i] = pattern(rank, i);
    }
}

int mcoll_filled(const struct mcoll *c, const struct etype *t, const unsigned char *buf,
                 int rank, size_t elems)
{
    for (size_t i = 0; i < elems; i++)
        if (c->vector ? !is(t, buf, i, value(t, rank, i)) : buf[i] != pattern(rank, i))
            return 0;
    return 1;
}

/* ---- the calls ---------------------------------------------------------- */

/* mpicoll's calls with the algorithm named for the call (the public
 * mpicoll_<coll>_with, mpicoll_i<coll>_with, mpicoll_<coll>_init_with), with the arguments of the collective's signature
 * family (include/mpicoll.h): bytes for the block collectives; c->type
 * under MPI_SUM for the reductions, rooted at MEASURE_ROOT; bcast's buffer
 * is the receive buffer (the root's holds the data). */
#define HARNESS_block(c) c->sendbuf, c->count, MPI_BYTE, c->recvbuf, c->count, MPI_BYTE, c->comm
#define HARNESS_reduction(c) c->sendbuf, c->recvbuf, c->count, c->type, MPI_SUM, c->comm
#define HARNESS_rooted_reduction(c) \
    c->sendbuf, c->recvbuf, c->count, c->type, MPI_SUM, MEASURE_ROOT, c->comm
#define HARNESS_bcast(c) c->recvbuf, c->count, c->type, MEASURE_ROOT, c->comm
#define HARNESS_vreduction(c) c->sendbuf, c->recvbuf, c->counts, c->type, MPI_SUM, c->comm
#define HARNESS_vblock(c) \
    c->sendbuf, c->count, MPI_BYTE, c->recvbuf, c->counts, c->displs, MPI_BYTE, c->comm
#define HARNESS_rooted_block(c) \
    c->sendbuf, c->count, MPI_BYTE, c->recvbuf, c->count, MPI_BYTE, MEASURE_ROOT, c->comm
#define HARNESS_barrier(c) c->comm
#define HARNESS_rooted_vblock(c) c->sendbuf, c->count, MPI_BYTE, c->recvbuf, c->counts, \
    c->displs, MPI_BYTE, MEASURE_ROOT, c->comm
#define HARNESS_vscatter(c) c->sendbuf, c->counts, c->displs, MPI_BYTE, c->recvbuf, c->count, \
    MPI_BYTE, MEASURE_ROOT, c->comm
#define HARNESS_vexchange(c) c->sendbuf, c->counts, c->displs, MPI_BYTE, c->recvbuf, \
    c->counts, c->displs, MPI_BYTE, c->comm

#define MCOLL_CALL_(name, Name, family)                                                     \
    static int call_##name(const struct call *c)                                            \
    {                                                                                       \
        if (c->mode == MODE_BLOCKING)                                                       \
            return mpicoll_##name##_with(c->spec, HARNESS_##family(c));                     \
        if (c->mode == MODE_PERSISTENT)                                                     \
            return mpicoll_##name##_init_with(c->spec, HARNESS_##family(c), c->creq);       \
        return mpicoll_i##name##_with(c->spec, HARNESS_##family(c), c->creq);               \
    }
MPICOLL_COLLECTIVES(MCOLL_CALL_)
#undef MCOLL_CALL_

/* ---- the checks (data only: the harness checks the guard) --------------- */

/* Block r of the receive buffer must be rank r's send bytes from `first`
 * on: its pattern at positions first + i. */
static int check_blocks(const unsigned char *recvbuf, size_t bytes, int nranks, size_t first)
{
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < bytes; i++)
            if (recvbuf[(size_t)r * bytes + i] != pattern(r, first + i))
                return 0;
    return 1;
}

static int check_allgather(const unsigned char *recvbuf, size_t bytes, const struct etype *t,
                           int rank, int nranks)
{
    (void)rank;
    (void)t;
    return check_blocks(recvbuf, bytes, nranks, 0);
}

/* Block r must be block `rank` of rank r's send buffer. */
static int check_alltoall(const unsigned char *recvbuf, size_t bytes, const struct etype *t,
                          int rank, int nranks)
{
    (void)t;
    return check_blocks(recvbuf, bytes, nranks, (size_t)rank * bytes);
}

static int check_allreduce(const unsigned char *recvbuf, size_t count, const struct etype *t,
                           int rank, int nranks)
{
    (void)rank;
    for (size_t i = 0; i < count; i++)
        if (!is(t, recvbuf, i, sum_over_ranks(t, nranks, i)))
            return 0;
    return 1;
}

/* The root holds the sum (the receive buffer is insignificant elsewhere). */
static int check_reduce(const unsigned char *recvbuf, size_t count, const struct etype *t,
                        int rank, int nranks)
{
    return rank != MEASURE_ROOT || check_allreduce(recvbuf, count, t, rank, nranks);
}

static int check_bcast(const unsigned char *recvbuf, size_t count, const struct etype *t,
                       int rank, int nranks)
{
    (void)rank;
    (void)nranks;
    for (size_t i = 0; i < count; i++)
        if (!is(t, recvbuf, i, value(t, MEASURE_ROOT, i)))
            return 0;
    return 1;
}

/* Block `rank` of the sum: elements rank * count + i of the vectors. */
static int check_reduce_scatter_block(const unsigned char *recvbuf, size_t count,
                                      const struct etype *t, int rank, int nranks)
{
    for (size_t i = 0; i < count; i++)
        if (!is(t, recvbuf, i, sum_over_ranks(t, nranks, (size_t)rank * count + i)))
            return 0;
    return 1;
}

/* The prefix sums: ranks 0..rank (scan), 0..rank-1 (exscan; rank 0's
 * receive buffer is undefined, not checked). */
static int check_scan(const unsigned char *recvbuf, size_t count, const struct etype *t,
                      int rank, int nranks)
{
    (void)nranks;
    return check_allreduce(recvbuf, count, t, rank, rank + 1);
}

static int check_exscan(const unsigned char *recvbuf, size_t count, const struct etype *t,
                        int rank, int nranks)
{
    (void)nranks;
    return rank == 0 || check_allreduce(recvbuf, count, t, rank, rank);
}

/* The root holds every rank's block in rank order (the receive buffer is
 * insignificant elsewhere). */
static int check_gather(const unsigned char *recvbuf, size_t bytes, const struct etype *t,
                        int rank, int nranks)
{
    (void)t;
    return rank != MEASURE_ROOT || check_blocks(recvbuf, bytes, nranks, 0);
}

/* Every rank holds block `rank` of the root's send data. */
static int check_scatter(const unsigned char *recvbuf, size_t bytes, const struct etype *t,
                         int rank, int nranks)
{
    (void)t;
    (void)nranks;
    for (size_t i = 0; i < bytes; i++)
        if (recvbuf[i] != pattern(MEASURE_ROOT, (size_t)rank * bytes + i))
            return 0;
    return 1;
}

/* No data: nothing to hold (count is 0); the harness's guard check after
 * the receive buffer sees that the call wrote nothing. */
static int check_barrier(const unsigned char *recvbuf, size_t count, const struct etype *t,
                         int rank, int nranks)
{
    (void)recvbuf;
    (void)t;
    (void)rank;
    (void)nranks;
    return count == 0;
}

/* ---- the table ---------------------------------------------------------- */

static const struct mcoll allgather = {
    "allgather", call_allgather, check_allgather, 0, 1, 0, T_CHAR, IP_OWN_BLOCK,
    "one rank's block", 0,
};
static const struct mcoll alltoall = {
    "alltoall", call_alltoall, check_alltoall, 1, 1, 0, T_CHAR, IP_WHOLE,
    "the block one rank sends to one peer", 0,
};
static const struct mcoll allreduce = {
    "allreduce", call_allreduce, check_allreduce, 0, 0, 1, T_FLOAT, IP_WHOLE,
    "the whole vector", 0,
};
static const struct mcoll reduce = {
    "reduce", call_reduce, check_reduce, 0, 0, 1, T_FLOAT, IP_ROOT,
    "the whole vector (root 0)", 0,
};
static const struct mcoll bcast = {
    "bcast", call_bcast, check_bcast, 0, 0, 1, T_CHAR, IP_NONE, "the whole vector (root 0)", 0,
};
static const struct mcoll reduce_scatter_block = {
    "reduce_scatter_block", call_reduce_scatter_block, check_reduce_scatter_block, 1, 0, 1,
    T_FLOAT, IP_WHOLE, "the whole vector: all p blocks (recvcount = n / p)", 0,
};

/* OSU's osu_barrier: the time of one barrier, no size. */
static const struct mcoll barrier = {
    "barrier", call_barrier, check_barrier, 0, 0, 0, T_CHAR, IP_NONE,
    "none: the time of one barrier (one row)", 1,
};

/* allgatherv: the harness gives every rank the same count (OSU's
 * osu_allgatherv), so the result is allgather's. */
static const struct mcoll allgatherv = {
    "allgatherv", call_allgatherv, check_allgather, 0, 1, 0, T_CHAR, IP_OWN_BLOCK,
    "one rank's block (every rank's count the same)", 0,
};

/* reduce_scatter: the harness gives every rank the same count, so the
 * result is reduce_scatter_block's. */
static const struct mcoll reduce_scatter = {
    "reduce_scatter", call_reduce_scatter, check_reduce_scatter_block, 1, 0, 1,
    T_FLOAT, IP_WHOLE, "the whole vector: all p blocks (recvcounts = n / p each)", 0,
};
static const struct mcoll scan = {
    "scan", call_scan, check_scan, 0, 0, 1, T_FLOAT, IP_WHOLE, "the whole vector", 0,
};
static const struct mcoll exscan = {
    "exscan", call_exscan, check_exscan, 0, 0, 1, T_FLOAT, IP_WHOLE, "the whole vector", 0,
};
static const struct mcoll gather = {
    "gather", call_gather, check_gather, 0, 1, 0, T_CHAR, IP_ROOT, "one rank's block (root 0)", 0,
};
static const struct mcoll scatter = {
    "scatter", call_scatter, check_scatter, 1, 0, 0, T_CHAR, IP_ROOT_RECV,
    "one rank's block (root 0)", 0,
};

/* gatherv, scatterv: every rank's count the same (OSU's osu_gatherv,
 * osu_scatterv), so the results are gather's and scatter's. */
static const struct mcoll gatherv = {
    "gatherv", call_gatherv, check_gather, 0, 1, 0, T_CHAR, IP_ROOT,
    "one rank's block (root 0; every rank's count the same)", 0,
};
static const struct mcoll scatterv = {
    "scatterv", call_scatterv, check_scatter, 1, 0, 0, T_CHAR, IP_ROOT_RECV,
    "one rank's block (root 0; every rank's count the same)", 0,
};

/* alltoallv: every pair's count the same, blocks in rank order (OSU's
 * osu_alltoallv), so the result is alltoall's. */
static const struct mcoll alltoallv = {
    "alltoallv", call_alltoallv, check_alltoall, 1, 1, 0, T_CHAR, IP_WHOLE,
    "the block one rank sends to one peer (every pair's count the same)", 0,
};

/* Every collective of the list has its row above. */
const struct mcoll *const mcolls[] = {
#define MCOLL_ROW_(name, Name, family) &name,
    MPICOLL_COLLECTIVES(MCOLL_ROW_)
#undef MCOLL_ROW_
    NULL,
};

const struct mcoll *mcoll_find(const char *name)
{
    for (int i = 0; mcolls[i]; i++)
        if (strcmp(mcolls[i]->name, name) == 0)
            return mcolls[i];
    return NULL;
}

int mcoll_has_inplace(const struct mcoll *c)
{
    return c->inplace != IP_NONE;
}

size_t mcoll_send_elems(const struct mcoll *c, int nranks, size_t count)
{
    return c->send_per_peer ? (size_t)nranks * count : count;
}

size_t mcoll_recv_elems(const struct mcoll *c, int nranks, size_t count)
{
    return c->recv_per_peer ? (size_t)nranks * count : count;
}

/* reduce_scatter_block's row is all p blocks of the vector. */
static size_t row_blocks(const struct mcoll *c, int nranks)
{
    return c->vector && c->send_per_peer ? (size_t)nranks : 1;
}

size_t mcoll_row_bytes(const struct mcoll *c, const struct etype *t, int nranks, size_t count)
{
    return row_blocks(c, nranks) * count * t->size;
}

size_t mcoll_count_for(const struct mcoll *c, const struct etype *t, int nranks, size_t bytes)
{
    return bytes / t->size / row_blocks(c, nranks);
}
