#!/usr/bin/env bash
# CI under SimGrid's SMPI: every algorithm of allgather, alltoall and
# allreduce (and the default selection, auto) on 64 simulated ranks of the
# multicore platform (4 nodes of 16 ranks, so the hierarchical algorithms
# see real nodes), each validated by `mpicoll bench` at sizes that cover
# eager and rendezvous messages and counts that are not multiples of 64.
# Fails if any algorithm gives a wrong result, fails or hangs (timeout).
# Builds build-smpi/ first (scripts/smpi-build.sh). Extra arguments go to
# tools/sim/sim.py (e.g. --lock FILE).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/smpi-build.sh > /dev/null
status=0
for coll in allgather alltoall allreduce; do
  case $coll in
    allreduce) sizes=4,1000,100000 ;;   # float vectors of 1, 250 and 25000 elements
    *) sizes=1,1000,100000 ;;           # bytes per block
  esac
  echo "== $coll"
  tools/sim/sim.py run "$coll" --np 64 --platform multicore -m "$sizes" --builtins none \
    --timeout 300 "$@" || status=1
done
exit $status
