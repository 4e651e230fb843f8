#!/usr/bin/env python3
"""What a collective costs through each front end, and its non-blocking
form waited at once beside the blocking one, over several launches
(docs/benchmarks.md, "Through the front ends").

    scripts/nbcost.py [--build build] [--launches 5] [--np 2,4] [--bytes 8] [--osu]
                      [--colls allreduce,bcast | all]
    scripts/nbcost.py --mpich build-mpich [--launches 5] [--np 2,4] [--osu] [--colls ...]

Builds scripts/nbcost.c with mpicc (a plain MPI program: each collective
blocking against its non-blocking form + MPI_Wait, interleaved chunks,
medians; calls back to back, or with --osu timed one by one with a
barrier after each, as the OSU benchmarks time them) and runs it under
Open MPI's mpirun, launch after launch, turn by turn: the library alone,
with mpicoll's coll component (mca_coll_mpicoll.so in BUILD) and with the
preload library (libmpicoll_preload.so in BUILD). With --mpich BUILD:
under MPICH (mpicc.mpich, mpiexec.mpich), the library alone and the
preload library of that MPICH build (ranks at most the cores: MPICH's
blocking collectives spin, and on two ranks a core the library alone
takes milliseconds a call). Prints the CPU (lscpu's model name)
and markdown rows: for allreduce and bcast (the default), one per front
end and rank count, the blocking and the non-blocking calls' times
(median over the launches of each launch's median) and their ratio
(median and worst launch); for other collectives (--colls), one per
collective, rank count and front end, with each form's time beside the
library's in the same launch (median and worst launch) and the ratio
non-blocking / blocking.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

LINE = re.compile(r"np=(\d+) bytes=\d+ (\w+) blocking ([\d.]+) us nb\+wait ([\d.]+) us "
                  r"ratio ([\d.]+)")


def cpu():
    out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--launches", type=int, default=5)
    ap.add_argument("--np", default="2,4")
    ap.add_argument("--bytes", type=int, default=8)
    ap.add_argument("--osu", action="store_true",
                    help="time each call alone, a barrier after it (OSU's way)")
    ap.add_argument("--mpich", metavar="BUILD", help="under MPICH, with this build's preload library")
    ap.add_argument("--colls", default="allreduce,bcast",
                    help="collectives, comma-separated, or all (the 16)")
    ap.add_argument("--summarize", nargs="+", metavar="OUTPUT",
                    help="no run: from saved --colls outputs (back to back, then --osu), a "
                         "row per collective of each front end's medians / the library's")
    args = ap.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return
    build = os.path.abspath(args.mpich or args.build)
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = tempfile.mkdtemp()
    exe = os.path.join(tmp, "nbcost")
    subprocess.run(["mpicc.mpich" if args.mpich else "mpicc", "-O2",
                    os.path.join(here, "nbcost.c"), "-o", exe], check=True)
    preload = os.path.join(build, "libmpicoll_preload.so")
    if args.mpich:
        fronts = {"library": [], "preload": ["-genv", "LD_PRELOAD", preload]}
    else:
        pkglib = subprocess.run(["ompi_info", "--path", "pkglibdir"], capture_output=True,
                                text=True, check=True).stdout.split(":", 1)[1].strip()
        fronts = {
            "library": [],
            "component": ["--mca", "mca_base_component_path", pkglib + ":" + build],
            "preload": ["-x", "LD_PRELOAD=" + preload],
        }
        if not os.path.exists(os.path.join(build, "mca_coll_mpicoll.so")):
            sys.exit("nbcost.py: no mca_coll_mpicoll.so in " + build)
    runs = {}   # (coll, np, front) -> [(blocking, nb, ratio) per launch]
    for np in [int(x) for x in args.np.split(",")]:
        if args.mpich:
            launch = ["mpiexec.mpich", "-n", str(np)]
        else:
            launch = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-n", str(np)]
            if np > os.cpu_count():
                launch += ["--mca", "mpi_yield_when_idle", "1"]
        for _ in range(args.launches):
            for f, extra in fronts.items():    # turn by turn: the same machine
                cmd = (launch + extra + [exe, str(args.bytes), "osu" if args.osu else "b2b",
                                         args.colls])
                out = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
                found = LINE.findall(out.stdout)
                if not found:
                    sys.exit("nbcost.py: %s np=%d failed:\n%s%s" % (f, np, out.stdout, out.stderr))
                for _np, coll, b, n, r in found:
                    runs.setdefault((coll, np, f), []).append((float(b), float(n), float(r)))
    print("%s, %s, %d launches, %d bytes, %s, median over the launches (worst launch's ratio)"
          % (cpu(), "MPICH" if args.mpich else "Open MPI", args.launches, args.bytes,
             "OSU's timing" if args.osu else "back to back"))
    print()
    colls = list(dict.fromkeys(c for c, _, _ in runs))     # nbcost.c's order
    if colls == ["allreduce", "bcast"]:
        wide(runs, fronts)
    else:
        long_table(runs, fronts, colls)


def wide(runs, fronts):
    """allreduce and bcast side by side, a row per front end and rank count"""
    med = statistics.median
    print("| front end | ranks | MPI_Allreduce us | MPI_Iallreduce + MPI_Wait us | ratio | worst "
          "| MPI_Bcast us | MPI_Ibcast + MPI_Wait us | ratio | worst |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for np in sorted({n for _, n, _ in runs}):
        for f in fronts:
            cells = []
            for coll in ("allreduce", "bcast"):
                b, n, r = zip(*runs[(coll, np, f)])
                cells += ["%.2f" % med(b), "%.2f" % med(n), "%.2f" % med(r), "%.2f" % max(r)]
            print("| %s | %d | %s |" % (f, np, " | ".join(cells)))


def long_table(runs, fronts, colls):
    """a row per collective, rank count and front end; each form beside the
    library's in the same launch"""
    med = statistics.median
    print("| collective | ranks | front end | blocking us | / library's | worst "
          "| non-blocking + wait us | / library's | worst | non-blocking / blocking |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for coll in colls:
        for np in sorted({n for _, n, _ in runs}):
            lib = runs[(coll, np, "library")]
            for f in fronts:
                mine = runs[(coll, np, f)]
                b, n, r = zip(*mine)
                if f == "library":
                    rel = ["-"] * 4
                else:
                    rb = [x[0] / y[0] for x, y in zip(mine, lib)]
                    rn = [x[1] / y[1] for x, y in zip(mine, lib)]
                    rel = ["%.2f" % med(rb), "%.2f" % max(rb), "%.2f" % med(rn), "%.2f" % max(rn)]
                print("| %s | %d | %s | %.2f | %s | %s | %.2f | %s | %s | %.2f |"
                      % (coll, np, f, med(b), rel[0], rel[1], med(n), rel[2], rel[3], med(r)))


def summarize(paths):
    """a row per collective and rank count: each front end's median ratio to
    the library's, blocking and non-blocking, in each saved output"""
    tables = []
    for path in paths:
        rows = {}
        for line in open(path):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 10 and cells[1].isdigit() and cells[2] != "library":
                rows[(cells[0], int(cells[1]), cells[2])] = (cells[4], cells[7])
        tables.append(rows)
    fronts = list(dict.fromkeys(f for _, _, f in tables[0]))
    head = ["collective", "ranks"]
    for f in fronts:
        for path in paths:
            tag = "OSU" if "osu" in os.path.basename(path) else "b2b"
            head += ["%s blocking %s" % (f, tag), "%s nb %s" % (f, tag)]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for coll, np in dict.fromkeys((c, n) for c, n, _ in tables[0]):
        cells = [coll, str(np)]
        for f in fronts:
            for rows in tables:
                cells += list(rows[(coll, np, f)])
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
