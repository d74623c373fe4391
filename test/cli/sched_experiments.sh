# test/cli/sched_experiments.sh — the shipped scheduling experiments in
# small: every file of experiments/scheduling runs end to end with one
# matrix, one density and 16-byte units (the full runs are in
# docs/scheduling-results.md), writes a results.csv with the columns the
# report needs, and scripts/sched_report.py turns it into its summary;
# a phased schedule reports schedule_ms, comm_ms and total_ms, lp reports
# P - 1 phases, and ac and drs_n schedule_ms 0.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
for f in "$SRCDIR"/experiments/scheduling/cm5_*.yaml; do
    b=$(basename "$f" .yaml)
    case $b in
    cm5_airfoil) ov=('seeds=[1]' 'sweep.workload.msg_unit=[16]'
                     'sweep.workload.com=[traces/data/naca0012_2817.com32.mtx.gz]') ;;
    *) ov=('seeds=[1]' 'sweep.workload.d=[4]' 'sweep.workload.msg_unit=[16]') ;;
    esac
    (cd "$SRCDIR" && "$MPPNET" run "$f" -q -j 2 -o "$T/$b" "${ov[@]}") >"$T/$b.out" 2>"$T/$b.err" ||
        { fail "$b: exit $? $(head -c 300 "$T/$b.err")"; continue; }
    head -1 "$T/$b/results.csv" | tr ',' '\n' >"$T/$b.cols"
    for c in workload.scheduler workload.msg_unit comm_ms schedule_ms total_ms phases; do
        grep -qx "$c" "$T/$b.cols" || fail "$b: no column $c"
    done
    pass "$b"
done
python3 - "$T/cm5_uniform/results.csv" <<'PY' || fail "cm5_uniform: schedule columns"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, "no rows"
for r in rows:
    s, c, t = float(r["schedule_ms"]), float(r["comm_ms"]), float(r["total_ms"])
    assert abs(t - (s + c)) < 1e-9 * max(1, t), r
    if r["workload.scheduler"] in ("ac", "drs_n"):
        assert s == 0, r
    else:
        assert s > 0, r
    if r["workload.scheduler"] == "lp":
        assert r["phases"] == "31", r
print("ok: schedule_ms + comm_ms = total_ms; lp has 31 phases")
PY
python3 "$SRCDIR/scripts/sched_report.py" --no-png -o "$T/report" "$T"/cm5_uniform/results.csv \
    >"$T/report.out" 2>&1 || fail "sched_report: $(head -c 300 "$T/report.out")"
[ -s "$T/report/summary.md" ] || fail "sched_report wrote no summary.md"
finish
