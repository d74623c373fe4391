# test/cli/run.sh — `mppnet run`: result files, determinism by seed, -j N
# byte-identical to -j 1, per-channel and matrix files, --dump-config,
# output.dir, and the summary table.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
small_exp 'sweep:' '  workload.pattern: [uniform, transpose]' '  workload.rate: [0.05, 0.1, 0.15]' \
    >exp.yaml
RUNS=6

expect_status run1 0 "$T" run exp.yaml -o r1 --quiet || finish
for f in results.csv results.json; do
    [ -s "r1/$f" ] || fail "run: r1/$f missing or empty"
done
[ "$(wc -l <r1/results.csv)" -eq $((RUNS + 1)) ] || fail "run: results.csv should have $RUNS rows"
head -1 r1/results.csv | grep -q '^run,workload.pattern,workload.rate,seed,config_hash,' ||
    fail "run: results.csv header: $(head -1 r1/results.csv)"
for col in offered accepted latency_mean latency_p99 hops_mean saturated; do
    head -1 r1/results.csv | tr ',' '\n' | grep -qx "$col" || fail "run: results.csv has no column $col"
done
head -1 r1/results.csv | grep -q wall && fail "run: results.csv must not have a wall-time column"
sed -n 2p r1/results.csv | grep -Eq '^0,uniform,0.05,[0-9]+,[0-9a-f]{16},' ||
    fail "run: first row: $(sed -n 2p r1/results.csv)"
for key in '"mppnet"' '"experiment": "small"' '"runs"' '"axes"' '"config_hash"' '"config"' \
    '"result"' '"timing": {"wall_seconds"'; do
    grep -qF "$key" r1/results.json || fail "run: results.json has no $key"
done
[ "$(grep -c wall_seconds r1/results.json)" -eq $RUNS ] || fail "run: one timing line per run"
ls -a r1 | grep -q '\.tmp' && fail "run: temporary files left in r1"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["runs"])==int(sys.argv[2])' \
        r1/results.json $RUNS || fail "run: results.json is not valid JSON with $RUNS runs"
fi

# The summary table: a header and one row per run.
grep -q 'latency_mean' "$T/run1.out" || fail "run: no table header on stdout"
[ "$(grep -c transpose "$T/run1.out")" -eq 3 ] || fail "run: table rows"
[ -s "$T/run1.err" ] && fail "run: --quiet should keep stderr empty: $(cat "$T/run1.err")"
pass "run writes results.csv and results.json"

# Same seed twice: identical but for the timing lines.
expect_status run2 0 "$T" run exp.yaml -o r2 --quiet || finish
cmp -s r1/results.csv r2/results.csv || fail "determinism: results.csv differs between two runs"
no_timing r1/results.json >r1.json.notime
no_timing r2/results.json >r2.json.notime
cmp -s r1.json.notime r2.json.notime || fail "determinism: results.json differs beyond timing"
cmp -s "$T/run1.out" "$T/run2.out" || fail "determinism: the summary tables differ"
pass "same seed twice gives identical results"

# A different seed changes results (the seed is really used).
expect_status run_seed 0 "$T" run exp.yaml -o r_seed --quiet seed=7 || finish
cmp -s r1/results.csv r_seed/results.csv && fail "seed: seed=7 gave the same results.csv"

# -j 2 and -j 4 (more workers than... uneven split) equal -j 1.
for j in 2 4 8; do
    expect_status "run_j$j" 0 "$T" run exp.yaml -o "rj$j" -j "$j" --quiet || continue
    cmp -s r1/results.csv "rj$j/results.csv" || fail "-j $j: results.csv differs from -j 1"
    no_timing "rj$j/results.json" >"rj$j.json.notime"
    cmp -s r1.json.notime "rj$j.json.notime" || fail "-j $j: results.json differs from -j 1"
    cmp -s "$T/run1.out" "$T/run_j$j.out" || fail "-j $j: the summary table differs"
done
pass "-j N gives the same files as -j 1"

# Per-channel utilisation and the traffic matrix, also identical under -j.
expect_status run_ch1 0 "$T" run exp.yaml -o c1 --quiet output.per_channel=true \
    output.traffic_matrix=true || finish
expect_status run_ch2 0 "$T" run exp.yaml -o c2 -j 3 --quiet output.per_channel=true \
    output.traffic_matrix=true || finish
for f in channels.csv matrix.csv; do
    [ -s "c1/$f" ] || fail "output: c1/$f missing"
    cmp -s "c1/$f" "c2/$f" || fail "output: $f differs between -j 1 and -j 3"
done
head -1 c1/channels.csv | grep -qx 'run,from,to,flits,utilisation' || fail "channels.csv header"
head -1 c1/matrix.csv | grep -qx 'run,src,dst,flits' || fail "matrix.csv header"
awk -F, 'NR > 1 && $4 == 0 { bad = 1 } END { exit bad }' c1/matrix.csv ||
    fail "matrix.csv must list non-zero entries only"
[ "$(cut -d, -f1 c1/matrix.csv | sort -u | grep -c '^[0-9]')" -eq $RUNS ] ||
    fail "matrix.csv should cover every run"
cmp -s r1/results.csv c1/results.csv || fail "output: recording channels changed results.csv"
pass "channels.csv and matrix.csv"

# The default output directory is output.dir; nothing else is created.
mkdir -p d && cp exp.yaml d/
expect_status run_default 0 "$T/d" run exp.yaml --quiet
[ -s d/out/results.csv ] || fail "output.dir: d/out/results.csv missing"
[ "$(stray_files d | grep -v '^d/out' | wc -l)" -eq 0 ] || fail "output.dir: stray files"
cmp -s r1/results.csv d/out/results.csv || fail "output.dir: results differ from -o r1"

# --dump-config prints YAML for every run and writes nothing.
mkdir -p dump && cp exp.yaml dump/
expect_status dump 0 "$T/dump" run exp.yaml --dump-config || true
[ "$(grep -c '^---' "$T/dump.out")" -eq $RUNS ] || fail "--dump-config: expected $RUNS documents"
grep -q 'vcs' "$T/dump.out" || fail "--dump-config: no network.vcs in the output"
[ -z "$(stray_files dump)" ] || fail "--dump-config wrote files: $(stray_files dump)"
pass "--dump-config"

# Plot: only when gnuplot exists (skip silently otherwise).
if command -v gnuplot >/dev/null 2>&1; then
    expect_status run_plot 0 "$T" run exp.yaml -o p --quiet output.plot=true || true
    [ -s p/latency.gp ] || fail "plot: no latency.gp"
    [ -s p/latency.png ] || fail "plot: no latency.png"
    ls -a p | grep -q '\.tmp' && fail "plot: temporary files left"
    pass "plot"
fi

finish
