/*
 * `mpicoll tune [-o FILE] [options] [COLLECTIVE...]`: measures every
 * algorithm and parameter value of the collectives over the size ladder,
 * on the whole communicator and on smaller ones, and writes the fastest
 * as a rules file (MPICOLL_RULES, docs/selection.md).
 */
#ifndef MPICOLL_TOOLS_TUNE_H
#define MPICOLL_TOOLS_TUNE_H

/* argv[0] is "tune". Calls MPI_Init_thread and MPI_Finalize itself.
 * Returns the exit code: 0, 1 (a case failed, or the file could not be
 * written), 2 (bad command line). */
int mpicoll_cli_tune(int argc, char **argv);

/* `mpicoll tune --model ...` (tune_model.c): the rules from the cost
 * model's predictions, without MPI. argv[0] is "tune"; returns the exit
 * code as mpicoll_cli_tune. */
int tune_model(int argc, char **argv);

#endif
