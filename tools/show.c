/*
 * mpicoll show: an algorithm's rounds and the diagram of its data after
 * each round (the diagrams in the algorithms' header comments:
 * scripts/diagrams.sh). The command line; the printer is the model's
 * (src/model/diagram.h). No mpirun.
 */
#include "cli.h"
#include "model/coll.h"
#include "model/diagram.h"
#include "model/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mpicoll_cli_show(int argc, char **argv)
{
    int p = 6, compact = 0, rpn = 0, help = cli_wants_help(argc, argv);
    if (argc < 3 || help) {
        fprintf(help ? stdout : stderr, "usage: mpicoll show COLLECTIVE ALGORITHM[:p=v] "
                "[--np P] [--ranks-per-node K] [--compact]\n");
        return help ? 0 : 2;
    }
    const coll_desc *c = cli_need_coll(argv[1]);
    if (!c)
        return 2;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--np") == 0 && i + 1 < argc)
            p = atoi(argv[++i]);
        else if (strcmp(argv[i], "--ranks-per-node") == 0 && i + 1 < argc)
            rpn = atoi(argv[++i]);
        else if (strcmp(argv[i], "--compact") == 0)
            compact = 1;
        else {
            fprintf(stderr, "mpicoll show: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    const coll_algo *a;
    int params[PLAN_MAX_PARAMS];
    char err[512];
    if (spec_parse(c, argv[2], &a, params, err, sizeof err)) {
        fprintf(stderr, "mpicoll show: %s\n", err);
        return 2;
    }
    if (p < 1 || p > 36) {
        fprintf(stderr, "mpicoll show: --np must be in 1..36\n");
        return 2;
    }
    if (coll_algo_native(a)) {
        printf("%s native: %s, nothing to show\n", c->name, NATIVE_NO_PLAN);
        return 0;
    }
    const int nnodes = rpn > 0 ? (p + rpn - 1) / rpn : 1;
    call_info ci = { .p = p, .nnodes = nnodes, .commutative = 1 };
    if (!coll_algo_applies(a, &ci)) {
        char restr[160];
        cli_restriction_text(a->restrictions, restr, sizeof restr);
        fprintf(stderr, "mpicoll show: %s does not run on %d ranks of %d node%s (restriction: %s)\n",
                a->name, p, nnodes, nnodes == 1 ? "" : "s", restr);
        return 2;
    }
    int node_of[36];
    for (int r = 0; r < p; r++)
        node_of[r] = rpn > 0 ? r / rpn : 0;
    return diagram_print(stdout, c, a, params, p, node_of, compact);
}
