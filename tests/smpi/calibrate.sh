#!/usr/bin/env bash
# `mpicoll calibrate` under SMPI on 2 ranks of platforms/flat.xml (two
# hosts: net.* measured, node.* not): what it measures must be the
# platform's own network (see that file's comment):
#   net.latency        1e-6 within 10%  (two links of 0.5 us)
#   net.beta           1e-10 within 10% (10 GB/s)
#   net.send_overhead, net.recv_overhead   2e-7 within 25% (smpi/os, ois, or)
#   copy, reduce       0 (smpi/simulate-computation:no: no local time)
#   net.eager          32768: SMPI sends a message below
#                      smpi/send-is-detached-thresh (65536 by default)
#                      detached, without its receive; the largest power of
#                      two below it
#   nic                1e-10 within 10%, and the comment says it was not
#                      measured (one rank a node: net.beta)
#   fanin              0 (not measured: one rank a node)
# Then on 16 ranks of platforms/cluster8.xml (two nodes of 8 ranks): nic
# 8e-11 within 10% (the node's 12.5 GB/s link with the 8 streams on it;
# a slope not divided by the 8 streams would be 6.4e-10), and fanin
# 4e-11 / 7 within 10% (the 7 other ranks of a node sending to one at
# once, each at the loopback's full 25 GB/s: SimGrid's loopback is a
# FATPIPE, not shared).
# Run with the settings of tools/sim/sim.py (simulation without local
# computation, the library privatised per rank). Needs build-smpi/
# (scripts/smpi-build.sh; run.sh builds it first). Prints the file; exits 1
# on a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${SMPI_BUILD:-build-smpi}
[ -x "$build/mpicoll" ] || { echo "smpi calibrate: $build/mpicoll missing: run scripts/smpi-build.sh" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# calibrate PLATFORM NP OUT: mpicoll calibrate on NP ranks of PLATFORM into OUT
calibrate() {
  tools/sim/sim.py hostfile "$1" "$2" > "$tmp/hosts"
  # smpirun's privatised copies of the library go to TMPDIR (see sim.py)
  if ! TMPDIR=$tmp timeout 300 smpirun -platform "platforms/$1.xml" -hostfile "$tmp/hosts" -np "$2" \
      --cfg=smpi/simulate-computation:no \
      --cfg=smpi/privatize-libs:"$PWD/$build/libmpicoll.so.0" \
      "$build/mpicoll" calibrate -o "$3" > "$tmp/log" 2>&1; then
    cat "$tmp/log" >&2
    echo "smpi calibrate: mpicoll calibrate failed on $1" >&2
    exit 1
  fi
}
calibrate flat 2 "$tmp/params"
cat "$tmp/params"
awk '
  function near(key, want, tol) {
    if (!(key in v)) { print "smpi calibrate: " key " missing"; bad = 1; return }
    if (v[key] < want * (1 - tol) || v[key] > want * (1 + tol)) {
      printf "smpi calibrate: %s is %s, not %g within %d%%\n", key, v[key], want, tol * 100
      bad = 1
    }
  }
  function exactly(key, want) {
    if (v[key] != want) { printf "smpi calibrate: %s is %s, not %s\n", key, v[key], want; bad = 1 }
  }
  /^# node\.\*: not measured/ { unmeasured = 1 }
  /^# nic: not measured/ { nic_unmeasured = 1 }
  !/^#/ && NF >= 2 { v[$1] = $2 + 0 }
  END {
    near("net.latency", 1e-6, 0.10)
    near("net.beta", 1e-10, 0.10)
    near("net.send_overhead", 2e-7, 0.25)
    near("net.recv_overhead", 2e-7, 0.25)
    exactly("copy", 0)
    exactly("reduce", 0)
    exactly("net.eager", 32768)
    exactly("fanin", 0)
    near("nic", 1e-10, 0.10)
    if (!nic_unmeasured) { print "smpi calibrate: the comment does not say nic was not measured"; bad = 1 }
    if (!unmeasured) { print "smpi calibrate: the comment does not say node.* was not measured"; bad = 1 }
    exit bad
  }' "$tmp/params"
echo "smpi calibrate: flat's network measured as the platform says"

calibrate cluster8 16 "$tmp/params8"
grep -E '^(# nic|nic |# fanin|fanin )' "$tmp/params8"
awk '!/^#/ && $1 == "nic" { n = $2 + 0 }
  !/^#/ && $1 == "fanin" { f = $2 + 0 }
  END {
    if (n < 8e-11 * 0.9 || n > 8e-11 * 1.1) { printf "smpi calibrate: cluster8 nic is %g, not 8e-11 within 10%%\n", n; exit 1 }
    w = 4e-11 / 7
    if (f < w * 0.9 || f > w * 1.1) { printf "smpi calibrate: cluster8 fanin is %g, not %g within 10%%\n", f, w; exit 1 }
  }' "$tmp/params8"
echo "smpi calibrate: cluster8's node link measured with its 8 streams, a rank's loopback with 7"
