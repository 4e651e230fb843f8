/*
 * The diagrams of `mpicoll show` (tools/show.c) and of the algorithms'
 * header comments (scripts/diagrams.sh): an algorithm's operations per rank
 * and round, and its data after each round, drawn from the symbolic
 * checker's snapshots (no MPI).
 */
#ifndef MPICOLL_MODEL_DIAGRAM_H
#define MPICOLL_MODEL_DIAGRAM_H

#include <stdio.h>

#include "coll.h"

/* Prints algorithm a of collective c with its parameters on p ranks (1..36,
 * the algorithm applying there; rank r on node node_of[r]) to out.
 * compact: the rounds side by side, a column per rank and a character per
 * cell (the header comments' form); otherwise a legend, each rank's
 * operations per round and a table of the data after each round. Returns 0,
 * or 1 after a line "FAILED: why" when the checker finds the algorithm
 * wrong. */
int diagram_print(FILE *out, const coll_desc *c, const coll_algo *a, const int *params, int p,
                  const int *node_of, int compact);

#endif
