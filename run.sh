#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build mppnet (release) and
# run the default experiment (experiments/quickstart.yaml). Extra arguments
# go to `mppnet run` (e.g. -j 2, or key=value overrides).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/deps.sh
if [ ! -f build-release/build.ninja ]; then
  meson setup build-release --buildtype=release >/dev/null
fi
ninja -C build-release >/dev/null
exec ./build-release/mppnet run experiments/quickstart.yaml "$@"
