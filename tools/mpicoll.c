/* mpicoll: the command line (check, show, list run without mpirun). */
#include "bench.h"
#include "cli.h"
#include "tune.h"
#include "mpicoll.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} commands[] = {
    { "list", mpicoll_cli_list, "list [COLLECTIVE]        algorithms, Open MPI 4.1 ids and names, restrictions, parameters" },
    { "check", mpicoll_cli_check, "check COLLECTIVE [--algorithm NAME[:p=v]|all] [--np A:B[,N...]]\n"
      "                           prove algorithms with the symbolic checker (no mpirun)" },
    { "show", mpicoll_cli_show, "show COLLECTIVE ALGORITHM [--np P]\n"
      "                           draw the rounds as rank x block diagrams" },
    { "model", mpicoll_cli_model, "model COLLECTIVE --np P --bytes B [options] (no mpirun)\n"
      "                           the cost model's time per algorithm, and what auto runs" },
    { "calibrate", mpicoll_cli_calibrate, "calibrate [-o FILE] (under mpirun, 2 ranks or more)\n"
      "                           measure the cost model's parameters (model --params FILE)" },
    { "bench", mpicoll_cli_bench, "bench COLLECTIVE [options] (under mpirun; bench --help)\n"
      "                           time every algorithm against the MPI library's own" },
    { "tune", mpicoll_cli_tune, "tune [-o FILE] [options] [COLLECTIVE...] (under mpirun; --model: without)\n"
      "                           measure every algorithm and write the fastest as rules" },
};

static void usage(FILE *f)
{
    fprintf(f, "mpicoll %s: MPI collective algorithms\n\nusage: mpicoll COMMAND [ARGS]\n\n",
            MPICOLL_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %s\n", commands[i].usage);
    fprintf(f, "\nenvironment: MPICOLL_<COLLECTIVE>=name[:param=value,...], MPICOLL_RULES=file,\n"
               "             MPICOLL_FALLBACK=error|warn|silent, MPICOLL_VERBOSE=1\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "mpicoll: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
