# test/cli/durable.sh — nothing finished is lost. A sweep stopped by
# SIGTERM, by SIGKILL or with its stdout piped into `head -1` keeps every
# finished run in results.csv, and `mppnet run --resume DIR` completes it
# to the files an uninterrupted run writes (byte for byte; results.json
# but for its timing lines). A changed experiment is refused on resume; a
# second run into a busy folder refuses and mixes nothing; a folder whose
# parent is a file fails before any run; a new run removes an earlier
# run's files; planted symlinks never redirect a write.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
# 24 runs of about a quarter of a second each.
small_exp 'seeds: [1, 2, 3, 4, 5, 6]' \
    'sweep: {workload.rate: [0.1, 0.2, 0.3, 0.4]}' |
    sed -e 's/rows: 4, cols: 4/rows: 8, cols: 8/' -e 's/measure: 1000/measure: 30000/' >exp.yaml
TOTAL=24
rows() { echo $(($(wc -l <"$1/results.csv") - 1)); }
notiming() { grep -v wall_seconds "$1"; }

expect_status ref 0 "$T" run exp.yaml -o ref -j 2 --quiet || finish
[ "$(rows ref)" = $TOTAL ] || fail "reference: $(rows ref) rows"

# same_as_ref DIR: DIR's files are the uninterrupted run's
same_as_ref() {
    cmp -s ref/results.csv "$1/results.csv" || fail "$1: results.csv differs from the reference"
    notiming ref/results.json >a.json
    notiming "$1/results.json" >b.json
    cmp -s a.json b.json || fail "$1: results.json differs from the reference (timing aside)"
}

# stopped NAME SIGNAL: a sweep stopped by SIGNAL as soon as its first run is
# recorded (not after a fixed time: under load or the sanitizers a second
# may hold no finished run, on a fast machine nearly all of them)
stopped() {
    local name=$1 sig=$2 rc=0 i=0
    "$MPPNET" run exp.yaml -o "$name" -j 2 --quiet >"$name.out" 2>"$name.err" &
    local pid=$!
    while [ $i -lt $((1200 * ${MPPNET_TIME_SCALE:-1})) ] && kill -0 "$pid" 2>/dev/null; do
        [ -f "$name/results.csv" ] && [ "$(wc -l <"$name/results.csv")" -ge 2 ] && break
        sleep 0.05
        i=$((i + 1))
    done
    kill -"$sig" "$pid" 2>/dev/null
    wait "$pid" || rc=$?
    echo "$rc"
}

# 1. SIGTERM: exit 143, the finished runs kept, resume completes.
rc=$(stopped term TERM)
[ "$rc" = 143 ] || fail "SIGTERM: exit status $rc, expected 143"
n=$(rows term)
[ "$n" -gt 0 ] && [ "$n" -lt $TOTAL ] || fail "SIGTERM: $n rows kept (expected some, not all)"
grep -q -- "--resume" term.err || fail "SIGTERM: no hint at --resume"
expect_status term_resume 0 "$T" run --resume term -j 2 --quiet || finish
grep -q "" term_resume.out
same_as_ref term
pass "SIGTERM after $n of $TOTAL runs; --resume completes to the reference"

# 2. SIGKILL: nothing can be caught; the records and files survive.
rc=$(stopped kill KILL)
[ "$rc" = 137 ] || fail "SIGKILL: exit status $rc, expected 137"
sleep 1 # the workers notice their parent is gone
n=$(rows kill)
[ "$n" -gt 0 ] && [ "$n" -lt $TOTAL ] || fail "SIGKILL: $n rows kept (expected some, not all)"
expect_status kill_resume 0 "$T" run --resume kill --quiet || finish
same_as_ref kill
pass "SIGKILL after $n of $TOTAL runs; --resume completes to the reference"

# 3. stdout into `head -1`: the table is lost, not the results.
"$MPPNET" run exp.yaml -o head -j 2 --quiet 2>head.err | head -1 >head.out
[ "$(wc -l <head.out)" = 1 ] || fail "head -1: not one line"
[ "$(rows head)" = $TOTAL ] || fail "head -1: $(rows head) rows written"
expect_status head_resume 0 "$T" run --resume head --quiet || finish
same_as_ref head
pass "stdout closed by head -1: every run written"

# 4. A changed experiment is refused on resume, naming the runs. The change
#    (the measured window) touches every run, whichever finished first.
rc=$(stopped changed TERM)
sed -e 's/measure: 30000/measure: 30001/' exp.yaml >exp2.yaml
expect_status changed_resume 2 "$T" run --resume changed exp2.yaml --quiet
grep -q "differs from the one" changed_resume.err || fail "changed experiment: no refusal"
first=$(tail -n +2 changed/results.csv | cut -d, -f1 | sort -n | head -1)
grep -Eq "runs? \($first[,)]" changed_resume.err ||
    fail "changed experiment: runs not named (the first finished is run $first)"
pass "a changed experiment is refused on resume"

# 5. Two runs into one folder: the second refuses, the first is whole.
"$MPPNET" run exp.yaml -o busy -j 1 --quiet >busy.out 2>busy.err &
pid=$!
sleep 0.5
expect_status busy2 2 "$T" run exp.yaml -o busy --quiet workload.warmup=0
grep -q "in use by another mppnet run" busy2.err || fail "busy folder: no refusal"
wait "$pid" || fail "busy folder: the first run failed"
same_as_ref busy
pass "a second run into a busy folder refuses; nothing is mixed"

# 6. A folder whose parent is a regular file fails before any run.
: >afile
start=$(date +%s)
expect_status parent_file 2 "$T" run exp.yaml -o afile/out --quiet
[ $(($(date +%s) - start)) -le $((2 * ${MPPNET_TIME_SCALE:-1})) ] || fail "parent is a file: it simulated first"
grep -q "afile" parent_file.err || fail "parent is a file: the message does not name it"
pass "an output folder under a regular file fails before simulating"

# 7. Stale files of an earlier run are removed; planted symlinks never
#    redirect a write.
mkdir -p stale/.mppnet
echo "old" >stale/channels.csv
echo "old" >stale/.mppnet/run-99.rec
echo "precious" >precious.txt
ln -s ../precious.txt stale/results.csv
ln -s ../precious.txt stale/.results.csv.tmp
expect_status stale 0 "$T" run exp.yaml -o stale --quiet workload.rate=0.1 'seeds=[1]' || finish
[ -e stale/channels.csv ] && fail "stale: an earlier run's channels.csv survived"
[ -e stale/.mppnet/run-99.rec ] && fail "stale: an earlier run's record survived"
[ "$(cat precious.txt)" = precious ] || fail "symlink: a write went through a planted symlink"
[ -L stale/results.csv ] && fail "symlink: results.csv is still the planted link"
[ "$(rows stale)" = 1 ] || fail "stale: results.csv has $(rows stale) rows"
ln -sf ../precious.txt stale/.mppnet/lock
expect_status lock_link 2 "$T" run exp.yaml -o stale --quiet workload.rate=0.1 'seeds=[1]'
[ "$(cat precious.txt)" = precious ] || fail "symlink: the lock followed a planted link"
pass "stale files removed; planted symlinks do not redirect writes"

# 8. Many short runs: the result files are not rewritten after every run
#    (that costs in proportion to the runs finished, so quadratically in
#    all: 2000 runs of a 2x2 mesh took 129 s that way, 1.1 s paced), and
#    the paced files are the same as a run's with one seed at a time.
small_exp "seeds: [$(seq -s ', ' 1 2000)]" |
    sed -e 's/rows: 4, cols: 4/rows: 2, cols: 2/' -e 's/warmup: 200/warmup: 10/' \
        -e 's/measure: 1000/measure: 20/' >many.yaml
start=$(date +%s)
expect_status many 0 "$T" run many.yaml -o many -j 2 --quiet || finish
took=$(($(date +%s) - start))
[ "$took" -le $((30 * ${MPPNET_TIME_SCALE:-1})) ] || fail "2000 short runs took $took s (paced rewrites: a few seconds)"
[ "$(rows many)" = 2000 ] || fail "many: $(rows many) rows"
expect_status many_one 0 "$T" run many.yaml -o many_one -j 1 --quiet 'seeds=[1777]' || finish
grep -E '^0,' many_one/results.csv | cut -d, -f2- >one.row
awk -F, '$2 == 1777' many/results.csv | cut -d, -f2- >many.row
cmp -s one.row many.row || fail "many: run with seed 1777 differs from its run alone"
pass "2000 short runs in $took s; the files are whole"

finish
