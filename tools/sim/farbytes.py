#!/usr/bin/env python3
"""Bytes that cross between groups of hosts in one call, per algorithm:
docs/scale.md's table of global-link traffic.

    tools/sim/farbytes.py [--mpicoll build/mpicoll] [--bytes 64K]

Counted from the plans (`mpicoll model --group G`: every message between
ranks of different groups of G consecutive ranks, summed over all ranks),
not measured: on the dragonfly (platforms/dragonfly.xml, groups of 128
hosts, minimal static routes) each such message crosses one global link;
on the fat tree (platforms/fattree.xml, leaves of 16 hosts) one leaf's
uplink and another's downlink. One rank a host, as the simulations run.
"""
import argparse
import csv
import io
import subprocess

ALGOS = {
    "allgather": "recursive_multiplying:k=8,bine,k_bruck:k=8,recursive_doubling,neighbor,ring",
    "allreduce": "swing_bandwidth,rabenseifner,swing_latency,recursive_multiplying:k=4,"
                 "recursive_doubling,ring",
    "reduce_scatter_block": "bine,recursive_halving,recursive_multiplying:k=4,ring",
    "bcast": "bine,binomial,knomial:k=8,scatter_allgather_rd,scatter_allgather_ring",
    "reduce": "bine,binomial,knomial:k=4,rabenseifner",
}
NETS = (("dragonfly", 128), ("fat tree", 16))
NPS = (256, 1024)


def far(mpicoll, coll, algos, group, size):
    """{(algorithm, np): bytes between groups}"""
    out = subprocess.run([mpicoll, "model", coll, "--np", ",".join(map(str, NPS)), "--bytes",
                          size, "--group", str(group), "-a", algos, "--csv"],
                         capture_output=True, text=True, check=True).stdout
    return {(r["algorithm"], int(r["np"])): int(r["far_bytes"])
            for r in csv.DictReader(io.StringIO(out)) if r["algorithm"] != "auto"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mpicoll", default="build/mpicoll", help="the mpicoll program")
    ap.add_argument("--bytes", default="64K",
                    help="block (allgather) or vector/buffer size (default 64K)")
    args = ap.parse_args()
    cols = ["%s %d" % (n, p) for n, _ in NETS for p in NPS]
    print("| collective | algorithm | %s |" % " | ".join(cols))
    print("|---|---|%s" % ("---:|" * len(cols)))
    for coll, algos in ALGOS.items():
        got = {net: far(args.mpicoll, coll, algos, g, args.bytes) for net, g in NETS}
        for a in algos.split(","):       # (no spec here has two parameters)
            cells = ["%.1f" % (got[n][(a, p)] / 2**20) for n, _ in NETS for p in NPS]
            print("| %s | %s | %s |" % (coll, a, " | ".join(cells)))


if __name__ == "__main__":
    main()
