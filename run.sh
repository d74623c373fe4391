#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build mppnet (release) and
# run the default experiment (experiments/quickstart.yaml). Extra arguments
# go to `mppnet run` (e.g. -j 2, or key=value overrides).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/deps.sh
bash scripts/build.sh build-release --buildtype=release
exec ./build-release/mppnet run experiments/quickstart.yaml "$@"
