#!/usr/bin/env bash
# The request test under the preload library:
#   requests.sh MPIEXEC NP PROGRAM PRELOAD_LIB ITERATIONS STARTS
# tests/component/requests.c (point-to-point and collective requests mixed
# in every completion call, a persistent allreduce restarted) with
# libmpicoll_preload.so, the bcast and the barrier forced to mpicoll's own
# algorithms (on one node the rules give them to the library). It must
# print "requests: ok", and mpicoll's verbose log must show it ran every
# MPI_Iallreduce, MPI_Ibcast and MPI_Ibarrier. Allocations are not counted:
# under the preload library each start is a generalized request, which the
# MPI library allocates.
set -u
mpiexec=$1 np=$2 prog=$3 lib=$4 iterations=$5 starts=$6
read -ra flags <<< "${TEST_LAUNCH_FLAGS:-}" # cmake/mpi_launch.cmake's
if "$mpiexec" --version 2>&1 | grep -qE "Open MPI|OpenRTE"; then
  env=(-x LD_PRELOAD="$lib" -x MPICOLL_VERBOSE=1 -x MPICOLL_BCAST=binomial
       -x MPICOLL_BARRIER=recursive_doubling)
else
  env=(-genv LD_PRELOAD "$lib" -genv MPICOLL_VERBOSE 1 -genv MPICOLL_BCAST binomial
       -genv MPICOLL_BARRIER recursive_doubling)
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL preload requests: $*"; exit 1; }

"$mpiexec" "${flags[@]}" -n "$np" "${env[@]}" "$prog" "$iterations" "$starts" unchecked \
  > "$dir/out" 2> "$dir/log" || { cat "$dir/out"; tail -20 "$dir/log"; fail "np=$np: the program failed"; }
cat "$dir/out"
grep -q "^requests: ok" "$dir/out" || fail "np=$np: no \"requests: ok\""
for c in allreduce bcast barrier; do
  n=$(grep -c "^mpicoll: $c algorithm=" "$dir/log")
  [ "$n" -ge "$iterations" ] || fail "np=$np: mpicoll ran $n ${c}s, expected $iterations or more"
done
echo "preload requests: np=$np $iterations iterations, mpicoll ran every collective request"
