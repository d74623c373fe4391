# test/cli/shift.sh — the `shift` workload (two-directional circular shift,
# Bae and Ranka 1994): a small sweep on the cm5 preset (32 nodes) over the
# libraries and polling intervals has its columns, positive, the same
# results at -j 1 and -j 2, and the orderings the model is built to give;
# bad input exits 2 with its message, nothing on stdout, no file written.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

cat >exp.yaml <<'YAML'
mppnet: 1
name: shift
machine: cm5
workload:
  type: shift
  rounds: 20
sweep:
  workload.library+workload.poll_every+workload.poll_at_end:
    - [cmaml, 1, false]
    - [cmaml, 5, false]
    - [cmaml, 5, true]
    - [strata, 5, false]
    - [put, 5, false]
  workload.bytes: [64, 1024]
output:
  dir: out
  plot: false
YAML
expect_status j1 0 "$T" run exp.yaml -q -j 1 -o j1 || finish
expect_status j2 0 "$T" run exp.yaml -q -j 2 -o j2 || finish
cmp -s j1/results.csv j2/results.csv || fail "results.csv differs between -j 1 and -j 2"
no_timing j1/results.json >j1.json
no_timing j2/results.json >j2.json
cmp -s j1.json j2.json || fail "results.json differs between -j 1 and -j 2"
cmp -s j1.out j2.out || fail "the summary differs between -j 1 and -j 2"
python3 - "$T/j1/results.csv" <<'PY' || fail "results: $(cat "$T/j1/results.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 10, len(rows)
t = {}
for r in rows:
    lib = r["workload.library+workload.poll_every+workload.poll_at_end"]
    b = int(r["workload.bytes"])
    assert r["rounds"] == "20", r
    assert float(r["shift_us"]) > 0, r
    k = -(-b // 16)
    want = 2 if lib.startswith("[put") else 2 * k
    assert int(r["msgs_per_node"]) == want, (lib, b, r["msgs_per_node"])
    # every node sends msgs_per_node messages a round
    assert int(r["messages"]) == 32 * 20 * want, (lib, b, r["messages"])
    assert r["drained"] == "true", r
    t[lib, b] = float(r["shift_us"])
for b in (64, 1024):
    # F = 1 pays a poll call after every send: the slowest CMAML
    assert t["[cmaml, 1, false]", b] > t["[cmaml, 5, false]", b], (b, t)
    assert t["[cmaml, 1, false]", b] > t["[cmaml, 5, true]", b], (b, t)
# a round moves at least the data of the shift: each node writes and reads
# 2K packets (30 + 57 CPU cycles each at 33 MHz)
assert t["[cmaml, 5, false]", 1024] > 128 * 87 / 33.0, t
PY
pass "shift: columns, -j 1 = -j 2"

# Bad input: before anything runs or is written.
bad_exp() {
    printf 'mppnet: 1\nname: bad\nmachine: cm5\nworkload: {type: shift%s}\n%s\n' "$1" "$2"
}
bad_exp ', poll_every: 0' '' >"$T/bad_f0.yaml"
expect_bad bad_f0 "exp.yaml:4:[0-9]+: key 'workload.poll_every': expected an integer between 1 and" run exp.yaml
bad_exp ', library: mpi' '' >"$T/bad_lib.yaml"
expect_bad bad_lib "exp.yaml:4:[0-9]+: key 'workload.library': expected one of cmaml, strata, put" run exp.yaml
bad_exp '' 'network: {nic: dma}' >"$T/bad_dma.yaml"
expect_bad bad_dma 'workload: shift runs on processors that poll .*not nic: dma' run exp.yaml
bad_exp ', library: strata' 'node: {payload_words: 3}' >"$T/bad_payload.yaml"
expect_bad bad_payload 'workload: shift: library strata sends active messages of four words: they need 16 bytes' run exp.yaml
bad_exp ', bytes: 1MB, rounds: 1000' '' >"$T/bad_many.yaml"
expect_bad bad_many 'workload: shift: 32 nodes x 1000 rounds x 125000 messages is more than' run exp.yaml
finish
