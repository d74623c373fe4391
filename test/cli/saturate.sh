# test/cli/saturate.sh — `mppnet saturate`: the bisection agrees with a fine
# sweep of `mppnet run`, its output is identical for every -j, -o writes
# probes.csv and saturate.json, and bad input exits 2 with nothing run or
# written.
. "$(dirname "$0")/lib.sh"

# A 4x4 mesh under transpose, short windows: saturates near 0.36.
exp() {
    small_exp "$@" | sed 's/pattern: uniform/pattern: transpose/; s/warmup: 200/warmup: 500/;
                           s/measure: 1000/measure: 2000/'
}
exp >"$T/exp.yaml"

# 1. The bisection (tol 0.02) finds the highest stable rate of a fine sweep
#    (step 0.02) within tol, by the same criterion (accepted < 0.95 x
#    offered, or not drained: computed here from results.csv).
if expect_status bisect 0 "$T" saturate exp.yaml --criterion accepted --tol 0.02 -q; then
    sat=$(awk '!/^#/ && $1 ~ /^[0-9.]+$/ {print $1; exit}' "$T/bisect.out")
    exp "sweep:" "  workload.rate: [$(seq -s, 0.20 0.02 0.60)]" >"$T/sweep.yaml"
    if expect_status sweep 0 "$T" run sweep.yaml -q -j 2 -o sw; then
        last=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                        { u = $c["accepted"] < 0.95 * $c["offered"] || $c["drained"] != "true" }
                        u { print stable; exit } { stable = $c["offered"] }' "$T/sw/results.csv")
        [ -n "$sat" ] && [ -n "$last" ] ||
            fail "bisect: no rate (saturate: '$sat', sweep: '$last')"
        awk -v a="$sat" -v b="$last" 'BEGIN { d = a - b; exit !(d <= 0.02 && d >= -0.02) }' ||
            fail "bisect: saturate found $sat, the sweep's last stable rate is $last"
        pass "bisection $sat within 0.02 of the sweep's $last"
    fi
fi

# 2. Two seeds, -j 1 against -j 3: the same table and files; the table has
#    a CI, the files every probe.
exp "seeds: [1, 2]" >"$T/two.yaml"
expect_status j1 0 "$T" saturate two.yaml --tol 0.05 -q -o o1 &&
    expect_status j3 0 "$T" saturate two.yaml --tol 0.05 -q -j 3 -o o3 && {
    cmp -s "$T/j1.out" "$T/j3.out" || fail "-j 3 table differs from -j 1"
    cmp -s "$T/o1/probes.csv" "$T/o3/probes.csv" || fail "-j 3 probes.csv differs"
    cmp -s "$T/o1/saturate.json" "$T/o3/saturate.json" || fail "-j 3 saturate.json differs"
    row=$(grep -E '^ +[0-9]' "$T/j1.out")
    [ "$(echo "$row" | awk '{print $2}')" != "-" ] || fail "two seeds: no CI: $row"
    probes=$(echo "$row" | awk '{print $NF}')
    lines=$(($(wc -l <"$T/o1/probes.csv") - 1))
    [ "$probes" = "$lines" ] || fail "table says $probes probes, probes.csv has $lines"
    grep -q '"criterion": "booksim"' "$T/o1/saturate.json" || fail "saturate.json: no criterion"
    pass "identical for -j 1 and -j 3 ($probes probes)"
}

# 3. The booksim criterion: a low latency threshold saturates earlier.
if expect_status low 0 "$T" saturate exp.yaml --latency-thres 20 --tol 0.05 -q &&
    expect_status high 0 "$T" saturate exp.yaml --tol 0.05 -q; then
    a=$(awk '$1 ~ /^[0-9.]+$/ {print $1; exit}' "$T/low.out")
    b=$(awk '$1 ~ /^[0-9.]+$/ {print $1; exit}' "$T/high.out")
    awk -v a="$a" -v b="$b" 'BEGIN { exit !(a < b) }' ||
        fail "--latency-thres 20 gave $a, not below the default's $b"
    pass "latency threshold 20: $a < $b"
fi

# 4. Bad input: exit 2, a clear message, nothing on stdout, no folder.
exp "sweep:" "  workload.rate: [0.1, 0.2]" >"$T/swept.yaml"
expect_bad swept 'exp.yaml:[0-9]+:[0-9]+: the sweep has a workload.rate axis' saturate exp.yaml -o out
cat >"$T/norate.yaml" <<'YAML'
mppnet: 1
network: {topology: mesh, mesh: {rows: 2, cols: 2}}
workload: {type: pingpong}
YAML
expect_bad norate "workload 'pingpong' has no rate key" saturate exp.yaml -o out
exp >"$T/crit.yaml"
expect_bad crit "unknown --criterion 'fast' \(expected booksim or accepted\)" \
    saturate exp.yaml --criterion fast -o out
exp >"$T/tol0.yaml"
expect_bad tol0 "--tol must be a number in \(0, 1\]" saturate exp.yaml --tol 0 -o out
exp >"$T/tolbig.yaml"
expect_bad tolbig "--tol 0.5 must be below the upper bound 0.4" \
    saturate exp.yaml --tol 0.5 --max-rate 0.4 -o out
exp >"$T/maxrate.yaml"
expect_bad maxrate "--max-rate 2 is above workload.rate's maximum 1" \
    saturate exp.yaml --max-rate 2 -o out
exp >"$T/jobs.yaml"
expect_bad jobs "-j" saturate exp.yaml -j 0 -o out
expect_bad nofile "missing the experiment file" saturate -o out
exp >"$T/badkey.yaml"
expect_bad badkey "workload.bogus" saturate exp.yaml workload.bogus=1 -o out
pass "bad input refused"
finish
