/*
 * mpicoll calibrate: measures the cost model's parameters (core/cost.h) on
 * the machine it runs on and writes them as a parameter file, which
 * `mpicoll model --params FILE` reads. Runs under mpirun (or smpirun) on
 * 2 ranks or more; a few seconds at 2 ranks.
 *
 * Which pairs: rank 0 and the lowest other rank of its node
 * (MPI_COMM_TYPE_SHARED) give node.*, rank 0 and the lowest rank of
 * another node give net.*; a kind of link without such a pair keeps its
 * default, and the file's comment says so. The other ranks wait in a
 * barrier. copy and reduce are measured on rank 0 alone.
 *
 * What, for a pair A (rank 0) and B, medians of MPI_Wtime over repetitions:
 *
 *   o          A posts K MPI_Isend of 0 bytes at once and waits for them; B
 *              posts K MPI_Irecv, waits and answers with one 0-byte
 *              message. (T(K) - T(1)) / (K - 1) is the cost of one more
 *              message on the busier side. LogP's assumption: one o, the
 *              same for sending and receiving; both overheads are set to it.
 *   latency    ping-pong (MPI_Send, MPI_Recv) of 0 bytes: half the round
 *              trip is send_overhead + latency + recv_overhead, so latency
 *              is that minus 2 o (clamped to 1 ns, and said so, if it comes
 *              out <= 0: then o overstates the overheads).
 *   beta       the least-squares slope of the half round trip over sizes
 *              of 64 KiB .. 4 MiB (clamped to 1e-15 s/B, and said so, if
 *              it comes out <= 0).
 *   eager      for n = 1, 2, 4, ... 1 MiB: B waits EAGER_WAIT (nanosleep,
 *              which SMPI simulates) before posting its receive while A
 *              times MPI_Send of n bytes; a send shorter than half that
 *              wait left without the receive. eager is the largest n whose
 *              sends all left so (but one of EAGER_REPS), 0 if none: a
 *              power of two, at most the size the library reliably sends
 *              without the receiver.
 *   nic        the node's link: k ranks of rank 0's node each stream to one
 *              of k ranks of B's node at once (the i-th to the i-th, k the
 *              smaller of the two nodes' rank counts; a ping of n bytes and
 *              a 0-byte answer after a barrier of the 2k ranks, the slowest
 *              pair's time, median over repetitions); the least-squares
 *              slope over 64 KiB .. 4 MiB over k: seconds a byte of the
 *              node's link with all k streams on it. Below 2 ranks on
 *              either node: net.beta (a node's link is its rank's).
 *   fanin      a rank's link inside its node: the f other ranks of rank
 *              0's node each send to rank 0 at once (after a barrier of the
 *              node; rank 0's time to receive all, median over
 *              repetitions); the slope over 64 KiB .. 4 MiB over f. Below
 *              three ranks on rank 0's node: 0 (node.beta).
 *   copy       the least-squares slope of memcpy times over 1..8 MiB.
 *   reduce     the same for MPI_Reduce_local (MPI_FLOAT, MPI_SUM), per
 *              byte. Under SMPI without simulated computation local work
 *              takes no simulated time: both come out 0, which is right.
 *
 * The file is read back with cost_read before the command succeeds.
 *
 * Under SMPI (tests/smpi/calibrate.sh) simulated time advances only in MPI
 * calls, sleeps and clock reads: each MPI_Wtime costs smpi/wtime (10 ns by
 * default), which adds half of it to the half round trips (latency +0.5%
 * on platforms/flat.xml); nanosleep is SMPI's, so the eager probe works.
 * SimGrid sends messages below smpi/send-is-detached-thresh (64 KiB by
 * default) detached, so eager comes out 32768 there.
 */
#include "cli.h"
#include "model/cost.h"

#include <mpi.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CMD "calibrate"
#define OVERHEAD_K 64              /* messages at once for o */
#define PINGPONG_MIN (64 << 10)    /* the sizes beta is fitted over */
#define PINGPONG_MAX (4 << 20)
#define EAGER_MAX (1 << 20)
#define EAGER_WAIT 2e-3            /* s, B's wait before its receive */
#define EAGER_REPS 5
#define LOCAL_MIN (1 << 20)        /* copy and reduce buffer sizes */
#define LOCAL_MAX (8 << 20)
#define LOCAL_REPS 9
#define TAG 4242

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

/* What was measured on one kind of link (on rank 0). */
typedef struct link_result {
    int peer;                      /* B's rank, -1: no pair */
    char host_a[MPI_MAX_PROCESSOR_NAME], host_b[MPI_MAX_PROCESSOR_NAME];
    double half0;                  /* half round trip of 0 bytes */
    double o;                      /* per message */
    double latency, beta;
    size_t eager;
    int latency_clamped, beta_clamped;
} link_result;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: mpirun -n P mpicoll calibrate [-o FILE]   (P >= 2)\n"
        "Measures the cost model's parameters: a pair of ranks on one node (rank 0\n"
        "and the lowest other rank of its node) for node.*, one on two nodes for\n"
        "net.*, a kind without such a pair keeping its default; nic (a node's link)\n"
        "with k ranks of one node streaming to k of another at once (k >= 2, else\n"
        "net.beta); fanin with the other ranks of rank 0's node streaming to it at\n"
        "once (three ranks or more, else 0); copy and reduce on rank 0. Writes them\n"
        "as a parameter file\n"
        "(`mpicoll model --params FILE`).\n"
        "A few seconds at 2 ranks.\n"
        "  -o FILE     write the file there (default: standard output)\n"
        "  -h, --help  this help\n");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The least-squares slope of y over x. */
static double slope(const double *x, const double *y, int n)
{
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    for (int i = 0; i < n; i++) {
        mx += x[i] / n;
        my += y[i] / n;
    }
    for (int i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
    }
    return sxx > 0 ? sxy / sxx : 0;
}

/* ---- one pair: A (rank 0) and B ------------------------------------------ */

/* The median half round trip of n bytes (on A; 0 on B); times has room for
 * reps. Two untimed round trips first. */
static double pingpong(char *buf, int n, int peer, int a, int reps, double *times)
{
    for (int i = -2; i < reps; i++) {
        double t0 = MPI_Wtime();
        if (a) {
            MPI_Send(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
            MPI_Recv(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
        }
        if (i >= 0)
            times[i] = (MPI_Wtime() - t0) / 2;
    }
    return a ? median(times, reps) : 0;
}

/* The median time of k 0-byte messages from A to B and B's answer (on A).
 * (Statuses in st: GCC takes MPICH's MPI_STATUSES_IGNORE for an empty
 * array and warns.) */
static double burst(MPI_Request *reqs, MPI_Status *st, int k, int peer, int a, int reps,
                    double *times)
{
    char dummy = 0;
    for (int i = -2; i < reps; i++) {
        double t0 = MPI_Wtime();
        for (int j = 0; j < k; j++) {
            if (a)
                MPI_Isend(&dummy, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &reqs[j]);
            else
                MPI_Irecv(&dummy, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &reqs[j]);
        }
        MPI_Waitall(k, reqs, st);
        if (a)
            MPI_Recv(&dummy, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Send(&dummy, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
        if (i >= 0)
            times[i] = MPI_Wtime() - t0;
    }
    return a ? median(times, reps) : 0;
}

static void wait_seconds(double s)
{
    struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (time_t)s) * 1e9) };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* The eager limit (on A): see the header. Every size is tried, as a
 * library may send some sizes eagerly only while it has room: Open MPI's
 * shared-memory transport (vader) sends up to about 4 KiB without the
 * receiver when the peer's fast box has room, and waits for the receiver
 * otherwise. A size counts as eager when it left early every time, or
 * all but once (a rank may lose the CPU). */
static size_t eager_limit(char *buf, int peer, int a, double *times)
{
    size_t eager = 0;
    for (int n = 1; n <= EAGER_MAX; n *= 2) {
        for (int i = 0; i < EAGER_REPS; i++) {
            if (a) {
                /* B waits from its receipt of this word */
                MPI_Send(buf, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                MPI_Send(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
                times[i] = MPI_Wtime() - t0;
                /* B's answer: the next round starts with B ready */
                MPI_Recv(buf, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                wait_seconds(EAGER_WAIT);
                MPI_Recv(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
            }
        }
        int fast = 0;
        for (int i = 0; a && i < EAGER_REPS; i++)
            fast += times[i] < EAGER_WAIT / 2;
        if (fast >= EAGER_REPS - 1)   /* one rep may have lost the CPU */
            eager = (size_t)n;
    }
    return eager;
}

/* Measures the link between rank 0 (A) and peer (B) into *lr (on A).
 * MPI_SUCCESS, or MPI_ERR_NO_MEM on either side (both then skip it). */
static int measure_link(int peer, int a, link_result *lr)
{
    enum { REPS_MAX = 1000, NSIZES = 7 };
    char *buf = malloc(PINGPONG_MAX);
    double *times = malloc(REPS_MAX * sizeof *times);
    MPI_Request *reqs = malloc(OVERHEAD_K * sizeof *reqs);
    MPI_Status *st = malloc(OVERHEAD_K * sizeof *st);
    int ok = buf && times && reqs && st, both, len, rc = MPI_ERR_NO_MEM;

    /* both have their buffers, or neither measures */
    MPI_Sendrecv(&ok, 1, MPI_INT, peer, TAG, &both, 1, MPI_INT, peer, TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (!ok || !both)
        goto done;
    memset(buf, 1, PINGPONG_MAX);
    MPI_Get_processor_name(a ? lr->host_a : lr->host_b, &len);
    MPI_Sendrecv(a ? lr->host_a : lr->host_b, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, peer, TAG,
                 a ? lr->host_b : lr->host_a, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, peer, TAG,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    double t1 = burst(reqs, st, 1, peer, a, 200, times);
    double tk = burst(reqs, st, OVERHEAD_K, peer, a, 200, times);
    lr->o = (tk - t1) / (OVERHEAD_K - 1);
    if (lr->o < 0)
        lr->o = 0;
    lr->half0 = pingpong(buf, 0, peer, a, REPS_MAX, times);
    lr->latency = lr->half0 - 2 * lr->o;
    if (lr->latency <= 0) {
        lr->latency = 1e-9;
        lr->latency_clamped = 1;
    }

    double x[NSIZES], y[NSIZES];
    for (int i = 0; i < NSIZES; i++) {
        int n = PINGPONG_MIN << i;
        x[i] = n;
        y[i] = pingpong(buf, n, peer, a, n <= (256 << 10) ? 100 : 20, times);
    }
    lr->beta = slope(x, y, NSIZES);
    if (lr->beta <= 0) {
        lr->beta = 1e-15;
        lr->beta_clamped = 1;
    }
    lr->eager = eager_limit(buf, peer, a, times);
    rc = MPI_SUCCESS;
done:
    free(buf);
    free(times);
    free(reqs);
    free(st);
    return rc;
}

/* ---- the node's link: k streams at once ------------------------------------ */

/* The i-th rank of node A (rank 0's) streams to the i-th of node B, for the
 * k smaller counts of the two; every rank calls it (the others pass). On
 * rank 0: 0 and *nic (s a byte of the node's link with k streams on it),
 * or 1 when there are no two pairs (then *k < 2), -1 out of memory (on
 * any of them). */
static int measure_nic(const int *leader, int nranks, int node_b, int rank, int *k,
                       double *nic)
{
    enum { NSIZES = 7, REPS = 9 };
    int na = 0, nb = 0, role = -1, peer = -1, mine = -1;
    for (int r = 0; r < nranks; r++) {      /* ranks in order: the i-th of each node */
        if (leader[r] == leader[0] && r == rank)
            mine = na;
        if (leader[r] == node_b && r == rank)
            mine = nb;
        na += leader[r] == leader[0];
        nb += leader[r] == node_b;
    }
    *k = na < nb ? na : nb;
    if (*k < 2)
        return 1;
    if (mine >= 0 && mine < *k) {
        role = leader[rank] == leader[0] ? 0 : 1;   /* 0: sends */
        for (int r = 0, i = 0; r < nranks; r++)
            if (leader[r] == (role ? leader[0] : node_b) && i++ == mine)
                peer = r;
    }
    MPI_Comm pairs;
    MPI_Comm_split(MPI_COMM_WORLD, role >= 0 ? 0 : MPI_UNDEFINED, rank, &pairs);
    if (role < 0)
        return 0;
    char *buf = malloc(PINGPONG_MAX);
    int ok = buf != NULL, rc = -1;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, pairs);
    if (ok) {
        double x[NSIZES], y[NSIZES], t[REPS];
        memset(buf, 1, PINGPONG_MAX);
        for (int s = 0; s < NSIZES; s++) {
            int n = PINGPONG_MIN << s;
            x[s] = n;
            for (int i = -1; i < REPS; i++) {
                MPI_Barrier(pairs);
                double t0 = MPI_Wtime(), mine_t, slowest;
                if (role == 0) {
                    MPI_Send(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
                    MPI_Recv(buf, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(buf, 0, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
                }
                mine_t = role == 0 ? MPI_Wtime() - t0 : 0;
                MPI_Reduce(&mine_t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, pairs);
                if (i >= 0)
                    t[i] = slowest;
            }
            y[s] = median(t, REPS);
        }
        /* rank 0 is the pairs' rank 0 (MPI_COMM_WORLD's order) */
        *nic = slope(x, y, NSIZES) / *k;
        rc = 0;
    }
    free(buf);
    MPI_Comm_free(&pairs);
    return rc;
}

/* ---- a rank's link inside its node: the node's other ranks at once ---------- */

/* The other f ranks of rank 0's node each send n bytes to rank 0 at once
 * (after a barrier of the node's ranks; rank 0 posts every receive, then
 * waits for all; its time, median over repetitions); the least-squares
 * slope over 64 KiB .. 4 MiB over f: seconds a byte of rank 0's link inside
 * its node with f messages on it. Every rank calls it. On rank 0: 0 and
 * *fanin, or 1 when the node has fewer than three ranks (then *f < 2), -1
 * out of memory (on any of them). */
static int measure_fanin(const int *leader, int nranks, int rank, int *f, double *fanin)
{
    enum { NSIZES = 7, REPS = 9 };
    int in = leader[rank] == leader[0], rc = -1;
    *f = -1;
    for (int r = 0; r < nranks; r++)
        *f += leader[r] == leader[0];
    if (*f < 2)
        return 1;
    MPI_Comm node;
    MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, rank, &node);
    if (!in)
        return 0;
    char *buf = malloc((size_t)(rank == 0 ? *f : 1) * PINGPONG_MAX);
    MPI_Request *reqs = malloc((size_t)*f * sizeof *reqs);
    int ok = buf && reqs;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, node);
    if (ok) {
        double x[NSIZES], y[NSIZES], t[REPS];
        memset(buf, 1, rank == 0 ? (size_t)*f * PINGPONG_MAX : PINGPONG_MAX);
        for (int s = 0; s < NSIZES; s++) {
            int n = PINGPONG_MIN << s;
            x[s] = n;
            for (int i = -1; i < REPS; i++) {
                MPI_Barrier(node);
                double t0 = MPI_Wtime();
                if (rank == 0) {
                    for (int j = 0; j < *f; j++)
                        MPI_Irecv(buf + (size_t)j * PINGPONG_MAX, n, MPI_BYTE, j + 1, TAG, node,
                                  &reqs[j]);
                    for (int j = 0; j < *f; j++)     /* not Waitall with MPI_STATUSES_IGNORE:
                                                       * MPICH's header makes gcc warn */
                        MPI_Wait(&reqs[j], MPI_STATUS_IGNORE);
                    if (i >= 0)
                        t[i] = MPI_Wtime() - t0;
                } else {
                    MPI_Send(buf, n, MPI_BYTE, 0, TAG, node);
                }
            }
            y[s] = rank == 0 ? median(t, REPS) : 0;
        }
        *fanin = slope(x, y, NSIZES) / *f;
        rc = 0;
    }
    free(buf);
    free(reqs);
    MPI_Comm_free(&node);
    return rc;
}

/* ---- local work (rank 0) --------------------------------------------------- */

static volatile unsigned char sink;   /* keeps the copies from being optimised away */

/* copy and reduce, s per byte, into *copy and *reduce: 0, or -1 out of memory. */
static int measure_local(double *copy, double *reduce)
{
    enum { NSIZES = 4 };
    unsigned char *src = malloc(LOCAL_MAX), *dst = malloc(LOCAL_MAX);
    double x[NSIZES], yc[NSIZES], yr[NSIZES], t[LOCAL_REPS];
    int rc = -1;

    if (!src || !dst)
        goto done;
    /* floats that stay finite over the repeated sums; pages touched */
    for (size_t i = 0; i < LOCAL_MAX / sizeof(float); i++) {
        ((float *)src)[i] = 1.0f;
        ((float *)dst)[i] = 0.0f;
    }
    for (int s = 0; s < NSIZES; s++) {
        size_t n = (size_t)LOCAL_MIN << s;
        x[s] = (double)n;
        for (int i = -1; i < LOCAL_REPS; i++) {
            double t0 = MPI_Wtime();
            memcpy(dst, src, n);
            sink = dst[n - 1];
            if (i >= 0)
                t[i] = MPI_Wtime() - t0;
        }
        yc[s] = median(t, LOCAL_REPS);
        for (int i = -1; i < LOCAL_REPS; i++) {
            double t0 = MPI_Wtime();
            MPI_Reduce_local(src, dst, (int)(n / sizeof(float)), MPI_FLOAT, MPI_SUM);
            sink = dst[n - 1];
            if (i >= 0)
                t[i] = MPI_Wtime() - t0;
        }
        yr[s] = median(t, LOCAL_REPS);
    }
    *copy = slope(x, yc, NSIZES);
    *reduce = slope(x, yr, NSIZES);
    /* noise, or no simulated time at all (SMPI) */
    *copy = *copy > 0 ? *copy : 0;
    *reduce = *reduce > 0 ? *reduce : 0;
    rc = 0;
done:
    free(src);
    free(dst);
    return rc;
}

/* ---- the file ---------------------------------------------------------------- */

/* Appends printf-style text to the comment buffer. */
static void say(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    if (len < cap)
        vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

static void describe_link(char *c, size_t cap, const char *kind, const link_result *lr,
                          const char *none)
{
    if (lr->peer < 0) {
        say(c, cap, "%s.*: not measured (%s): defaults\n", kind, none);
        return;
    }
    say(c, cap, "%s.*: ranks 0 (%s) and %d (%s): half round trip %.3g s at 0 bytes,\n"
        "  o = %.3g s a message (%d at once; used for both overheads), beta fitted\n"
        "  over %d KiB..%d MiB, eager limit probed with a %.3g s wait\n",
        kind, lr->host_a, lr->peer, lr->host_b, lr->half0, lr->o, OVERHEAD_K,
        PINGPONG_MIN >> 10, PINGPONG_MAX >> 20, EAGER_WAIT);
    if (lr->latency_clamped)
        say(c, cap, "  %s.latency clamped to 1e-09: the half round trip is below 2 o\n", kind);
    if (lr->beta_clamped)
        say(c, cap, "  %s.beta clamped to 1e-15: the times did not grow with the size\n", kind);
}

static void describe(char *c, size_t cap, int nranks, int nnodes, const link_result *node,
                     const link_result *net, int k, int f)
{
    char host[256] = "?", version[MPI_MAX_LIBRARY_VERSION_STRING] = "", date[64] = "?";
    int len;
    time_t now = time(NULL);
    struct tm tm;

    gethostname(host, sizeof host - 1);
    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0';
    if (gmtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm);
    c[0] = '\0';
    say(c, cap, "mpicoll calibrate\ndate: %s\nhost: %s\nMPI: %s\nranks: %d on %d node%s\n",
        date, host, version, nranks, nnodes, nnodes == 1 ? "" : "s");
    describe_link(c, cap, "node", node, "no two ranks share a node");
    describe_link(c, cap, "net", net, "every rank is on one node");
    if (k >= 2)
        say(c, cap, "nic: %d ranks of rank 0's node streaming to %d of rank %d's at once,\n"
            "  slope over %d KiB..%d MiB over %d\n", k, k, net->peer, PINGPONG_MIN >> 10,
            PINGPONG_MAX >> 20, k);
    else
        say(c, cap, "nic: not measured (no two ranks on each of two nodes): net.beta\n");
    if (f >= 2)
        say(c, cap, "fanin: the %d other ranks of rank 0's node streaming to it at once,\n"
            "  slope over %d KiB..%d MiB over %d\n", f, PINGPONG_MIN >> 10, PINGPONG_MAX >> 20, f);
    else
        say(c, cap, "fanin: not measured (fewer than three ranks on rank 0's node): 0, "
            "node.beta\n");
    say(c, cap, "copy, reduce: rank 0, %d..%d MiB (memcpy; MPI_Reduce_local float sum)",
        LOCAL_MIN >> 20, LOCAL_MAX >> 20);
}

static void apply(cost_link *l, const link_result *lr)
{
    if (lr->peer < 0)
        return;
    l->latency = lr->latency;
    l->beta = lr->beta;
    l->send_overhead = lr->o;
    l->recv_overhead = lr->o;
    l->eager = lr->eager;
    l->detach = lr->eager;   /* what the probe sees: the sender is free (cost.h) */
}

/* 1 if a and b agree to 6 significant digits. */
static int same6(double a, double b)
{
    double m = a > b ? a : b;
    return a == b || (a - b <= 1e-5 * m && b - a <= 1e-5 * m);
}

/* Writes cp to f (path: its name, for messages), then reads path back and
 * compares. 0, or -1 with the message said on stderr. */
static int write_checked(FILE *f, const char *path, const char *shown, const cost_params *cp,
                         const char *comment)
{
    char err[512];
    cost_params back;

    if (cost_write(f, cp, comment) != 0) {
        fprintf(stderr, "mpicoll " CMD ": %s: write error: %s\n", shown, strerror(errno));
        return -1;
    }
    cost_defaults(&back);
    back.net.eager = cp->net.eager + 1;   /* a key left out would show */
    if (cost_read(path, &back, err, sizeof err) != 0) {
        fprintf(stderr, "mpicoll " CMD ": reading back what was written: %s\n", err);
        return -1;
    }
    const cost_link *l[2] = { &cp->node, &cp->net }, *m[2] = { &back.node, &back.net };
    int same = same6(cp->copy, back.copy) && same6(cp->reduce, back.reduce) &&
               same6(cp->nic, back.nic);
    for (int i = 0; i < 2; i++)
        same = same && same6(l[i]->latency, m[i]->latency) && same6(l[i]->beta, m[i]->beta) &&
               same6(l[i]->send_overhead, m[i]->send_overhead) &&
               same6(l[i]->recv_overhead, m[i]->recv_overhead) && l[i]->eager == m[i]->eager &&
               l[i]->detach == m[i]->detach;
    if (!same) {
        fprintf(stderr, "mpicoll " CMD ": %s: read back, the values differ\n", shown);
        return -1;
    }
    return 0;
}

/* Rank 0: the file into out (-o) or, through a temporary file, to stdout. */
static int output(FILE *out, const char *path, const cost_params *cp, const char *comment)
{
    char tmp[] = "/tmp/mpicoll-calibrate-XXXXXX";
    FILE *f = out;
    int fd = -1, rc = -1;

    if (!out) {
        fd = mkstemp(tmp);
        f = fd < 0 ? NULL : fdopen(fd, "w+");
        if (!f) {
            fprintf(stderr, "mpicoll " CMD ": cannot make a temporary file: %s\n",
                    strerror(errno));
            goto done;
        }
        path = tmp;
    }
    if (write_checked(f, path, out ? path : "(standard output)", cp, comment) != 0)
        goto done;
    if (!out) {
        char chunk[4096];
        size_t n;
        rewind(f);
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
            fwrite(chunk, 1, n, stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "mpicoll " CMD ": standard output: write error\n");
            goto done;
        }
    }
    rc = 0;
done:
    if (!out && f)
        fclose(f);           /* and its fd */
    else if (fd >= 0)
        close(fd);
    if (fd >= 0)
        unlink(tmp);
    return rc;
}

/* ---- the command ------------------------------------------------------------- */

/* The lowest rank of each rank's node into leader[] (nranks entries). */
static void node_leaders(int *leader, int *nnodes, int nranks)
{
    MPI_Comm node;
    int me;

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    /* key 0 keeps MPI_COMM_WORLD's order: node rank 0 is the lowest */
    MPI_Bcast(&me, 1, MPI_INT, 0, node);
    MPI_Comm_free(&node);
    MPI_Allgather(&me, 1, MPI_INT, leader, 1, MPI_INT, MPI_COMM_WORLD);
    *nnodes = 0;
    for (int r = 0; r < nranks; r++)
        *nnodes += leader[r] == r;
}

static int calibrate(const char *path, int rank, int nranks)
{
    link_result lr[2] = { { .peer = -1 }, { .peer = -1 } };   /* node, net */
    cost_params cp;
    FILE *out = NULL;
    int *leader = malloc((size_t)nranks * sizeof *leader), nnodes, code = EXIT_OK;
    char *comment = malloc(4096);

    /* -o: a file that cannot be written is said before measuring */
    if (rank == 0 && path && !(out = fopen(path, "w"))) {
        fprintf(stderr, "mpicoll " CMD ": %s: cannot open for writing: %s\n", path,
                strerror(errno));
        code = EXIT_FAILED;
    }
    if (!leader || !comment)
        code = EXIT_FAILED;
    MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (code != EXIT_OK)
        goto done;

    node_leaders(leader, &nnodes, nranks);
    for (int r = 1; r < nranks; r++) {
        if (leader[r] == leader[0] && lr[0].peer < 0)
            lr[0].peer = r;
        if (leader[r] != leader[0] && lr[1].peer < 0)
            lr[1].peer = r;
    }
    for (int k = 0; k < 2; k++) {
        int peer = lr[k].peer;
        if (peer >= 0 && (rank == 0 || rank == peer) &&
            measure_link(rank == 0 ? peer : 0, rank == 0, &lr[k]) != MPI_SUCCESS)
            code = EXIT_FAILED;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    cost_defaults(&cp);
    int k = 0, nic_rc = lr[1].peer < 0 ? 1 : 0;
    if (lr[1].peer >= 0)
        nic_rc = measure_nic(leader, nranks, leader[lr[1].peer], rank, &k, &cp.nic);
    MPI_Allreduce(MPI_IN_PLACE, &nic_rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (nic_rc < 0)
        code = EXIT_FAILED;
    int f = 0, fanin_rc = measure_fanin(leader, nranks, rank, &f, &cp.fanin);
    MPI_Allreduce(MPI_IN_PLACE, &fanin_rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (fanin_rc < 0)
        code = EXIT_FAILED;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && measure_local(&cp.copy, &cp.reduce) != 0)
        code = EXIT_FAILED;
    MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (code != EXIT_OK) {
        if (rank == 0)
            fprintf(stderr, "mpicoll " CMD ": out of memory\n");
        goto done;
    }
    if (rank == 0) {
        apply(&cp.node, &lr[0]);
        apply(&cp.net, &lr[1]);
        if (k < 2)
            cp.nic = cp.net.beta;   /* a node's link is its one rank's */
        describe(comment, 4096, nranks, nnodes, &lr[0], &lr[1], k, f);
        code = output(out, path, &cp, comment) == 0 ? EXIT_OK : EXIT_FAILED;
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
done:
    if (out && fclose(out) != 0 && code == EXIT_OK) {
        fprintf(stderr, "mpicoll " CMD ": %s: write error: %s\n", path, strerror(errno));
        code = EXIT_FAILED;
    }
    if (out && code != EXIT_OK)
        unlink(path);   /* no half-written or unchecked file */
    free(leader);
    free(comment);
    return code;
}

int mpicoll_cli_calibrate(int argc, char **argv)
{
    const char *path = NULL, *bad = NULL;
    int rank, nranks, code;

    /* --help needs no MPI */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return EXIT_OK;
        }
    for (int i = 1; i < argc && !bad; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && !path)
            path = argv[++i];
        else
            bad = argv[i];
    }
    /* (no MPI yet: the ranks check alike, rank 0 says it below) */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (bad) {
        if (rank == 0) {
            if (strcmp(bad, "-o") != 0)
                fprintf(stderr, "mpicoll " CMD ": unexpected argument '%s'\n", bad);
            else
                fprintf(stderr, "mpicoll " CMD ": -o %s\n", path ? "given twice" : "needs a FILE");
            usage(stderr);
        }
        code = EXIT_USAGE;
    } else if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "mpicoll " CMD ": needs 2 ranks or more (a pair to measure);"
                    " run it as mpirun -n 2 mpicoll " CMD " (or more ranks, over nodes for"
                    " net.*)\n");
        code = EXIT_FAILED;
    } else {
        code = calibrate(path, rank, nranks);
    }
    MPI_Finalize();
    return code;
}
