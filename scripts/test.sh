#!/usr/bin/env bash
# All of mpicoll's tests (after scripts/setup.sh):
#  1. the whole ctest suite of the Open MPI build in build/;
#  2. the MPICH build (build-mpich/: Release, warnings as errors): every
#     MPI test (ctest -L mpi: the sweep of every collective and algorithm
#     on 1 to 8 ranks, the quick matrix blocking and nb, counts up to p + 1:
#     every algorithm on a second MPI in a fifth of the time; the large
#     counts and the persistent sweep on one node run with Open MPI; the
#     node layouts of 2 and 3 ranks in every mode), and
#     the datatype layouts blocking (Open MPI runs them in every mode);
#  3. an installed copy (cmake --install) used by examples/consumer through
#     CMake's find_package and through pkg-config, run under mpirun;
#  4. scripts/robust.sh --ci: the suite under ASan + UBSan, valgrind
#     memcheck at 2 ranks, 45 s of libFuzzer per parser, buffers beyond
#     2^31 bytes (docs/robustness.md);
#  5. tests/smpi/run.sh: every algorithm of allgather, alltoall and
#     allreduce validated at 64 ranks under SimGrid's SMPI (docs/scale.md).
#
# scripts/test.sh --quick: a developer's run (a few minutes) that touches
# every algorithm once: the unit tests and proofs, then on 4 ranks of the
# build in build/ the quick sweep of every collective (every algorithm on
# communicators of 1..4 ranks, counts up to p + 1, blocking) and the
# datatype and operation tests.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

if [ "${1:-}" = "--quick" ]; then
  cmake --build build -j"$jobs" > /dev/null
  ctest --test-dir build --output-on-failure -R '^unit|^check|^mpi\.(datatypes\.blocking|ops)'
  run=(mpiexec -n 4)
  if mpiexec --version 2>&1 | grep -qE "Open MPI|OpenRTE"; then
    run=(mpiexec --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1 -n 4)
  fi
  # the collectives: the rows of include/mpicoll_collectives.h
  for c in $(sed -n 's/^ *X(\([a-z_0-9]*\),.*/\1/p' include/mpicoll_collectives.h); do
    echo "== quick sweep: $c"
    timeout 600 "${run[@]}" build/tests/sweep/coll_sweep "$c" --quick | grep -E "^(FAIL|sweep )"
  done
  echo "== quick tests passed"
  exit 0
fi

# the checker's proofs and the unit tests run one a core; then the MPI
# tests, each alone (RUN_SERIAL)
echo "== Open MPI: ctest in build/"
ctest --test-dir build --output-on-failure -L "unit|check" -j"$jobs"
# the node layouts of 2 and 3 ranks run with MPICH (below), those of 1
# and 4 here: every layout in every mode, once
ctest --test-dir build --output-on-failure -LE "unit|check" -E "\.rpn[23]$"

# A Release build (-O3) with warnings as errors: the optimiser's analyses
# warn where -O2 does not. MPICH's own waits spin, so 8 ranks on 2 cores
# are slower than with Open MPI: a longer timeout per sweep launch.
echo "== MPICH: build-mpich/ (Release, -Werror), MPI tests on 1..8 ranks, every mode"
cmake -S . -B build-mpich -DCMAKE_BUILD_TYPE=Release -DMPICOLL_WERROR=ON -DMPI_C_COMPILER=mpicc.mpich \
  -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich -DMPICOLL_MPI_TEST_MAX_NP=8 \
  -DMPICOLL_SWEEP_TIMEOUT=3600 -DMPICOLL_NB_TEST_STARTS=300 \
  -DMPICOLL_SWEEP_QUICK_MODES="blocking;nb;persistent" -DMPICOLL_DATATYPES_MODES=blocking \
  > /dev/null
cmake --build build-mpich -j"$jobs" > /dev/null
# the tools' tests (bench.*, tune.*), the sweeps with cross-memory
# attach refused, the node layouts of 1 and 4 ranks and the persistent
# mode's sweep on one node run in build/: the same code paths, not MPICH's
# (MPICH's requests are its non-blocking sweeps'; it sweeps the nodes of 2
# and 3 in every mode, which build/ does not)
ctest --test-dir build-mpich -L mpi --output-on-failure \
  -E "cma_refused|\.rpn[14]$|^bench\.|^tune\.|^sweep\.[a-z_]+\.persistent$"

echo "== install, and examples/consumer against the installed copy"
prefix=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
cmake --install build --prefix "$prefix" > /dev/null
cmake -S examples/consumer -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$work/cmake" > /dev/null
make -s -C examples/consumer PKG_CONFIG_PATH="$prefix/lib/pkgconfig" \
  MPICC=mpicc consumer-pc > /dev/null
mv examples/consumer/consumer-pc "$work/"
run=(mpirun --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1 -n 3)
"${run[@]}" "$work/cmake/consumer"
"${run[@]}" "$work/consumer-pc"

echo "== robustness: scripts/robust.sh --ci"
scripts/robust.sh --ci

echo "== SMPI: tests/smpi/run.sh"
tests/smpi/run.sh
echo "== all tests passed"
