/*
 * The diagrams of `mpicoll show` (tools/show.c) and of the algorithms'
 * header comments (scripts/diagrams.sh): an algorithm's operations per rank
 * and round, and its data after each round, drawn from the symbolic
 * checker's snapshots (no MPI). A reduction is drawn as its vector, an
 * element a row, each cell the set of ranks whose contributions the rank
 * holds in that element (symbolic.h's sym_snapshot.held).
 */
#ifndef MPICOLL_MODEL_DIAGRAM_H
#define MPICOLL_MODEL_DIAGRAM_H

#include <stdio.h>

#include "coll.h"

#define DIAGRAM_MAX_P 36
#define DIAGRAM_MAX_BLOCKS 256

/* What to draw: algorithm a of collective c with its parameters on p
 * ranks (1..DIAGRAM_MAX_P, the algorithm applying there; rank r on node
 * node_of[r]), the root of a rooted collective, and for a reduction the
 * length of its vector in elements of one byte (blocks; 0: p). compact:
 * the rounds side by side, a column per rank and a character per cell
 * (the header comments' form: for a reduction, how many ranks'
 * contributions); otherwise a legend, each rank's operations per round
 * and a table of the data after each round. */
typedef struct diagram_opts {
    const coll_algo *a;
    const int *params;
    int p, root, compact;
    size_t blocks;
    const int *node_of;
} diagram_opts;

/* The call every rank makes in the diagram (its rank 0): blocks of one
 * byte, a reduction's vector o->blocks of them (reduce_scatter_block's
 * cut into p equal blocks, reduce_scatter's into p counts in rank order,
 * written to counts[0..2p - 1]: counts, then displacements). Returns -1
 * when the vector cannot be cut so (reduce_scatter_block: blocks not a
 * multiple of p). */
int diagram_call(const coll_desc *c, const diagram_opts *o, plan_args *call, size_t *counts);

/* Prints the diagram to out. Returns 0, 1 after a line "FAILED: why" when
 * the checker finds the algorithm wrong, -1 when the vector cannot be cut
 * as asked (diagram_call). */
int diagram_print(FILE *out, const coll_desc *c, const diagram_opts *o);

#endif
