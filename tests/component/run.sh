#!/usr/bin/env bash
# The component test: run.sh MPIEXEC NP COMPONENT_DIR PROGRAM [ARGS...]
# One unmodified MPI program (C, Fortran or Python) under Open MPI with
# mca_coll_mpicoll.so's directory on the component path: with the
# component disabled (coll_mpicoll_priority -1: Open MPI's own
# collectives) and enabled, with and without its log. It must print the
# same results each time, and with the component mpicoll must have run
# every collective (its MPICOLL_VERBOSE log, through the component's
# verbose parameter). The run without the log is the one where a call
# made again is the communicator's kept call (the log turns that off).
set -u
mpiexec=$1 np=$2 dir=$3
shift 3
read -ra flags <<< "${TEST_LAUNCH_FLAGS:-}" # cmake/mpi_launch.cmake's
pkglib=$(ompi_info --path pkglibdir | sed 's/.*: *//')
launch=("$mpiexec" "${flags[@]}" -n "$np" --mca mca_base_component_path "$pkglib:$dir")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL component: $*"; exit 1; }

"${launch[@]}" --mca coll_mpicoll_priority -1 --mca coll_mpicoll_verbose 1 "$@" \
  > "$tmp/native" 2> "$tmp/nlog" || { cat "$tmp/nlog"; fail "$* failed with the component disabled"; }
! grep -q "algorithm=" "$tmp/nlog" || fail "mpicoll ran with coll_mpicoll_priority -1"
"${launch[@]}" --mca coll_mpicoll_verbose 1 "$@" > "$tmp/out" 2> "$tmp/log" ||
  { cat "$tmp/log"; fail "$* failed with the component"; }
[ -s "$tmp/native" ] || fail "$* printed nothing"
diff -u "$tmp/native" "$tmp/out" || fail "$*: results differ with the component"
"${launch[@]}" "$@" > "$tmp/quiet" 2> "$tmp/qlog" ||
  { cat "$tmp/qlog"; fail "$* failed with the component, without its log"; }
diff -u "$tmp/native" "$tmp/quiet" || fail "$*: results differ with the component, without its log"
if [ "$np" -ge 2 ]; then
  # every collective: the rows of include/mpicoll_collectives.h
  for c in $(sed -n 's/^ *X(\([a-z_0-9]*\),.*/\1/p' "$(dirname "$0")/../../include/mpicoll_collectives.h"); do
    grep -q "^mpicoll: $c algorithm=" "$tmp/log" || { grep -v "^mpicoll:   built-in:" "$tmp/log" | tail -40; fail "$*: no mpicoll $c in the log"; }
  done
fi
echo "component: np=$np $*: same results as Open MPI's own; mpicoll ran every collective"
