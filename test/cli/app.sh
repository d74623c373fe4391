# test/cli/app.sh — `mppnet app wolff|lee`: small runs on the cm5 preset,
# the JSON form, the time as the operations priced by the preset's
# node.app_*_cycles, determinism, --pairs, and bad input: exit status 2,
# one line "mppnet: app NAME: ..." on stderr, nothing on stdout.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# The prices of the cm5 preset, from its file.
price() { sed -n "s/^  $1: *\([0-9]*\).*/\1/p" "$SRCDIR/experiments/machines/cm5.yaml"; }
SITE=$(price app_site_cycles) TEST=$(price app_test_cycles)
RND=$(price app_random_cycles) QUEUE=$(price app_queue_cycles)
[ -n "$SITE" ] && [ -n "$TEST" ] && [ -n "$RND" ] && [ -n "$QUEUE" ] ||
    { fail "cm5.yaml: no app_*_cycles"; finish; }

# work_cycles = the operations priced; time_ms = work_cycles / 33 MHz;
# scale_ms = time_ms / mean cluster x N^2.
check_json() {
    python3 - "$1" "$SITE" "$TEST" "$RND" "$QUEUE" <<'PY' || fail "$1: $(cat "$1")"
import json, sys
j = json.load(open(sys.argv[1]))
site, test, rnd, queue = map(int, sys.argv[2:6])
w = j["sites"] * site + j["tests"] * test + j["randoms"] * rnd + j["queue_ops"] * queue
assert abs(j["work_cycles"] - w) <= 1e-9 * w, (j["work_cycles"], w)
assert abs(j["time_ms"] - w / 33000.0) <= 1e-9 * w, j["time_ms"]
assert 3.5 * j["sites"] <= j["tests"] <= 4 * j["sites"], "four neighbours tested a site (fewer on the border)"
if j["app"] == "wolff":
    assert j["sites"] == j["mean_cluster"] and 0 < j["randoms"] < j["tests"]
    s = j["time_ms"] / j["mean_cluster"] * j["N"] ** 2
    assert abs(j["scale_ms"] - s) <= 1e-9 * s, (j["scale_ms"], s)
else:
    assert j["randoms"] == 0 and j["mean_distance"] >= j["mean_manhattan"] > 0
    assert 0.4 * j["N"] <= j["mean_manhattan"] <= 0.6 * j["N"]
PY
}

expect_status w 0 "$T" app wolff --N 32 --therm 20 --sweeps 10 --json || finish
check_json w.out
expect_status w2 0 "$T" app wolff --sweeps=10 --therm=20 --N=32 --json || finish
cmp -s w.out w2.out || fail "wolff: --opt=V and another order differ"
expect_status w3 0 "$T" app wolff --N 32 --therm 20 --sweeps 10 --json --seed 2 || finish
cmp -s w.out w3.out && fail "wolff: another seed gave the same run"
pass "app wolff --json"

expect_status l 0 "$T" app lee --N 32 --fraction 0.5 --instances 3 --json || finish
check_json l.out
expect_status l2 0 "$T" app lee --N 32 --fraction 0.5 --instances 3 --pairs 4 --json || finish
check_json l2.out
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
assert a["pairs"] == 1 and b["pairs"] == 4 and a["sites"] != b["sites"]' l.out l2.out ||
    fail "lee --pairs: $(cat l.out l2.out)"
pass "app lee --json, --pairs"

# The human form: one key and value a line, the same keys.
expect_status h 0 "$T" app lee --N 32 --instances 2 || finish
grep -Eq '^time_ms +[0-9.e+-]+$' h.out || fail "lee: no time_ms line: $(cat h.out)"
[ -s h.err ] && fail "lee: output on stderr: $(cat h.err)"

# Bad input.
expect_bad bad_n 'app wolff: --N needs a whole number from 2 to 16384' app wolff --N 1
expect_bad bad_frac 'app lee: --fraction must be 0 \.\. 0\.9' app lee --fraction 0.95
expect_bad bad_frac2 'app lee: --fraction must be 0 \.\. 0\.9' app lee --fraction -0.1
expect_bad bad_sweeps 'app wolff: --sweeps' app wolff --sweeps 0
expect_bad bad_pairs 'app lee: --pairs' app lee --pairs 0
expect_bad bad_beta 'app wolff: --beta must be >= 0' app wolff --beta -1
expect_bad bad_machine "app lee: unknown machine preset 'foo' \(booksim, cm2, cm5" app lee --machine foo
expect_bad bad_app "app: unknown command 'ising', valid: wolff, lee" app ising
expect_bad bad_arg "app wolff: unexpected argument 'extra'" app wolff extra
expect_bad bad_opt 'app lee' app lee --sweeps 3
expect_bad too_blocked 'app lee: a 16x16 grid could be blocked only to 0\.[0-9]+ by routed nets' \
    app lee --N 16 --fraction 0.9

# The parallel runs (workload app): a small one on the cm5 preset computes
# the sequential clusters; bad configurations are errors before anything
# is written.
app_exp() {
    printf 'mppnet: 1\nmachine: cm5\nname: %s\nworkload: {type: app, app: %s, N: %s, w: %s, therm: 5, sweeps: 2%s}\n' "$@"
}
app_exp ok wolff 64 2 '' >"$T/ok.yaml"
expect_status par 0 "$T" run ok.yaml -q -o par || finish
python3 - "$T/par/results.csv" <<'PY' || fail "app run: $(cat "$T/par/results.csv")"
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
assert len(r) == 1 and r[0]["exact"] == "1" and float(r[0]["speedup"]) > 1, r
PY
pass "workload app: the sequential clusters on 32 processors"
app_exp w0 wolff 64 0 '' >"$T/bad_w0.yaml"
expect_bad bad_w0 "workload.w': expected an integer between 1 and" run exp.yaml
app_exp wide wolff 64 5 '' >"$T/bad_wide.yaml"
expect_bad bad_wide 'stripe width w = 5 gives 13 stripes of N = 64 columns, fewer than the 32 processors' run exp.yaml
app_exp few lee 16 1 '' >"$T/bad_few.yaml"
expect_bad bad_few '32 processors for N = 16 columns' run exp.yaml
app_exp scheme wolff 64 2 ', scheme: am_c_o' >"$T/bad_scheme.yaml"
expect_bad bad_scheme "workload.scheme': expected one of am_nc_o, st_nc_o, ssr_c_no, amp_c_no, asr_c_o" run exp.yaml
app_exp ssrsync wolff 64 2 ', scheme: ssr_c_no, sync: local' >"$T/bad_ssrsync.yaml"
expect_bad bad_ssrsync 'workload: app: sync: local applies to the schemes am_nc_o and st_nc_o; ssr_c_no synchronises as it communicates' run exp.yaml
app_exp far lee 32 1 ', fraction: 0.85' >"$T/bad_far.yaml"
expect_bad bad_far 'workload: app: lee: a 32x32 grid could be blocked only to 0\.[0-9]+ by routed nets' run exp.yaml
{ app_exp cost wolff 64 2 ''; printf 'node: {app_random_cycles: -5}\n'; } >"$T/bad_cost.yaml"
expect_bad bad_cost "exp.yaml:[0-9]+:[0-9]+: key 'node.app_random_cycles': expected an integer" run exp.yaml
{ app_exp poll wolff 64 2 ''; printf 'node: {poll_call_cycles: many}\n'; } >"$T/bad_poll.yaml"
expect_bad bad_poll "exp.yaml:[0-9]+:[0-9]+: key 'node.poll_call_cycles': expected an integer" run exp.yaml
{ app_exp strata wolff 64 2 ', scheme: st_nc_o'; printf 'node: {strata_send_cycles: -1}\n'; } >"$T/bad_strata.yaml"
expect_bad bad_strata "exp.yaml:[0-9]+:[0-9]+: key 'node.strata_send_cycles': expected an integer" run exp.yaml
app_exp frac lee 64 2 ', fraction: 0.95' >"$T/bad_frac_run.yaml"
expect_bad bad_frac_run "workload.fraction': expected a number between 0 and 0.9" run exp.yaml
finish
