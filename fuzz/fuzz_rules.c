/*
 * libFuzzer target: the rules-file parser (src/model/rules.c), which reads
 * MPICOLL_RULES files and the built-in rules.
 *
 * Beyond what the sanitizers catch (crashes, out-of-bounds accesses,
 * undefined behaviour, leaks), it checks the parser's promises:
 *   - a refused file gets a message that names it ("fuzz:...");
 *   - every rule of an accepted file, written back as its log text (the
 *     line as `MPICOLL_VERBOSE` prints it), parses to the same rule;
 *   - rules_match returns a rule of the set, or none.
 * A broken promise aborts, which libFuzzer reports with the input.
 */
#include "model/rules.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expect(int cond, const char *what, const char *detail)
{
    if (!cond) {
        fprintf(stderr, "fuzz_rules: %s: %s\n", what, detail);
        abort();
    }
}

static int same_rule(const rule *a, const rule *b)
{
    return a->coll == b->coll && a->algo == b->algo &&
           memcmp(a->params, b->params, sizeof a->params) == 0 && a->np_lo == b->np_lo &&
           a->np_hi == b->np_hi && a->nodes_lo == b->nodes_lo && a->nodes_hi == b->nodes_hi &&
           a->metric == b->metric && a->lo == b->lo && a->hi == b->hi;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ruleset rs;
    char err[512] = "";
    if (rules_parse(text, "fuzz", &rs, err, sizeof err, NULL) != 0) {
        expect(strncmp(err, "fuzz:", 5) == 0, "an error that does not name the file", err);
        free(text);
        return 0;
    }
    for (size_t i = 0; i < rs.n; i++) {
        const rule *r = &rs.rules[i];
        if (strlen(r->text) + 1 >= sizeof r->text)
            continue;   /* the log text is cut at its buffer's size */
        ruleset again;
        char err2[512] = "";
        int rc = rules_parse(r->text, "again", &again, err2, sizeof err2, NULL);
        expect(rc == 0 && again.n == 1, "a rule's own text does not parse", r->text);
        expect(same_rule(r, &again.rules[0]), "a rule's own text parses to another rule",
               r->text);
        rules_free(&again);
    }
    /* matching at sizes taken from the input */
    uint64_t x = 0;
    memcpy(&x, data, size < sizeof x ? size : sizeof x);
    for (int k = 0; mpicoll_colls[k]; k++) {
        const rule *m = rules_match(&rs, mpicoll_colls[k], 1 + (int)(x % 4096),
                                    1 + (int)(x >> 12) % 64, (size_t)(x >> 18), (int)(x >> 11) & 1);
        expect(!m || (m >= rs.rules && m < rs.rules + rs.n && m->coll == mpicoll_colls[k]),
               "rules_match returned a rule of another collective or set", "");
    }
    rules_free(&rs);
    free(text);
    return 0;
}
