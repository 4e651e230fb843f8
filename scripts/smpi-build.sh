#!/usr/bin/env bash
# Builds mpicoll for SimGrid's SMPI in build-smpi/ (or $1): the library and
# the `mpicoll` program compiled with smpicc, and tools/sim/pingpong.c (the
# calibration of tools/sim/sim.py). SMPI programs run only under smpirun:
#   smpirun -platform platforms/flat.xml -hostfile H -np N build-smpi/mpicoll bench ...
# Needs Debian's libsimgrid-dev (smpicc, smpirun). See docs/scale.md.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-smpi}
command -v smpicc > /dev/null || { echo "smpi-build: smpicc not found (apt-get install libsimgrid-dev)" >&2; exit 1; }
CC=smpicc cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMPI_C_COMPILER=smpicc \
  -DMPIEXEC_EXECUTABLE="$(command -v smpirun)" -DBUILD_TESTING=OFF > /dev/null
cmake --build "$dir" -j2 --target mpicoll_cli
smpicc -O2 -Wall -Wextra -std=c11 -o "$dir/sim-pingpong" tools/sim/pingpong.c
