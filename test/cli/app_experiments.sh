# test/cli/app_experiments.sh — the experiments of experiments/apps
# (wolff.yaml, lee.yaml, sync.yaml) in small: each checks with its full number of
# runs, then runs end to end on a 64 x 64 lattice with a few sweeps or
# instances (the full runs are in docs/apps.md, "Experiments"), one
# results.csv row per run; every run computes the sequential clusters or
# distances (exact = 1) under every scheme with a positive speedup, and
# scripts/apps_report.py turns the times into the tables of best widths.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

run_shrunk "$SRCDIR/experiments/apps/wolff.yaml" wolff 165 15 \
    'sweep.network.cm5-fattree.nodes+workload.N+workload.w+workload.sweeps=[[16,64,1,2],[16,64,4,2],[32,64,2,2]];workload.therm=5' &&
    pass "apps/wolff.yaml in small"
run_shrunk "$SRCDIR/experiments/apps/lee.yaml" lee 330 20 \
    'sweep.network.cm5-fattree.nodes+workload.N+workload.w=[[16,64,1],[16,64,4]];workload.instances=2' &&
    pass "apps/lee.yaml in small"
run_shrunk "$SRCDIR/experiments/apps/sync.yaml" sync 8 8 \
    'workload.N=64;workload.therm=5;workload.sweeps=2;workload.instances=2' &&
    pass "apps/sync.yaml in small"
for b in wolff lee sync; do
    csv=$T/$b/results.csv
    [ -f "$csv" ] || continue
    python3 - "$csv" <<'PY' || fail "$b: $(cat "$csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    assert r["exact"] == "1", r
    assert float(r["speedup"]) > 0 and float(r["time_ms"]) > 0, r
    assert float(r["ams_per_side"]) > 0 and float(r["exp_cycles"]) > 0, r
PY
    [ "$b" = sync ] && continue
    frac=
    [ "$b" = lee ] && frac='--fraction 0.25'
    # shellcheck disable=SC2086
    python3 "$SRCDIR/scripts/apps_report.py" "$csv" $frac --widths >"$T/$b.md" 2>"$T/$b.err" ||
        fail "$b: apps_report.py failed: $(cat "$T/$b.err")"
    for s in AM-NC-O ST-NC-O SSR-C-NO AMP-C-NO ASR-C-O; do
        grep -q "^$s: time by width" "$T/$b.md" || fail "$b: no widths of $s: $(cat "$T/$b.md")"
    done
    grep -q '^| 16 | 64 | ' "$T/$b.md" ||
        fail "$b: no best-width row: $(cat "$T/$b.md")"
    [ -s "$T/$b.err" ] && fail "$b: apps_report.py warned: $(cat "$T/$b.err")"
done
pass "apps experiments: exact under every scheme, tables of the best widths"
finish
