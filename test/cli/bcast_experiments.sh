# test/cli/bcast_experiments.sh — the shipped s-to-p broadcasting
# experiments in small: every file of experiments/broadcast checks with its
# full number of runs, then runs end to end with overrides that shrink it to
# a few runs (one s, short messages; the full runs are in docs/broadcast.md,
# "Experiments"), exits 0 and writes one results.csv row per run with the
# broadcast columns; scripts/bcast_report.py turns each into its table.
# fixed_total.yaml spreads exactly 80 KB (81920 bytes) in every run, and
# the parts of partition.yaml add up to bcast_ms. And the paper's
# qualitative statements, small (paragon preset, 6 x 6; shown full by the
# experiments): xor and two_step are the slowest for more than a few
# sources; br_xy_dim on the row distribution is slower than br_xy_source;
# spreading a fixed total over more sources is faster.
. "$(dirname "$0")/lib.sh"

PY=$(command -v python3 || true)
cd "$T" || exit 1

# file | full runs | shrunk runs | overrides (separated by ';')
while IFS='|' read -r b full small ov; do
    [ -n "$b" ] || continue
    run_shrunk "$SRCDIR/experiments/broadcast/$b.yaml" "$b" "$full" "$small" "$ov" || continue
    head -1 "$T/$b/results.csv" | tr ',' '\n' >"$T/$b.cols"
    for c in bcast_ms part_redist_ms part_bcast_ms part_exchange_ms nodes; do
        grep -qx "$c" "$T/$b.cols" || fail "$b: no column $c"
    done
    if [ -n "$PY" ]; then
        rep=()
        case $b in
        partition) rep=(--parts) ;;
        shapes) rep=(--by workload.s) ;;
        vs_p) rep=(--show nodes --x nodes) ;;
        repos) rep=(--ratio repos,br_xy_source) ;;
        esac
        "$PY" "$SRCDIR/scripts/bcast_report.py" "$T/$b/results.csv" "${rep[@]}" \
            --plot "$T/img/bcast-$b.png" >"$T/$b.md" 2>"$T/$b.rep.err" ||
            { fail "$b: bcast_report: $(head -c 300 "$T/$b.rep.err")"; continue; }
        n=$(grep -c '^| ' "$T/$b.md")
        [ "$n" -ge 2 ] || fail "$b: bcast_report printed no table rows"
        [ -s "$T/img/bcast-$b.gp" ] || fail "$b: bcast_report wrote no plot script"
    fi
    pass "$b: $full runs in full, $rows in small"
done <<'CASES'
vs_s|500|5|sweep.workload.s=[4];workload.bytes=256
vs_L|50|10|sweep.workload.bytes=[32, 64];workload.s=4
vs_p|75|10|sweep.network.mesh+workload.s=[[2x2, 2], [3x3, 3]]
distributions|120|18|seeds=[1, 2];sweep.workload.dist=[R, B_5_6, random];workload.bytes=256
fixed_total|12|4|sweep.workload.s+workload.bytes=[[5, 512], [40, 64]]
shapes|12|4|sweep.workload.s=[8];workload.bytes=256
repos|24|8|sweep.workload.dist=[R, cross];workload.bytes=256
partition|3|3|workload.bytes=256
CASES

# every run of fixed_total.yaml broadcasts 80 KB in all: s x bytes = 81920
(cd "$SRCDIR" && "$MPPNET" run experiments/broadcast/fixed_total.yaml --dump-config) >"$T/ft.dump" ||
    fail "fixed_total: --dump-config"
awk '/^  s: / { s = $2 } /^  bytes: / { n++; if (s * $2 != 81920) bad++ }
     END { exit !(n == 12 && bad == 0) }' "$T/ft.dump" ||
    fail "fixed_total: some run does not spread exactly 81920 bytes"

# partition: the parts add up to bcast_ms; repos has a move, part_xy_source an exchange
if [ -n "$PY" ] && [ -f "$T/partition/results.csv" ]; then
    "$PY" - "$T/partition/results.csv" <<'PY' || fail "partition: parts"
import csv, sys
rows = {r["workload.algorithm"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert set(rows) == {"repos", "part_xy_source", "br_xy_source"}, rows.keys()
for a, r in rows.items():
    parts = [float(r[k]) for k in ("part_redist_ms", "part_bcast_ms", "part_exchange_ms") if r[k]]
    assert abs(sum(parts) - float(r["bcast_ms"])) < 1e-9 * max(1, float(r["bcast_ms"])), r
assert rows["repos"]["part_redist_ms"] and not rows["repos"]["part_exchange_ms"]
assert rows["part_xy_source"]["part_redist_ms"] and rows["part_xy_source"]["part_exchange_ms"]
assert not rows["br_xy_source"]["part_redist_ms"]
print("ok: partition parts add up")
PY
fi
# the paper's qualitative statements, small
cat >"$T/q.yaml" <<'YAML'
mppnet: 1
machine: paragon
network: {mesh: {rows: 6, cols: 6}}
workload: {type: broadcast, dist: E, s: 12, bytes: 1KiB}
sweep:
  workload.algorithm: [br_lin, br_xy_source, br_xy_dim, xor, two_step]
output: {dir: q, plot: false}
YAML
# COLUMN=VALUE lines of results.csv: the key column and bcast_ms
times() {
    awk -F, -v key="$2" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == key) k = i; if ($i == "bcast_ms") b = i } next }
                         { print $k, $b }' "$1"
}
if expect_status q5 0 "$T" run "$T/q.yaml" -q -o "$T/q5"; then
    times "$T/q5/results.csv" workload.algorithm >"$T/q5.t"
    awk '{ t[$1] = $2 } END {
        fast = t["br_lin"]; if (t["br_xy_source"] > fast) fast = t["br_xy_source"]
        if (t["br_xy_dim"] > fast) fast = t["br_xy_dim"]
        exit !(t["xor"] > 1.3 * fast && t["two_step"] > 1.3 * fast) }' "$T/q5.t" ||
        fail "xor and two_step are not the slowest on 6x6, E, s = 12: $(tr '\n' ' ' <"$T/q5.t")"
fi
if expect_status qr 0 "$T" run "$T/q.yaml" -q -o "$T/qr" workload.dist=R workload.s=6 \
    'sweep.workload.algorithm=[br_xy_source, br_xy_dim]'; then
    times "$T/qr/results.csv" workload.algorithm >"$T/qr.t"
    awk '{ t[$1] = $2 } END { exit !(t["br_xy_dim"] > 1.1 * t["br_xy_source"]) }' "$T/qr.t" ||
        fail "br_xy_dim on R is not slower than br_xy_source: $(tr '\n' ' ' <"$T/qr.t")"
fi
ok=1
for sb in 2:12KiB 6:4KiB; do
    expect_status "qf${sb%%:*}" 0 "$T" run "$T/q.yaml" -q -o "$T/qf${sb%%:*}" workload.dist=DR \
        'sweep.workload.algorithm=[br_xy_source]' "workload.s=${sb%%:*}" "workload.bytes=${sb#*:}" ||
        ok=0
done
if [ $ok = 1 ]; then
    t2=$(times "$T/qf2/results.csv" workload.algorithm | awk '{ print $2 }')
    t6=$(times "$T/qf6/results.csv" workload.algorithm | awk '{ print $2 }')
    awk -v a="$t2" -v b="$t6" 'BEGIN { exit !(b < 0.9 * a) }' ||
        fail "24 KB over 6 sources ($t6 ms) is not faster than over 2 ($t2 ms)"
fi
pass "qualitative: xor and two_step slowest, br_xy_dim slower on R, more sources faster"
finish
