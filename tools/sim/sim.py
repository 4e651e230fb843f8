#!/usr/bin/env python3
"""mpicoll at scale on SimGrid's SMPI: simulated times of every algorithm.

  tools/sim/sim.py run COLLECTIVE --np LIST --platform NAME [options]
  tools/sim/sim.py hostfile PLATFORM NP
  tools/sim/sim.py table [--summary | --worst-auto | --newest COLL/ALGO ...] [--sizes LIST] CSV...
  tools/sim/sim.py calibrate PLATFORM
  tools/sim/sim.py params PLATFORM
  tools/sim/sim.py builtins COLLECTIVE

`run` needs the SMPI build (scripts/smpi-build.sh). For each np it runs
`mpicoll bench` under smpirun once per mpicoll algorithm and once per
SimGrid built-in algorithm of the collective (`native` with
--cfg=smpi/<coll>:NAME), validation on; asks `mpicoll model` for the cost
model's time of each algorithm (with the platform's parameters: `params`,
`mpicoll calibrate` under smpirun) and for the algorithm mpicoll's default
selection runs (auto); computes the alpha-beta lower bound from alpha and
beta calibrated by a simulated ping-pong on the same platform; and prints
one table per np, a summary and, with --plot, a gnuplot figure. Times are
simulated microseconds; wall times are seconds of this machine.

Simulation settings (docs/scale.md says why): local computation is not
simulated (smpi/simulate-computation:no: copies and reductions take no
simulated time), SimGrid's barrier between iterations is the dissemination
one (ompi_bruck: ranks leave it together), the library's globals are
privatised per rank (smpi/privatize-libs). Points whose buffers would not
fit in --mem-gib run on SMPI's shared memory (smpi/auto-shared-malloc-thresh):
their data are not real, so they are timed without validation and marked
so.
"""

import argparse
import csv
import fcntl
import hashlib
import io
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from simreport import newest, plot, report, summary, tables, worst_auto, write_csv

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REDUCTION_ESIZE = 4            # bench and model: float vectors
# the collectives and their signature families: the rows X(name, MPI name,
# family) of include/mpicoll_collectives.h
with open(os.path.join(ROOT, "include", "mpicoll_collectives.h")) as _f:
    FAMILY = dict(re.findall(r"^\s*X\((\w+), \w+, (\w+)\)", _f.read(), re.M))
COLLECTIVES = tuple(FAMILY)
# SimGrid's selector where its name differs (MPI_Reduce_scatter_block runs
# its reduce_scatter algorithms with equal counts); None: SimGrid has no
# selector (its one algorithm is what `native` runs, no built-ins to try)
SIMGRID_NAME = {"reduce_scatter_block": "reduce_scatter", "scan": None, "exscan": None,
                "gatherv": None, "scatterv": None}
# Sizes are one rank's block for these (as `mpicoll model`; the v-forms with
# every count the same, as bench runs them), the whole vector or buffer for
# the others; barrier has none (one row, 0 bytes)
BLOCKED = ("allgather", "alltoall", "reduce_scatter_block", "reduce_scatter", "gather",
           "scatter", "allgatherv", "gatherv", "scatterv", "alltoallv")
# bench's size is the whole vector of p blocks for these (sizes: one block)
WHOLE_VECTOR = ("reduce_scatter_block", "reduce_scatter")
SHARED_THRESH = 1 << 20        # mallocs of 1 MiB and more are shared in shared mode
SHARED_BLOCK = 1 << 30         # one mapping per GiB (vm.max_map_count is 65530)
BASE_CFG = ["--cfg=smpi/simulate-computation:no", "--cfg=smpi/barrier:ompi_bruck"]


class Fail(Exception):
    pass


def parse_size(s):
    m = re.fullmatch(r"(\d+)([KMG]?)", s.strip())
    if not m:
        raise argparse.ArgumentTypeError("bad size '%s' (N, NK, NM or NG)" % s)
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]


def parse_sizes(s):
    """'8,1K,64K,1M' or 'MIN:MAX' (powers of two times MIN)."""
    if ":" in s:
        lo, hi = (parse_size(x) for x in s.split(":", 1))
        out = []
        while lo <= hi:
            out.append(lo)
            lo *= 2
        return out
    return [parse_size(x) for x in s.split(",")]


# ---- platforms and hostfiles -------------------------------------------------

class Platform:
    def __init__(self, name):
        path = name if name.endswith(".xml") else os.path.join(ROOT, "platforms", name + ".xml")
        if not os.path.isfile(path):
            raise Fail("no platform '%s' (platforms/*.xml or a path)" % name)
        self.path = os.path.abspath(path)
        self.relpath = os.path.relpath(self.path, ROOT)    # as reports name it
        self.name = os.path.splitext(os.path.basename(path))[0]
        clusters = ET.parse(path).getroot().iter("cluster")
        c = next(clusters, None)
        if c is None:
            raise Fail("%s: no <cluster>" % path)
        lo, hi = (int(x) for x in c.get("radical").split("-"))
        self.hosts = ["%s%d%s" % (c.get("prefix"), i, c.get("suffix", "")) for i in range(lo, hi + 1)]
        props = {p.get("id"): p.get("value") for p in c.iter("prop")}
        self.ranks_per_host = int(props.get("mpicoll/ranks-per-host", 1))
        # a network of groups (a fat tree's leaves): the cost model's group
        # and oversubscription (src/model/cost.h)
        self.group = int(props.get("mpicoll/group", 0))
        self.oversubscription = float(props.get("mpicoll/oversubscription", 1))
        with open(path, "rb") as f:
            self.digest = hashlib.sha1(f.read()).hexdigest()[:12]

    def hostfile(self, np, spread=False):
        """Ranks fill hosts in order, ranks_per_host each; spread: one rank per
        host (the ping-pong between two hosts). A line per rank: smpirun
        unrolls "host:count" lines into a file it makes in the current
        directory, which a simulation killed at its timeout leaves there."""
        rph = 1 if spread else self.ranks_per_host
        need = (np + rph - 1) // rph
        if need > len(self.hosts):
            raise Fail("%s has %d hosts of %d ranks: np=%d does not fit"
                       % (self.name, len(self.hosts), rph, np))
        return "".join(h + "\n" for h in self.hosts[:need] for _ in range(rph))


# ---- running smpirun ---------------------------------------------------------

class Runner:
    def __init__(self, args, plat):
        self.build = os.path.abspath(args.build)
        self.plat = plat
        self.lock = args.lock
        self.chunk = args.chunk
        self.held = None               # (open lock file, since when)
        self.timeout = args.timeout
        self.cfgs = ["--cfg=" + c for c in getattr(args, "cfg", None) or []]
        self.said = set()              # fallback warnings already shown
        self.tmp = tempfile.mkdtemp(prefix="mpicoll-sim-")
        self.log = open(os.path.join(self.build, "sim-last.log"), "w")
        for f in ("mpicoll", "libmpicoll.so.0", "sim-pingpong"):
            if not os.path.exists(os.path.join(self.build, f)):
                raise Fail("%s/%s is missing: run scripts/smpi-build.sh" % (self.build, f))

    def close(self):
        self.release()
        shutil.rmtree(self.tmp, ignore_errors=True)
        self.log.close()

    def acquire(self):
        """With --lock: hold the lock over consecutive runs, for about
        --chunk seconds at a time, so that others get the machine between
        chunks; wall times start once the lock is held."""
        if self.lock and not self.held:
            f = open(self.lock, "a")
            fcntl.flock(f, fcntl.LOCK_EX)
            self.held = (f, time.monotonic())

    def release(self, unless_fresh=False):
        if self.held and not (unless_fresh and time.monotonic() - self.held[1] < self.chunk):
            self.held[0].close()
            self.held = None

    def smpirun(self, np, prog, cfgs=(), spread=False, hosts=None):
        """Runs prog (a list) on np ranks (on the list `hosts`, one rank
        each, if given); returns (rc, stdout, stderr, wall seconds); rc None
        on timeout. Both outputs also go to sim-last.log."""
        hf = os.path.join(self.tmp, "hosts-%d-%d" % (np, spread))
        with open(hf, "w") as f:
            f.write("".join(h + "\n" for h in hosts) if hosts else self.plat.hostfile(np, spread))
        cmd = ["smpirun", "-platform", self.plat.path, "-hostfile", hf, "-np", str(np)]
        cmd += BASE_CFG + ["--cfg=smpi/privatize-libs:%s" % os.path.join(self.build, "libmpicoll.so.0")]
        cmd += list(cfgs) + prog
        self.log.write("$ %s\n" % " ".join(cmd))
        self.log.flush()
        self.acquire()
        t0 = time.monotonic()
        # smpirun's temporary directory (the privatised copies of the library)
        # is TMPDIR's: two simulations that shared /tmp removed each other's
        # copies. (Its --cfg=smpi/tmpdir comes after ours and wins; its -tmpdir
        # option is broken in SimGrid 3.32.)
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True, env=dict(os.environ, TMPDIR=self.tmp))
        try:
            out, err = p.communicate(timeout=self.timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            rc = None
        wall = time.monotonic() - t0
        self.release(unless_fresh=True)
        self.log.write(err + out + "# rc=%s wall=%.1fs\n" % (rc, wall))
        self.log.flush()
        return rc, out, err, wall


def calibrate(runner):
    """alpha (s) = one-way time of 1 byte; beta (s/B) = slope between 1 and
    4 MiB; between the first two hosts (two nodes on a multi-core platform).
    Cached per platform file in the build directory."""
    plat = runner.plat
    cache = os.path.join(runner.build, "sim-calib-%s-%s.csv" % (plat.name, plat.digest))
    if not os.path.exists(cache):
        rc, out, _, _ = runner.smpirun(2, [os.path.join(runner.build, "sim-pingpong"), "1",
                                           "1048576", "4194304"], spread=True)
        if rc != 0:
            raise Fail("ping-pong failed on %s (see %s/sim-last.log)" % (plat.name, runner.build))
        with open(cache, "w") as f:
            f.write(out)
    with open(cache) as f:
        t = {int(r["bytes"]): float(r["oneway_us"]) * 1e-6 for r in csv.DictReader(f)}
    beta = (t[4194304] - t[1048576]) / (4194304 - 1048576)
    return t[1] - beta, beta


def params(runner):
    """The cost model's parameter file for the platform (src/model/cost.h),
    cached in the build directory: `mpicoll calibrate` under smpirun on the
    platform's first ranks (node.* where a host holds several, net.* between
    two hosts, nic with the ranks of the first host streaming to those of
    the second at once: two hosts' ranks); on a platform of groups (mpicoll/group), calibrate again
    between hosts of two groups for far.*, and group and oversubscription
    from the platform's properties. net.eager and far.eager are set to 0,
    their detach left as measured: SMPI frees the sender of a message below
    smpi/send-is-detached-thresh (64 KiB) at once, which calibrate's probe
    sees (32768, the largest power of two below it), but starts its data
    only when the receive is posted (smpi/async-small-thresh 0): the model's
    detach, not its eager (src/model/cost.h)."""
    plat = runner.plat
    path = os.path.join(runner.build, "sim-params-%s-%s.params" % (plat.name, plat.digest))
    if os.path.exists(path):
        return path

    def calibrate_on(np, hosts=None):
        out = os.path.join(runner.tmp, "calib")
        rc, _, _, _ = runner.smpirun(np, [os.path.join(runner.build, "mpicoll"), "calibrate",
                                          "-o", out], hosts=hosts)
        if rc != 0:
            raise Fail("mpicoll calibrate failed on %s (see %s/sim-last.log)"
                       % (plat.name, runner.build))
        with open(out) as f:
            return f.read().splitlines()

    lines = calibrate_on(2 * plat.ranks_per_host)
    values = {}
    if plat.group:
        far = calibrate_on(2, hosts=[plat.hosts[0], plat.hosts[plat.group]])
        values = {"far." + ln.split()[0][4:]: ln.split()[1] for ln in far
                  if ln.startswith("net.")}
        values.update(group=str(plat.group), oversubscription=repr(plat.oversubscription))
    values.update({"net.eager": "0", "far.eager": "0"})
    with open(path, "w") as f:
        f.write("# tools/sim/sim.py params: mpicoll calibrate on %s; %s set by sim.py\n"
                % (plat.name, ", ".join(sorted(values))))
        for ln in lines:
            key = ln.split()[0] if ln.strip() and not ln.startswith("#") else None
            f.write(("%s %s\n" % (key, values.pop(key)) if key in values else ln + "\n"))
        for key in sorted(values):
            f.write("%s %s\n" % (key, values[key]))
    return path


def builtin_names(runner, coll):
    """SimGrid's algorithms for coll, from its own error message."""
    if SIMGRID_NAME.get(coll, coll) is None:
        return []
    _, _, err, _ = runner.smpirun(2, [os.path.join(runner.build, "sim-pingpong"), "1"],
                                  cfgs=["--cfg=smpi/%s:?" % SIMGRID_NAME.get(coll, coll)])
    m = re.findall(r"Valid algorithms: ([^.]*)\.", err)
    if not m:
        raise Fail("could not list SimGrid's %s algorithms" % coll)
    return [a.strip() for a in m[-1].split(",") if a.strip() != "automatic"]


def lower_bound(coll, p, n, alpha, beta):
    """Alpha-beta lower bounds (Chan et al., 2007): ceil(log2 p) messages on
    the critical path (one for gather, scatter and barrier, where one rank
    reaches every other directly on these multi-port networks); bytes every rank must receive (or, for reductions,
    send and receive; the root's p - 1 blocks for gather and scatter)."""
    if p == 1:
        return 0.0
    lat = math.ceil(math.log2(p)) * alpha
    if coll in ("gather", "scatter", "gatherv", "scatterv", "barrier"):
        lat = alpha                # one hop from or to the root (barrier: from every
                                   # rank): the networks take p - 1 messages at once
    exchange = (p - 1) * n         # every rank (the root) receives or sends p - 1 blocks
    data = {"allreduce": 2 * (p - 1) / p * n, "reduce": (p - 1) / p * n, "bcast": n,
            "scan": n, "exscan": n, "barrier": 0}.get(coll, exchange)
    return lat + data * beta


def mem_per_rank(coll, p, n):
    """Bytes one rank's buffers take at most (send, receive, scratch)."""
    return {"allgather": n + 2 * p * n, "allgatherv": n + 2 * p * n, "gather": n + 2 * p * n,
            "gatherv": n + 2 * p * n, "scatter": n + 2 * p * n, "scatterv": n + 2 * p * n,
            "alltoall": 3 * p * n, "alltoallv": 3 * p * n, "reduce_scatter_block": 3 * p * n,
            "reduce_scatter": 3 * p * n}.get(coll, 4 * n)


def bench(runner, coll, p, sizes, algo, builtin, shared):
    """One smpirun of `mpicoll bench`: algo (an mpicoll spec, or None for
    native with SimGrid's built-in `builtin`) at every size. Returns
    ({bytes: (us or None, status)}, wall)."""
    vector = FAMILY[coll] in ("reduction", "rooted_reduction", "vreduction", "bcast")
    # bench's reduce_scatter_block and reduce_scatter size is the whole
    # vector: p blocks
    per = p if coll in WHOLE_VECTOR else 1
    counts = [per * n // REDUCTION_ESIZE if vector else n for n in sizes]
    prog = [os.path.join(runner.build, "mpicoll"), "bench", coll, "--format", "csv", "-i", "1",
            "-x", "0", "-a", algo or "native"]
    if coll != "barrier":              # barrier: one row, no size
        prog += ["--counts", ",".join(str(c) for c in counts)]
    if vector:
        prog += ["-T", "float"]
    # The harness's own allgather (mpicoll's node layout on first use, an
    # MPI_Allgather of one int) runs SimGrid's allgather: its default takes
    # O(p^2) of this machine's time (MPI_Waitany over p requests), 45 of the
    # 49 s of an 8-byte ring run at 256 ranks; Bruck's takes 5 s for the
    # whole run. Outside the timed region, so the times do not change.
    cfgs = [] if builtin and coll == "allgather" else ["--cfg=smpi/allgather:bruck"]
    if builtin:
        cfgs.append("--cfg=smpi/%s:%s" % (SIMGRID_NAME.get(coll, coll), builtin))
    if shared:
        cfgs += ["--cfg=smpi/auto-shared-malloc-thresh:%d" % SHARED_THRESH,
                 "--cfg=smpi/shared-malloc-blocksize:%d" % SHARED_BLOCK]
        prog.append("--no-validate")
    rc, out, err, wall = runner.smpirun(p, prog, cfgs + runner.cfgs)
    fallback = algo and re.search(r"warning: %s %s .*; running (\S+)"
                                  % (coll, re.escape(algo.split(":")[0])), err)
    if fallback and fallback.group(0) not in runner.said:
        runner.said.add(fallback.group(0))     # visibly, once per run of sim.py
        print("  mpicoll: " + fallback.group(0), file=sys.stderr, flush=True)
    res = {}
    for row in csv.DictReader(io.StringIO(out[out.find("collective,"):] if "collective," in out else "")):
        if not (row.get("valid") and row.get("bytes", "").isdigit()):
            continue                   # a torn line (a run that died mid-row): reported missing
        ok = row["valid"].strip() == "1"
        us = float(row["median_us"]) if ok else None
        # a fallback's result is validated too: "ran X" only when it is right
        res[int(row["bytes"]) // per] = ((None, "INVALID") if not ok else
                                  (None, "ran " + fallback.group(1)) if fallback else
                                  (us, "unchecked" if shared else "ok"))
    why = "timeout" if rc is None else "failed" if rc != 0 else "missing"
    for n in sizes:
        res.setdefault(n, (None, why))
    return res, wall


def specs(s):
    """The algorithms of an -a list: a parameter list goes with its algorithm
    ("a:x=1,y=2,ring": "a:x=1,y=2" and "ring"), as mpicoll reads it."""
    out = []
    for t in s.split(","):
        if out and "=" in t and ":" not in t:
            out[-1] += "," + t
        else:
            out.append(t)
    return out


def model(runner, coll, p, sizes, algos):
    """{spec: {bytes: us}} and {bytes: auto's spec} from `mpicoll model` with
    the platform's parameters (params), for the algorithms of the list
    `algos` ("all": those that apply)."""
    prog = [os.path.join(runner.build, "mpicoll"), "model", coll, "--np", str(p), "--bytes",
            ",".join(str(n) for n in sizes), "--params", params(runner),
            "--ranks-per-node", str(runner.plat.ranks_per_host), "--csv"]
    named = [a for a in specs(algos) if a != "auto"]
    if algos != "all" and named:
        prog += ["-a", ",".join(named)]
    rc, out, _, _ = runner.smpirun(1, prog)
    if rc != 0:
        raise Fail("mpicoll model failed (see %s/sim-last.log)" % runner.build)
    times, auto, spec = {}, {}, {}
    for row in csv.DictReader(io.StringIO(out[out.find("collective,"):])):
        n = int(row["bytes"])
        times.setdefault(row["algorithm"], {})[n] = float(row["model_us"])
        if row["algorithm"] == "auto":
            auto[n] = row["runs"]
        else:
            spec[row["algorithm"]] = row["runs"]
    # auto's choice under the name it was asked by ("knomial:k=4" for
    # "knomial:k=4,prepost=0": every parameter spelled out)
    names = {v: k for k, v in spec.items()}
    auto = {n: names.get(a, a) for n, a in auto.items()}
    return times, auto


# ---- the study -----------------------------------------------------------------

def study(args):
    if args.collective == "barrier":
        args.sizes = [0]               # no size: one row
    plat = Platform(args.platform)
    runner = Runner(args, plat)
    try:
        alpha, beta = calibrate(runner)
        builtins = []
        if SIMGRID_NAME.get(args.collective, args.collective) is None:
            pass                       # SimGrid has one algorithm: native's
        elif args.builtins == "all":
            builtins = builtin_names(runner, args.collective)
        elif args.builtins != "none":
            builtins = args.builtins.split(",")
        results = []
        for p in args.np:
            results.append(study_np(args, runner, p, builtins, alpha, beta))
    finally:
        runner.close()
    return plat, alpha, beta, results


def study_np(args, runner, p, builtins, alpha, beta):
    coll, sizes = args.collective, args.sizes
    mtimes, auto = model(runner, coll, p, sizes, args.algorithms)
    algos = [a for a in mtimes if a != "auto"] + ["auto"] if args.algorithms == "all" \
        else specs(args.algorithms)
    budget = args.mem_gib * (1 << 30)
    groups = [(False, [n for n in sizes if p * mem_per_rank(coll, p, n) <= budget]),
              (True, [n for n in sizes if p * mem_per_rank(coll, p, n) > budget])]
    r = {"p": p, "sim": {}, "builtin": {}, "wall": {}, "model": mtimes, "auto": auto,
         "bound": {n: lower_bound(coll, p, n, alpha, beta) * 1e6 for n in sizes}}
    for label, dest, runs in (("mpicoll", "sim", [(a, None) for a in algos]),
                              ("SimGrid", "builtin", [(None, b) for b in builtins])):
        for algo, builtin in runs:
            name = algo or builtin
            for shared, group in groups:
                if not group:
                    continue
                res, wall = bench(runner, coll, p, group, algo, builtin, shared)
                r[dest].setdefault(name, {}).update(res)
                r["wall"][(dest, name)] = r["wall"].get((dest, name), 0) + wall
                print("  np=%d %s %s: %.1f s" % (p, label, name, wall), file=sys.stderr, flush=True)
    return r


# ---- command line ------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="simulate a collective on a platform")
    r.add_argument("collective", choices=COLLECTIVES)
    r.add_argument("--np", required=True, type=lambda s: [int(x) for x in s.split(",")],
                   help="comma-separated rank counts")
    r.add_argument("--platform", required=True, help="platforms/NAME.xml, or a path")
    r.add_argument("-m", dest="sizes", type=parse_sizes, default=parse_sizes("8,1K,64K,1M"),
                   help="sizes in bytes: LIST (8,1K,64K,1M: the default) or MIN:MAX (powers of 2)")
    r.add_argument("-a", dest="algorithms", default="all",
                   help="mpicoll algorithms, comma-separated (default: all that apply, and auto)")
    r.add_argument("--builtins", default="all",
                   help="SimGrid algorithms (comma-separated), all (default) or none")
    r.add_argument("--plot", metavar="FILE.png|FILE.svg", help="draw the times with gnuplot")
    r.add_argument("--csv", metavar="FILE", help="also write every cell as CSV")
    r.add_argument("--timeout", type=float, default=600, help="seconds per smpirun (default 600)")
    r.add_argument("--cfg", action="append", metavar="KEY:VALUE",
                   help="one more SimGrid setting for the benchmark runs (repeatable), "
                        "e.g. network/crosstraffic:0")
    r.add_argument("--mem-gib", type=float, default=4,
                   help="memory of all ranks' buffers above which a point runs on shared "
                        "memory, unvalidated (default 4)")
    h = sub.add_parser("hostfile", help="print a hostfile for NP ranks")
    h.add_argument("platform")
    h.add_argument("np", type=int)
    c = sub.add_parser("calibrate", help="alpha and beta of a platform")
    c.add_argument("platform")
    pp = sub.add_parser("params", help="the cost model's parameter file of a platform (its path)")
    pp.add_argument("platform")
    t = sub.add_parser("table", help="docs/scale.md's tables from CSV files of run --csv")
    t.add_argument("--summary", action="store_true",
                   help="only the ratios of the page's first tables (mpicoll/SimGrid, auto/mpicoll)")
    t.add_argument("--newest", action="append", metavar="COLL/ALGO",
                   help="instead, the newest algorithms' table: COLL/ALGO against mpicoll's"
                        " fastest other and SimGrid's fastest at each point (repeatable)")
    t.add_argument("--worst-auto", action="store_true",
                   help="instead, per collective and size, auto's worst ratio to mpicoll's"
                        " fastest over the files' np and platforms (a later file's auto row"
                        " replaces an earlier one's)")
    t.add_argument("--sizes", type=parse_sizes,
                   help="--summary, --worst-auto: only these sizes' columns (LIST or MIN:MAX)")
    t.add_argument("csv", nargs="+")
    b = sub.add_parser("builtins", help="SimGrid's algorithms for a collective")
    b.add_argument("collective", choices=COLLECTIVES)
    for s in (r, c, pp, b):
        s.add_argument("--build", default=os.path.join(ROOT, "build-smpi"), help="the SMPI build")
        s.add_argument("--lock", help="run smpirun under flock FILE, in chunks of --chunk seconds")
        s.add_argument("--chunk", type=float, default=300,
                       help="seconds of runs per holding of --lock (default 300)")
    args = ap.parse_args()
    try:
        if args.cmd == "table":
            if args.newest:
                new = {}
                for spec in args.newest:
                    coll, _, algo = spec.partition("/")
                    new.setdefault(coll, []).append(algo)
                newest(args.csv, new, sys.stdout)
            elif args.worst_auto:
                worst_auto(args.csv, sys.stdout, args.sizes)
            elif args.summary:
                summary(args.csv, sys.stdout, args.sizes)
            else:
                tables(args.csv, sys.stdout)
            return 0
        if args.cmd == "hostfile":
            sys.stdout.write(Platform(args.platform).hostfile(args.np))
            return 0
        if args.cmd in ("calibrate", "params", "builtins"):
            args.timeout = 120
            runner = Runner(args, Platform("flat" if args.cmd == "builtins" else args.platform))
            try:
                if args.cmd == "params":
                    print(params(runner))
                elif args.cmd == "calibrate":
                    a, b = calibrate(runner)
                    print("alpha %.4g s (%.3f us)\nbeta %.4g s/B (%.3f GB/s)" % (a, a * 1e6, b, 1e-9 / b))
                else:
                    print(" ".join(builtin_names(runner, args.collective)))
            finally:
                runner.close()
            return 0
        plat, alpha, beta, results = study(args)
        bad = report(args, plat, alpha, beta, results, sys.stdout)
        if args.csv:
            write_csv(args, plat, results, args.csv)
        if args.plot:
            plot(args, plat, results, args.plot)
        if bad:
            print("\n%d mpicoll cell(s) invalid, failed or timed out" % bad)
        return 1 if bad else 0
    except Fail as e:
        print("sim: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
