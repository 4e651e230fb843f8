#!/usr/bin/env python3
"""What a non-blocking collective waited at once costs beside the blocking
one, through each front end, over several launches (docs/benchmarks.md,
"Non-blocking against blocking").

    scripts/nbcost.py [--build build] [--launches 5] [--np 2,4] [--bytes 8] [--osu]
    scripts/nbcost.py --mpich build-mpich [--launches 5] [--np 2,4] [--osu]

Builds scripts/nbcost.c with mpicc (a plain MPI program: MPI_Allreduce and
MPI_Bcast against MPI_Iallreduce and MPI_Ibcast + MPI_Wait, interleaved
chunks, medians; calls back to back, or with --osu timed one by one with
a barrier after each, as the OSU benchmarks time them) and runs it under
Open MPI's mpirun, launch after launch, turn by turn: the library alone, with mpicoll's coll component
(mca_coll_mpicoll.so in BUILD) and with the preload library
(libmpicoll_preload.so in BUILD). With --mpich BUILD: under MPICH
(mpicc.mpich, mpiexec.mpich), the library alone and the preload library of
that MPICH build. Prints one markdown row per front end and
rank count: the blocking and the non-blocking calls' times (median over the
launches of each launch's median), their ratio (median and worst launch),
and the CPU (lscpu's model name).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

LINE = re.compile(r"np=(\d+) bytes=(\d+) allreduce ([\d.]+) us iallreduce\+wait ([\d.]+) us "
                  r"ratio ([\d.]+) \| bcast ([\d.]+) us ibcast\+wait ([\d.]+) us ratio ([\d.]+)")


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
    args = ap.parse_args()
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
    rows = {}
    for np in [int(x) for x in args.np.split(",")]:
        if args.mpich:
            launch = ["mpiexec.mpich", "-n", str(np)]
        else:
            launch = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-n", str(np)]
            if np > os.cpu_count():
                launch += ["--mca", "mpi_yield_when_idle", "1"]
        for _ in range(args.launches):
            for f, extra in fronts.items():    # turn by turn: the same machine
                cmd = launch + extra + [exe, str(args.bytes)] + (["osu"] if args.osu else [])
                out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
                m = LINE.search(out.stdout)
                if not m:
                    sys.exit("nbcost.py: %s np=%d failed:\n%s%s" % (f, np, out.stdout, out.stderr))
                rows.setdefault((f, np), []).append([float(x) for x in m.groups()[2:]])
    med = statistics.median
    print("%s, %s, %d launches, %d bytes, %s, median over the launches (worst launch's ratio)"
          % (cpu(), "MPICH" if args.mpich else "Open MPI", args.launches, args.bytes,
             "OSU's timing" if args.osu else "back to back"))
    print()
    print("| front end | ranks | MPI_Allreduce us | MPI_Iallreduce + MPI_Wait us | ratio | worst "
          "| MPI_Bcast us | MPI_Ibcast + MPI_Wait us | ratio | worst |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (f, np), runs in rows.items():
        col = list(zip(*runs))
        print("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |"
              % (f, np, med(col[0]), med(col[1]), med(col[2]), max(col[2]),
                 med(col[3]), med(col[4]), med(col[5]), max(col[5])))


if __name__ == "__main__":
    main()
