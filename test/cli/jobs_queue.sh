# test/cli/jobs_queue.sh — `mppnet run -j N` hands the runs out from a
# queue, the longest expected first (docs/cli.md, -j N): the notes of -v
# show the order the runs start in; the files stay byte-identical to -j 1
# and in run order. A static split (worker w runs i mod N == w) starts
# run 0 first and fails here.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# Runs of very different sizes, the smallest first in run order: a 2x4 to
# a 16x4 mesh, windows of 500 and 4000 cycles, two seeds.
small_exp 'seeds: [1, 2]' \
    'sweep: {network.mesh.rows: [2, 4, 8, 16], workload.measure: [500, 4000]}' >exp.yaml
NRUNS=16

# The start notes of $1 (stderr of a -v run) as "run rows measure seed".
starts() {
    sed -n 's/^mppnet: run \([0-9]*\) (network\.mesh\.rows=\([0-9]*\), workload\.measure=\([0-9]*\), seed \([0-9]*\)) started on worker [0-9]*$/\1 \2 \3 \4/p' "$1"
}

for jobs in 1 2; do
    expect_status "j$jobs" 0 "$T" run exp.yaml -o "o$jobs" -j "$jobs" -v || finish
    starts "$T/j$jobs.err" >"s$jobs"
    [ "$(wc -l <"s$jobs")" = $NRUNS ] ||
        fail "-j $jobs: $(wc -l <"s$jobs") start notes, expected $NRUNS: $(head -3 "$T/j$jobs.err")"
    [ "$(cut -d' ' -f1 "s$jobs" | sort -n | tr '\n' ' ')" = "$(seq 0 $((NRUNS - 1)) | tr '\n' ' ')" ] ||
        fail "-j $jobs: not every run started exactly once: $(cut -d' ' -f1 "s$jobs" | tr '\n' ' ')"
done

# -j 1: run order.
[ "$(cut -d' ' -f1 s1 | tr '\n' ' ')" = "$(seq 0 $((NRUNS - 1)) | tr '\n' ' ')" ] ||
    fail "-j 1: runs did not start in run order: $(cut -d' ' -f1 s1 | tr '\n' ' ')"

# -j 2: the largest run (16 rows, 4000 cycles, seed 1: run 14) first, the
# smallest (2 rows, 500 cycles, seed 2: run 1) last, and no run started
# after one it is at least as large as in both dimensions (strictly in
# one); equal runs (the seeds) in run order.
read -r first _ <s2
last=$(tail -1 s2 | cut -d' ' -f1)
[ "$first" = 14 ] || fail "-j 2: run $first started first, expected run 14 (the largest)"
[ "$last" = 1 ] || fail "-j 2: run $last started last, expected run 1 (the smallest)"
bad=$(awk '{ r[NR] = $2; m[NR] = $3; s[NR] = $4; id[NR] = $1 }
    END {
        for (p = 1; p <= NR; p++)
            for (q = p + 1; q <= NR; q++) {
                if (r[q] >= r[p] && m[q] >= m[p] && (r[q] > r[p] || m[q] > m[p]))
                    print "run " id[q] " (larger) after run " id[p]
                if (r[q] == r[p] && m[q] == m[p] && id[q] < id[p])
                    print "run " id[q] " after run " id[p] " (equal: run order)"
            }
    }' s2 | head -3)
[ -z "$bad" ] || fail "-j 2: start order: $bad"
[ "$FAILS" = 0 ] && pass "-j 2 starts the runs longest first: $(cut -d' ' -f1 s2 | tr '\n' ' ')"

# The files: byte-identical (results.csv holds no host time; results.json
# only in its timing lines), rows and table in run order.
if cmp -s o1/results.csv o2/results.csv; then
    pass "results.csv identical for -j 1 and -j 2"
else
    fail "results.csv differs between -j 1 and -j 2"
fi
cmp -s <(no_timing o1/results.json) <(no_timing o2/results.json) ||
    fail "results.json differs between -j 1 and -j 2 beyond its timing lines"
cmp -s "$T/j1.out" "$T/j2.out" || fail "the table differs between -j 1 and -j 2"
[ "$(cut -d, -f1 o2/results.csv | tail -n +2 | tr '\n' ' ')" = "$(seq 0 $((NRUNS - 1)) | tr '\n' ' ')" ] ||
    fail "-j 2: results.csv rows not in run order"

# --resume -j 2 runs only the runs without a record, longest first.
rm -f o2/.mppnet/run-1.rec o2/.mppnet/run-13.rec o2/.mppnet/run-5.rec
expect_status resume 0 "$T" run --resume o2 -j 2 -v || finish
got=$(starts "$T/resume.err" | cut -d' ' -f1 | tr '\n' ' ')
[ "$got" = "13 5 1 " ] || fail "--resume -j 2 started runs '$got', expected '13 5 1 '"
cmp -s o1/results.csv o2/results.csv || fail "--resume -j 2: results.csv differs from -j 1"

# A closed workload (a permutation: its flits per node, no window): the
# largest hypercube first.
cat >perm.yaml <<'YAML'
mppnet: 1
name: perm
network: {topology: hypercube, router: ecube, vcs: 2, buffer_flits: 4}
workload: {type: permutation, pattern: transpose, packets: 4, packet_flits: 4}
sweep: {network.hypercube.dim: [2, 4, 6]}
output: {dir: out, plot: false}
YAML
expect_status perm1 0 "$T" run perm.yaml -o p1 -j 1 -q || finish
expect_status perm2 0 "$T" run perm.yaml -o p2 -j 2 -q -v || finish
got=$(sed -n 's/^mppnet: run \([0-9]*\) .* started on worker [0-9]*$/\1/p' "$T/perm2.err" | tr '\n' ' ')
[ "$got" = "2 1 0 " ] || fail "permutation -j 2 started runs '$got', expected '2 1 0 '"
cmp -s p1/results.csv p2/results.csv || fail "permutation: results.csv differs for -j 2"
grep -q . "$T/perm1.err" && fail "-q without -v printed on stderr: $(head -2 "$T/perm1.err")"
[ "$FAILS" = 0 ] && pass "--resume and a closed workload: longest first, identical files"

# SIGINT while the long run (a 64x4 mesh, first in the queue) still runs on
# one worker and the other has finished short runs: exit 130, the finished
# runs written, the workers gone. The signal goes as soon as three records
# exist (not after a fixed time, which a slow or loaded machine breaks).
small_exp 'sweep: {network.mesh.rows: [2, 2, 2, 2, 2, 64]}' |
    sed -e 's/measure: 1000/measure: 200000/' >int.yaml
"$MPPNET" run int.yaml -o "$T/int" -j 2 -v >int.out 2>int.err &
pid=$!
i=0
while [ $i -lt $((1200 * ${MPPNET_TIME_SCALE:-1})) ] && kill -0 "$pid" 2>/dev/null; do
    [ "$(find int/.mppnet -name 'run-*.rec' 2>/dev/null | wc -l)" -ge 3 ] && break
    sleep 0.05
    i=$((i + 1))
done
kill -INT "$pid" 2>/dev/null
rc=0
wait "$pid" || rc=$?
recs=$(find int/.mppnet -name 'run-*.rec' | wc -l)
rows=$(($(wc -l <int/results.csv) - 1))
if [ "$rc" != 130 ]; then
    fail "SIGINT: exit status $rc, expected 130 (did the 64x4 run finish first?)"
elif [ "$rows" != "$recs" ] || [ "$rows" -lt 3 ] || [ "$rows" -gt 5 ]; then
    fail "SIGINT: $rows rows written, $recs records (expected 3 to 5, the same)"
elif [ -f int/.mppnet/run-5.rec ]; then
    fail "SIGINT: the 64x4 run was recorded"
elif ! head -1 int.err | grep -q '^mppnet: run 5 .* started on worker 0$'; then
    fail "SIGINT: the 64x4 run (5) did not start first: $(head -1 int.err)"
elif ps -eo args | grep -F -- "-o $T/int " | grep -qv grep; then
    fail "SIGINT: a worker is left running"
else
    pass "SIGINT during the long run: exit 130, $rows finished runs written, workers stopped"
fi

finish
