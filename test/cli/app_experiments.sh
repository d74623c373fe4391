# test/cli/app_experiments.sh — the experiments of experiments/apps
# (wolff.yaml, lee.yaml, sync.yaml) in small: each checks with its full number of
# runs, then runs end to end on a 64 x 64 lattice with a few sweeps or
# instances (the full runs are in docs/apps.md, "Experiments"), one
# results.csv row per run; every run computes the sequential clusters or
# distances (exact = 1) with a positive speedup, and scripts/bcast_report.py
# turns the times into the table of widths.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

run_shrunk "$SRCDIR/experiments/apps/wolff.yaml" wolff 33 3 \
    'sweep.network.cm5-fattree.nodes+workload.N+workload.w+workload.sweeps=[[16,64,1,2],[16,64,4,2],[32,64,2,2]];workload.therm=5' &&
    pass "apps/wolff.yaml in small"
run_shrunk "$SRCDIR/experiments/apps/lee.yaml" lee 66 4 \
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
    python3 "$SRCDIR/scripts/bcast_report.py" "$csv" --by workload.w --value time_ms >"$T/$b.md" ||
        fail "$b: bcast_report.py failed"
    [ "$b" = sync ] || grep -q '| nodes | N |' "$T/$b.md" ||
        fail "$b: no table of widths: $(cat "$T/$b.md")"
done
pass "apps experiments: exact, a table of widths"
finish
