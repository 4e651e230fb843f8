/*
 * The collective sweep (docs/testing.md): one launch
 * runs one collective's whole correctness matrix for every algorithm on
 * communicators of every size up to the world's, in one mode
 * (MPICOLL_MODE), checked by tests/mpi/block_check.c and vec_check.c.
 */
#ifndef MPICOLL_TEST_SWEEP_H
#define MPICOLL_TEST_SWEEP_H

#include <mpi.h>

enum { SWEEP_MAX_VARIANTS = 64, SWEEP_MAX_LAYOUTS = 16, SWEEP_MAX_NP = 64 };

/* One thing the sweep forces: an algorithm (by name, with parameters, or by
 * Open MPI id) or "auto". */
struct variant {
    char spec[96];        /* "" for auto: the selection (rules) */
    char label[128];      /* what FAIL lines and the summary call it */
    char name[64];        /* the algorithm's name; "" for auto */
    int commutative;      /* the algorithm declares R_COMMUTATIVE */
    int one_node;         /* R_ONE_NODE */
    int quick_only;       /* counts 0, 1, 7 only (the Open MPI ids) */
};

/* The variants of collective coll (names from mpicoll_algorithm_name,
 * restrictions and ids from its .def). rpn > 0 (MPICOLL_RANKS_PER_NODE):
 * only the algorithms that use the node layout (R_NODES). quick: no
 * segment variants. only: a comma-separated list of algorithm names to
 * keep (NULL: all). Returns the number, or -1 (with a message) on an
 * error. */
int sweep_variants(const char *coll, int rpn, int quick, const char *only,
                   struct variant *out, int max);

/* One way of splitting the world: color and key of each world rank. */
struct layout {
    char label[32];
    int color[SWEEP_MAX_NP];
    int key[SWEEP_MAX_NP];
};

/* The layouts of a world of n ranks: the world itself, then splits whose
 * communicators cover every size 1..n: first k | last n-k for k < n/2
 * (odd k in reverse rank order), rank % 2 and (n >= 4) rank % 3, both in
 * reverse rank order. Returns the number. */
int sweep_layouts(int n, struct layout *out, int max);

/* A barrier of the world that sleeps while it waits, so that ranks done
 * early leave the processor to those still working (8 ranks share 2
 * cores in CI). */
void sweep_idle_barrier(void);

/* The test build's fault (sweep_fault.c): MPICOLL_TEST_FAULT=<coll>:<algorithm>
 * corrupts one byte of the result of every call of that algorithm. Returns
 * 0, or -1 on a malformed value. */
int sweep_fault_install(void);

#endif
