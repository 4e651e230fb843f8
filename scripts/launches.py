#!/usr/bin/env python3
"""Launch-to-launch benchmark: runs `mpicoll bench` in N separate launches
and reports, per size and case, the median and the worst launch's ratio to
native (each launch's own native, same run), as a Markdown table.

On one node, launches of the same command differ by up to 5x (placement,
first touch, the scheduler); a rule or a claim must hold in the median
launch and say how bad the worst one is, never rest on one lucky launch.

    scripts/launches.py --np 2 --launches 5 allgather -a native,auto,shm
    scripts/launches.py --np 4 --launches 5 --all-colls -a native,auto
    scripts/launches.py --np 2 --launches 5 --all-colls -a native,auto --wide auto
    scripts/launches.py --np 2 --launches 5 --evidence allgather -a native,shm -m 1048576:1048576

Everything after the collective goes to `mpicoll bench` (its -a must
include native). --all-colls runs every collective in turn (one launch
of each per round, so they interleave). Exit code 0, or 1 if a launch
failed. --evidence passes bench's --evidence and adds a table with one
row per launch and rank: each case's ratio to native at the largest size
beside that rank's CPUs, faults, context switches, the segment's page
size and the shm phases (copy in, waits, copy out, pulls) per call.
"""
import argparse
import csv
import io
import os
import re
import shutil
import statistics
import subprocess
import sys

# the collectives: the rows X(name, ...) of include/mpicoll_collectives.h
with open(os.path.join(os.path.dirname(__file__), "..", "include", "mpicoll_collectives.h")) as f:
    COLLS = re.findall(r"^ *X\(([a-z_0-9]+),", f.read(), re.M)


def launcher(np_, mpirun):
    """The mpirun command line, with Open MPI's flags when it is Open MPI's."""
    cmd = [mpirun]
    try:
        ver = subprocess.run([mpirun, "--version"], capture_output=True, text=True).stdout
    except OSError:
        ver = ""
    if "Open MPI" in ver or "OpenRTE" in ver:
        cmd += ["--allow-run-as-root", "--oversubscribe", "--mca", "mpi_yield_when_idle", "1"]
    return cmd + ["-n", str(np_)]


EVIDENCE = re.compile(r"^evidence: (.*?) model=\"(.*)\"$", re.M)


def one_launch(cmd, save=None, evidence=None):
    """{(bytes, case): median_us} of one launch, or None if it failed; its CSV
    is written to the file `save` when given; bench's --evidence lines, one
    dict per rank, appended to the list `evidence` when given."""
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stdout[-2000:] + out.stderr[-2000:])
        return None
    if evidence is not None:
        evidence.append([dict(kv.split("=") for kv in m.group(1).split()) | {"model": m.group(2)}
                         for m in EVIDENCE.finditer(out.stderr)])
    if save:
        with open(save, "w") as f:
            f.write(out.stdout)
    res = {}
    for row in csv.reader(io.StringIO(out.stdout)):
        if len(row) < 7 or not row[2].isdigit():
            continue
        res[(int(row[2]), row[4])] = float(row[6])
    return res


def table(coll, np_, launches):
    """Markdown rows: per size, native's median us and each case's median and
    worst ratio to its own launch's native."""
    cases = sorted({c for l in launches for (_, c) in l if c != "native"})
    sizes = sorted({b for l in launches for (b, _) in l})
    lines = [f"**{coll}, {np_} ranks, {len(launches)} launches** (ratio to native: median / worst launch)",
             "",
             "| bytes | native us (median) | " + " | ".join(cases) + " |",
             "|---:|---:|" + "---:|" * len(cases)]
    for b in sizes:
        nat = [l[(b, "native")] for l in launches if (b, "native") in l]
        if not nat:
            continue
        cells = []
        for c in cases:
            r = [l[(b, c)] / l[(b, "native")] for l in launches
                 if (b, c) in l and (b, "native") in l and l[(b, "native")] > 0]
            cells.append(f"{statistics.median(r):.2f} / {max(r):.2f}" if r else "-")
        lines.append(f"| {b} | {statistics.median(nat):.2f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def wide(np_, runs, case):
    """One Markdown table: per size, one column per collective, the median and
    worst launch's ratio of `case` to native. Sizes a collective does not run
    (below its element) are blank."""
    colls = [c for c in runs if runs[c]]
    sizes = sorted({b for c in colls for l in runs[c] for (b, _) in l})
    n = max(len(runs[c]) for c in colls)
    lines = [f"**{case} / native, {np_} ranks, {n} launches** (median / worst launch)", "",
             "| bytes | " + " | ".join(colls) + " |", "|---:|" + "---:|" * len(colls)]
    for b in sizes:
        cells = []
        for c in colls:
            r = [l[(b, case)] / l[(b, "native")] for l in runs[c]
                 if (b, case) in l and (b, "native") in l and l[(b, "native")] > 0]
            cells.append(f"{statistics.median(r):.2f} / {max(r):.2f}" if r else "")
        lines.append(f"| {b} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def evidence_table(coll, np_, launches, evidence):
    """Markdown rows: per launch and rank, each case's ratio to native at the
    largest size and that rank's --evidence fields."""
    cases = sorted({c for l in launches for (_, c) in l if c != "native"})
    fields = ["cpu_start", "cpu_end", "minflt", "majflt", "nvcsw", "nivcsw", "seg_page_kb"]
    phases = ["copy_in_us", "wait_us", "copy_out_us", "pull_us"]
    models = sorted({r["model"] for ev in evidence for r in ev})
    lines = [f"**{coll}, {np_} ranks: evidence per launch** (CPU: {', '.join(models)}; "
             "ratio to native at the largest size; phases: us per shm call)", "",
             "| launch | " + " | ".join(cases) + " | rank | " + " | ".join(fields + phases) + " |",
             "|---:|" + "---:|" * (len(cases) + 1 + len(fields) + len(phases))]
    for i, (l, ev) in enumerate(zip(launches, evidence)):
        b = max(b for (b, _) in l)
        ratios = [f"{l[(b, c)] / l[(b, 'native')]:.2f}" if (b, c) in l and l.get((b, "native"))
                  else "-" for c in cases]
        for r in ev:
            calls = max(int(r.get("shm_calls", 0)), 1)
            per = [f"{float(r.get(p, 'nan')) / calls:.1f}" for p in phases]
            lines.append(f"| {i + 1} | " + " | ".join(ratios) + f" | {r['rank']} | "
                         + " | ".join([r.get(f, "?") for f in fields] + per) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--launches", type=int, default=5)
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--mpicoll", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                      "mpicoll"))
    ap.add_argument("--all-colls", action="store_true", help="every collective in turn")
    ap.add_argument("--save", metavar="DIR",
                    help="also write each launch's CSV there, as COLL-npN-LAUNCH.csv")
    ap.add_argument("--wide", metavar="CASE",
                    help="one table of CASE's ratio to native, a column per collective")
    ap.add_argument("--evidence", action="store_true",
                    help="bench --evidence: a table per launch and rank of CPUs, faults, switches")
    a, rest = ap.parse_known_args()     # the rest: COLLECTIVE and bench's options
    shown = list(rest)
    colls = COLLS if a.all_colls else ([rest.pop(0)] if rest else [])
    if not colls:
        ap.error("name a collective, or --all-colls")
    if not shutil.which(a.mpirun):
        ap.error(f"{a.mpirun}: not found")
    base = launcher(a.np, a.mpirun) + [a.mpicoll, "bench"]
    if a.save:
        os.makedirs(a.save, exist_ok=True)
    runs = {c: [] for c in colls}
    evid = {c: [] for c in colls}
    failed = 0
    for i in range(a.launches):
        for c in colls:
            save = os.path.join(a.save, f"{c}-np{a.np}-{i + 1}.csv") if a.save else None
            ev = ["--evidence"] if a.evidence else []
            r = one_launch(base + [c] + rest + ev + ["--format", "csv"], save,
                           evid[c] if a.evidence else None)
            if r is None:
                failed += 1
            else:
                runs[c].append(r)
            sys.stderr.write(f"launch {i + 1}/{a.launches} {c}: {'ok' if r else 'FAILED'}\n")
    print(f"`scripts/launches.py --np {a.np} --launches {a.launches} "
          f"{'--all-colls ' if a.all_colls else ''}{' '.join(shown)}"
          f"{' --wide ' + a.wide if a.wide else ''}{' --evidence' if a.evidence else ''}`\n")
    if a.wide:
        print(wide(a.np, runs, a.wide) + "\n")
    for c in colls:
        if runs[c] and not a.wide:
            print(table(c, a.np, runs[c]) + "\n")
        if runs[c] and a.evidence:
            print(evidence_table(c, a.np, runs[c], evid[c]) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
