#!/usr/bin/env python3
"""The cost model against the simulation: simulated / predicted time.

  tools/sim/accuracy.py [--build DIR] [--cells] CSV...

For every mpicoll algorithm of the CSV files of `sim.py run --csv` (the
simulated times, tools/sim/results/*.csv), asks `mpicoll model` of the SMPI
build for its prediction with the platform's parameters (`sim.py params`:
`mpicoll calibrate` under smpirun) and prints, per collective, platform and
algorithm, the range of simulated / predicted over the points and how many
fall outside 0.8-1.25 (docs/scale.md, "The cost model"); --cells also lists
those points. Shared-memory points (unchecked) count as the others; auto
and SimGrid's built-ins are left out (auto is one of the algorithms).

Then the selection by the model (MPICOLL_MODEL set to the platform's
parameters): at each point, the algorithm the model chooses and its
simulated time over the fastest simulated mpicoll algorithm's there.
"""

import argparse
import collections
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sim  # noqa: E402
import simreport  # noqa: E402

LO, HI = 0.8, 1.25


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(sim.ROOT, "build-smpi"), help="the SMPI build")
    ap.add_argument("--cells", action="store_true", help="also list the points outside 0.8-1.25")
    ap.add_argument("csv", nargs="+")
    args = ap.parse_args()
    simulated = {}
    for path in args.csv:
        with open(path) as f:
            for r in csv.DictReader(f):
                if r["kind"] == "mpicoll" and r["sim_us"] and r["algorithm"] != "auto":
                    key = (r["collective"], r["platform"], int(r["np"]), r["algorithm"])
                    simulated.setdefault(key, {})[int(r["bytes"])] = float(r["sim_us"])
    runs = collections.defaultdict(dict)       # (coll, platform, np) -> {algorithm: sizes}
    for (coll, plat, p, algo), by_size in simulated.items():
        runs[(coll, plat, p)][algo] = sorted(by_size)
    ratios = collections.defaultdict(list)     # (coll, platform, algorithm) -> [(ratio, p, n)]
    picks = []                                 # (coll, platform, p, n, pick, its time / best)
    runners = {}
    ns = argparse.Namespace(build=args.build, lock=None, chunk=300, timeout=600, cfg=None)
    try:
        for (coll, plat, p), algos in sorted(runs.items()):
            if plat not in runners:
                runners[plat] = sim.Runner(ns, sim.Platform(plat))
            sizes = sorted({n for v in algos.values() for n in v})
            os.environ["MPICOLL_MODEL"] = sim.params(runners[plat])
            times, auto = sim.model(runners[plat], coll, p, sizes, ",".join(sorted(algos)))
            for n in sizes:
                done = {a: v[n] for a, v in ((a, simulated[(coll, plat, p, a)]) for a in algos)
                        if n in v}
                if n in auto and done:
                    t = done.get(auto[n])
                    picks.append((coll, plat, p, n, auto[n],
                                  t / min(done.values()) if t else None))
            for algo, by_size in algos.items():
                for n in by_size:
                    m = times.get(algo, {}).get(n)
                    if m:
                        ratios[(coll, plat, algo)].append(
                            (simulated[(coll, plat, p, algo)][n] / m, p, n))
    finally:
        for r in runners.values():
            r.close()
    plats = sorted({k[1] for k in ratios})
    print("| collective | algorithm | " + " | ".join(plats) + " |")
    print("|---|---|" + "---|" * len(plats))
    outside = []
    for coll, algo in sorted({(k[0], k[2]) for k in ratios}):
        cells = []
        for plat in plats:
            v = ratios.get((coll, plat, algo))
            if not v:
                cells.append("")
                continue
            bad = [x for x in v if not LO <= x[0] <= HI]
            outside += [(coll, plat, algo) + x for x in bad]
            cells.append("%.2f-%.2f%s" % (min(x[0] for x in v), max(x[0] for x in v),
                                          " (%d of %d out)" % (len(bad), len(v)) if bad else ""))
        print("| %s | %s | %s |" % (coll, algo, " | ".join(cells)))
    total = sum(len(v) for v in ratios.values())
    print("\n%d of %d points within %.2f-%.2f." % (total - len(outside), total, LO, HI))
    if args.cells and outside:
        print("\n| collective | platform | algorithm | np | bytes | sim / model |\n|---|---|---|---|---|---|")
        for coll, plat, algo, ratio, p, n in sorted(outside):
            print("| %s | %s | %s | %d | %s | %.2f |" % (coll, plat, algo, p, simreport.human(n), ratio))
    known = [x for x in picks if x[5] is not None]
    print("\nThe model's choice (MPICOLL_MODEL): within 1.10 of the fastest simulated mpicoll"
          " algorithm at %d of %d points where its choice was simulated (%d more: not simulated)."
          % (sum(x[5] <= 1.10 for x in known), len(known), len(picks) - len(known)))
    print("\n| collective | platform | np | bytes | model's choice | its time / fastest |\n"
          "|---|---|---:|---:|---|---:|")
    for coll, plat, p, n, pick, r in sorted(picks):
        if r is None or r > 1.10:
            print("| %s | %s | %d | %s | %s | %s |" % (coll, plat, p, simreport.human(n), pick,
                                                      "not simulated" if r is None else "%.2f" % r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
