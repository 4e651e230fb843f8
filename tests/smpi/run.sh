#!/usr/bin/env bash
# CI under SimGrid's SMPI: every algorithm of allgather, alltoall and
# allreduce (and the default selection, auto) on 64 simulated ranks of the
# multicore platform (4 nodes of 16 ranks, so the hierarchical algorithms
# see real nodes), each validated by `mpicoll bench` at sizes that cover
# eager and rendezvous messages and counts that are not multiples of 64.
# Then the shared-memory algorithms (shm, shm_hier: the collective's .def) on one node
# (np 16): SMPI cannot run them (its ranks share one process), so each must
# say so (the fallback warning, shown) and run its fallback, validated.
# Fails if any algorithm gives a wrong result, fails or hangs (timeout).
# Then `mpicoll calibrate` on 2 ranks of the flat platform must measure the
# platform's network (tests/smpi/calibrate.sh, which runs alone too).
#
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
  # the collective's shared-memory algorithms, from its table (src/coll/*/*.def)
  shm=$(grep -o '^MPICOLL_ALGO(shm[a-z_]*' "src/coll/$coll/$coll.def" | cut -d'(' -f2 | paste -sd,)
  echo "== $coll: every algorithm, np 64"
  tools/sim/sim.py run "$coll" --np 64 --platform multicore -m "$sizes" --builtins none \
    --timeout 300 "$@" || status=1
  echo "== $coll: shared-memory algorithms ($shm), np 16 (one node)"
  tools/sim/sim.py run "$coll" --np 16 --platform multicore -m "$sizes" --builtins none \
    -a "$shm" --timeout 300 "$@" 2>&1 | tee /tmp/mpicoll-smpi-shm.$$ || status=1
  # visibly declared: a warning naming SMPI for each of them
  n=$(grep -c "warning: $coll shm.*SMPI" /tmp/mpicoll-smpi-shm.$$ || true)
  rm -f /tmp/mpicoll-smpi-shm.$$
  if [ "$n" -ne "$(echo "$shm" | tr , '\n' | wc -l)" ]; then
    echo "smpi: $coll $shm: expected a fallback warning naming SMPI for each, saw $n" >&2
    status=1
  fi
done
echo "== calibrate: np 2 of flat"
tests/smpi/calibrate.sh || status=1
exit $status
