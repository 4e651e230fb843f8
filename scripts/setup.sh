#!/usr/bin/env bash
# Installs what mpicoll needs on Debian 12 when it is missing (as root, or
# through sudo), then configures and builds mpicoll in build/.
set -euo pipefail
cd "$(dirname "$0")/.."

# the build and the two MPI libraries; gnuplot for `bench --plot`; SimGrid
# (smpicc, smpirun) and python3 for the SMPI runs (tests/smpi, tools/sim);
# clang with its sanitizer and libFuzzer runtimes, and valgrind, for
# scripts/robust.sh; gfortran and mpi4py for the programs in Fortran and
# Python that reach mpicoll through the Open MPI component (tests/component)
pkgs=(build-essential cmake pkgconf openmpi-bin libopenmpi-dev mpich libmpich-dev
      gnuplot-nox libsimgrid-dev python3 clang libclang-rt-14-dev valgrind gfortran
      python3-mpi4py)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
