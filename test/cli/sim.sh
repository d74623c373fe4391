# test/cli/sim.sh — `mppnet sim`: the JSON object and its keys, determinism
# by seed, the human summary, BookSim-style flags and aliases.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
FLAGS="--topology mesh:4x4 --router dor --traffic uniform --rate 0.1 --packet-flits 4 --vcs 2 --buffer-flits 4 --warmup 200 --cycles 1000 --seed 3"

# shellcheck disable=SC2086
expect_status sim1 0 "$T" sim $FLAGS --json || finish
for key in offered accepted accepted_min latency_mean latency_network_mean latency_p99 \
    hops_mean saturated cycles flit_hops; do
    grep -Eq "\"$key\": " "$T/sim1.out" || fail "sim --json: no key \"$key\""
done
grep -Eq '"timing": \{"wall_seconds": ' "$T/sim1.out" || fail "sim --json: no timing object"
grep -q '^{' "$T/sim1.out" && [ "$(grep -c '^{' "$T/sim1.out")" -eq 1 ] ||
    fail "sim --json: expected one JSON object"
if command -v python3 >/dev/null 2>&1; then
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert 0.09 < d["offered"] < 0.11, d["offered"]
assert d["accepted"] > 0.05, d["accepted"]
assert d["saturated"] is False
assert d["cycles"] >= 1200
' "$T/sim1.out" || fail "sim --json: not the expected JSON"
fi
pass "sim --json has the required keys"

# shellcheck disable=SC2086
expect_status sim2 0 "$T" sim $FLAGS --json || finish
no_timing "$T/sim1.out" >a.notime
no_timing "$T/sim2.out" >b.notime
cmp -s a.notime b.notime || fail "sim: two runs with the same seed differ beyond timing"
# shellcheck disable=SC2086
expect_status sim3 0 "$T" sim $FLAGS --json --seed 4 || finish
no_timing "$T/sim3.out" >c.notime
cmp -s a.notime c.notime && fail "sim: --seed 4 gave the same output as --seed 3"
pass "sim is deterministic by seed"

# Flags and key=value overrides are the same thing.
expect_status sim_kv 0 "$T" sim --json network.topology=mesh network.mesh.rows=4 \
    network.mesh.cols=4 network.router=ecube workload.rate=0.1 workload.packet_flits=4 \
    network.vcs=2 network.buffer_flits=4 workload.warmup=200 workload.measure=1000 seed=3 ||
    finish
no_timing "$T/sim_kv.out" >d.notime
cmp -s a.notime d.notime || fail "sim: flags and the equivalent overrides differ"

# The human summary.
# shellcheck disable=SC2086
expect_status sim_text 0 "$T" sim $FLAGS || finish
grep -q 'accepted' "$T/sim_text.out" || fail "sim: summary has no accepted line"
grep -q 'latency' "$T/sim_text.out" || fail "sim: summary has no latency line"

# Other topologies and BookSim names.
expect_status sim_hcube 0 "$T" sim --topology hypercube:4 --router e-cube --traffic bitrev \
    --rate 0.05 --warmup 200 --cycles 1000 --json || true
grep -q '"accepted"' "$T/sim_hcube.out" || fail "sim: hypercube:4 with bitrev"
pass "sim flags"

finish
