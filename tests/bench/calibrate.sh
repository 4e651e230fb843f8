#!/usr/bin/env bash
# The calibrate test: calibrate.sh MPIEXEC MPICOLL TEST_COST. `mpicoll
# calibrate` on 2 ranks writes a parameter file (-o, and to standard output)
# that cost_read accepts (TEST_COST FILE) with all 24 keys and its comment;
# on 1 rank, with a bad argument or an -o it cannot write: a message and a
# non-zero status, and no file. Prints "FAIL calibrate: ..." and exits 1 on
# a failure.
set -u
mpiexec=$1 mpicoll=$2 test_cost=$3
read -ra flags <<< "${TEST_LAUNCH_FLAGS:-}" # cmake/mpi_launch.cmake's
launch() { local np=$1; shift; "$mpiexec" "${flags[@]}" -n "$np" "$@"; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL calibrate: $*"; exit 1; }
show() { echo "--- $1"; cat "$1"; }

# a file that parses, whole
check_file() {
  local f=$1
  "$test_cost" "$f" || { show "$f"; fail "$f: cost_read rejects it"; }
  head -1 "$f" | grep -qx "# mpicoll calibrate" || { show "$f"; fail "$f: no header"; }
  grep -q "^# MPI: ." "$f" || { show "$f"; fail "$f: no MPI library line"; }
  grep -q "^# ranks: 2 on" "$f" || { show "$f"; fail "$f: no ranks line"; }
  grep -qE "^# (node|net)\.\*: not measured" "$f" ||
    grep -q "^# ranks: 2 on 2 nodes" "$f" || { show "$f"; fail "$f: unmeasured kind not said"; }
  [ "$(grep -cvE '^(#|$)' "$f")" = 24 ] || { show "$f"; fail "$f: not 24 keys"; }
}

launch 2 "$mpicoll" calibrate -o "$dir/params" > "$dir/out" 2> "$dir/err" ||
  { show "$dir/err"; fail "calibrate -o failed"; }
[ -s "$dir/out" ] && { show "$dir/out"; fail "calibrate -o wrote to standard output"; }
check_file "$dir/params"
show "$dir/params"

launch 2 "$mpicoll" calibrate > "$dir/stdout" 2> "$dir/err" ||
  { show "$dir/err"; fail "calibrate to standard output failed"; }
check_file "$dir/stdout"

launch 1 "$mpicoll" calibrate -o "$dir/one" > /dev/null 2> "$dir/err" &&
  fail "calibrate on 1 rank succeeded"
grep -q "needs 2 ranks or more" "$dir/err" || { show "$dir/err"; fail "1 rank: no message"; }
[ -e "$dir/one" ] && fail "1 rank: a file was left"

launch 2 "$mpicoll" calibrate --bogus > /dev/null 2> "$dir/err" && fail "--bogus accepted"
grep -q "unexpected argument '--bogus'" "$dir/err" || { show "$dir/err"; fail "--bogus: no message"; }
launch 2 "$mpicoll" calibrate -o > /dev/null 2> "$dir/err" && fail "-o without FILE accepted"
grep -q "\-o needs a FILE" "$dir/err" || { show "$dir/err"; fail "-o: no message"; }

launch 2 "$mpicoll" calibrate -o "$dir/no/such/dir" > /dev/null 2> "$dir/err" &&
  fail "-o into a missing directory succeeded"
grep -q "cannot open for writing" "$dir/err" || { show "$dir/err"; fail "-o missing dir: no message"; }

"$mpicoll" calibrate --help > "$dir/help" || fail "--help failed"
grep -q "^usage: mpirun -n P mpicoll calibrate" "$dir/help" || { show "$dir/help"; fail "--help: no usage"; }
echo "calibrate: writes a file cost_read accepts; errors said"
