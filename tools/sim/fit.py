#!/usr/bin/env python3
"""The rules' choice per simulated point, against the best one rule could make.

Usage: tools/sim/fit.py [--build DIR] [--over R] CSV...

For every (collective, np, ranks a node, bytes) of the CSV files (`sim.py
run --csv` output, e.g. tools/sim/results/bands/*.csv), each mpicoll
algorithm's time on each platform of the files with that many ranks a
node (mpicoll/ranks-per-host) is divided by the fastest one's there; an
algorithm's score is its worst ratio over those platforms (a built-in rule
sees the ranks and nodes, not the network, so it must hold on all of
them). Printed per point: the algorithm of the lowest score, the
runner-up, and what the built-in rules across nodes choose (`mpicoll
model --ranks-per-node`; after any fallback, so a restricted choice is
scored as what runs) with its score. Lines whose choice scores above R
(default 1.10) end in "<--".

Times of runs on SMPI's shared memory (status unchecked: timed, not
validated) count; runs that failed (an algorithm's restriction: sim.py
forbids fallbacks) or timed out have no time and are left out; an algorithm not run on every platform of a
point has no score there.
"""
import argparse
import csv
import functools
import os
import subprocess
import sys

import sim
from simreport import mpicoll_times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--build", default=os.path.join(root, "build"),
                    help="the build whose rules are scored (default: the repository's build/)")
    ap.add_argument("--over", type=float, default=1.10, help="mark choices scoring above this (1.10)")
    ap.add_argument("csv", nargs="+")
    a = ap.parse_args()
    prog = os.path.join(a.build, "mpicoll")

    @functools.lru_cache(maxsize=None)
    def rpn(plat):
        return sim.Platform(plat).ranks_per_host

    @functools.lru_cache(maxsize=None)
    def chosen(coll, p, k, b):
        # -a native: no plan to cost, only auto's line
        out = subprocess.run([prog, "model", coll, "--np", str(p), "--bytes", str(b),
                              "--ranks-per-node", str(k), "-a", "native", "--csv"],
                             capture_output=True, text=True, check=True).stdout
        for r in csv.reader(out.splitlines()):
            if len(r) > 4 and r[3] == "auto":
                return r[4]
        sys.exit(f"fit.py: no auto line from {prog} model {coll}")

    @functools.lru_cache(maxsize=None)
    def canonical(coll, spec):
        # the spec with every parameter (the model's "runs" column), as the
        # rules' choice is named
        out = subprocess.run([prog, "model", coll, "--np", "2", "--bytes", "8", "-a", spec,
                              "--csv"], capture_output=True, text=True).stdout
        for r in csv.reader(out.splitlines()):
            if len(r) > 4 and r[3] == spec:
                return r[4]
        return spec

    pts = {}   # {(coll, np, rpn, bytes): {(platform, algorithm): us}}, a file's later row last
    for (coll, plat, p, b), algs in mpicoll_times(a.csv).items():
        for alg, us in algs.items():
            if alg != "auto":
                pts.setdefault((coll, p, rpn(plat), b), {})[(plat, alg)] = us[-1]
    for (coll, p, k, b), times in sorted(pts.items()):
        plats = sorted({pl for pl, _ in times})
        best = {pl: min(v for (q, _), v in times.items() if q == pl) for pl in plats}
        score = {}
        for alg in sorted({al for _, al in times}):
            if all((pl, alg) in times for pl in plats):
                score[alg] = max(times[(pl, alg)] / best[pl] for pl in plats)
        order = sorted(score, key=score.get)
        if not order:
            continue
        second = f"{order[1]:30s} {score[order[1]]:5.2f}" if len(order) > 1 else f"{'-':30s} {'':5s}"
        ch = chosen(coll, p, k, b)
        cs = next((v for al, v in score.items() if canonical(coll, al) == ch), None)
        mark = "  <--" if cs is None or cs > a.over else ""
        print(f"{coll} np={p:<5d} rpn={k:<3d} bytes={b:<8d} best {order[0]:30s} {score[order[0]]:5.2f}  "
              f"next {second}  rules {ch:30s} {cs if cs is not None else float('nan'):5.2f}{mark}")


if __name__ == "__main__":
    main()
