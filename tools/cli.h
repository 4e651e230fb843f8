/* The subcommands of the mpicoll program. Each returns the exit code. */
#ifndef MPICOLL_CLI_H
#define MPICOLL_CLI_H

int mpicoll_cli_list(int argc, char **argv);
int mpicoll_cli_check(int argc, char **argv);
int mpicoll_cli_show(int argc, char **argv);
int mpicoll_cli_model(int argc, char **argv);
/* Under mpirun; calls MPI_Init and MPI_Finalize itself (not for --help). */
int mpicoll_cli_calibrate(int argc, char **argv);

#endif
