#!/usr/bin/env bash
# The preload test: run.sh MPIEXEC NP APP PRELOAD_LIB [MODE]
# The same unmodified program with and without libmpicoll_preload.so must
# print the same results; with it, the verbose log must show mpicoll's
# algorithms for every collective (and without the log, which turns off
# the communicator's keeping of a call made again, the results must be
# the same too); with MPICOLL_DISABLE=1, none; with
# MPICOLL_DISABLE=1 on one rank only, every rank fails with a message
# (no hang). MODE (blocking, nb, persistent: the program's argument, its
# calls' form; default blocking).
set -u
mpiexec=$1 np=$2 app=$3 lib=$4 mode=${5:-blocking}
read -ra flags <<< "${TEST_LAUNCH_FLAGS:-}" # cmake/mpi_launch.cmake's
launch=("$mpiexec" "${flags[@]}" -n "$np")
if "$mpiexec" --version 2>&1 | grep -qE "Open MPI|OpenRTE"; then
  preload=(-x LD_PRELOAD="$lib" -x MPICOLL_VERBOSE -x MPICOLL_DISABLE)
  [ -z "${MPICOLL_RANKS_PER_NODE:-}" ] || preload+=(-x MPICOLL_RANKS_PER_NODE)
else
  preload=(-genv LD_PRELOAD "$lib")
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL preload: $*"; exit 1; }

"${launch[@]}" "$app" "$mode" > "$dir/native" 2>&1
[ $? = 0 ] || fail "the program failed without the preload library"
MPICOLL_DISABLE=0 MPICOLL_VERBOSE=1 "${launch[@]}" "${preload[@]}" "$app" "$mode" > "$dir/out" 2> "$dir/log" ||
  { cat "$dir/log"; fail "the program failed with the preload library"; }
grep -q "point-to-point during collectives: ok" "$dir/out" || fail "point-to-point messages were disturbed"
diff -u "$dir/native" "$dir/out" || fail "results differ with the preload library"
MPICOLL_DISABLE=0 MPICOLL_VERBOSE=0 "${launch[@]}" "${preload[@]}" "$app" "$mode" > "$dir/quiet" \
  2> "$dir/qlog" || { cat "$dir/qlog"; fail "the program failed with the preload library, without its log"; }
diff -u "$dir/native" "$dir/quiet" || fail "results differ with the preload library, without its log"
# every collective: the rows of include/mpicoll_collectives.h
for c in $(sed -n 's/^ *X(\([a-z_0-9]*\),.*/\1/p' "$(dirname "$0")/../../include/mpicoll_collectives.h"); do
  grep -q "^mpicoll: $c algorithm=" "$dir/log" || { cat "$dir/log"; fail "no mpicoll $c in the log"; }
done
if [ "$np" -ge 4 ]; then
  for c in allreduce gather barrier; do
    grep -q "^mpicoll: $c native MPI collective (intercommunicator)" "$dir/log" ||
      { cat "$dir/log"; fail "the intercommunicator $c did not go to the MPI library's collective"; }
  done
fi
MPICOLL_DISABLE=1 MPICOLL_VERBOSE=1 "${launch[@]}" "${preload[@]}" "$app" "$mode" > "$dir/off" \
  2> "$dir/offlog" || fail "the program failed with MPICOLL_DISABLE=1"
diff -u "$dir/native" "$dir/off" || fail "results differ with MPICOLL_DISABLE=1"
! grep -q "algorithm=" "$dir/offlog" || fail "mpicoll ran although MPICOLL_DISABLE=1"
if [ "$np" -ge 2 ]; then
  # rank 0 alone disabled: an MPMD command line, the same program twice
  if "$mpiexec" --version 2>&1 | grep -qE "Open MPI|OpenRTE"; then
    mixed=("$mpiexec" "${flags[@]}" -n 1 -x LD_PRELOAD="$lib" -x MPICOLL_DISABLE=1 "$app" "$mode"
           : -n $((np - 1)) -x LD_PRELOAD="$lib" "$app" "$mode")
  else
    mixed=("$mpiexec" -genv LD_PRELOAD "$lib" -n 1 -env MPICOLL_DISABLE 1 "$app" "$mode" :
           -n $((np - 1)) "$app" "$mode")
  fi
  env -u MPICOLL_DISABLE timeout 60 "${mixed[@]}" > "$dir/mixed" 2>&1
  rc=$?
  [ $rc != 0 ] && [ $rc != 124 ] || { cat "$dir/mixed"; fail "MPICOLL_DISABLE=1 on rank 0 only: exit $rc, expected an error"; }
  grep -q 'mpicoll: error: MPICOLL_DISABLE is "1" on rank 0 but unset on rank 1' "$dir/mixed" ||
    { cat "$dir/mixed"; fail "MPICOLL_DISABLE=1 on rank 0 only: no message"; }
fi
echo "preload: $mode np=$np same results as the MPI library's own; mpicoll ran every collective; MPICOLL_DISABLE works"
