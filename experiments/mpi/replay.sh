#!/usr/bin/env bash
# experiments/mpi/replay.sh — replay the captures of capture.sh on the four
# machine presets (docs/capture.md).
#
#   experiments/mpi/replay.sh [NAME...]      (from the source root)
#
# NAME: stencil2d, cg, transpose, master_worker, pingpong, shift (default:
# all). Each experiments/mpi/NAME.yaml is run on the cm5, paragon,
# hypercube and t3d presets (`machine` cannot be swept, so it is an
# override here), each into results/mpi-NAME-MACHINE/, at -j 2.
# $MPPNET: the binary (default build/mppnet). Exit status: the first
# failing run's (2 bad input, 1 a run that could not finish), after all
# were tried.
set -uo pipefail
cd "$(dirname "$0")/../.."
mppnet=${MPPNET:-build/mppnet}
names=("$@")
[ "${#names[@]}" -gt 0 ] || names=(stencil2d cg transpose master_worker pingpong shift)
rc=0
for name in "${names[@]}"; do
  [ -f "experiments/mpi/$name.yaml" ] || { echo "replay.sh: no experiments/mpi/$name.yaml" >&2; exit 2; }
  for m in cm5 paragon hypercube t3d; do
    "$mppnet" run "experiments/mpi/$name.yaml" "machine=$m" -o "results/mpi-$name-$m" -j 2
    r=$?
    [ "$r" = 0 ] || { echo "replay.sh: $name on $m: exit $r" >&2; [ "$rc" != 0 ] || rc=$r; }
  done
done
exit "$rc"
