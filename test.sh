#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build mppnet
# (debugoptimized: asserts on) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/deps.sh
bash scripts/build.sh build --buildtype=debugoptimized
meson test -C build --print-errorlogs "$@"
