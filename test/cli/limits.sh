# test/cli/limits.sh — the maxima that make overflow impossible
# (docs/config.md, "Arithmetic"): a window or cost past its maximum is
# refused with exit 2 naming the key and the maximum; at the maximum the
# configuration is valid, and a run whose sums are what matters finishes at
# the exact cycle instead of wrapping. (test/test_limits.c feeds every key
# of every schema its maximum and max + 1; this is the command line.)
. "$(dirname "$0")/lib.sh"

W=281474976710656 # 2^48: windows and watchdog_cycles
C=1099511627776   # 2^40: control-network costs

# --- the review's two wraps, refused ------------------------------------------
# measure at 2^64 - 1 gave "accepted nan" with exit 0 (warmup + measure wrapped)
expect_bad measure_u64max \
    "key 'workload\.measure': expected a number of cycles between 1 and $W" \
    sim -q --topology mesh:4x4 workload.measure=18446744073709551615
expect_bad cycles_u64max "key 'workload\.measure': .*between 1 and $W" \
    sim -q --topology mesh:4x4 --cycles 18446744073709551615
# reduce_cycles at 2^61 made Lee's app faster than at 20 (the release time x
# the CPU clock wrapped)
cat >"$T/lee.yaml" <<'YAML'
mppnet: 1
name: lee-small
machine: cm5
network:
  cm5-fattree: {nodes: 16}
workload:
  type: app
  app: lee
  N: 64
  instances: 1
  scheme: amp_c_no
output:
  dir: out
  plot: false
YAML
cp "$T/lee.yaml" "$T/reduce_2_61.yaml"
expect_bad reduce_2_61 "key 'node\.reduce_cycles': expected a number of cycles between 0 and $C" \
    run exp.yaml -q node.reduce_cycles=2305843009213693952
cp "$T/lee.yaml" "$T/barrier_2_61.yaml"
expect_bad barrier_2_61 "key 'node\.barrier_cycles': .*between 0 and $C" \
    run exp.yaml -q node.barrier_cycles=2305843009213693952

# --- every window and cost key: max + 1 refused, max valid ---------------------
for kv in network.watchdog_cycles=$W node.barrier_cycles=$C node.reduce_cycles=$C \
    node.reduce_word_cycles=$C workload.warmup=$W workload.measure=$W; do
    key=${kv%%=*} max=${kv#*=}
    small_exp >"$T/max_$key.yaml"
    cp "$T/max_$key.yaml" "$T/over_$key.yaml"
    expect_status "max_$key" 0 "$T" check "max_$key.yaml" "$key=$max" &&
        pass "$key=$max: valid"
    expect_bad "over_$key" "key '${key//./\\.}': .* and $max\b" \
        check exp.yaml "$key=$((max + 1))"
done
for ty in "messages, shape: gather" "schedule, scheduler: gm"; do
    name=win_${ty%%,*}
    printf 'mppnet: 1\nmachine: cm5\nnetwork: {cm5-fattree: {nodes: 16}}\nworkload: {type: %s}\n' \
        "$ty" >"$T/$name.yaml"
    expect_status "$name" 0 "$T" check "$name.yaml" workload.warmup=$W workload.measure=$W &&
        pass "${ty%%,*}: warmup and measure at $W: valid"
done

# --- at the maxima, runs whose sums matter finish exactly ----------------------
# an open-loop window of 2^48 + 2^48 cycles with nothing offered: the clock
# jumps to the end, which is 2^49 (not a wrapped, earlier cycle)
expect_status win_run 0 "$T" sim -q --topology mesh:4x4 --rate 0 --warmup $W --cycles $W &&
    if grep -q "cycles *562949953421312 simulated" "$T/win_run.out"; then
        pass "window at the maxima: 2^49 cycles simulated"
    else
        fail "window at the maxima: $(grep cycles "$T/win_run.out")"
    fi
# Lee's app with every barrier and reduction at 2^40 cycles: slower than at
# the defaults, never faster
(cd "$T" && "$MPPNET" run lee.yaml -q -o def) >"$T/def.out" 2>"$T/def.err" ||
    fail "lee at the defaults: $(cat "$T/def.err")"
(cd "$T" && "$MPPNET" run lee.yaml -q -o big node.reduce_cycles=$C node.barrier_cycles=$C) \
    >"$T/big.out" 2>"$T/big.err" || fail "lee at the maxima: $(cat "$T/big.err")"
def=$(awk 'NR == 2 {print $2}' "$T/def.out")
big=$(awk 'NR == 2 {print $2}' "$T/big.out")
# a barrier of 2^40 cycles at 5 MHz is 2.2e8 ms
if awk -v d="$def" -v b="$big" 'BEGIN { exit !(d + 0 > 0 && b + 0 > 2.19e8 && b + 0 > d + 0) }'; then
    pass "lee: time_ms $def at the defaults, $big at the maxima"
else
    fail "lee: time_ms $def at the defaults, $big at the maxima (expected > 2.19e8)"
fi

finish
