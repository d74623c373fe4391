#!/usr/bin/env bash
# experiments/mpi/capture.sh — capture the MPI example programs
# (examples/mpi/, docs/capture.md) for the experiments of this folder.
#
#   experiments/mpi/capture.sh [--mpich] [BUILD]     (from the source root)
#
# Builds BUILD (default: build; configured with MPI found, so that
# BUILD/mppnet has `capture` and BUILD/examples/mpi/ the programs), then
# runs every example under `mppnet capture` with 4 and 16 ranks (shift
# also with 32: the CM-5 preset's node count, which the built-in shift
# uses), with Open MPI's mpirun (--oversubscribe: more ranks than cores).
# Each capture goes to results/mpi/captures/NAME-NP/, and the program's
# standard output — its mppnet-pair lines, what it says it sent — to
# results/mpi/captures/NAME-NP.stdout, from the same run (master_worker's
# counts differ from run to run: a capture must be compared with its own
# run's output, test/mpi_pairs.sh).
#
# --mpich: the same with MPICH instead, at 4 ranks only: the programs are
# compiled with mpicc.mpich into results/mpi/mpich-bin/ and run with
# mpirun.mpich; the captures go to results/mpi/captures-mpich/. The
# capture library must then be the one built against MPICH (mppnet
# capture's options for that, if any, go in $CAPTURE_ARGS).
#
# $CAPTURE_ARGS: extra options of `mppnet capture` (before `--`).
# Exit status: 0 when every capture was made; 1 when one failed (its
# output is shown, the rest go on); 2 for bad usage or a missing tool.
set -uo pipefail
cd "$(dirname "$0")/../.."

mpich=0
if [ "${1:-}" = "--mpich" ]; then
  mpich=1
  shift
fi
[ "$#" -le 1 ] || { echo "usage: experiments/mpi/capture.sh [--mpich] [BUILD]" >&2; exit 2; }
build=${1:-build}

bash scripts/build.sh "$build" --buildtype=release || exit 2
mppnet=$build/mppnet
if ! "$mppnet" capture --help >/dev/null 2>&1; then
  echo "capture.sh: $mppnet has no working \`capture\` command (was MPI found when $build was configured? meson configure $build shows mpi)" >&2
  exit 2
fi

mesh=traces/data/naca0012_2817.msh.gz
# NAME RANKS ARGS...: the sizes of the experiments (a few thousand messages
# at most, so that each replay takes seconds)
specs=(
  "stencil2d 4 128 50 10 isend"
  "stencil2d 16 128 50 10 isend"
  "cg 4 $mesh 50"
  "cg 16 $mesh 50"
  "transpose 4 128 5"
  "transpose 16 128 5"
  "master_worker 4 64 4000"
  "master_worker 16 64 4000"
  "pingpong-16 4 16 1000"
  "pingpong-16 16 16 1000"
  "pingpong-4096 4 4096 1000"
  "pingpong-4096 16 4096 1000"
  "shift-16 4 16 100"
  "shift-16 16 16 100"
  "shift-16 32 16 100"
  "shift-4096 4 4096 100"
  "shift-4096 16 4096 100"
  "shift-4096 32 4096 100"
)

if [ "$mpich" = 1 ]; then
  command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null || {
    echo "capture.sh: --mpich needs mpicc.mpich and mpirun.mpich (apt-get install mpich libmpich-dev)" >&2
    exit 2
  }
  bin=results/mpi/mpich-bin
  out=results/mpi/captures-mpich
  mkdir -p "$bin"
  for p in stencil2d cg transpose master_worker pingpong shift; do
    libs=(-lm)
    [ "$p" = cg ] && libs+=(-lz)
    mpicc.mpich -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$bin/$p" \
      "examples/mpi/$p.c" examples/mpi/pairs.c "${libs[@]}" || exit 2
  done
  launch=(mpirun.mpich)
else
  bin=$build/examples/mpi
  out=results/mpi/captures
  launch=(mpirun --oversubscribe)
  [ "$(id -u)" = 0 ] && launch+=(--allow-run-as-root)
fi
mkdir -p "$out"

fails=0
for spec in "${specs[@]}"; do
  read -r name np args <<<"$spec"
  [ "$mpich" = 1 ] && [ "$np" != 4 ] && continue
  prog=${name%%-*}
  dir=$out/$name-$np
  rm -rf "$dir" "$dir.stdout"
  # shellcheck disable=SC2086 # args are words
  if "$mppnet" capture ${CAPTURE_ARGS:-} -o "$dir" -- "${launch[@]}" -np "$np" "$bin/$prog" $args \
      >"$dir.stdout" 2>"$dir.stderr"; then
    echo "capture.sh: $dir ($(grep -c '^mppnet-pair ' "$dir.stdout") pairs)"
    rm -f "$dir.stderr"
  else
    echo "capture.sh: FAILED: $name with $np ranks; its output:" >&2
    cat "$dir.stdout" "$dir.stderr" >&2
    fails=$((fails + 1))
  fi
done
[ "$fails" = 0 ] || { echo "capture.sh: $fails captures failed" >&2; exit 1; }
