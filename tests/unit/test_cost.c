/*
 * The cost model's parameter file (src/model/cost.h, cost_params.c): the
 * defaults, a full file and a partial one, cost_write read back by
 * cost_read, and every error with its file:line. The replay (cost.c) on
 * nodes of several ranks: their off-node messages share the node's link.
 *
 *   test_cost          the tests
 *   test_cost FILE     reads FILE with cost_read: exit 0, or the message
 *                      and 1 (tests/bench's calibrate test)
 */
#include "model/cost.h"
#include "model/choose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures, passes;
static char dir[] = "/tmp/mpicoll-test-cost-XXXXXX";

static void expect(int cond, const char *what)
{
    if (cond) {
        passes++;
    } else {
        printf("FAIL %s\n", what);
        failures++;
    }
}

/* Writes text to a file of the temporary directory; returns its path. */
static const char *file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        printf("FAIL cannot write %s\n", path);
        exit(1);
    }
    return path;
}

static int close6(double a, double b)
{
    return fabs(a - b) <= 1e-5 * fmax(fabs(a), fabs(b));
}

static int same_params(const cost_params *a, const cost_params *b)
{
    const cost_link *l[3] = { &a->node, &a->net, &a->far }, *m[3] = { &b->node, &b->net, &b->far };
    int same = close6(a->copy, b->copy) && close6(a->reduce, b->reduce) &&
               a->group == b->group && close6(a->oversubscription, b->oversubscription) &&
               close6(a->nic, b->nic) && close6(a->fanin, b->fanin);
    for (int i = 0; i < 3; i++)
        same = same && close6(l[i]->latency, m[i]->latency) && close6(l[i]->beta, m[i]->beta) &&
               close6(l[i]->send_overhead, m[i]->send_overhead) &&
               close6(l[i]->recv_overhead, m[i]->recv_overhead) && l[i]->eager == m[i]->eager &&
               l[i]->detach == m[i]->detach;
    return same;
}

static void test_defaults(void)
{
    cost_params cp;
    cost_defaults(&cp);
    expect(cp.net.latency == 1e-6 && cp.net.beta == 1e-10 && cp.net.send_overhead == 2e-7 &&
           cp.net.recv_overhead == 2e-7 && cp.net.eager == 0, "net defaults: platforms/flat.xml");
    expect(cp.group == 0 && cp.oversubscription == 1 && cp.far.latency == cp.net.latency,
           "one group by default, far = net");
    expect(cp.node.latency > 0 && cp.node.beta > 0 && cp.node.send_overhead >= 0 &&
           cp.node.recv_overhead >= 0, "node defaults valid");
    expect(cp.copy >= 0 && cp.reduce >= 0, "copy and reduce defaults valid");
}

static void test_full(void)
{
    cost_params cp;
    char err[512] = "";
    const char *path = file("full",
        "# mpicoll calibrate\n"
        "\n"
        "net.latency 2e-6\n"
        "net.beta 5e-11   # 20 GB/s\n"
        "net.send_overhead 3e-7\n"
        "net.recv_overhead 4e-7\n"
        "net.eager 8192\n"
        "   node.latency\t3e-7   \n"
        "node.beta 2e-11\n"
        "node.send_overhead 0\n"
        "node.recv_overhead 1.5e-7\n"
        "node.eager 0\n"
        "copy 0\n"
        "reduce 1e-10#no space before the comment\n");
    cost_defaults(&cp);
    expect(cost_read(path, &cp, err, sizeof err) == 0, "full file reads");
    if (err[0])
        printf("  (%s)\n", err);
    expect(cp.net.latency == 2e-6 && cp.net.beta == 5e-11 && cp.net.send_overhead == 3e-7 &&
           cp.net.recv_overhead == 4e-7 && cp.net.eager == 8192, "net.* as written");
    expect(cp.node.latency == 3e-7 && cp.node.beta == 2e-11 && cp.node.send_overhead == 0 &&
           cp.node.recv_overhead == 1.5e-7 && cp.node.eager == 0, "node.* as written");
    expect(cp.copy == 0 && cp.reduce == 1e-10, "copy and reduce as written");
}

static void test_partial(void)
{
    cost_params cp, def;
    char err[512];
    cost_defaults(&def);
    cost_defaults(&cp);
    expect(cost_read(file("partial", "node.eager 65536\ncopy 2e-10\n"), &cp, err, sizeof err) == 0,
           "partial file reads");
    def.node.eager = 65536;
    def.copy = 2e-10;
    expect(memcmp(&cp, &def, sizeof cp) == 0, "keys left out keep their value");
    expect(cost_read(file("empty", "\n# nothing\n   \n"), &cp, err, sizeof err) == 0 &&
           memcmp(&cp, &def, sizeof cp) == 0, "an empty file changes nothing");
}

static void test_round_trip(void)
{
    cost_params cp, back;
    char err[512], path[256];
    cost_defaults(&cp);
    cp.net.latency = 1.23456789e-6;
    cp.net.beta = 9.87654321e-11;
    cp.node.send_overhead = 0;
    cp.node.recv_overhead = 3.3333333e-8;
    cp.node.eager = 1048577;           /* more digits than %g keeps */
    cp.net.eager = 0;
    cp.copy = 4.2e-11;
    cp.reduce = 0;
    cp.group = 16;
    cp.far.latency = 2e-6;
    cp.oversubscription = 2.5;
    cp.nic = 4.5e-11;
    cp.fanin = 1.5e-11;
    snprintf(path, sizeof path, "%s/written", dir);
    FILE *f = fopen(path, "w");
    expect(f && cost_write(f, &cp, "mpicoll calibrate\nline two\n\nafter a blank") == 0,
           "cost_write succeeds");
    if (f)
        fclose(f);
    memset(&back, 0, sizeof back);
    back.net.eager = 77;
    expect(cost_read(path, &back, err, sizeof err) == 0, "cost_write's output reads");
    expect(same_params(&cp, &back), "round trip to 6 digits, eager exact");

    /* every key is there: read over garbage, all replaced */
    char line[256];
    int keys = 0, comments = 0;
    f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        line[0] == '#' ? comments++ : keys++;
    if (f)
        fclose(f);
    expect(keys == 24, "cost_write writes the 24 keys");
    expect(comments == 4, "the comment's 4 lines, each after #");

    FILE *full = fopen("/dev/full", "w");
    if (full) {
        expect(cost_write(full, &cp, NULL) == -1, "cost_write reports a write error");
        fclose(full);
    }
}

/* cost_read of text fails with a message that holds `want`. */
static void expect_error(const char *text, const char *want)
{
    cost_params cp, before;
    char err[512] = "", what[1200];
    cost_defaults(&cp);
    before = cp;
    const char *path = file("bad", text);
    int rc = cost_read(path, &cp, err, sizeof err);
    snprintf(what, sizeof what, "'%.60s' fails with '%s' (got '%s')", text, want, err);
    expect(rc == -1 && strstr(err, want) != NULL && strncmp(err, path, strlen(path)) == 0, what);
    snprintf(what, sizeof what, "'%.60s' leaves the parameters as they were", text);
    expect(memcmp(&cp, &before, sizeof cp) == 0, what);
}

static void test_errors(void)
{
    char err[512], path[300], want[400];
    cost_params cp;
    cost_defaults(&cp);
    snprintf(path, sizeof path, "%s/missing", dir);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    expect(cost_read(path, &cp, err, sizeof err) == -1 && strcmp(err, want) == 0,
           "missing file: FILE: cannot open: strerror");
    snprintf(want, sizeof want, "%s: cannot read", dir);
    expect(cost_read(dir, &cp, err, sizeof err) == -1 && strstr(err, dir) == err,
           "a directory is no file");

    expect_error("net.latency 1e-6\nnet.latenzy 1e-6\n", "bad:2: unknown key 'net.latenzy'");
    expect_error("\n\nnode.beta\n", "bad:3: node.beta: missing value");
    expect_error("node.beta   # a comment, no value\n", "bad:1: node.beta: missing value");
    expect_error("copy 1e-10 2e-10\n", "bad:1: copy: unexpected '2e-10' after the value");
    expect_error("copy 1e-10s\n", "bad:1: copy: '1e-10s' is not a number");
    expect_error("net.beta fast\n", "bad:1: net.beta: 'fast' is not a number");
    expect_error("net.beta nan\n", "bad:1: net.beta: 'nan' must be finite");
    expect_error("reduce inf\n", "bad:1: reduce: 'inf' must be finite");
    expect_error("reduce 1e999\n", "bad:1: reduce: '1e999' must be finite");
    expect_error("net.latency 0\n", "bad:1: net.latency: '0' must be > 0");
    expect_error("node.latency -1e-6\n", "bad:1: node.latency: '-1e-6' must be > 0");
    expect_error("node.beta 0\n", "bad:1: node.beta: '0' must be > 0");
    expect_error("net.send_overhead -1e-9\n", "bad:1: net.send_overhead: '-1e-9' must be >= 0");
    expect_error("node.recv_overhead -2e-7\n", "bad:1: node.recv_overhead: '-2e-7' must be >= 0");
    expect_error("copy -1\n", "bad:1: copy: '-1' must be >= 0");
    expect_error("reduce -0.5\n", "bad:1: reduce: '-0.5' must be >= 0");
    expect_error("net.eager 4096.5\n", "bad:1: net.eager: '4096.5' must be a whole number");
    expect_error("node.eager -1\n", "bad:1: node.eager: '-1' must be a whole number");
    expect_error("node.eager 1e30\n", "bad:1: node.eager: '1e30' must be a whole number");
    expect_error("# c\ncopy 0\n\ncopy 0\n", "bad:4: copy given twice (first on line 2)");
    expect_error("group 1.5\n", "bad:1: group: '1.5' must be a whole number >= 0");
    expect_error("oversubscription 0.5\n", "bad:1: oversubscription: '0.5' must be >= 1");
    expect_error("far.beta 0\n", "bad:1: far.beta: '0' must be > 0");

    /* 0 may be written -0 where >= 0 is asked: it reads as 0 */
    cost_defaults(&cp);
    expect(cost_read(file("zero", "copy -0\n"), &cp, err, sizeof err) == 0 &&
           cp.copy == 0 && !signbit(cp.copy), "-0 reads as 0");
    /* a long line (getline) */
    char longline[5000];
    memset(longline, ' ', sizeof longline);
    memcpy(longline + 4000, "copy 1e-10\n", 12);
    expect(cost_read(file("long", longline), &cp, err, sizeof err) == 0 && cp.copy == 1e-10,
           "a line longer than any buffer");
}

/* The selection by the model: a function of (collective, p, nodes, bytes,
 * operation) and the parameters alone, so every rank of a communicator,
 * whatever it asked before, chooses the same; the winner is the cheapest
 * and applies to the call. Random inputs from a fixed seed. */
static unsigned long seed = 20261125;

static unsigned rnd(unsigned n)
{
    seed = seed * 6364136223846793005ul + 1442695040888963407ul;
    return (unsigned)((seed >> 33) % n);
}

static call_info random_call(const coll_desc **c)
{
    static const char *const names[] = { "allgather", "allreduce", "alltoall", "bcast",
                                         "reduce", "reduce_scatter_block" };
    *c = coll_find(names[rnd(6)]);
    call_info ci = { .p = 2 + (int)rnd(47) };
    ci.nnodes = 1 + (int)rnd((unsigned)ci.p);
    ci.bytes = rnd(4) == 0 ? 0 : (size_t)1 << rnd(17);
    ci.bytes += rnd(3) == 0 ? rnd(100) : 0;
    ci.commutative = (*c)->reduction ? (int)rnd(2) : 1;
    return ci;
}

static int same_pick(const cost_pick *a, const cost_pick *b)
{
    return a->algo == b->algo && a->seconds == b->seconds &&
           memcmp(a->params, b->params, sizeof a->params) == 0;
}

static void test_choose(void)
{
    cost_params cp;
    cost_defaults(&cp);
    int same = 1, cheapest = 1, applies = 1, found = 1;
    for (int i = 0; i < 40; i++) {
        const coll_desc *c, *other;
        call_info ci = random_call(&c), between = random_call(&other);
        cost_pick a1, a2, b1, b2, o1, o2;
        if (cost_choose(c, &ci, &cp, (size_t)1 << 18, coll_algo_applies, &a1, &a2) ||
            cost_choose(other, &between, &cp, (size_t)1 << 18, coll_algo_applies, &o1, &o2) ||
            cost_choose(c, &ci, &cp, (size_t)1 << 18, coll_algo_applies, &b1, &b2)) {
            found = 0;
            continue;
        }
        found &= a1.algo != NULL;
        same &= same_pick(&a1, &b1) && same_pick(&a2, &b2);
        cheapest &= !a2.algo || a1.seconds <= a2.seconds;
        applies &= !a1.algo || coll_algo_applies(a1.algo, &ci);
        if (!same_pick(&a1, &b1))
            printf("  %s p=%d nodes=%d bytes=%zu: %s then %s\n", c->name, ci.p, ci.nnodes,
                   ci.bytes, a1.algo ? a1.algo->name : "-", b1.algo ? b1.algo->name : "-");
    }
    expect(found, "cost_choose finds an algorithm for every call");
    expect(same, "cost_choose: the same choice for the same call, whatever came before");
    expect(cheapest, "cost_choose: the best is not slower than the runner-up");
    expect(applies, "cost_choose: the best applies to the call");

    /* a parameter changes the choice: 64 nodes, 8 B allreduce on flat's
     * network: the radix-4 recursive multiplying (docs/scale.md) */
    call_info ci = { .p = 64, .nnodes = 64, .bytes = 8, .commutative = 1 };
    cost_pick b, s2;
    expect(cost_choose(coll_find("allreduce"), &ci, &cp, (size_t)1 << 18, coll_algo_applies,
                       &b, &s2) == 0 && b.algo && strcmp(b.algo->name, "recursive_multiplying") == 0
           && b.params[0] == 4, "allreduce 64 nodes 8 B: recursive_multiplying:k=4");
}

/* The call size (rules' bytes=) against the builders' block: the whole
 * vector for the reductions that scatter it, one block for the others,
 * scatter's root sending p of them included (blockcoll.c's bytes). */
static void test_call_bytes(void)
{
    static const struct { const char *coll; size_t block, bytes; } want[] = {
        { "reduce_scatter_block", 100, 800 }, { "reduce_scatter", 100, 800 },
        { "scatter", 100, 100 }, { "gather", 100, 100 }, { "allgather", 100, 100 },
        { "alltoall", 100, 100 }, { "allreduce", 100, 100 }, { "bcast", 100, 100 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const coll_desc *c = coll_find(want[i].coll);
        char what[120];
        snprintf(what, sizeof what, "%s at 8 ranks: block %zu is a call of %zu bytes and back",
                 want[i].coll, want[i].block, want[i].bytes);
        expect(c && coll_call_bytes(c, 8, want[i].block) == want[i].bytes &&
               coll_block_of(c, 8, want[i].bytes) == want[i].block, what);
    }
}

/* ---- the replay on nodes of several ranks --------------------------------- */

/* The test plans: rank r < k sends `block` bytes to rank r + k (kind 0:
 * one message each, all in round 0), or (kind 1) receives them. */
static void stream_plan(plan *pl, const plan_args *a)
{
    int k = a->p / 2;
    if (a->rank < k)
        plan_send(pl, BUF_SEND, 0, a->block, a->rank + k);
    else
        plan_recv(pl, BUF_RECV, 0, a->block, a->rank - k);
    plan_end_round(pl);
}

/* The last finish of a replay of p ranks of `builder` (node_of: as given);
 * < 0 on failure. */
static double replay_time(plan_builder builder, int p, size_t block, const int *node_of,
                          const cost_params *cp)
{
    plan pl[64];
    double finish[64], last = -1;
    int built = 0;
    for (; built < p; built++) {
        plan_args a = { .p = p, .rank = built, .block = block };
        if (plan_build(&pl[built], builder, &a))
            break;
    }
    if (built == p && cost_replay(pl, p, node_of, cp, NULL, finish) == 0)
        for (int q = 0; q < p; q++)
            last = finish[q] > last ? finish[q] : last;
    for (int q = 0; q < built; q++)
        plan_free(&pl[q]);
    return last;
}

/* k ranks of node 0 each send 1 MiB to one of k ranks of node 1, at once:
 * the two nodes' links carry k streams, so the last arrives after k times
 * one stream's time on the link (o_s + L + k n nic + o_r); on nodes of one
 * rank each stream has its own link (o_s + L + n beta + o_r). The old
 * model shared only each rank's own link: all k in one stream's time. */
static void test_node_link(void)
{
    enum { K = 8, N = 1 << 20 };
    cost_params cp;
    cost_defaults(&cp);
    int two_nodes[2 * K], own[2 * K];
    for (int q = 0; q < 2 * K; q++) {
        two_nodes[q] = q / K;
        own[q] = q;
    }
    double one = cp.net.send_overhead + cp.net.latency + N * cp.net.beta + cp.net.recv_overhead;
    double t = replay_time(stream_plan, 2 * K, N, own, &cp);
    expect(close6(t, one), "k streams between nodes of one rank: one stream's time each");
    t = replay_time(stream_plan, 2 * K, N, two_nodes, &cp);
    double shared = cp.net.send_overhead + cp.net.latency + K * (double)N * cp.nic +
                    cp.net.recv_overhead;
    expect(fabs(t - shared) <= 1e-3 * shared, "k ranks of a node streaming off it at once: "
           "k times one stream's time on the node's link");
    if (fabs(t - shared) > 1e-3 * shared)
        printf("  (%.6g s, want %.6g)\n", t, shared);
    /* a link that carries k streams' worth (a NIC faster than one stream) */
    cp.nic = cp.net.beta / K;
    t = replay_time(stream_plan, 2 * K, N, two_nodes, &cp);
    expect(close6(t, one), "a node's link of k streams' bandwidth: one stream's time");
    /* inside a node the link is not used: k pairs of one node */
    cost_defaults(&cp);
    int one_node[2 * K] = { 0 };
    t = replay_time(stream_plan, 2 * K, N, one_node, &cp);
    double inside = cp.node.send_overhead + cp.node.latency + N * cp.node.beta +
                    cp.node.recv_overhead;
    expect(close6(t, inside), "messages inside a node do not share its network link");
}

/* Rank 0 of node 0 sends to ranks of node 1 and node 2; rank 1 of node 0
 * receives from a rank of node 1: the node's link is shared each way, its
 * two directions apart (full duplex). */
static void duplex_plan(plan *pl, const plan_args *a)
{
    /* nodes: {0, 1}, {2, 3}: 0 -> 2 and 3 -> 1 at once */
    if (a->rank == 0)
        plan_send(pl, BUF_SEND, 0, a->block, 2);
    else if (a->rank == 2)
        plan_recv(pl, BUF_RECV, 0, a->block, 0);
    else if (a->rank == 3)
        plan_send(pl, BUF_SEND, 0, a->block, 1);
    else
        plan_recv(pl, BUF_RECV, 0, a->block, 3);
    plan_end_round(pl);
}

static void test_node_duplex(void)
{
    enum { N = 1 << 20 };
    cost_params cp;
    cost_defaults(&cp);
    int nodes[4] = { 0, 0, 1, 1 };
    double one = cp.net.send_overhead + cp.net.latency + N * cp.net.beta + cp.net.recv_overhead;
    expect(close6(replay_time(duplex_plan, 4, N, nodes, &cp), one),
           "a node's link out and in are apart: one stream's time each way");
}

/* Ranks 1..K of node 0 send to rank 0 at once, and rank K + 1 (node 1)
 * too: rank 0's link inside its node and its link off it are apart. */
static void fanin_plan(plan *pl, const plan_args *a)
{
    if (a->rank == 0)
        for (int r = 1; r < a->p; r++)
            plan_recv(pl, BUF_RECV, (size_t)r * a->block, a->block, r);
    else
        plan_send(pl, BUF_SEND, 0, a->block, 0);
    plan_end_round(pl);
}

/* K ranks of a node send N bytes to one at once: with fanin 0 they share
 * one link of node.beta (K N node.beta on it); with fanin node.beta / K
 * (a loopback of K messages' bandwidth) one message's time. A message
 * from another node at the same time takes its own link either way. */
static void test_fanin(void)
{
    enum { K = 4, N = 1 << 20 };
    cost_params cp;
    cost_defaults(&cp);
    int nodes[K + 2];
    for (int q = 0; q < K + 2; q++)
        nodes[q] = q <= K ? 0 : 1;
    double last_in = cp.node.send_overhead + cp.node.latency + K * (double)N * cp.node.beta +
                     K * cp.node.recv_overhead;
    double t = replay_time(fanin_plan, K + 1, N, nodes, &cp);
    expect(fabs(t - last_in) <= 1e-3 * last_in,
           "fanin 0: a node's K messages into one rank share its link");
    double shared = t;
    cp.fanin = cp.node.beta / K;
    t = replay_time(fanin_plan, K + 1, N, nodes, &cp);
    double alone = cp.node.send_overhead + cp.node.latency + N * cp.node.beta +
                   K * cp.node.recv_overhead;
    expect(fabs(t - alone) <= 1e-3 * alone,
           "fanin node.beta / K: K messages into one rank, each at full speed");
    if (fabs(t - alone) > 1e-3 * alone)
        printf("  (%.6g s, want %.6g)\n", t, alone);
    /* and one more from node 1, of net.beta: on its own link, so the
     * time is the slower of the two links' (plus its overhead) */
    cost_defaults(&cp);
    t = replay_time(fanin_plan, K + 2, N, nodes, &cp);
    double off = cp.net.send_overhead + cp.net.latency + N * cp.net.beta;
    double want = (shared > off + cp.net.recv_overhead ? shared : off) + cp.net.recv_overhead;
    expect(t <= want * (1 + 1e-3) && t < shared + N * cp.net.beta,
           "a message from another node does not share the rank's link inside its node");
    if (!(t <= want * (1 + 1e-3)))
        printf("  (%.6g s, want at most %.6g)\n", t, want);
}

/* Groups of 2 nodes of one rank, oversubscribed 2:1 (their links out
 * carry one host's bandwidth): the 2 ranks of group 0 streaming to the 2
 * of group 1 at once take twice one stream's time on the wire; inside a
 * group, one stream's time. */
static void test_group_links(void)
{
    enum { N = 1 << 20 };
    cost_params cp;
    cost_defaults(&cp);
    cp.group = 2;
    cp.oversubscription = 2;
    cp.far = cp.net;
    double one = cp.net.send_overhead + cp.net.latency + N * cp.net.beta + cp.net.recv_overhead;
    double t = replay_time(stream_plan, 4, N, NULL, &cp);
    double shared = one + N * cp.net.beta;
    expect(fabs(t - shared) <= 1e-3 * shared, "2 streams out of a group of 2:1 links: twice "
           "one stream's time on the wire");
    if (fabs(t - shared) > 1e-3 * shared)
        printf("  (%.6g s, want %.6g)\n", t, shared);
    cp.group = 4;
    expect(close6(replay_time(stream_plan, 4, N, NULL, &cp), one),
           "the same streams inside one group: one stream's time");
}

/* A pipeline of S segments from rank 0 to rank 1 (nodes of one rank): rank
 * 0 sends segment s in its round s, rank 1 receives it in its round s,
 * each into the same bytes (pipe_plan: a receive cannot be posted before
 * the one before is in) or into its own (pipe_plan_ahead: all posted with
 * the first round, plan_lookahead). */
enum { PIPE_S = 4 };
static void pipe_build(plan *pl, const plan_args *a, int ahead)
{
    plan_ahead(pl, 1);
    for (int s = 0; s < PIPE_S; s++) {
        if (a->rank == 0)
            plan_send(pl, BUF_SEND, (size_t)s * a->block, a->block, 1);
        else
            plan_recv(pl, BUF_RECV, ahead ? (size_t)s * a->block : 0, a->block, 0);
        plan_end_round(pl);
    }
}
static void pipe_plan(plan *pl, const plan_args *a) { pipe_build(pl, a, 0); }
static void pipe_plan_ahead(plan *pl, const plan_args *a) { pipe_build(pl, a, 1); }

/* The pipeline's segments detached (eager 0, up to detach bytes): rank 0's
 * rounds end as their sends leave, o_s apart, but each segment's data wait
 * for rank 1 to post its receive, once the one before is in. So they pass
 * one at a time, each on the link alone: segment 0 leaves at o_s, each
 * takes L + n beta + o_r after the one before: o_s + S (L + n beta + o_r).
 * The old model let rank 0's rounds share its link as a train from the
 * moment each send left, so each segment took about the wire time of all
 * S, counted from its receive (three times this here). */
static void test_detached_pipeline(void)
{
    enum { N = 32768 };
    cost_params cp;
    cost_defaults(&cp);
    cp.net.eager = 0;
    cp.net.detach = N;
    double t = replay_time(pipe_plan, 2, N, NULL, &cp);
    double want = cp.net.send_overhead +
                  PIPE_S * (cp.net.latency + N * cp.net.beta + cp.net.recv_overhead);
    expect(close6(t, want), "a pipeline of detached segments: one segment on the link at a time");
    if (!close6(t, want))
        printf("  (%.6g s, want %.6g)\n", t, want);
    /* Posted ahead (segments of PLAN_AHEAD_BYTES), the segments' data
     * start as their sends leave, o_s apart, and share the link: through
     * after about S n beta from the first; each of rank 1's rounds then
     * pays o_r. */
    const size_t n = PLAN_AHEAD_BYTES;
    const double ahead = replay_time(pipe_plan_ahead, 2, n, NULL, &cp);
    const double lo = cp.net.send_overhead + cp.net.latency +
                      PIPE_S * (double)n * cp.net.beta + cp.net.recv_overhead;
    const double hi = PIPE_S * (cp.net.send_overhead + cp.net.recv_overhead) +
                      cp.net.latency + PIPE_S * (double)n * cp.net.beta;
    const double one_by_one = cp.net.send_overhead +
        PIPE_S * (cp.net.latency + (double)n * cp.net.beta + cp.net.recv_overhead);
    expect(close6(replay_time(pipe_plan, 2, n, NULL, &cp), one_by_one),
           "the same segments into one place: one at a time");
    expect(ahead > lo * (1 - 1e-6) && ahead < hi * (1 + 1e-6),
           "a pipeline's receives posted ahead: the segments share the link");
    if (!(ahead > lo * (1 - 1e-6) && ahead < hi * (1 + 1e-6)))
        printf("  (%.6g s, want %.6g to %.6g)\n", ahead, lo, hi);
}

int main(int argc, char **argv)
{
    if (argc == 2) {
        cost_params cp;
        char err[512];
        cost_defaults(&cp);
        if (cost_read(argv[1], &cp, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        return 0;
    }
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_defaults();
    test_full();
    test_partial();
    test_round_trip();
    test_errors();
    test_choose();
    test_call_bytes();
    test_node_link();
    test_node_duplex();
    test_fanin();
    test_group_links();
    test_detached_pipeline();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("(could not remove %s)\n", dir);
    printf("%d passed, %d failed\n", passes, failures);
    return failures ? 1 : 0;
}
