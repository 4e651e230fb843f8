/*
 * mpicoll show: an algorithm's rounds and the diagram of its data after
 * each round (the diagrams in the algorithms' header comments:
 * scripts/diagrams.sh; a reduction's: whose contributions each element
 * holds). The command line; the printer is the model's
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
    int p = 6, compact = 0, rpn = 0, root = 0, blocks = -1, help = cli_wants_help(argc, argv);
    if (argc < 3 || help) {
        fprintf(help ? stdout : stderr, "usage: mpicoll show COLLECTIVE ALGORITHM[:p=v] "
                "[--np P] [--ranks-per-node K] [--root R] [--blocks N] [--compact]\n"
                "  --root R    the root of a rooted collective (default 0)\n"
                "  --blocks N  a reduction's vector in N elements, a row each (default P;\n"
                "              reduce_scatter_block: a multiple of P)\n");
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
        else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc && c->rooted)
            root = atoi(argv[++i]);
        else if (strcmp(argv[i], "--blocks") == 0 && i + 1 < argc && c->reduction)
            blocks = atoi(argv[++i]);
        else if (strcmp(argv[i], "--compact") == 0)
            compact = 1;
        else {
            fprintf(stderr, "mpicoll show: unexpected argument '%s'%s\n", argv[i],
                    strcmp(argv[i], "--root") == 0 && !c->rooted ? " (not a rooted collective)"
                    : strcmp(argv[i], "--blocks") == 0 && !c->reduction
                    ? " (for the reductions only)" : "");
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
    if (p < 1 || p > DIAGRAM_MAX_P) {
        fprintf(stderr, "mpicoll show: --np must be in 1..%d\n", DIAGRAM_MAX_P);
        return 2;
    }
    if (root < 0 || root >= p) {
        fprintf(stderr, "mpicoll show: --root must be in 0..%d\n", p - 1);
        return 2;
    }
    if (blocks != -1 && (blocks < 1 || blocks > DIAGRAM_MAX_BLOCKS)) {
        fprintf(stderr, "mpicoll show: --blocks must be in 1..%d\n", DIAGRAM_MAX_BLOCKS);
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
    int node_of[DIAGRAM_MAX_P];
    for (int r = 0; r < p; r++)
        node_of[r] = rpn > 0 ? r / rpn : 0;
    const diagram_opts o = { .a = a, .params = params, .p = p, .root = root,
                             .compact = compact, .blocks = blocks < 0 ? 0 : (size_t)blocks,
                             .node_of = node_of };
    plan_args call;
    size_t counts[2 * DIAGRAM_MAX_P];
    if (diagram_call(c, &o, &call, counts)) {
        fprintf(stderr, "mpicoll show: %s's vector of %d elements cannot be cut into %d equal "
                "blocks\n", c->name, blocks, p);
        return 2;
    }
    return diagram_print(stdout, c, &o) ? 1 : 0;
}
