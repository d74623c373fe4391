# test/cli/deadlock.sh — a run that deadlocks: the deadlock report goes to
# stderr, the runs that finished are still written, exit status 1; -j 2
# writes the same files.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
# xyyx (test only) mixes XY and YX routes on one VC: under heavy load with
# small buffers the mesh deadlocks and the watchdog must stop it.
small_exp 'sweep: {workload.rate: [0.01, 0.9]}' |
    sed -e 's/^  router: ecube/  router: xyyx/' -e 's/^  vcs: 2/  vcs: 1/' \
        -e 's/^  buffer_flits: 4/  buffer_flits: 2\n  watchdog_cycles: 2000/' >exp.yaml

rc=0
"$MPPNET" run exp.yaml -o d1 --quiet >out1 2>err1 || rc=$?
if [ "$rc" = 0 ]; then
    echo "SKIP: xyyx did not deadlock in this configuration"
    exit 77
fi
[ "$rc" = 1 ] || { fail "deadlock: exit status $rc, expected 1"; cat err1 >&2; finish; }
grep -qi 'deadlock' err1 || fail "deadlock: no deadlock report on stderr"
[ -s d1/results.csv ] || fail "deadlock: results.csv of the finished runs missing"
[ -s d1/results.json ] || fail "deadlock: results.json missing"
rows=$(($(wc -l <d1/results.csv) - 1))
[ "$rows" -lt 2 ] || fail "deadlock: the failed run has a row in results.csv"
grep -q 'FAILED' out1 || fail "deadlock: the table does not show the failed run"
pass "deadlock: report, exit 1, $rows finished run(s) written"

rc=0
"$MPPNET" run exp.yaml -o d2 -j 2 --quiet >out2 2>err2 || rc=$?
[ "$rc" = 1 ] || fail "deadlock -j 2: exit status $rc, expected 1"
cmp -s d1/results.csv d2/results.csv || fail "deadlock -j 2: results.csv differs from -j 1"
grep -qi 'deadlock' err2 || fail "deadlock -j 2: no report on stderr"
pass "deadlock under -j 2"

finish
