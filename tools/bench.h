/*
 * `mpicoll bench COLLECTIVE [options]`: times every algorithm mpicoll has
 * for a collective, and the MPI library's own, over a ladder of sizes.
 */
#ifndef MPICOLL_TOOLS_BENCH_H
#define MPICOLL_TOOLS_BENCH_H

/* argv[0] is "bench", argv[1] the collective, the rest options (see
 * `mpicoll bench --help`). Calls MPI_Init_thread and MPI_Finalize itself.
 * Returns the process exit code: 0 success, 1 an algorithm failed or the
 * run could not be set up, 2 bad command line. */
int mpicoll_cli_bench(int argc, char **argv);

#endif
