# test/cli/replay.sh — `mppnet replay` and `mppnet schedule`: an operation
# trace recorded from a scheduled replay re-executes with identical
# per-message lines; a message trace replays on another machine; a trace
# from another configuration, a missing trace and bad usage exit 2;
# `schedule --json` prints the required keys.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
cat >exp.yaml <<'YAML'
mppnet: 1
machine: cm5
network: {cm5-fattree: {nodes: 16}}
workload: {type: schedule, scheduler: cgm, d: 4, msg_unit: 128}
sweep:
  workload.d: [3, 4]
YAML
cat >hc.yaml <<'YAML'
mppnet: 1
machine: hypercube
network: {hypercube: {dim: 4}}
workload: {type: messages}
YAML

expect_status rec 0 "$T" replay exp.yaml --run 1 --record-ops ops.trace.gz --record-messages m.trace || finish
[ -s ops.trace.gz ] || fail "ops.trace.gz not written"
[ -s m.trace ] || fail "m.trace not written"
expect_status again 0 "$T" replay exp.yaml --run 1 --ops ops.trace.gz || finish
grep -v '^wrote' "$T/rec.out" >rec.lines
cmp -s rec.lines "$T/again.out" || fail "re-executed run differs from the recorded one"
n=$(grep -cE '^[0-9]+ [0-9]+ ' "$T/again.out")
[ "$n" -eq 64 ] || fail "expected 64 message lines, got $n"
expect_status other 0 "$T" replay hc.yaml --messages m.trace --quiet || finish
grep -q '^64 messages' "$T/other.out" || fail "message trace on a hypercube: $(cat "$T/other.out")"
pass "op trace re-executes identically; message trace replays on a hypercube"

# a trace recorded on run 1 does not fit run 0
expect_bad wrongrun 'recorded on configuration' replay "$T/exp.yaml" --run 0 --ops "$T/ops.trace.gz"
expect_bad notrace 'cannot' replay "$T/exp.yaml" --ops "$T/nonexistent.trace"
expect_bad both 'cannot be combined' replay "$T/exp.yaml" --ops a --messages b
expect_bad badpar 'paradigm' replay "$T/exp.yaml" --messages "$T/m.trace" --paradigm telepathy
expect_bad noprog 'no node programs' replay "$SRCDIR/experiments/quickstart.yaml"
printf 'nodes 4\ntime us\n0 0 9 16 0\n' >"$T/bad.trace"
expect_bad badtrace 'bad.trace:3:' replay "$T/hc.yaml" --messages "$T/bad.trace"

expect_status sched 0 "$T" schedule --alg cgm --gen random-regular --n 32 --d 4 --samples 3 --json || finish
for k in phases_mean phases_min phases_max steps_mean host_us_mean; do
    grep -q "\"$k\"" "$T/sched.out" || fail "schedule --json has no $k"
done
expect_bad schedbad 'alg|scheduler' schedule --alg nosuch --gen random-regular --n 8 --d 2
# the work by kind, and its price on a machine preset (cgm at n = 32, d = 4:
# the cm5 preset's fit gives about 2.6 ms)
expect_status schedm 0 "$T" schedule --alg cgm --gen random-regular --n 32 --d 4 --samples 3 \
    --machine cm5 --json || finish
for k in work_scan_mean work_tries_mean work_rows_mean work_phases_mean work_moves_mean \
    schedule_ms_mean; do
    grep -q "\"$k\"" "$T/schedm.out" || fail "schedule --machine --json has no $k"
done
ms=$(sed -n 's/.*"schedule_ms_mean": \([0-9.e+-]*\).*/\1/p' "$T/schedm.out")
awk -v m="$ms" 'BEGIN { exit !(m > 2.0 && m < 3.3) }' ||
    fail "schedule --machine cm5: schedule_ms_mean $ms, expected about 2.6"
expect_bad schednomach 'unknown machine preset .nosuch. \(booksim, cm2, cm5' schedule --alg cgm --gen random-regular \
    --n 8 --d 2 --machine nosuch
finish
