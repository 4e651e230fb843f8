#!/usr/bin/env bash
# The robustness checks that need their own builds or long runs
# (docs/robustness.md); the main suite (ctest in build/) already runs the
# tests of tests/robust. Each part builds what it needs:
#
#   asan      build-asan/: the suite built with AddressSanitizer and
#             UndefinedBehaviorSanitizer: the symbolic checker of every
#             algorithm for p = 1..32 (no MPI: ASan's default options),
#             then the quick sweep of every collective (coll_sweep --quick:
#             every algorithm on communicators of every size up to the
#             world's, counts 0, 1 and odd ones up to p + 1) on 3 and 4 ranks
#             (non-blocking and persistent on 3), the robustness, preload
#             and unit tests; Open MPI's own leaks suppressed by
#             tests/robust/lsan.supp
#   valgrind  build-robust/: every algorithm of every collective under
#             valgrind memcheck at 2 ranks (label valgrind)
#   fuzz      build-fuzz/ (clang): the fuzz corpora, then 60 s of libFuzzer
#             on each parser (MPICOLL_FUZZ_SECONDS); new inputs stay in
#             build-fuzz/fuzz/new_*
#   huge      build-robust/: buffers beyond 2^31 bytes (label huge, about
#             12 GiB of memory; skipped when the machine has less free)
#
# --ci: the form CI runs (docs/robustness.md has its time): asan runs the
# symbolic checker and only the tests at 3 ranks (the quick sweep of every
# algorithm, blocking and non-blocking; robustness, preload), the bad
# settings (2 ranks) and the unit tests but unit.test_patterns (rank math the
# symbolic checker runs through every plan above; build/ runs it too) and
# unit.test_cost (the cost model's arithmetic, build/ runs it); fuzz runs
# each fuzzer 30 s instead of 60; valgrind and huge are unchanged.
# --shard I/N: the ctest runs of asan and valgrind take every N-th test
# from the I-th (ctest -I I,,N), the symbolic checker runs only in shard 1:
# the whole is cut into runs short enough to share a machine.
#
# Usage: scripts/robust.sh [--ci] [--shard I/N] [asan] [valgrind] [fuzz] [huge]
#        (no part named: all four)
# Needs: cmake, Open MPI, valgrind, clang, libclang-rt-14-dev
# (docs/robustness.md lists the Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
ci=0
shard=()
first_shard=1
parts=()
while [ $# -gt 0 ]; do
  case $1 in
    --ci) ci=1 ;;
    --shard)
      [[ ${2:-} =~ ^([0-9]+)/([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 1 ] &&
        [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
        { echo "robust.sh: --shard takes I/N with 1 <= I <= N" >&2; exit 2; }
      shard=(-I "${BASH_REMATCH[1]},,${BASH_REMATCH[2]}")
      [ "${BASH_REMATCH[1]}" = 1 ] || first_shard=0
      shift ;;
    asan | valgrind | fuzz | huge) parts+=("$1") ;;
    *) echo "robust.sh: unknown argument '$1' (--ci, --shard I/N, asan, valgrind, fuzz, huge)" >&2
       exit 2 ;;
  esac
  shift
done
[ ${#parts[@]} -gt 0 ] || parts=(asan valgrind fuzz huge)

configure() {   # configure DIR ARGS...: once, quietly
  local dir=$1
  shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" > /dev/null
}

timed() {       # timed NAME COMMAND...: runs it and says how long it took
  local name=$1 t0=$SECONDS
  shift
  "$@"
  echo "== robust $name: $((SECONDS - t0)) s"
}

asan() {
  configure build-asan -DMPICOLL_SANITIZE=ON "-DMPICOLL_SWEEP_QUICK_NP=3;4"
  cmake --build build-asan -j"$jobs" > /dev/null
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # The symbolic checker needs no MPI: ASan's defaults (leaks included).
  local coll
  if [ $first_shard = 1 ]; then
    for coll in $(sed -n 's/^ *X(\([a-z_0-9]*\),.*/\1/p' include/mpicoll_collectives.h); do
      ASAN_OPTIONS=detect_leaks=1 build-asan/mpicoll check "$coll" --algorithm all \
        --np 1:32 > /dev/null
    done
    echo "== robust asan: symbolic checker, every algorithm, p = 1..32: passed"
  fi
  # Open MPI is built without frame pointers: full stacks (for the
  # suppressions) need the slow unwinder. The preload test puts
  # libmpicoll_preload.so, which links the ASan runtime, first.
  export ASAN_OPTIONS=fast_unwind_on_malloc=0:detect_leaks=1:verify_asan_link_order=0
  export LSAN_OPTIONS=suppressions=$PWD/tests/robust/lsan.supp:print_suppressions=0
  # nonblocking.*, preload.requests.*, component.requests.*: their
  # allocation counter replaces malloc, which ASan owns;
  # robust.errors.fatal: an abort, no sanitizer report possible, and under
  # ASan Open MPI's mpirun often loses the abort message (3 tries of 3
  # once); build/ runs it; preload.fortran.*.persistent: its reference
  # run, Open MPI's own persistent collectives (MPIX_<Name>_init, libnbc),
  # leaks their schedules
  local select="np[34]$|^robust|^preload|^unit"
  local skip="\.(nb|persistent)\.(quick\.)?np4$|^nonblocking|^(preload|component)\.requests|^check"
  skip="$skip|^robust\.errors\.fatal"
  skip="$skip|^preload\.fortran\..*\.persistent$"
  if [ $ci = 1 ]; then
    # the persistent sweeps are left to build/ (every algorithm) and to
    # valgrind's test_sweep (the persistent form of every collective)
    select="np3$|^robust\.config|^unit"
    skip="$skip|^unit\.test_patterns$|^unit\.test_cost$|\.persistent\.quick\.np3$"
  fi
  ctest --test-dir build-asan --output-on-failure -L "mpi|robust|preload|unit" \
    -R "$select" -E "$skip" ${shard[@]+"${shard[@]}"}
  unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
}

robust_build() {  # the programs of the labels valgrind and huge
  configure build-robust -DMPICOLL_HUGE_TESTS=ON -DMPICOLL_VALGRIND_TESTS=ON
  cmake --build build-robust -j"$jobs" --target test_sweep test_huge test_errors \
    test_isolation test_threads test_allgather test_alltoall test_allgatherv test_reduction \
    > /dev/null
}

valgrind_part() {
  robust_build
  ctest --test-dir build-robust --output-on-failure -L valgrind ${shard[@]+"${shard[@]}"}
}

fuzz() {
  configure build-fuzz -DCMAKE_C_COMPILER=clang -DMPICOLL_FUZZ=ON \
    -DMPICOLL_FUZZ_SECONDS=$([ $ci = 1 ] && echo 30 || echo 60)
  cmake --build build-fuzz -j"$jobs" --target fuzz_rules fuzz_spec > /dev/null
  ctest --test-dir build-fuzz --output-on-failure -L fuzz -j"$jobs"   # one fuzzer a core
  # libFuzzer's count of executions, per target
  awk '/ Test: fuzz\..*\.run$/ { t = $NF } /stat::number_of_executed_units/ { print t ": " $2 " executions" }' \
    build-fuzz/Testing/Temporary/LastTest.log
}

huge() {
  robust_build
  ctest --test-dir build-robust --output-on-failure -L huge
}

t_all=$SECONDS
for part in "${parts[@]}"; do
  case $part in
    asan) timed asan asan ;;
    valgrind) timed valgrind valgrind_part ;;
    fuzz) timed fuzz fuzz ;;
    huge) timed huge huge ;;
  esac
done
echo "== robust: all passed in $((SECONDS - t_all)) s"
