#!/usr/bin/env bash
# Install what mppnet needs to build, test and plot, with apt, when it is
# missing: a C compiler, meson, ninja, pkg-config, libyaml, zlib, METIS
# (mesh partitioning; the build works without it), gnuplot (plots only) and
# Open MPI (libopenmpi-dev, openmpi-bin: the capture library and its tests,
# docs/capture.md; the build works without it).
# Used by ./run.sh and ./test.sh; safe to run again. `deps.sh fuzz` also
# installs clang and its compiler-rt libraries (libFuzzer, for the fuzz
# harnesses of test/fuzz; Debian packages them as libclang-rt-dev).
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v cc >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v meson >/dev/null 2>&1 || need+=(meson)
command -v ninja >/dev/null 2>&1 || need+=(ninja-build)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox)
if command -v dpkg-query >/dev/null 2>&1; then
  have_pkg libyaml-dev || need+=(libyaml-dev)
  have_pkg zlib1g-dev || need+=(zlib1g-dev)
  have_pkg libmetis-dev || need+=(libmetis-dev)
  have_pkg libotf2-trace-dev || need+=(libotf2-trace-dev)  # OTF2 importer (test_mpi_otf2)
  have_pkg libsimgrid-dev || need+=(libsimgrid-dev)  # smpicc/smpirun (test_mpi_simgrid's live part)
  have_pkg libopenmpi-dev || need+=(libopenmpi-dev)
  have_pkg openmpi-bin || need+=(openmpi-bin)
  have_pkg libmpich-dev || need+=(libmpich-dev)  # cli_mpi_examples' MPICH part
  have_pkg mpich || need+=(mpich)
fi

if [ "${1:-}" = fuzz ]; then
  command -v clang >/dev/null 2>&1 || need+=(clang)
  if command -v dpkg-query >/dev/null 2>&1 && ! have_pkg libclang-rt-dev &&
     apt-cache show libclang-rt-dev >/dev/null 2>&1; then
    need+=(libclang-rt-dev)
  fi
fi

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "mppnet: missing ${need[*]} and no apt-get to install them; install them by hand" >&2
  exit 2
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "mppnet: need root (or sudo) to install: ${need[*]}" >&2; exit 2
  fi
fi
echo "mppnet: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
