/*
 * libFuzzer target: the algorithm-spec parser (spec_parse in
 * src/model/rules.c), which reads MPICOLL_<COLLECTIVE>=name[:param=value,...]
 * from the environment, the *_with calls' argument and the rules' last
 * field.
 *
 * Input: the first byte picks the collective, the rest is the spec.
 * Checked besides the sanitizers: a refused spec gets a message; an
 * accepted one names an algorithm of the collective with every parameter
 * in its declared range, and its canonical form (spec_format, what
 * MPICOLL_VERBOSE prints) parses back to the same algorithm and
 * parameters.
 */
#include "model/rules.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expect(int cond, const char *what, const char *detail)
{
    if (!cond) {
        fprintf(stderr, "fuzz_spec: %s: %s\n", what, detail);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int ncolls = 0;
    while (mpicoll_colls[ncolls])
        ncolls++;
    if (size == 0)
        return 0;
    const coll_desc *c = mpicoll_colls[data[0] % ncolls];
    char *spec = malloc(size);
    if (!spec)
        return 0;
    memcpy(spec, data + 1, size - 1);
    spec[size - 1] = '\0';
    const coll_algo *a = NULL;
    int params[PLAN_MAX_PARAMS];
    char err[512] = "";
    if (spec_parse(c, spec, &a, params, err, sizeof err) != 0) {
        expect(err[0] != '\0', "a refused spec without a message", spec);
        free(spec);
        return 0;
    }
    expect(a >= c->algos && a < c->algos + c->nalgos, "an algorithm of another table", spec);
    for (int i = 0; i < coll_algo_nparams(a); i++)
        expect(params[i] >= a->params[i].min && params[i] <= a->params[i].max,
               "a parameter out of its range", spec);
    char canon[256];
    const coll_algo *b = NULL;
    int params2[PLAN_MAX_PARAMS];
    spec_format(a, params, canon, sizeof canon);
    expect(spec_parse(c, canon, &b, params2, err, sizeof err) == 0, "canonical form refused",
           canon);
    expect(b == a && memcmp(params, params2, sizeof params) == 0,
           "canonical form parses to another choice", canon);
    free(spec);
    return 0;
}
