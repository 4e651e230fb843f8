"""The output of sim.py (tools/sim/sim.py): a run's report (one table per
np, then a summary), its CSV and its gnuplot figure; and docs/scale.md's
tables from the CSV files of `sim.py run --csv` (`sim.py table`).

A run's results are one dict per np (sim.py's study_np): "p" the np;
"sim" and "builtin" map mpicoll's and SimGrid's algorithms to {bytes:
(us or None, status)}, "model" mpicoll's to {bytes: us}; "auto" {bytes:
what auto ran}, "bound" {bytes: us}, "wall" {(dest, name): seconds}.
"""

import csv
import os
import subprocess


def human(n):
    for unit, shift in (("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, unit)
    return str(n)


def size_columns(sizes):
    """The page's size column headers: 8 B, 1KiB, 1MiB."""
    return " | ".join(human(n) + ("iB" if n >= 1024 else " B") for n in sizes)


# ---- a run: its report, CSV and figure -------------------------------------------

def best(table, n):
    """(name, us) of the fastest valid entry at size n, or (None, None)."""
    cands = [(v[n][0], k) for k, v in table.items()
             if k != "auto" and n in v and v[n][0] is not None]
    if not cands:
        return None, None
    us, name = min(cands)
    return name, us


def cell(v):
    us, status = v
    if us is None:
        return status
    return "%.2f%s" % (us, "" if status == "ok" else "~")


def report(args, plat, alpha, beta, results, out):
    coll, sizes = args.collective, args.sizes
    out.write("# %s on %s (%s): alpha = %.3f us, beta = %.4f ns/B (%.2f GB/s) from a simulated"
              " ping-pong (the bound's)\n# simulated us; '~': shared-memory run, not validated; "
              "model: mpicoll model with the platform's parameters (sim.py params)\n"
              % (coll, plat.name, plat.relpath, alpha * 1e6, beta * 1e9,
                 1e-9 / beta))
    if args.cfg:
        out.write("# SimGrid settings added: %s\n" % " ".join(args.cfg))
    w = max([len(k) for r in results for k in list(r["sim"]) + list(r["builtin"])] + [20])
    for r in results:
        p = r["p"]
        walls = r["wall"]
        wm = sum(v for (d, _), v in walls.items() if d == "sim")
        wb = sum(v for (d, _), v in walls.items() if d == "builtin")
        out.write("\n## np=%d   (wall: mpicoll %.1f s, SimGrid built-ins %.1f s)\n" % (p, wm, wb))
        out.write("%-*s %8s" % (w + 9, "algorithm", "wall_s"))
        for n in sizes:
            out.write(" %12s %10s" % (human(n) + " B", "model"))
        out.write("\n")
        for dest, prefix in (("sim", ""), ("builtin", "SimGrid ")):
            for name, v in r[dest].items():
                out.write("%-*s %8.1f" % (w + 9, prefix + name, walls.get((dest, name), 0)))
                for n in sizes:
                    m = r["model"].get(name, {}).get(n) if dest == "sim" else None
                    out.write(" %12s %10s" % (cell(v[n]), "%.2f" % m if m is not None else "-"))
                out.write("\n")
        out.write("%-*s %8s" % (w + 9, "lower bound", ""))
        for n in sizes:
            out.write(" %12.2f %10s" % (r["bound"][n], ""))
        out.write("\n")
    out.write("\n## summary: %s on %s\n" % (coll, plat.name))
    out.write("%6s %8s  %-28s %-28s %-30s %10s %12s %8s\n" % (
        "np", "bytes", "best mpicoll (us)", "auto (us)", "best SimGrid (us)", "bound", "model(best)",
        "wall_s"))
    bad = 0
    for r in results:
        wall = sum(r["wall"].values())
        for n in sizes:
            bn, bu = best(r["sim"], n)
            gn, gu = best(r["builtin"], n)
            an = r["auto"].get(n)
            av = r["sim"].get("auto", {}).get(n, (None, "-"))
            slower = ""
            if av[0] is not None and bu and av[0] > bu * 1.05:
                slower = " +%d%%" % round(100 * (av[0] / bu - 1))
            mb = r["model"].get(bn, {}).get(n)
            out.write("%6d %8s  %-28s %-28s %-30s %10.2f %12s %8s\n" % (
                r["p"], human(n), "%s %.2f" % (bn, bu) if bn else "-",
                "%s %s%s" % (an, cell(av), slower) if an else "-",
                "%s %.2f" % (gn, gu) if gn else "-", r["bound"][n],
                "%.2f" % mb if mb is not None else "-", "%.0f" % wall if n == sizes[0] else ""))
            bad += sum(1 for v in r["sim"].values()
                       if v[n][1] in ("INVALID", "failed", "timeout", "missing"))
    return bad


def write_csv(args, plat, results, path):
    """Every cell; the row of `auto` names, in column auto, what it ran."""
    with open(path, "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["collective", "platform", "np", "bytes", "kind", "algorithm", "sim_us", "status",
                     "model_us", "bound_us", "auto", "wall_s"])
        for r in results:
            for dest, kind in (("sim", "mpicoll"), ("builtin", "simgrid")):
                for name, v in r[dest].items():
                    for n in args.sizes:
                        m = r["model"].get(name, {}).get(n) if dest == "sim" else None
                        wr.writerow([args.collective, plat.name, r["p"], n, kind, name,
                                     "" if v[n][0] is None else "%.3f" % v[n][0], v[n][1],
                                     "" if m is None else "%.3f" % m, "%.3f" % r["bound"][n],
                                     r["auto"].get(n, "") if name == "auto" else "",
                                     "%.1f" % r["wall"].get((dest, name), 0)])


def plot(args, plat, results, path):
    """One panel per size: simulated time against np, one line per mpicoll
    algorithm, the best SimGrid built-in and the lower bound."""
    sizes, nps = args.sizes, [r["p"] for r in results]
    names = sorted({k for r in results for k in r["sim"]})
    data = os.path.splitext(path)[0] + ".dat"
    with open(data, "w") as f:
        for n in sizes:
            f.write("# size %d\n" % n)
            for r in results:
                vals = [r["sim"].get(a, {}).get(n, (None,))[0] for a in names]
                f.write("%d %s %s %s\n" % (r["p"], " ".join("nan" if v is None else repr(v) for v in vals),
                                           best(r["builtin"], n)[1] or "nan", r["bound"][n]))
            f.write("\n\n")
    cols = len(sizes) if len(sizes) < 3 else 2
    rows = (len(sizes) + cols - 1) // cols
    term = "pngcairo size %d,%d" % (640 * cols, 480 * rows) if path.endswith(".png") else \
        "svg size %d,%d" % (640 * cols, 480 * rows)
    g = ["set terminal %s" % term, "set output '%s'" % path, "set logscale xy",
         "set key outside right top font ',8'", "set xlabel 'ranks'", "set ylabel 'simulated us'",
         "set xtics (%s)" % ",".join("'%d' %d" % (p, p) for p in nps),
         "set multiplot layout %d,%d title '%s on %s'" % (rows, cols, args.collective, plat.name)]
    for i, n in enumerate(sizes):
        series = ["'%s' index %d using 1:%d with linespoints title '%s'" % (data, i, k + 2, a)
                  for k, a in enumerate(names)]
        series.append("'%s' index %d using 1:%d with lines lw 3 lc 'black' title 'best SimGrid'"
                      % (data, i, len(names) + 2))
        series.append("'%s' index %d using 1:%d with lines dt 2 lw 2 lc 'gray' title 'lower bound'"
                      % (data, i, len(names) + 3))
        g += ["set title '%s B'" % human(n), "plot " + ", ".join(series)]
    g.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(g) + "\n", text=True, check=True)


# ---- docs/scale.md's tables ------------------------------------------------------

def plat_order(name):
    """The platforms in the order of docs/scale.md: the two every
    collective runs on first, then the networks where distance costs."""
    known = ("fattree", "flat", "torus", "dragonfly")
    return (known.index(name) if name in known else len(known), name)


def tables(paths, out):
    """Markdown tables of docs/scale.md from the CSV files of `run --csv`:
    per collective and platform, the summary of each (np, bytes); then wall
    times. (The cost model against these times: tools/sim/accuracy.py.)"""
    rows = []
    for path in paths:
        with open(path) as f:
            rows += [dict(r, _file=path) for r in csv.DictReader(f)]
    fmt = lambda us: "%.1f" % us if us < 100 else "%.0f" % us
    groups = {}
    for r in rows:
        groups.setdefault((r["collective"], r["platform"]), []).append(r)
    for (coll, plat), rs in sorted(groups.items(), key=lambda g: (g[0][0], plat_order(g[0][1]))):
        out.write("\n%s on %s (simulated us; `~`: shared memory, not validated)\n\n" % (coll, plat))
        out.write("| np | bytes | fastest mpicoll | auto | fastest SimGrid built-in | lower bound |\n")
        out.write("|---:|---:|---|---|---|---:|\n")
        for key in sorted({(int(r["np"]), int(r["bytes"])) for r in rs}):
            pts = [r for r in rs if (int(r["np"]), int(r["bytes"])) == key and r["sim_us"]]
            def best(kind):
                c = [r for r in pts if r["kind"] == kind and r["algorithm"] != "auto"]
                if not c:
                    return None
                b = min(c, key=lambda r: float(r["sim_us"]))
                return b, "%s %s%s" % (b["algorithm"], fmt(float(b["sim_us"])),
                                       "~" if b["status"] == "unchecked" else "")
            bm, bg = best("mpicoll"), best("simgrid")
            auto = [r for r in rs if (int(r["np"]), int(r["bytes"])) == key and r["algorithm"] == "auto"]
            auto.sort(key=lambda r: not r["sim_us"])    # a run that finished, if any did
            a = "-"
            if auto and auto[0]["sim_us"]:
                us = float(auto[0]["sim_us"])
                a = "%s %s%s" % (auto[0]["auto"], fmt(us), "~" if auto[0]["status"] == "unchecked" else "")
                if bm and us > 1.05 * float(bm[0]["sim_us"]):
                    a += " (**+%d%%**)" % round(100 * (us / float(bm[0]["sim_us"]) - 1))
            elif auto:
                a = "%s: %s" % (auto[0]["auto"], auto[0]["status"])
            bound = [r for r in rs if (int(r["np"]), int(r["bytes"])) == key][0]["bound_us"]
            out.write("| %d | %s | %s | %s | %s | %s |\n" % (
                key[0], human(key[1]), bm[1] if bm else "-", a, bg[1] if bg else "-",
                fmt(float(bound))))
    out.write("\nSimulation wall time (s of this machine, per np: all sizes)\n\n| collective |"
              " platform | np | mpicoll algorithms | SimGrid built-ins | did not finish |\n"
              "|---|---|---:|---:|---:|---|\n")
    for (coll, plat), rs in sorted(groups.items()):
        for p in sorted({int(r["np"]) for r in rs}):
            sel = [r for r in rs if int(r["np"]) == p]
            wall = {}
            for r in sel:
                wall[(r["kind"], r["algorithm"], r["_file"])] = float(r["wall_s"])  # one run a file
            done = {(r["kind"], r["algorithm"], r["bytes"]) for r in sel if r["sim_us"]}
            late = {}
            for r in sel:
                if r["status"] == "timeout" and (r["kind"], r["algorithm"], r["bytes"]) not in done:
                    late.setdefault("%s%s" % ("SimGrid " if r["kind"] == "simgrid" else "",
                                              r["algorithm"]), []).append(int(r["bytes"]))
            late = ["%s (%s)" % (k, ", ".join(human(n) for n in sorted(v)))
                    for k, v in sorted(late.items())]
            out.write("| %s | %s | %d | %.0f | %.0f | %s |\n" % (
                coll, plat, p, sum(v for k, v in wall.items() if k[0] == "mpicoll"),
                sum(v for k, v in wall.items() if k[0] == "simgrid"), ", ".join(late) or "-"))


def summary(paths, out, only=None):
    """docs/scale.md's first tables: per platform, collective and np, at each
    size (of the list `only`, when given), mpicoll's fastest algorithm over
    SimGrid's fastest built-in, and auto over mpicoll's fastest (the cells
    of `table`, as ratios)."""
    rows = []
    for path in paths:
        with open(path) as f:
            rows += list(csv.DictReader(f))
    sizes = sorted({int(r["bytes"]) for r in rows} - {0})     # 0: barrier, no size
    if only:
        sizes = [n for n in sizes if n in only]
    hdr = size_columns(sizes)

    def ratios(coll, plat, p, n):
        """mpicoll/SimGrid and auto/mpicoll at one point, as cells."""
        pts = [r for r in rows if (r["collective"], r["platform"], int(r["np"]), int(r["bytes"]))
               == (coll, plat, p, n)]

        def fastest(kind):
            c = [float(r["sim_us"]) for r in pts
                 if r["kind"] == kind and r["algorithm"] != "auto" and r["sim_us"]]
            return min(c) if c else None
        bm, bg = fastest("mpicoll"), fastest("simgrid")
        v = "%.2f" % (bm / bg) if bm and bg else "-"
        auto = sorted((r for r in pts if r["algorithm"] == "auto"), key=lambda r: not r["sim_us"])
        if auto and auto[0]["sim_us"]:
            a = "%.2f" % (float(auto[0]["sim_us"]) / bm) if bm else "-"
        else:
            a = auto[0]["status"] if auto else "-"    # timeout, failed
        return v, a

    for plat in sorted({r["platform"] for r in rows}, key=plat_order):
        out.write("\n%s: fastest mpicoll / fastest SimGrid built-in, and auto / fastest mpicoll,"
                  " per block (allgather, alltoall, reduce_scatter_block, reduce_scatter, gather,"
                  " scatter and the v-forms), vector (allreduce, reduce, scan, exscan) or buffer"
                  " (bcast) size\n\n" % plat)
        out.write("| collective | np | mpicoll/SimGrid %s | auto/mpicoll %s |\n" % (hdr, hdr))
        out.write("|---|---:|%s\n" % ("---:|" * 2 * len(sizes)))
        points = sorted({(r["collective"], int(r["np"])) for r in rows
                         if r["platform"] == plat and int(r["bytes"])})
        for coll, p in points:
            cells = [ratios(coll, plat, p, n) for n in sizes]
            out.write("| %s | %d | %s | %s |\n" % (coll, p, " | ".join(c[0] for c in cells),
                                                   " | ".join(c[1] for c in cells)))
        sizeless = sorted({(r["collective"], int(r["np"])) for r in rows
                           if r["platform"] == plat and not int(r["bytes"])})
        if sizeless:
            out.write("\n| collective (no size) | np | mpicoll/SimGrid | auto/mpicoll |\n"
                      "|---|---:|---:|---:|\n")
            for coll, p in sizeless:
                out.write("| %s | %d | %s | %s |\n" % ((coll, p) + ratios(coll, plat, p, 0)))


def mpicoll_times(paths):
    """mpicoll's simulated times in the CSV files of `sim.py run --csv`:
    {(collective, platform, np, bytes): {algorithm: [us, ...]}} in the
    files' order, auto included; runs without a time (failed, timed out)
    left out."""
    times = {}
    for path in paths:
        with open(path) as f:
            for r in csv.DictReader(f):
                if r["sim_us"] and r["kind"] == "mpicoll":
                    key = (r["collective"], r["platform"], int(r["np"]), int(r["bytes"]))
                    times.setdefault(key, {}).setdefault(r["algorithm"], []).append(float(r["sim_us"]))
    return times


def worst_auto(paths, out, only=None):
    """Per collective and size (of the list `only`, when given), auto's
    worst time over mpicoll's fastest algorithm across the np and platforms
    of the CSV files, and where. A
    point's auto is the last auto row in the files' order, so that a later
    file re-running auto (under new rules) replaces the earlier runs'."""
    fastest, auto = {}, {}
    for key, algs in mpicoll_times(paths).items():
        if "auto" in algs:
            auto[key] = algs["auto"][-1]
        others = [us for a, v in algs.items() if a != "auto" for us in v]
        if others:
            fastest[key] = min(others)
    sizes = sorted({k[3] for k in auto if not only or k[3] in only})
    nps = sorted({k[2] for k in auto})
    out.write("auto / fastest mpicoll: the worst over %d to %d ranks and the platforms (%s),"
              " and its np\n\n" % (nps[0], nps[-1], ", ".join(sorted({k[1] for k in auto},
                                                                    key=plat_order))))
    out.write("| collective | %s |\n|---|%s\n" % (size_columns(sizes), "---:|" * len(sizes)))
    for coll in sorted({k[0] for k in auto}):
        cells = []
        for n in sizes:
            pts = [(auto[k] / fastest[k], k[2]) for k in auto
                   if k[0] == coll and k[3] == n and k in fastest]
            cells.append("%.2f (%d)" % max(pts) if pts else "-")
        out.write("| %s | %s |\n" % (coll, " | ".join(cells)))


def newest(paths, new, out):
    """docs/scale.md's table of the newest algorithms: at each point of the
    CSV files where one of `new` ({collective: [algorithm spec, ...]}) ran
    (8 B, 1 KiB, 64 KiB), its time against mpicoll's fastest other
    algorithm (none of the new ones, with any parameters) and SimGrid's
    fastest built-in run there."""
    rows = []
    for path in paths:
        with open(path) as f:
            rows += [r for r in csv.DictReader(f) if r["sim_us"]]
    pts = {}
    for r in rows:
        pts.setdefault((r["collective"], r["platform"], int(r["np"]), int(r["bytes"])), []).append(r)
    out.write("| collective | platform | np | size | new algorithm (us) | mpicoll's fastest other"
              " (us; new / it) | SimGrid's fastest run there (us; new / it) |\n"
              "|---|---|---:|---:|---|---|---|\n")
    for key in sorted(pts, key=lambda k: (k[0], plat_order(k[1]), k[2], k[3])):
        coll, plat, p, n = key
        if coll not in new or n not in (8, 1024, 65536):
            continue
        mine = {r["algorithm"]: float(r["sim_us"]) for r in pts[key]
                if r["kind"] == "mpicoll" and r["algorithm"] != "auto"}
        theirs = {r["algorithm"]: float(r["sim_us"]) for r in pts[key] if r["kind"] == "simgrid"}
        for a in new[coll]:
            # the others: not a new algorithm, with any parameters
            newnames = {b.split(":")[0] for b in new[coll]}
            prev = {x: v for x, v in mine.items() if x.split(":")[0] not in newnames}
            if a not in mine or not prev:
                continue
            pb = min(prev, key=prev.get)
            gb = min(theirs, key=theirs.get) if theirs else None
            out.write("| %s | %s | %d | %s | %s %.1f | %s %.1f (%.2f) | %s |\n" % (
                coll, plat, p, {8: "8 B", 1024: "1 KiB", 65536: "64 KiB"}[n], a, mine[a], pb,
                prev[pb], mine[a] / prev[pb],
                "%s %.1f (%.2f)" % (gb, theirs[gb], mine[a] / theirs[gb]) if gb else "-"))
