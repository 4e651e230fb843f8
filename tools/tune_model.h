/*
 * What `mpicoll tune --model` keeps (tune_model.c predicts, tune_model_file.c
 * writes the rules file): its options and, per collective and
 * communicator size, the candidates and their predicted times.
 */
#ifndef MPICOLL_TOOLS_TUNE_MODEL_H
#define MPICOLL_TOOLS_TUNE_MODEL_H

#include "model/cost.h"
#include "measure.h"
#include "tune_choose.h"

#include <stddef.h>

#define MODEL_MAX_NPS 32
#define MODEL_MAX_SIZES 64
/* Predictions have no noise; 3% keeps auto's choice and default
 * parameters where the model cannot tell them from the fastest (it is
 * within 0.8-1.25 of SimGrid at 588 of 604 points: docs/scale.md). */
#define MODEL_TIE 0.03
/* A replay's time and memory grow with its messages (some 300 bytes
 * each): a candidate whose plans send more than this many, all ranks
 * together, is left out (alltoall linear on 1024 ranks sends 1M; a
 * segment of shm_hier swept down to 1 MiB on 256 nodes of one rank, 13M
 * at 1 MiB blocks, and is nowhere near the fastest). */
#define MAX_REPLAY_MSGS (1L << 21)

struct mopts {
    const char *output;
    const char *params;         /* the parameter file, or NULL: cost_defaults */
    cost_params cp;
    int rpn;                    /* ranks per node */
    int nps[MODEL_MAX_NPS], nnps;
    long min_bytes, max_bytes;  /* the ladder, when no list */
    long list[MODEL_MAX_SIZES]; /* -m A,B,...: these sizes */
    int nlist;
    const struct mcoll *colls[MCOLLS];
    int ncolls;
    int help;
};

/* One collective at one np: the candidates and, per size, the cells. */
struct mtable {
    const struct mcoll *coll;
    int np, nnodes;
    struct caselist all;
    size_t bytes[MODEL_MAX_SIZES];
    struct tc_cell *cells[MODEL_MAX_SIZES];
    int npts;
    char failed[512];           /* candidates the model could not replay */
    char skipped[512];          /* ... that send more than MAX_REPLAY_MSGS */
};

/* Writes the rules of the tables tbs (o->ncolls x o->nnps, collective by
 * collective) to o->output, with a header saying how they were predicted
 * and from what: whole to a temporary file beside it, renamed over it.
 * 0, or -1 with a message. */
int tune_model_write_file(const struct mopts *o, const struct mtable *tbs, int argc,
                          char **argv);

#endif
