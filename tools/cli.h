/* The subcommands of the mpicoll program. Each returns the exit code. */
#ifndef MPICOLL_CLI_H
#define MPICOLL_CLI_H

#include <stddef.h>

int mpicoll_cli_list(int argc, char **argv);
int mpicoll_cli_check(int argc, char **argv);
int mpicoll_cli_show(int argc, char **argv);
int mpicoll_cli_model(int argc, char **argv);
/* Under mpirun; calls MPI_Init and MPI_Finalize itself (not for --help). */
int mpicoll_cli_calibrate(int argc, char **argv);

/* Shared by the subcommands (check.c): the collective of that name, or
 * NULL after a message naming the known ones; 1 if the arguments ask for
 * help; an algorithm's restrictions as `mpicoll list` shows them. */
struct coll_desc;
const struct coll_desc *cli_need_coll(const char *name);
int cli_wants_help(int argc, char **argv);
void cli_restriction_text(unsigned r, char *buf, size_t len);

#endif
