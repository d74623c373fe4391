# test/cli/sigint.sh — SIGINT stops `mppnet run` after the current run(s):
# exit status 130, the finished runs written completely, no temporary files.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
# Many runs that each take a while, so that the signal arrives mid-way.
small_exp 'seeds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]' \
    'sweep: {workload.rate: [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55]}' |
    sed -e 's/rows: 4, cols: 4/rows: 8, cols: 8/' -e 's/measure: 1000/measure: 20000/' >exp.yaml
TOTAL=100

for jobs in 1 3; do
    "$MPPNET" run exp.yaml -o "s$jobs" -j "$jobs" --quiet >"out$jobs" 2>"err$jobs" &
    pid=$!
    sleep 2
    kill -INT "$pid" 2>/dev/null
    rc=0
    wait "$pid" || rc=$?
    if [ "$rc" = 0 ]; then
        echo "note: -j $jobs finished all runs before the signal"
        continue
    fi
    [ "$rc" = 130 ] || { fail "-j $jobs: exit status $rc after SIGINT, expected 130"; continue; }
    [ -s "s$jobs/results.csv" ] || { fail "-j $jobs: results.csv missing after SIGINT"; continue; }
    [ -s "s$jobs/results.json" ] || fail "-j $jobs: results.json missing after SIGINT"
    rows=$(($(wc -l <"s$jobs/results.csv") - 1))
    [ "$rows" -lt $TOTAL ] || fail "-j $jobs: all runs were written"
    ls -a "s$jobs" | grep -q '\.tmp' && fail "-j $jobs: temporary files left"
    grep -qi 'interrupted' "err$jobs" || fail "-j $jobs: no note that the run was interrupted"
    pass "SIGINT with -j $jobs: exit 130, $rows of $TOTAL runs written"
done

finish
