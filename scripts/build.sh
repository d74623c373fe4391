#!/usr/bin/env bash
# Configure (when needed) and build one build folder, quietly: nothing is
# printed when all is well; when meson or ninja fails, its whole output
# (the compiler's errors) is printed and the exit status is 1.
#   bash scripts/build.sh DIR [MESON SETUP OPTIONS...]
# Used by ./run.sh, ./test.sh, .ci/run and test/fuzz/run.sh. The options
# apply when DIR is configured the first time (delete DIR to change them).
set -uo pipefail
cd "$(dirname "$0")/.."
dir=$1
shift
log=$(mktemp "${TMPDIR:-/tmp}/mppnet-build.XXXXXX")
trap 'rm -f "$log"' EXIT
if [ ! -f "$dir/build.ninja" ]; then
  if ! meson setup "$dir" "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "mppnet: \`meson setup $dir $*\` failed (its output is above)" >&2
    exit 1
  fi
fi
if ! ninja -C "$dir" >"$log" 2>&1; then
  cat "$log" >&2
  echo "mppnet: the build in $dir failed (ninja's output is above)" >&2
  exit 1
fi
