/*
 * How `mpicoll tune` turns its measurements into rules: a pure function
 * of the medians (no MPI, no library), so that it can be tested on
 * synthetic timings (tests/bench/test_choose.c).
 *
 * The input is a table: one row per measured size, one column per
 * candidate (an algorithm with its parameters, the same columns at every
 * size). At a size, candidates whose plans are the same there form one
 * group and carry the group's one measurement: two parameter values that
 * make the same plan (a segment at or above the message) are one
 * candidate there, not two that noise sets apart.
 */
#ifndef MPICOLL_TOOLS_TUNE_CHOOSE_H
#define MPICOLL_TOOLS_TUNE_CHOOSE_H

#include <stddef.h>
#include <stdio.h>

/* Two medians of one size differ by noise when the slower is within this
 * much of the faster, relatively or absolutely (whichever is larger):
 * medians of one case hold to a few percent from run to run on a shared
 * machine, and identical calls near 1.5 us differ by up to 0.15 us
 * (docs/benchmarks.md, "Noise on a small shared machine"). */
#define TC_NOISE_REL 0.05
#define TC_NOISE_US 0.15

/* What is known of candidate k at size s. */
enum {
    TC_ELIGIBLE = 1u << 0, /* may be named by a rule here: it ran as itself, and no
                            * preferred algorithm of another name makes its plan */
    TC_BUILTIN = 1u << 1,  /* its plan is the one auto runs here without these rules */
};

struct tc_cell {
    double median;  /* microseconds, its group's; INFINITY when not measured (failed) */
    int group;      /* the candidate (column) whose measurement it shares here; the
                     * same for every member of a group */
    unsigned flags;
};

struct tc_table {
    const char *coll;
    int np;
    int nsizes, ncands;
    const size_t *bytes;        /* [nsizes], ascending: the rules' bytes= measure */
    const char *const *specs;   /* [ncands] "name[:param=value]" */
    const int *defaults;        /* [ncands] 1: the algorithm's default parameters */
    const struct tc_cell *cell; /* [nsizes * ncands], size-major */
    /* A tie: a median within noise_rel of the fastest, or noise_us (the
     * larger); both 0: TC_NOISE_REL and TC_NOISE_US, the noise of
     * measurements (tune --model's predictions have none: 3%, 0 us). */
    double noise_rel, noise_us;
};

/* One rule: sizes first..last of the table, won by candidate `cand`, and
 * the evidence for it. */
struct tc_rule {
    int first, last, cand;
    double lo, hi;        /* the winner's medians there */
    int fastest;          /* sizes where its group was the fastest */
    int clear;            /* ... by more than the noise over every other plan */
    int builtin;          /* sizes where it is auto's own choice */
    double margin_min, margin_max; /* runner-up's median / winner's - 1 (negative: the
                                    * winner was behind); INFINITY: no other plan */
    int margin_at;        /* the size of margin_min */
    int runner_up;        /* the group behind margin_min (its measured column), or -1 */
};

/* 1 if median m is within the noise of the fastest median `best`. */
int tc_within_noise(double m, double best);

/* Chooses the rules of a table into rules[] (room for t->nsizes); returns
 * how many. At each size, the eligible candidates within the noise of the
 * fastest may win it; of the ways to cover the sizes with such winners,
 * the one with (in this order) the most sizes where the winner is auto's
 * own choice, the most sizes won by default parameters, the fewest rules,
 * the smallest sum of the winners' medians over the fastest's, then the
 * earlier candidates: a rule says "not what auto does" or "not the
 * defaults" only where the measurements say so beyond the noise. Any
 * candidate may win a size where none is eligible (a neighbour's winner
 * takes it). */
int tc_choose(const struct tc_table *t, struct tc_rule *rules);

/* Writes the rules of a table, one a line:
 * `COLL np=NP bytes=LO-HI SPEC   # evidence`; a range ends at the
 * geometric mean of its last size and the next one, the first starts at
 * 0, the last is open. Returns the number of rules. */
int tc_write_rules(FILE *f, const struct tc_table *t);

#endif
