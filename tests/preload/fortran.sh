#!/usr/bin/env bash
# The preload test in Fortran: fortran.sh MPIEXEC NP APP PRELOAD_LIB MODE
# tests/component/app.F90 (built for one binding: mpif.h, use mpi or use
# mpi_f08), run with the mode as argument, without and with
# libmpicoll_preload.so: the same results required, and mpicoll's
# algorithm in the MPICOLL_VERBOSE log for every collective. For the nb
# and persistent modes the Fortran wrappers call the C forms MPI_I<name>
# and MPI[X]_<Name>_init: the log is required for each of those that the
# preload library defines (the results, through the Fortran wrappers'
# conversions, always).
set -u
mpiexec=$1 np=$2 app=$3 lib=$4 mode=$5
read -ra flags <<< "${TEST_LAUNCH_FLAGS:-}" # cmake/mpi_launch.cmake's
launch=("$mpiexec" "${flags[@]}" -n "$np")
if "$mpiexec" --version 2>&1 | grep -qE "Open MPI|OpenRTE"; then
  preload=(-x LD_PRELOAD="$lib" -x MPICOLL_VERBOSE -x MPICOLL_DISABLE)
else
  preload=(-genv LD_PRELOAD "$lib")
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL preload: $*"; exit 1; }

"${launch[@]}" "$app" "$mode" > "$dir/native" 2>&1 || { cat "$dir/native"; fail "$app $mode failed without the preload library"; }
MPICOLL_DISABLE=0 MPICOLL_VERBOSE=1 "${launch[@]}" "${preload[@]}" "$app" "$mode" > "$dir/out" 2> "$dir/log" ||
  { cat "$dir/log"; fail "$app $mode failed with the preload library"; }
[ -s "$dir/native" ] || fail "$app $mode printed nothing"
diff -u "$dir/native" "$dir/out" || fail "$app $mode: results differ with the preload library"
# every collective: the rows X(name, MPI name, family) of include/mpicoll_collectives.h
defined=$(nm -D --defined-only "$lib" | awk '{print $3}')
unchecked=
while read -r c C; do
  case $mode in
    nb) sym=MPI_I$c ;;
    persistent) sym="MPI_${C}_init MPIX_${C}_init" ;;
    *) sym=MPI_$C ;;
  esac
  have=
  for s in $sym; do grep -qx "$s" <<< "$defined" && have=1; done
  if [ -z "$have" ]; then unchecked="$unchecked $c"; continue; fi
  grep -q "^mpicoll: $c algorithm=" "$dir/log" ||
    { grep -v "^mpicoll:   built-in:" "$dir/log" | tail -40; fail "$app $mode: no mpicoll $c in the log"; }
done < <(sed -n 's/^ *X(\([a-z_0-9]*\), *\([A-Za-z_0-9]*\),.*/\1 \2/p' "$(dirname "$0")/../../include/mpicoll_collectives.h")
if [ -n "$unchecked" ]; then
  echo "preload: np=$np $app $mode: same results as the MPI library's own; the log not checked for$unchecked (no C $mode form in the preload library)"
else
  echo "preload: np=$np $app $mode: same results as the MPI library's own; mpicoll ran every collective"
fi
