#!/usr/bin/env bash
# Run the libFuzzer harnesses of test/fuzz (docs/testing.md):
#   test/fuzz/run.sh [-j N] SECONDS [HARNESS...]
# installs clang when missing (scripts/deps.sh fuzz), builds build-fuzz
# (clang, -Dfuzz=true, AddressSanitizer + UndefinedBehaviorSanitizer),
# then runs each harness (default: all) for SECONDS, N at a time (default 2),
# from its seed corpus test/fuzz/corpus/HARNESS plus what earlier runs found
# (build-fuzz/fuzz-corpus/HARNESS). Prints one line per harness (executions,
# coverage); a crash, leak, timeout or memory blow-up prints the harness's
# log and the input that caused it (build-fuzz/fuzz-artifacts/) and makes the
# exit status 1. A harness that fails to build fails at once.
set -uo pipefail
cd "$(dirname "$0")/../.."
jobs=2
if [ "${1:-}" = -j ]; then jobs=$2; shift 2; fi
secs=${1:?usage: test/fuzz/run.sh [-j N] SECONDS [HARNESS...]}
shift
all=(experiment com com_roundtrip msgtrace optrace graph mesh record mpitrace simgrid anynet booksim)
[ $# -gt 0 ] && all=("$@")
build=${MPP_FUZZ_BUILD:-build-fuzz}

bash scripts/deps.sh fuzz || exit 1
CC=clang bash scripts/build.sh "$build" --buildtype=debugoptimized -Dfuzz=true \
  -Db_sanitize=address,undefined -Db_lundef=false || exit 1

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run_one() {
  local h=$1 exe="$build/test/fuzz/fuzz_$1" work="$build/fuzz-corpus/$1"
  local art="$build/fuzz-artifacts/$1/" log="$build/fuzz-logs/$1.log"
  [ -x "$exe" ] || { echo "fuzz_$h: no such harness ($exe)" >&2; return 1; }
  mkdir -p "$work" "$art" "$(dirname "$log")"
  # -timeout: one input may take at most 10 s; -rss_limit_mb: 2 GiB;
  # -max_len: inputs up to 64 KiB (the seeds are smaller)
  "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$art" "$work" "test/fuzz/corpus/$h" >"$log" 2>&1
  local rc=$?
  local last
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  if [ $rc -ne 0 ]; then
    tail -60 "$log" >&2
    echo "fuzz_$h: FAILED after ${execs:-?} executions (exit $rc; input in $art)" >&2
    return 1
  fi
  printf 'fuzz_%-14s %10s execs in %ss  %s\n' "$h" "${execs:-?}" "$secs" \
    "$(echo "$last" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[bKM]*b?')"
}

status=0
pids=()
for h in "${all[@]}"; do
  run_one "$h" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
