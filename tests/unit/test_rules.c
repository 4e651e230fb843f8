/*
 * The rules parser and the built-in allgather rules (Open MPI's decision
 * tree): valid and malformed files, unknown names, first match wins, rules
 * of unavailable shared-memory algorithms passed over; Open MPI 4.1's names
 * and ids; bad parameter lists.
 */
#include "model/rules.h"
#include "model/choose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures, passes;

static void expect(int cond, const char *what)
{
    if (cond) {
        passes++;
    } else {
        printf("FAIL %s\n", what);
        failures++;
    }
}

static char warning[512];
static void on_warning(const char *msg) { snprintf(warning, sizeof warning, "%s", msg); }

static const char *pick(const ruleset *rs, int np, size_t bytes)
{
    const rule *r = rules_match(rs, coll_find("allgather"), np, 1, bytes, 0);
    return r ? r->algo->name : "(none)";
}

/* What the selection runs for a blocking call (request 0) or a request (1:
 * before the communicator's pool of request channels is made; 2: after)
 * on np ranks spanning nnodes nodes, into buf ("(error)" if none). */
static const char *choose(const char *coll, int np, int nnodes, size_t bytes, int request,
                          char *buf, size_t len)
{
    call_info ci = { .p = np, .nnodes = nnodes, .bytes = bytes, .commutative = 1,
                     .request = request != 0, .shm_unready = request == 1 };
    choice ch;
    char err[256];
    if (select_choose(coll_find(coll), NULL, 0, &ci, &ch, err, sizeof err) != SELECT_OK)
        return snprintf(buf, len, "(error)"), buf;
    spec_format(ch.algo, ch.params, buf, len);
    return buf;
}

static void test_valid(void)
{
    ruleset rs;
    char err[512] = "";
    const char *text =
        "# a comment\n"
        "\n"
        "allgather np=2 bytes=* two_proc   # trailing comment\n"
        "allgather np=3-8 bytes=0-1K ring\n"
        "allgather np=3-8 bytes=1025- k_bruck:k=3\n"
        "allgather np=3-8 bytes=* bruck\n"           /* shadowed by the two above */
        "allgather np=9- total=0-4095 recursive_doubling\n"
        "allgather np=* bytes=* 4\n";               /* Open MPI id of ring */
    expect(rules_parse(text, "t.rules", &rs, err, sizeof err, on_warning) == 0, "valid file parses");
    expect(rs.n == 6, "six rules");
    expect(strcmp(pick(&rs, 2, 1), "two_proc") == 0, "np=2 exact");
    expect(strcmp(pick(&rs, 5, 1024), "ring") == 0, "1K is inclusive");
    expect(strcmp(pick(&rs, 5, 1025), "k_bruck") == 0, "open range");
    expect(rules_match(&rs, coll_find("allgather"), 5, 1, 2048, 0)->params[0] == 3, "parameter read");
    expect(strcmp(pick(&rs, 16, 255), "recursive_doubling") == 0, "total 16 x 255 = 4080 <= 4095");
    expect(strcmp(pick(&rs, 16, 256), "ring") == 0, "total 4096 misses 0-4095; the catch-all (id 4) matches");
    rules_free(&rs);
}

static void test_total_metric(void)
{
    ruleset rs;
    char err[512];
    rules_parse("allgather np=* total=0-4095 ring\nallgather np=* bytes=* bruck\n", "t", &rs,
                err, sizeof err, NULL);
    expect(strcmp(pick(&rs, 16, 255), "ring") == 0, "total 16 x 255 = 4080 matches 0-4095");
    expect(strcmp(pick(&rs, 16, 256), "bruck") == 0, "total 16 x 256 = 4096 does not");
    rules_free(&rs);
}

/* form=: a rule for blocking calls only, or for requests only, in either
 * order with nodes= */
static void test_form(void)
{
    ruleset rs;
    char err[512] = "";
    const char *text =
        "allgather np=* nodes=1 form=blocking bytes=* ring\n"
        "allgather np=* form=request nodes=1 bytes=0-1K bruck\n"
        "allgather np=* bytes=* direct\n";
    expect(rules_parse(text, "f.rules", &rs, err, sizeof err, NULL) == 0, "form= parses");
    const coll_desc *ag = coll_find("allgather");
    const rule *b = rules_match(&rs, ag, 4, 1, 8, 0), *q = rules_match(&rs, ag, 4, 1, 8, 1);
    expect(b && strcmp(b->algo->name, "ring") == 0, "form=blocking: a blocking call");
    expect(q && strcmp(q->algo->name, "bruck") == 0, "form=request: a request, blocking rule passed over");
    q = rules_match(&rs, ag, 4, 1, 4096, 1);
    expect(q && strcmp(q->algo->name, "direct") == 0, "a request past form=request's sizes: the next rule");
    expect(strstr(rs.rules[1].text, "form=request") != NULL, "the rule's text keeps form=");
    rules_free(&rs);
}

/* rpn=: ranks a node, np over nodes rounded up */
static void test_rpn(void)
{
    ruleset rs;
    char err[512] = "";
    const char *text =
        "bcast np=16- nodes=2- rpn=4- bytes=* scatter_allgather_ring\n"
        "bcast np=16- nodes=2- rpn=2-3 form=blocking bytes=* bine\n"
        "bcast np=16- nodes=2- bytes=* binomial\n";
    expect(rules_parse(text, "r.rules", &rs, err, sizeof err, NULL) == 0, "rpn= parses");
    const coll_desc *bc = coll_find("bcast");
    const rule *m = rules_match(&rs, bc, 64, 8, 8, 0);
    expect(m && strcmp(m->algo->name, "scatter_allgather_ring") == 0, "64 ranks on 8 nodes: rpn 8");
    m = rules_match(&rs, bc, 64, 64, 8, 0);
    expect(m && strcmp(m->algo->name, "binomial") == 0, "one rank a node: no rpn= rule");
    m = rules_match(&rs, bc, 17, 8, 8, 0);
    expect(m && strcmp(m->algo->name, "bine") == 0, "17 ranks on 8 nodes: rpn 3 (rounded up)");
    m = rules_match(&rs, bc, 17, 8, 8, 1);
    expect(m && strcmp(m->algo->name, "binomial") == 0, "rpn= with form=: a request passes over it");
    expect(strstr(rs.rules[1].text, "rpn=2-3 form=blocking") != NULL, "the rule's text keeps rpn=");
    expect(rules_use_nodes(&rs, bc), "rpn= needs the node count");
    rules_free(&rs);
    expect(rules_parse("bcast np=* rpn=2- bytes=* binomial\n", "r.rules", &rs, err, sizeof err,
                       NULL) == 0 && rules_use_nodes(&rs, bc), "rpn= alone needs the node count");
    rules_free(&rs);
}

static void test_malformed(void)
{
    static const char *bad[] = {
        "allgather np=2 two_proc\n",                    /* missing size */
        "allgather np=2 bytes=* two_proc extra\n",      /* extra field */
        "allgather np=x bytes=* ring\n",                /* bad range */
        "allgather np=8-2 bytes=* ring\n",              /* empty range */
        "allgather bytes=* np=2 ring\n",                /* wrong order */
        "allgather np=2 size=* ring\n",                 /* unknown metric */
        "allgather np=2 form=nb bytes=* ring\n",        /* unknown form */
        "allgather np=2 form=request form=request bytes=* ring\n",    /* twice */
        "allgather form=request np=2 bytes=* ring\n",   /* before np= */
        "allgather np=2 rpn=x bytes=* ring\n",          /* bad rpn range */
        "allgather np=2 rpn=2 rpn=2 bytes=* ring\n",    /* rpn twice */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ruleset rs;
        char err[512] = "", text[256];
        snprintf(text, sizeof text, "# header\n%s", bad[i]);
        int rc = rules_parse(text, "bad.rules", &rs, err, sizeof err, NULL);
        char what[300];
        snprintf(what, sizeof what, "malformed line rejected with file:line: %s", bad[i]);
        expect(rc == -1 && strstr(err, "bad.rules:2:") != NULL, what);
    }
}

static void test_unknown_names(void)
{
    ruleset rs;
    char err[512];
    warning[0] = '\0';
    int rc = rules_parse("allgather np=* bytes=* no_such_algo\nallgather np=* bytes=* ring\n",
                         "u.rules", &rs, err, sizeof err, on_warning);
    expect(rc == 0 && rs.n == 1, "unknown algorithm: rule skipped, file still loads");
    expect(strstr(warning, "u.rules:1:") && strstr(warning, "no_such_algo"), "warning names file, line, name");
    rules_free(&rs);
    warning[0] = '\0';
    rc = rules_parse("allgather np=* bytes=* k_bruck:k=1\n", "u.rules", &rs, err, sizeof err,
                     on_warning);
    expect(rc == 0 && rs.n == 0 && strstr(warning, "k=1"), "bad parameter: rule skipped with a warning");
    rules_free(&rs);
    rc = rules_parse("nosuchcoll np=* bytes=* ring\n", "u.rules", &rs, err, sizeof err, on_warning);
    expect(rc == 0 && rs.n == 0 && strstr(warning, "nosuchcoll"), "unknown collective: skipped");
    rules_free(&rs);
}

/* The built-in rules give Open MPI's choices (ompi_coll_tuned_allgather_intra_dec_fixed),
 * after the declared fallbacks, wherever neither the shared-memory rules
 * nor the simulated ones (across nodes) apply: requests on one node.
 * total = bytes x np. */
/* The built-in choice for coll on np ranks of nnodes nodes (blocking) is
 * alg, or alg with its parameters ("shm" matches "shm:segment=..."). */
static void expect_choice(const char *coll, int np, int nnodes, size_t bytes, const char *alg)
{
    char got[64], what[200];
    const size_t n = strlen(alg);
    choose(coll, np, nnodes, bytes, 0, got, sizeof got);
    snprintf(what, sizeof what, "built-in %d node%s %s np=%d bytes=%zu: expected %s, got %s",
             nnodes, nnodes == 1 ? "" : "s", coll, np, bytes, alg, got);
    expect(strncmp(got, alg, n) == 0 && (got[n] == '\0' || got[n] == ':'), what);
}

static void test_openmpi_tree(void)
{
    static const struct { int np; size_t bytes; const char *alg; } t[] = {
        { 2, 1, "two_proc" }, { 2, 1 << 20, "two_proc" },
        { 1, 8, "recursive_doubling" }, { 16, 8, "recursive_doubling" },
        { 3, 8, "bruck" },               /* recursive_doubling falls back, as in Open MPI */
        { 32, 31, "recursive_doubling" },   /* total 992 < 1024 */
        { 32, 32, "neighbor" },             /* total 1024 */
        { 48, 2048, "ring" },               /* total 98304 >= 65536 */
        { 33, 100, "ring" },                /* neighbor needs even p: falls back to ring */
        { 200, 4096, "neighbor" },          /* total 819200: in 524288..1048575 */
        { 200, 2000, "ring" },              /* total 400000: in 131072..524287 */
        { 300, 1, "bruck" },                /* total 300: recursive_doubling, 300 ranks: bruck */
        { 256, 1, "recursive_doubling" },   /* total 256, a power of two: runs as itself */
        { 4096, 1, "neighbor" },            /* total 4096 >= 4096 */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        for (int request = 0; request < 2; request++) {
            char got[64], what[200];
            /* one node, a request */
            if (!request)
                continue;
            choose("allgather", t[i].np, 1, t[i].bytes, request, got, sizeof got);
            snprintf(what, sizeof what, "built-in np=%d bytes=%zu request: expected %s, got %s",
                     t[i].np, t[i].bytes, t[i].alg, got);
            expect(t[i].np == 1 || strcmp(got, t[i].alg) == 0, what);
        }
    }
    /* across nodes: the fastest under SMPI (docs/scale.md) */
    static const struct { const char *coll; int np; size_t bytes; const char *alg; } m[] = {
        { "allgather", 16, 8, "recursive_multiplying:k=4" },
        { "allgather", 30, 2047, "recursive_multiplying:k=8" },
        { "allgather", 16, 2048, "direct" }, { "allgather", 31, 131071, "direct" },
        /* 17-31 ranks from 128 KiB blocks: neighbor, ring on odd counts */
        { "allgather", 24, 131072, "neighbor" }, { "allgather", 31, 1 << 20, "ring" },
        { "allgather", 17, 131072, "ring" }, { "allgather", 16, 1 << 20, "direct" },
        { "allgather", 64, 8, "recursive_multiplying:k=8" },
        { "allgather", 1024, 8191, "recursive_multiplying:k=8" },
        { "allgather", 100, 768, "recursive_multiplying:k=8" },
        /* a prime factor above 7: the fallback, with the rule's k */
        { "allgather", 31, 2047, "k_bruck:k=8" }, { "allgather", 1025, 8, "k_bruck:k=8" },
        { "allgather", 127, 1024, "k_bruck:k=8" },
        { "allgather", 64, 8192, "neighbor" }, { "allgather", 33, 1 << 20, "ring" },
        { "allreduce", 16, 8, "recursive_multiplying:k=4" },
        { "allreduce", 1024, 11585, "recursive_multiplying:k=4" },
        { "allreduce", 256, 11586, "recursive_doubling" },
        { "allreduce", 256, 23171, "rabenseifner" }, { "allreduce", 24, 524287, "rabenseifner" },
        { "allreduce", 32, 2047, "recursive_multiplying:k=4" },
        { "allreduce", 128, 2048, "recursive_doubling" }, { "allreduce", 64, 4096, "recursive_multiplying:k=4" },
        { "allreduce", 24, 524288, "ring" }, { "allreduce", 32, 1 << 20, "rabenseifner" },
        { "allreduce", 64, 1 << 20, "rabenseifner" },
        /* off the powers of 4, recursive doubling from 8 KiB (5793 bytes) */
        { "allreduce", 100, 5792, "recursive_multiplying:k=4" },
        { "allreduce", 24, 5793, "recursive_doubling" }, { "allreduce", 17, 8192, "recursive_doubling" },
        { "allreduce", 64, 8192, "recursive_multiplying:k=4" },
        { "alltoall", 128, 257, "mesh2d" }, { "alltoall", 1024, 8192, "pairwise" },
        { "alltoall", 180, 8192, "linear" }, { "alltoall", 181, 8192, "linear_sync:max_requests=8" },
        /* 16-180 ranks: linear from 1448 bytes (pass 20), mesh2d below */
        { "alltoall", 128, 1447, "mesh2d" }, { "alltoall", 128, 1448, "linear" },
        { "alltoall", 16, 1448, "linear" }, { "alltoall", 181, 1448, "mesh2d" },
        { "alltoall", 17, 47, "radix_bruck:radix=8,multiport=1" }, { "alltoall", 16, 47, "mesh2d" },
        { "alltoall", 511, 1 << 20, "linear_sync:max_requests=8" },
        { "alltoall", 512, 1 << 20, "pairwise" },
        { "alltoall", 127, 8192, "linear" }, { "alltoall", 256, 256, "mesh2d" },
        { "alltoall", 1024, 256, "mesh2d" }, { "alltoall", 1024, 257, "mesh2d" },
        { "alltoall", 32, 8, "radix_bruck:radix=8,multiport=1" },
        { "alltoall", 1024, 47, "radix_bruck:radix=8,multiport=1" },
        { "alltoall", 31, 48, "mesh2d" }, { "alltoall", 1024, 48, "mesh2d" },
        { "alltoall", 15, 256, "mesh2d" }, { "alltoall", 11, 256, "linear" },
        { "alltoall", 10, 22, "mesh2d" }, { "alltoall", 2, 8, "linear" },
        { "allreduce", 15, 8, "recursive_multiplying:k=4" },
        { "allreduce", 7, 8, "allgather_reduce" }, { "allreduce", 8, 4096, "recursive_doubling" },
        { "allreduce", 9, 1 << 20, "ring" }, { "allreduce", 8, 1 << 20, "rabenseifner" },
        { "allreduce", 3, 65536, "recursive_multiplying:k=4" },
        { "allgather", 2, 1, "direct" }, { "allgather", 10, 1 << 20, "direct" },
        { "allgather", 12, 8, "k_bruck:k=4" }, { "allgather", 12, 2048, "direct" },
        { "bcast", 16, 8, "knomial:k=4,far=0" }, { "bcast", 64, 1024, "knomial:k=8,far=0" },
        { "bcast", 64, 8192, "knomial:k=4,far=0" }, { "bcast", 16, 11584, "knomial:k=4,far=0" },
        { "bcast", 256, 11585, "scatter_allgather_rd" },
        { "bcast", 256, 262143, "scatter_allgather_rd" },
        { "bcast", 17, 65536, "scatter_allgather_rd" },
        { "bcast", 64, 1 << 20, "scatter_allgather_rd" }, { "bcast", 1024, 1 << 18, "scatter_allgather_rd" },
        { "bcast", 65, 1 << 20, "scatter_allgather_ring" }, { "bcast", 100, 1 << 18, "scatter_allgather_rd" },
        /* off the powers of two the ring from 512 KiB (pass 19) */
        { "bcast", 100, 524287, "scatter_allgather_rd" }, { "bcast", 100, 524288, "scatter_allgather_ring" },
        { "bcast", 17, 524288, "scatter_allgather_ring" }, { "bcast", 64, 524288, "scatter_allgather_rd" },
        /* barrier: the radix-4 dissemination, radix 8 on 17-55 ranks */
        { "barrier", 2, 0, "k_dissemination:k=4" }, { "barrier", 5, 0, "k_dissemination:k=4" },
        { "barrier", 16, 0, "k_dissemination:k=4" }, { "barrier", 17, 0, "k_dissemination:k=8" },
        { "barrier", 55, 0, "k_dissemination:k=8" }, { "barrier", 56, 0, "k_dissemination:k=4" },
        { "barrier", 300, 0, "k_dissemination:k=4" }, { "barrier", 5000, 0, "k_dissemination:k=4" },
        { "bcast", 15, 8, "knomial:k=4,far=0" }, { "bcast", 4, 8, "linear" },
        { "bcast", 2, 1 << 20, "binomial" }, { "bcast", 3, 1 << 20, "scatter_allgather_ring" },
        { "bcast", 8, 262144, "scatter_allgather_rd" }, { "bcast", 7, 65536, "bine" },
        { "reduce", 16, 8, "knomial:k=4,prepost=1" },
        { "reduce", 1024, 8191, "knomial:k=4,prepost=1" },
        { "reduce", 64, 23170, "knomial:k=4,prepost=1" }, { "reduce", 32, 23171, "rabenseifner" },
        /* 32 KiB: bine off the powers of two, where rabenseifner folds */
        { "reduce", 17, 23171, "bine" }, { "reduce", 100, 46340, "bine" },
        { "reduce", 4096, 46340, "rabenseifner" }, { "reduce", 100, 46341, "rabenseifner" },
        { "reduce", 15, 4096, "knomial:k=4,prepost=0" },
        { "reduce", 15, 8, "knomial:k=4,prepost=0" }, { "reduce", 6, 8, "linear" },
        { "reduce", 8, 1 << 20, "rabenseifner" }, { "reduce", 5, 1 << 20, "bine" },
        /* reduce_scatter_block from 16 ranks: the radix-4 form below 128-byte
         * blocks (to 8 KiB on 16 and 64 ranks, 4 KiB on 17-20), then bine on
         * powers of two, bine to 4 KiB blocks and the ring above elsewhere;
         * reduce_scatter the same (below) */
        { "reduce_scatter_block", 16, 16 * 8, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 64, 64 * 8192 - 1, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 64, 64 * 8192, "bine" },
        { "reduce_scatter_block", 17, 17 * 4096 - 1, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 17, 17 * 4096, "ring" },
        { "reduce_scatter_block", 24, 24 * 8, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 24, 24 * 1024, "bine" }, { "reduce_scatter_block", 24, 24 * 16384, "ring" },
        { "reduce_scatter_block", 32, 32 * 1024, "bine" }, { "reduce_scatter_block", 32, (size_t)32 << 20, "bine" },
        { "reduce_scatter_block", 100, 100 * 1024, "bine" }, { "reduce_scatter_block", 100, 100 * 16384, "ring" },
        { "reduce_scatter_block", 256, 256 * 8, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 256, 256 * 1024, "bine" },
        { "reduce_scatter_block", 1000, 1000 * 8, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 1000, 1000 * 16384, "ring" },
        { "reduce_scatter_block", 1024, (size_t)1024 << 20, "bine" },
        { "reduce_scatter_block", 15, 8, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 8, 8, "bine" }, { "reduce_scatter_block", 6, 8, "basic_linear" },
        { "reduce_scatter_block", 3, 1 << 20, "ring" },
        /* allgatherv: direct below 16 ranks, and in bands up to 8 KiB below 64 */
        { "allgatherv", 3, 1 << 20, "direct" }, { "allgatherv", 16, 255, "bruck" },
        { "allgatherv", 16, 256, "direct" }, { "allgatherv", 63, 2048, "direct" },
        { "allgatherv", 64, 4096, "bruck" }, { "allgatherv", 32, 8192, "neighbor" },
        /* gather, scatter: linear below 48 ranks; from 48 gather's binomial,
         * and scatter's for blocks below 768 bytes (1536 from 192 ranks) */
        { "gather", 2, 1, "linear" }, { "gather", 47, 1 << 20, "linear" },
        { "gather", 48, 1, "binomial" }, { "gather", 1024, 1 << 20, "binomial" },
        { "scatter", 2, 1, "linear" }, { "scatter", 47, 8, "linear" },
        { "scatter", 48, 767, "binomial" }, { "scatter", 191, 768, "linear" },
        { "scatter", 192, 1535, "binomial" }, { "scatter", 1024, 1536, "linear" },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)    /* one rank a node */
        expect_choice(m[i].coll, m[i].np, m[i].np, m[i].bytes, m[i].alg);
    /* many ranks a node (rpn=8-, 64 to 256 ranks): bcast the radix-8
     * k-nomial tree far=1 below 4 KiB on nodes of 8-15, hierarchical to
     * 8 KiB (16 KiB on nodes of 16 and more), then binary trees among the
     * leaders and in the nodes in segments of 4 KiB (nodes of 8 from 181
     * KiB: the leaders' binary tree in 8 KiB); reduce_scatter_block the
     * radix-4 form to blocks of 128 B (64 ranks) or 23 B (128, 256; nodes of
     * 64: none), noncommutative, from 32 KiB blocks the ring; allgather the radix-4
     * form (on 8 nodes the radix-8 from 512 B), from 2 KiB node_ring;
     * alltoall the radix-4 Bruck below 23 B; allreduce
     * hierarchical around 1 KiB on nodes of 16 and more; reduce
     * node_rabenseifner from 23 KiB on nodes of 8 to 63, 181 KiB on nodes
     * of 64; other counts and one rank a node as above */
    static const struct { const char *coll; int np, nnodes; size_t bytes; const char *alg; } mc[] = {
        { "bcast", 64, 8, 8, "knomial:k=8,far=1" }, { "bcast", 256, 32, 2895, "knomial:k=8,far=1" },
        { "bcast", 64, 8, 2896, "hierarchical" }, { "bcast", 64, 8, 11585, "hierarchical" },
        { "bcast", 256, 32, 5792, "hierarchical" },
        { "bcast", 256, 32, 5793, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "bcast", 64, 4, 8, "hierarchical" },
        { "bcast", 64, 8, 11586, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "bcast", 64, 4, 11586, "hierarchical" },
        { "bcast", 64, 4, 23171, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "bcast", 256, 32, 46341, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "bcast", 64, 8, 185363, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "bcast", 64, 8, 185364, "hierarchical:k=4,intra_k=4,inter=2,segsize=8192" },
        { "bcast", 256, 32, 1 << 20, "hierarchical:k=4,intra_k=4,inter=2,segsize=8192" },
        { "bcast", 256, 4, 1 << 20, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "bcast", 128, 4, 1 << 20, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "bcast", 256, 4, 1024, "hierarchical" },
        { "bcast", 128, 16, 65536, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "reduce", 64, 8, 23170, "knomial:k=4,prepost=1" },
        { "reduce", 64, 8, 23171, "node_rabenseifner" }, { "reduce", 64, 4, 1 << 20, "node_rabenseifner" },
        { "reduce", 256, 32, 65536, "node_rabenseifner" }, { "reduce", 256, 4, 65536, "rabenseifner" },
        { "reduce", 256, 4, 185364, "node_rabenseifner" }, { "reduce", 256, 4, 185363, "rabenseifner" },
        { "reduce", 256, 8, 1 << 20, "node_rabenseifner" },
        { "reduce", 256, 2, 185363, "rabenseifner" }, { "reduce", 256, 2, 185364, "node_rabenseifner" },
        { "reduce", 512, 64, 1 << 20, "rabenseifner" },            /* 1 MiB beyond 256 ranks */
        { "reduce", 1024, 128, 65536, "node_rabenseifner" }, { "reduce", 1024, 64, 185363, "node_rabenseifner" },
        { "reduce", 1024, 128, 185364, "rabenseifner" }, { "reduce", 2048, 256, 65536, "rabenseifner" },
        { "bcast", 1024, 128, 65536, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "bcast", 1024, 64, 23171, "hierarchical:k=4,intra_k=4,inter=3,segsize=4096" },
        { "bcast", 1024, 64, 185364, "scatter_allgather_rd" },
        { "reduce", 64, 16, 1 << 20, "rabenseifner" },             /* 4 a node */
        { "bcast", 64, 16, 1024, "knomial:k=8,far=0" },          /* 4 a node: not measured */
        { "bcast", 64, 64, 1024, "knomial:k=8,far=0" },          /* one a node */
        { "bcast", 512, 64, 1024, "knomial:k=8,far=1" },         /* 8 a node, to 1024 ranks */
        { "bcast", 2048, 256, 1024, "knomial:k=8,far=0" },        /* beyond 1024 ranks */
        { "bcast", 1024, 64, 8, "hierarchical" }, { "bcast", 1024, 64, 2896, "knomial:k=8,far=0" },
        { "allgather", 1024, 128, 1024, "recursive_multiplying:k=4" },
        { "allgather", 1024, 128, 1025, "recursive_multiplying:k=8" },
        { "allreduce", 1024, 64, 1024, "hierarchical" }, { "allreduce", 1024, 128, 91, "hierarchical" },
        { "allreduce", 1024, 128, 90, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 64, 8, 64 * 8, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 64, 4, 8191, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 64, 8, 8192, "noncommutative" },
        { "reduce_scatter_block", 64, 4, 2097151, "noncommutative" },
        { "reduce_scatter_block", 64, 8, 2097152, "ring" },
        { "reduce_scatter_block", 128, 16, 2895, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 128, 8, 2896, "noncommutative" },
        { "reduce_scatter_block", 128, 2, 1024, "noncommutative" },    /* 64 a node */
        { "reduce_scatter_block", 128, 16, 1 << 22, "ring" },
        { "reduce_scatter_block", 256, 32, 5791, "recursive_multiplying:k=4" },
        { "reduce_scatter_block", 256, 32, 5792, "noncommutative" },
        { "reduce_scatter_block", 256, 4, 2048, "noncommutative" },    /* 64 a node */
        { "reduce_scatter_block", 256, 4, 8388607, "noncommutative" },
        { "reduce_scatter_block", 256, 32, 8388608, "ring" },
        { "reduce_scatter_block", 1024, 128, 8192, "noncommutative" },
        { "reduce_scatter_block", 1024, 64, 1048576, "noncommutative" },
        { "reduce_scatter_block", 1024, 64, 1048577, "bine" },
        { "allgather", 64, 8, 511, "recursive_multiplying:k=4" },
        { "allgather", 64, 8, 512, "recursive_multiplying:k=8" },
        { "allgather", 128, 8, 2047, "recursive_multiplying:k=8" },   /* 16 a node */
        { "allgather", 128, 16, 1024, "recursive_multiplying:k=4" },  /* 16 nodes */
        { "allgather", 64, 4, 1024, "recursive_multiplying:k=4" },
        { "allgather", 256, 8, 1024, "recursive_multiplying:k=4" },   /* beyond 128 ranks */
        { "allgather", 64, 8, 2048, "node_ring" }, { "allgather", 256, 32, 1 << 20, "node_ring" },
        { "allgather", 64, 4, 8192, "node_ring" },
        { "allgather", 256, 4, 1 << 20, "node_ring" },
        { "allgather", 64, 64, 8192, "neighbor" },           /* one a node */
        { "alltoall", 64, 8, 22, "radix_bruck:radix=4,multiport=1" },
        { "alltoall", 256, 4, 8, "radix_bruck:radix=4,multiport=1" },
        { "alltoall", 64, 8, 23, "radix_bruck:radix=8,multiport=1" },
        { "alltoall", 64, 64, 8, "radix_bruck:radix=8,multiport=1" },   /* one a node */
        { "allreduce", 64, 4, 1024, "hierarchical" }, { "allreduce", 256, 4, 8191, "hierarchical" },
        { "allreduce", 64, 4, 90, "recursive_multiplying:k=4" },
        { "allreduce", 64, 8, 1024, "recursive_multiplying:k=4" },   /* 8 a node */
    };
    for (size_t i = 0; i < sizeof mc / sizeof mc[0]; i++)
        expect_choice(mc[i].coll, mc[i].np, mc[i].nnodes, mc[i].bytes, mc[i].alg);
    /* reduce_scatter runs reduce_scatter_block's rules across nodes (their
     * builders are shared): the same choice at every rank count and size */
    for (int np = 2; np <= 1100; np++)
        for (size_t bytes = 1; bytes <= ((size_t)1 << 32); bytes *= 3) {
            char rs[64], rsb[64], what[256];
            choose("reduce_scatter", np, 2, bytes, 0, rs, sizeof rs);
            choose("reduce_scatter_block", np, 2, bytes, 0, rsb, sizeof rsb);
            snprintf(what, sizeof what,
                     "across nodes np=%d bytes=%zu: reduce_scatter runs %s, reduce_scatter_block %s",
                     np, bytes, rs, rsb);
            expect(strcmp(rs, rsb) == 0, what);
        }
    /* every collective's built-in rules choose something for every call:
     * one rank, one node, several, a request */
    static const int nps[] = { 1, 2, 3, 4, 7, 8, 15, 16, 17, 47, 48, 63, 64, 191, 192, 1024, 5000 };
    static const size_t sizes[] = { 0, 1, 767, 768, 8191, 8192, 1 << 20, (size_t)1 << 26 };
    for (int k = 0; mpicoll_colls[k]; k++)
        for (size_t i = 0; i < sizeof nps / sizeof nps[0]; i++)
            for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++)
                for (int v = 0; v < 4; v++) {
                    const int np = nps[i], nodes = v < 2 ? 1 : v == 2 ? 2 : np;
                    char got[64], what[160];
                    if (nodes > np)
                        continue;
                    choose(mpicoll_colls[k]->name, np, nodes, sizes[j], v == 1, got, sizeof got);
                    snprintf(what, sizeof what, "built-in %s np=%d nodes=%d bytes=%zu%s: a rule",
                             mpicoll_colls[k]->name, np, nodes, sizes[j], v == 1 ? " request" : "");
                    if (strcmp(got, "(error)") == 0)
                        expect(0, what);
                }
    /* one node, blocking: the shared-memory rules first; 2 ranks take the
     * single copy from 16 KiB (bcast from 5793 B) */
#define CMA "shm:segment=4194304,cma=1,cma_min=0"
    static const struct { const char *coll; int np; size_t bytes; const char *alg; } s[] = {
        { "allgather", 2, 1, "shm" },
        { "allgather", 2, 16383, "shm:segment=4194304,cma=0,cma_min=32768" },
        { "allgather", 2, 16384, CMA }, { "allgather", 2, 1 << 20, CMA },
        { "allgather", 5, 1 << 20, "shm" },
        { "allreduce", 4, 8, "shm" }, { "allreduce", 4, 512, "shm" },
        { "alltoall", 2, 8192, "shm:segment=4194304,cma=0,cma_min=32768" },
        { "alltoall", 2, 1 << 16, CMA },
        { "alltoall", 7, 8, "native" }, { "alltoall", 7, 8192, "shm" },
        { "bcast", 2, 8, "shm" }, { "bcast", 2, 5792, "shm" }, { "bcast", 2, 5793, CMA },
        { "bcast", 2, 1 << 15, CMA }, { "bcast", 2, 1 << 19, CMA },
        { "bcast", 4, 4095, "native" }, { "bcast", 4, 4096, "shm" },
        { "bcast", 4, 1 << 15, "native" }, { "bcast", 4, 1 << 16, "native" },
        { "bcast", 4, (1 << 16) + 1, "shm" },
        { "reduce", 2, 8, "shm" }, { "reduce", 2, 8191, "shm" }, { "reduce", 2, 8192, "native" },
        { "reduce", 2, 1 << 20, "native" },
        { "reduce", 4, 2895, "native" }, { "reduce", 4, 2896, "shm" },
        { "reduce_scatter_block", 4, 8, "native" },
        { "reduce_scatter_block", 4, 1 << 17, "native" },
        { "reduce_scatter_block", 4, 1 << 18, "recursive_halving" },
        { "reduce_scatter_block", 4, 1 << 19, "native" },
        { "gather", 2, 1, "linear" }, { "gather", 2, 2, "native" },
        { "gather", 2, 16384, "linear" }, { "gather", 2, 262143, "linear" },
        { "gather", 2, 262144, "native" }, { "gather", 4, 262143, "native" },
        { "gather", 4, 262144, "linear" }, { "gather", 7, 524287, "linear" },
        { "gather", 4, 524288, "native" },
        { "scatter", 2, 1, "native" }, { "scatter", 8, 1 << 20, "native" },
        { "barrier", 2, 0, "native" }, { "barrier", 8, 0, "native" },
    };
    /* alltoall across nodes below 16 ranks: mesh2d for the shortest blocks
     * from 10 ranks, else linear */
    static const struct { int np; size_t bytes; const char *alg; } x[] = {
        { 10, 22, "mesh2d" }, { 10, 23, "linear" }, { 12, 723, "mesh2d" },
        { 12, 724, "linear" }, { 9, 8, "linear" },
    };
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
        char got[64], what[200];
        choose("alltoall", x[i].np, 2, x[i].bytes, 0, got, sizeof got);
        snprintf(what, sizeof what, "built-in 2 nodes alltoall np=%d bytes=%zu: expected %s, got %s",
                 x[i].np, x[i].bytes, x[i].alg, got);
        expect(strcmp(got, x[i].alg) == 0, what);
    }
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        expect_choice(s[i].coll, s[i].np, 1, s[i].bytes, s[i].alg);
}

/* A rule whose shared-memory algorithm is unavailable for the call (a
 * request before the communicator's pool of channels is made) is passed over: the next matching one (of the file, then the
 * built-in rules) runs; other restrictions make the first match run its
 * fallback. The file is set in main(), before the
 * configuration is read (once per process). */
static const char skip_rules[] =
    "alltoall np=3 bytes=* two_proc\n"         /* exactly 2 ranks: its fallback runs */
    "alltoall np=3 bytes=* radix_bruck:radix=3\n"
    "alltoall np=5 bytes=0-1000 shm\n"         /* passed over for a request */
    "alltoall np=5 bytes=* radix_bruck:radix=4\n";

static void test_rule_skips(void)
{
    static const struct { int np; size_t bytes; int request; const char *alg; } t[] = {
        { 3, 100, 0, "linear" },                         /* two_proc's fallback */
        { 5, 100, 0, "shm:segment=4194304,cma=0,cma_min=32768" },
        { 5, 100, 1, "radix_bruck:radix=4,multiport=0" }, /* a request: the next rule */
        { 5, 100, 2, "shm:segment=4194304,cma=0,cma_min=32768" },  /* the pool is made */
        { 6, 5000, 1, "native" },                        /* built in: shm passed over */
        { 6, 5000, 2, "shm:segment=4194304,cma=0,cma_min=32768" },  /* built in, the pool */
        { 6, 5000, 0, "shm:segment=4194304,cma=0,cma_min=32768" },   /* built in: one node */
        { 2, 1 << 20, 0, "shm:segment=4194304,cma=1,cma_min=0" },    /* built in */
        { 2, 1 << 20, 1, "two_proc" },                   /* built in, a request */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char got[64], what[200];
        choose("alltoall", t[i].np, 1, t[i].bytes, t[i].request, got, sizeof got);
        snprintf(what, sizeof what, "rule skipped, np=%d bytes=%zu%s: expected %s, got %s",
                 t[i].np, t[i].bytes, t[i].request ? " request" : "", t[i].alg, got);
        expect(strcmp(got, t[i].alg) == 0, what);
    }
}

/* The built-in form=request rules on one node: a request takes mpicoll's
 * algorithm where a blocking call takes the library's (whose request is
 * its slower non-blocking collective), once the communicator's pool is
 * made; before, the rules for every form. */
static void test_request_rules(void)
{
    static const struct { const char *coll; int np; size_t bytes; int request; const char *alg; } t[] = {
        { "bcast", 4, 8, 0, "native" },
        { "bcast", 4, 8, 1, "knomial" },        /* not shared memory: no pool needed */
        { "bcast", 4, 8, 2, "knomial" },
        { "bcast", 4, 511, 2, "knomial" },
        { "bcast", 4, 512, 1, "native" },       /* no pool yet: shm passed over */
        { "bcast", 4, 512, 2, "shm" },
        { "bcast", 3, 40000, 2, "shm" },
        { "bcast", 4, 40000, 0, "native" },
        { "reduce", 4, 8, 0, "native" },
        { "reduce", 4, 8, 2, "shm" },
        { "reduce", 2, 16384, 2, "native" },
        { "alltoall", 4, 8, 0, "native" },
        { "alltoall", 4, 8, 1, "native" },
        { "alltoall", 4, 8, 2, "shm" },
        { "alltoall", 4, 65536, 2, "native" },
        { "scatter", 2, 8, 0, "native" },
        { "scatter", 2, 8, 1, "linear" },       /* not shared memory: no pool needed */
        { "scatter", 2, 65536, 2, "native" },
        { "scatter", 4, 8, 2, "native" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char got[64], what[200];
        choose(t[i].coll, t[i].np, 1, t[i].bytes, t[i].request, got, sizeof got);
        const size_t n = strlen(t[i].alg);
        snprintf(what, sizeof what, "one node, %s np=%d bytes=%zu %s: expected %s, got %s",
                 t[i].coll, t[i].np, t[i].bytes,
                 t[i].request ? (t[i].request == 1 ? "request, no pool" : "request") : "blocking",
                 t[i].alg, got);
        expect(strncmp(got, t[i].alg, n) == 0 && (got[n] == '\0' || got[n] == ':'), what);
    }
}

/* Open MPI 4.1's names and ids (coll_tuned_<coll>_decision.c of v4.1.x)
 * of the algorithms mpicoll has: every one is found by its Open MPI name
 * (an alias where ours differs) and by its id, and no algorithm has an id
 * 4.1 lacks (allgather sparbit and allreduce allgather_reduce are
 * numbered only by later Open MPIs). */
static void test_openmpi_names(void)
{
    static const struct { const char *coll, *ompi_name, *ours; int id; } t[] = {
        { "allgather", "linear", "linear", 1 },
        { "allgather", "bruck", "bruck", 2 },
        { "allgather", "recursive_doubling", "recursive_doubling", 3 },
        { "allgather", "ring", "ring", 4 },
        { "allgather", "neighbor", "neighbor", 5 },
        { "allgather", "two_proc", "two_proc", 6 },
        { "alltoall", "linear", "linear", 1 },
        { "alltoall", "pairwise", "pairwise", 2 },
        { "alltoall", "modified_bruck", "bruck_index", 3 },
        { "alltoall", "linear_sync", "linear_sync", 4 },
        { "alltoall", "two_proc", "two_proc", 5 },
        { "allreduce", "basic_linear", "basic_linear", 1 },
        { "allreduce", "nonoverlapping", "nonoverlapping", 2 },
        { "allreduce", "recursive_doubling", "recursive_doubling", 3 },
        { "allreduce", "ring", "ring", 4 },
        { "allreduce", "segmented_ring", "segmented_ring", 5 },
        { "allreduce", "rabenseifner", "rabenseifner", 6 },
        { "reduce", "linear", "linear", 1 },
        { "reduce", "binomial", "binomial", 5 },
        { "reduce", "rabenseifner", "rabenseifner", 7 },
        { "bcast", "basic_linear", "linear", 1 },
        { "bcast", "binomial", "binomial", 6 },
        { "bcast", "scatter_allgather", "scatter_allgather_rd", 8 },
        { "bcast", "scatter_allgather_ring", "scatter_allgather_ring", 9 },
        { "reduce_scatter_block", "basic_linear", "basic_linear", 1 },
        { "reduce_scatter_block", "recursive_halving", "recursive_halving", 3 },
        { "allgatherv", "default", "linear", 1 },
        { "allgatherv", "bruck", "bruck", 2 },
        { "allgatherv", "ring", "ring", 3 },
        { "allgatherv", "neighbor", "neighbor", 4 },
        { "allgatherv", "two_proc", "two_proc", 5 },
        { "reduce_scatter", "non-overlapping", "basic_linear", 1 },
        { "reduce_scatter", "recursive_halfing", "recursive_halving", 2 },
        { "reduce_scatter", "ring", "ring", 3 },
        { "scan", "linear", "linear", 1 },
        { "scan", "recursive_doubling", "recursive_doubling", 2 },
        { "exscan", "linear", "linear", 1 },
        { "exscan", "recursive_doubling", "recursive_doubling", 2 },
        { "gather", "basic_linear", "linear", 1 },
        { "gather", "binomial", "binomial", 2 },
        { "gather", "linear_sync", "linear_sync", 3 },
        { "scatter", "basic_linear", "linear", 1 },
        { "scatter", "binomial", "binomial", 2 },
        { "barrier", "linear", "linear", 1 },
        { "barrier", "double_ring", "double_ring", 2 },
        { "barrier", "recursive_doubling", "recursive_doubling", 3 },
        { "barrier", "bruck", "bruck", 4 },
        { "barrier", "two_proc", "two_proc", 5 },
        { "alltoallv", "basic_linear", "linear", 1 },
        { "alltoallv", "pairwise", "pairwise", 2 },
        { "barrier", "tree", "tree", 6 },
    };
    const size_t n = sizeof t / sizeof t[0];
    char what[200], id[8];
    for (size_t i = 0; i < n; i++) {
        const coll_desc *c = coll_find(t[i].coll);
        const coll_algo *by_name = coll_algo_find(c, t[i].ompi_name);
        snprintf(id, sizeof id, "%d", t[i].id);
        const coll_algo *by_id = coll_algo_find(c, id);
        snprintf(what, sizeof what, "%s: Open MPI 4.1's %s (%d) is %s", t[i].coll,
                 t[i].ompi_name, t[i].id, t[i].ours);
        expect(by_name && by_id && by_name == by_id && strcmp(by_name->name, t[i].ours) == 0,
               what);
    }
    for (int k = 0; mpicoll_colls[k]; k++) {
        const coll_desc *c = mpicoll_colls[k];
        for (int a = 0; a < c->nalgos; a++) {
            const coll_algo *x = &c->algos[a];
            size_t j = 0;
            while (j < n && !(strcmp(t[j].coll, c->name) == 0 && t[j].id == x->ompi_id))
                j++;
            snprintf(what, sizeof what, "%s %s: id %d is Open MPI 4.1's", c->name, x->name,
                     x->ompi_id);
            expect(x->ompi_id == 0 || j < n, what);
            /* a name or alias names one algorithm */
            for (int b = 0; b < c->nalgos; b++) {
                snprintf(what, sizeof what, "%s: %s and %s share a name or alias", c->name,
                         x->name, c->algos[b].name);
                expect(b == a || (strcmp(x->name, c->algos[b].name) != 0
                                  && !coll_algo_has_alias(&c->algos[b], x->name)), what);
            }
        }
    }
    /* an alias runs, and is logged as, the algorithm's own name */
    const coll_algo *a;
    int params[PLAN_MAX_PARAMS];
    char err[256];
    expect(spec_parse(coll_find("alltoall"), "modified_bruck", &a, params, err, sizeof err) == 0
           && strcmp(a->name, "bruck_index") == 0, "MPICOLL_ALLTOALL=modified_bruck runs bruck_index");
    expect(spec_parse(coll_find("allgather"), "7", &a, params, err, sizeof err) != 0
           && strstr(err, "Open MPI 4.1's ids: 1 2 3 4 5 6)"), "allgather 7 is no 4.1 id");
}

/* Parameter lists: empty, duplicated, valueless. */
static void test_spec_errors(void)
{
    static const struct { const char *spec, *msg; } t[] = {
        { "k_bruck:", "k_bruck: nothing after ':' (expected k_bruck:param=value[,...])" },
        { "ring:", "ring: nothing after ':' (it takes no parameter)" },
        { "k_bruck:k=4,k=8", "k_bruck: parameter k given twice in 'k_bruck:k=4,k=8'" },
        { "k_bruck:k=4,", "k_bruck: an empty parameter in 'k_bruck:k=4,'" },
        { "k_bruck:,k=4", "k_bruck: an empty parameter in 'k_bruck:,k=4'" },
        { "k_bruck:k", "k_bruck: parameter k has no value (expected k=value)" },
        { "k_bruck:k=1", "k_bruck: parameter k=1 must be an integer in [2, 1048576]" },
        { "k_bruck:k=4:k=8", "must be an integer in [2, 1048576] (parameters go after one colon,"
                             " separated by commas: name:a=1,b=2)" },
    };
    const coll_desc *c = coll_find("allgather");
    const coll_algo *a;
    int params[PLAN_MAX_PARAMS];
    char err[256], what[400];
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int rc = spec_parse(c, t[i].spec, &a, params, err, sizeof err);
        snprintf(what, sizeof what, "'%s' is refused with \"%s\" (got %s)", t[i].spec, t[i].msg,
                 rc ? err : "success");
        expect(rc != 0 && strstr(err, t[i].msg) != NULL, what);
    }
    expect(spec_parse(c, "k_bruck:k=8", &a, params, err, sizeof err) == 0 && params[0] == 8,
           "k_bruck:k=8 parses");
}

int main(void)
{
    char path[] = "/tmp/mpicoll-test-rules-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fputs(skip_rules, f) < 0 || fclose(f) != 0 || setenv("MPICOLL_RULES", path, 1)) {
        printf("FAIL cannot write %s\n", path);
        return 1;
    }
    test_rule_skips();
    unlink(path);
    test_valid();
    test_total_metric();
    test_form();
    test_rpn();
    test_request_rules();
    test_malformed();
    test_unknown_names();
    test_openmpi_tree();
    test_openmpi_names();
    test_spec_errors();
    printf("%d passed, %d failed\n", passes, failures);
    return failures != 0;
}
