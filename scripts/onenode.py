#!/usr/bin/env python3
"""One node against native: the first table of docs/benchmarks.md.

    scripts/onenode.py [--np 2,4] [--out DIR] [--build build] [--mpirun mpirun]
    scripts/onenode.py --table DIR/*.csv

The first form runs, one after the other, for each rank count N and
collective C (allgather, allreduce, alltoall), pinned as the run of record
was (Open MPI's flags when mpirun is Open MPI's):

    mpirun -n N --bind-to core:overload-allowed --map-by core \\
        build/mpicoll bench C -a native,shm,auto --format csv

saves each output as DIR/C-npN.csv (default DIR: onenode/) and prints the
table as Markdown: per size, `shm` / `auto` as median over `native`'s
median of the same run (below 1: faster than the MPI library's own
collective). The second form prints the table from CSV files saved
before. Exit status 1 if a run failed (its column stays empty).
"""
import argparse
import csv
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launches  # noqa: E402  (the same directory)

COLLS = ["allgather", "allreduce", "alltoall"]


def launcher(mpirun, n):
    """launches.py's mpirun command line, pinned as the run of record was
    when mpirun is Open MPI's."""
    cmd = launches.launcher(n, mpirun)
    if "--allow-run-as-root" in cmd:
        cmd += ["--bind-to", "core:overload-allowed", "--map-by", "core"]
    return cmd


def medians(text):
    """(collective, np, {(bytes, algorithm): median_us}) of one bench CSV."""
    lines = [l for l in text.splitlines() if l.startswith("collective,")
             or (l.count(",") >= 10 and l.split(",")[2].isdigit())]
    coll, np_, res = None, None, {}
    for r in csv.DictReader(io.StringIO("\n".join(lines))):
        coll, np_ = r["collective"], int(r["np"])
        if r["valid"] == "1":       # a case that failed validation has no time
            res[(int(r["bytes"]), r["algorithm"])] = float(r["median_us"])
    return coll, np_, res


def table(runs, out):
    cols = sorted(runs, key=lambda k: (COLLS.index(k[0]) if k[0] in COLLS else 99, k[0], k[1]))
    sizes = sorted({b for k in cols for (b, _) in runs[k]})
    out.write("| bytes | %s |\n" % " | ".join("%s %d" % k for k in cols))
    out.write("|---:|%s\n" % ("---:|" * len(cols)))
    for b in sizes:
        cells = []
        for k in cols:
            m = runs[k]
            nat = m.get((b, "native"))
            if not nat:
                cells.append("")
                continue
            cells.append(" / ".join("%.2f" % (m[(b, a)] / nat) if (b, a) in m else "-"
                                    for a in ("shm", "auto")))
        out.write("| %d | %s |\n" % (b, " | ".join(cells)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--np", default="2,4", help="rank counts (default 2,4)")
    ap.add_argument("--out", default="onenode", help="directory for the CSV files")
    ap.add_argument("--build", default="build", help="the build with the mpicoll program")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--table", nargs="+", metavar="CSV", help="only print the table of these files")
    a = ap.parse_args()
    runs, failed = {}, False
    if a.table:
        for path in a.table:
            with open(path) as f:
                coll, np_, m = medians(f.read())
            if coll:
                runs[(coll, np_)] = m
    else:
        os.makedirs(a.out, exist_ok=True)
        for n in [int(x) for x in a.np.split(",")]:
            for c in COLLS:
                cmd = launcher(a.mpirun, n) + [os.path.join(a.build, "mpicoll"), "bench", c,
                                                "-a", "native,shm,auto", "--format", "csv"]
                print("$ " + " ".join(cmd), file=sys.stderr)
                p = subprocess.run(cmd, capture_output=True, text=True)
                with open(os.path.join(a.out, "%s-np%d.csv" % (c, n)), "w") as f:
                    f.write(p.stdout)
                if p.returncode != 0:
                    sys.stderr.write(p.stderr[-2000:])
                    failed = True
                coll, np_, m = medians(p.stdout)
                runs[(c, n)] = m
    table(runs, sys.stdout)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
