# test/cli/progress.sh — progress on stderr: with stderr not a terminal a
# line at each tenth (run and sim), with -q nothing; on a terminal (through
# script(1), when there) the bar with the time elapsed and left.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
small_exp 'sweep:' '  workload.rate: [0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.14, 0.16, 0.18, 0.2]' >exp.yaml

# not a terminal: ten lines, 10% .. 100%, runs counted, elapsed, then "done"
expect_status lines 0 "$T" run exp.yaml -o l || finish
grep '%' lines.err >pct || true
[ "$(wc -l <pct)" = 10 ] || fail "lines: $(wc -l <pct) progress lines, expected 10: $(cat lines.err)"
for k in 1 2 3 4 5 6 7 8 9; do
    grep -Eq "^mppnet: ${k}0% \(${k} of 10 runs\), [0-9]+ s elapsed" pct || fail "lines: no ${k}0% line"
done
grep -Eq '^mppnet: 100% \(10 of 10 runs\), [0-9]+ s elapsed, done$' pct || fail "lines: no 100% line"
LC_ALL=C grep -q "$(printf '\r')" lines.err && fail "lines: a carriage return (a bar) in a file"
# a resumed experiment counts from where it stands: nothing left, no line
expect_status lines_resume 0 "$T" run --resume l || finish
grep -q '%' lines_resume.err && fail "resume: progress lines with nothing to run: $(cat lines_resume.err)"
pass "progress lines when stderr is not a terminal"

# -q: nothing on stderr at all
expect_status quiet 0 "$T" run exp.yaml -o q -q || finish
[ -s quiet.err ] && fail "-q: stderr: $(cat quiet.err)"
pass "-q is silent"

# sim: the same tenths for one run
expect_status sim 0 "$T" sim --topology mesh:4x4 --rate 0.1 --warmup 2000 --cycles 20000 || finish
n=$(grep -c '%' sim.err)
[ "$n" -ge 1 ] && [ "$n" -le 10 ] || fail "sim: $n progress lines: $(cat sim.err)"
grep -Eq '^mppnet: 100%, [0-9]+ s elapsed, done$' sim.err || fail "sim: no 100% line: $(cat sim.err)"
expect_status sim_q 0 "$T" sim --topology mesh:4x4 --rate 0.1 --warmup 2000 --cycles 20000 -q || finish
[ -s sim_q.err ] && fail "sim -q: stderr: $(cat sim_q.err)"
pass "sim progress lines, -q"

# a terminal: the bar, with elapsed time and time left (script(1) gives a pty)
if command -v script >/dev/null 2>&1 && script -q -c true /dev/null >/dev/null 2>&1; then
    script -q -c "'$MPPNET' run exp.yaml -o tty 2>&1 >/dev/null" /dev/null </dev/null >tty.log 2>&1
    tr '\r' '\n' <tty.log >tty.txt
    grep -Eq '^\[#+\] 100%  10/10 runs  [0-9]+ s elapsed, done' tty.txt ||
        fail "tty: no final bar: $(tail -c 300 tty.txt)"
    grep -Eq '^\[[#.]+\] +[0-9]+%  [0-9]+/10 runs' tty.txt || fail "tty: no bar"
    grep -q '^mppnet: [0-9]*0% (' tty.txt && fail "tty: progress lines on a terminal"
    script -q -c "'$MPPNET' run exp.yaml -o ttyq -q 2>&1 >/dev/null" /dev/null </dev/null >ttyq.log 2>&1
    grep -q 'elapsed' ttyq.log && fail "tty -q: a bar: $(cat ttyq.log)"
    pass "the bar on a terminal"
else
    echo "note: no script(1); the bar on a terminal not checked"
fi

finish
