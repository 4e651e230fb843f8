#!/usr/bin/env bash
# The request tests under the preload library:
#   requests.sh MPIEXEC NP PROGRAM PRELOAD_LIB COLLS MIN [ARGS...]
# A self-checking program (requests.c of tests/component, persistent.c)
# with libmpicoll_preload.so, the bcast and the barrier forced to
# mpicoll's own algorithms (on one node the rules give them to the
# library) and MPICOLL_RANKS_PER_NODE=1 (requests take no shared memory
# within a node: as on ranks of separate nodes, where mpicoll's own
# algorithms take small calls). It must print "<program>: ok", and
# mpicoll's verbose log must show it ran each collective of COLLS
# (comma-separated) MIN times or more.
set -u
mpiexec=$1 np=$2 prog=$3 lib=$4 colls=$5 min=$6
shift 6
read -ra flags <<< "${TEST_LAUNCH_FLAGS:-}" # cmake/mpi_launch.cmake's
if "$mpiexec" --version 2>&1 | grep -qE "Open MPI|OpenRTE"; then
  env=(-x LD_PRELOAD="$lib" -x MPICOLL_VERBOSE=1 -x MPICOLL_BCAST=binomial
       -x MPICOLL_BARRIER=recursive_doubling -x MPICOLL_RANKS_PER_NODE=1)
else
  env=(-genv LD_PRELOAD "$lib" -genv MPICOLL_VERBOSE 1 -genv MPICOLL_BCAST binomial
       -genv MPICOLL_BARRIER recursive_doubling -genv MPICOLL_RANKS_PER_NODE 1)
fi
name=$(basename "$prog")
name=${name#preload_}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL preload $name: $*"; exit 1; }

"$mpiexec" "${flags[@]}" -n "$np" "${env[@]}" "$prog" "$@" > "$dir/out" 2> "$dir/log" ||
  { cat "$dir/out"; grep -v "^mpicoll: " "$dir/log" | tail -20; fail "np=$np: the program failed"; }
cat "$dir/out"
grep -q "^$name: ok" "$dir/out" || fail "np=$np: no \"$name: ok\""
for c in ${colls//,/ }; do
  n=$(grep -c "^mpicoll: $c algorithm=" "$dir/log")
  [ "$n" -ge "$min" ] || fail "np=$np: mpicoll ran $n ${c}s, expected $min or more"
done
echo "preload $name: np=$np, mpicoll ran every collective"
