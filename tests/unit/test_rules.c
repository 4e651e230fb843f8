/*
 * The rules parser and the built-in allgather rules (Open MPI's decision
 * tree): valid and malformed files, unknown names, first match wins.
 */
#include "core/rules.h"
#include "mpicoll.h"

#include <stdio.h>
#include <string.h>

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
    const rule *r = rules_match(rs, coll_find("allgather"), np, 1, bytes);
    return r ? r->algo->name : "(none)";
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
    expect(rules_match(&rs, coll_find("allgather"), 5, 1, 2048)->params[0] == 3, "parameter read");
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

static void test_malformed(void)
{
    static const char *bad[] = {
        "allgather np=2 two_proc\n",                    /* missing size */
        "allgather np=2 bytes=* two_proc extra\n",      /* extra field */
        "allgather np=x bytes=* ring\n",                /* bad range */
        "allgather np=8-2 bytes=* ring\n",              /* empty range */
        "allgather bytes=* np=2 ring\n",                /* wrong order */
        "allgather np=2 size=* ring\n",                 /* unknown metric */
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

/* The built-in rules give Open MPI's choices (000_5decaf39c5d4bf6d.txt),
 * after the declared fallbacks. total = bytes x np. */
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
        char got[64], what[160];
        int rc = mpicoll_auto_choice("allgather", t[i].np, t[i].bytes, got, sizeof got);
        snprintf(what, sizeof what, "built-in np=%d bytes=%zu: expected %s, got %s", t[i].np,
                 t[i].bytes, t[i].alg, rc ? "(error)" : got);
        expect(rc == 0 && strcmp(got, t[i].alg) == 0, what);
    }
}

int main(void)
{
    test_valid();
    test_total_metric();
    test_malformed();
    test_unknown_names();
    test_openmpi_tree();
    printf("%d passed, %d failed\n", passes, failures);
    return failures != 0;
}
