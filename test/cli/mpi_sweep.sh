# test/cli/mpi_sweep.sh — `mpirun -np 3 mppnet run` (docs/scaling.md):
# the files equal -j 1's (results.json but its timing lines) with one or
# two worker processes per rank; a rank killed mid-sweep (the test hook
# MPPNET_TEST_MPI_DIE=R:K, docs/testing.md) leaves every run that reached
# rank 0 recorded, in results.csv too, a report naming the lost rank (with
# its host and pid), a non-zero exit, and `run --resume` (under mpirun and
# without) completes the sweep to the same files.
# Run as bash mpi_sweep.sh MPPNET SRCDIR mpi|nompi (how mppnet was built).
. "$(dirname "$0")/lib.sh"

if [ "${3:-nompi}" != mpi ]; then
    echo "SKIP: this mppnet was built without MPI (meson found none): run has no MPI mode"
    exit 77
fi
if ! command -v mpirun >/dev/null 2>&1; then
    echo "SKIP: no mpirun on PATH"
    exit 77
fi
# Open MPI refuses root and more ranks than cores unless told; MPICH's
# mpirun knows neither option
MPIRUN=(mpirun -np 3)
if mpirun --version 2>&1 | grep -q 'Open MPI'; then
    MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 3)
fi
# under the sanitizer build: Open MPI's own leaks at MPI_Finalize are not
# mppnet's (test/lsan-mpi.supp names its libraries; keeping its components
# loaded lets LeakSanitizer name them); mppnet's own stay checked
export OMPI_MCA_mca_base_component_disable_dlclose=1
export LSAN_OPTIONS="suppressions=$(cd "$SRCDIR" && pwd)/test/lsan-mpi.supp:fast_unwind_on_malloc=0:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
if ! "${MPIRUN[@]}" true >"$T/probe.out" 2>&1; then
    echo "SKIP: mpirun cannot start 3 processes here: $(head -3 "$T/probe.out")"
    exit 77
fi

cd "$T" || exit 1
# 12 short runs for the comparisons
small_exp 'seeds: [1, 2, 3]' 'sweep: {network.mesh.rows: [2, 4], workload.measure: [300, 600]}' >exp.yaml
NRUNS=12
# 12 runs of 0.1 to 0.5 s each (16 x 8 and 16 x 16 meshes) for the kill
small_exp 'seeds: [1, 2, 3]' 'sweep: {network.mesh.cols: [8, 16], workload.measure: [3000, 6000]}' |
    sed 's/rows: 4, cols: 4/rows: 16, cols: 16/; s/rate: 0.1/rate: 0.2/' >big.yaml

# mpirun MPPNET ARGS... with stdout/stderr into $T/NAME.out/.err: the status
# (NP: the processes, 3 unless set)
mpi() {
    local name=$1
    shift
    local rc=0
    "${MPIRUN[@]:0:${#MPIRUN[@]}-1}" "${NP:-3}" "$MPPNET" "$@" >"$T/$name.out" 2>"$T/$name.err" \
        </dev/null || rc=$?
    return $rc
}
same_files() { # same_files DIR WHAT [REF]: DIR's files == REF's (j1)
    local ref=${3:-j1}
    if cmp -s "$ref/results.csv" "$1/results.csv" &&
        cmp -s <(no_timing "$ref/results.json") <(no_timing "$1/results.json"); then
        pass "$2: results.csv and results.json (but timing) == -j 1"
    else
        fail "$2: the files differ from -j 1: $(diff "$ref/results.csv" "$1/results.csv" | head -4)"
    fi
}

expect_status j1 0 "$T" run exp.yaml -j 1 -o j1 || finish

mpi np3 run exp.yaml -o np3 || fail "np 3: exit $?: $(head -5 np3.err)"
same_files np3 "mpirun -np 3"
cmp -s j1.out np3.out || fail "np 3: the table differs from -j 1's"
grep -q "wrote $NRUNS of $NRUNS runs to np3/" np3.err || fail "np 3: $(tail -3 np3.err)"

# -v: each run handed out once, to rank 1 or 2, the largest first
mpi np3j2 run exp.yaml -o np3j2 -j 2 -v || fail "np 3 -j 2: exit $?: $(head -5 np3j2.err)"
same_files np3j2 "mpirun -np 3 ... -j 2"
starts=$(sed -n 's/^mppnet: run \([0-9]*\) (.*) started on rank [12] (host .*)$/\1/p' np3j2.err)
[ "$(sort -n <<<"$starts" | tr '\n' ' ')" = "$(seq 0 $((NRUNS - 1)) | tr '\n' ' ')" ] ||
    fail "np 3 -j 2: runs not handed out once each: $(tr '\n' ' ' <<<"$starts")"
first=$(head -1 <<<"$starts")
[ "$first" = 9 ] || fail "np 3 -j 2: run $first handed out first, expected run 9 (the largest)"
last=$(tail -1 <<<"$starts")
[ "$last" = 2 ] || fail "np 3 -j 2: run $last handed out last, expected run 2 (the smallest)"

# a shard under mpirun
mpi shard run exp.yaml --shard 2/2 -o shard2 || fail "np 3 --shard 2/2: exit $?"
expect_status shard1 0 "$T" run exp.yaml -q --shard 1/2 -o shard1 || finish
expect_status merge 0 "$T" merge shard1 shard2 -o merged -q || finish
same_files merged "shards (one under mpirun) merged"

# rank 1, the one worker of -np 2, dies (SIGKILL) after returning 2
# results: mpirun ends the job, exactly those 2 runs are recorded
expect_status bigj1 0 "$T" run big.yaml -j 1 -q -o bigj1 || finish
rc=0
MPPNET_TEST_MPI_DIE=1:2 NP=2 mpi kill run big.yaml -o kill -q || rc=$?
[ "$rc" != 0 ] || fail "a rank died, yet mpirun exited 0"
recs=$(find kill/.mppnet -name 'run-*.rec' | wc -l)
rows=$(($(wc -l <kill/results.csv) - 1))
[ "$recs" = 2 ] || fail "after the kill: $recs records, expected 2"
[ "$rows" = "$recs" ] || fail "after the kill: $rows rows in results.csv but $recs records"
# the report: printed (when mpirun still passes it on) and kept in the folder
grep -q 'mppnet: rank 1 (host .*, pid [0-9]*) is gone (it died or was killed)' kill/.mppnet/stopped ||
    fail "no report of the lost rank in kill/.mppnet/stopped: $(cat kill/.mppnet/stopped kill.err)"
# (its count may be one behind: SIGKILL between a record and the report)
grep -Eq "[^0-9]($recs|$((recs - 1))) of $NRUNS runs (are )?recorded in kill" kill/.mppnet/stopped ||
    fail "the report does not count the $recs runs: $(cat kill/.mppnet/stopped)"
# the rows are the recorded runs, in run order
[ "$(cut -d, -f1 kill/results.csv | tail -n +2 | tr '\n' ' ')" = \
    "$(find kill/.mppnet -name 'run-*.rec' | sed 's/.*run-\([0-9]*\)\.rec/\1/' | sort -n | tr '\n' ' ')" ] ||
    fail "after the kill: the rows are not the recorded runs"
pass "a rank killed after 2 results: exit $rc, $recs of $NRUNS runs recorded and in results.csv"
# -np 3: rank 2 goes on until mpirun ends the job; its run in progress is
# lost and named (unless it finished every run first)
rc=0
MPPNET_TEST_MPI_DIE=1:2 mpi kill3 run big.yaml -o kill3 -q || rc=$?
[ "$rc" != 0 ] || fail "np 3: a rank died, yet mpirun exited 0"
recs3=$(find kill3/.mppnet -name 'run-*.rec' | wc -l)
[ "$recs3" -ge 2 ] || fail "np 3, after the kill: $recs3 records"
[ "$recs3" = $(($(wc -l <kill3/results.csv) - 1)) ] ||
    fail "np 3, after the kill: results.csv does not hold the $recs3 records"
grep -q 'mppnet: rank 1 (host .*, pid [0-9]*) is gone' kill3/.mppnet/stopped ||
    fail "np 3: no report of the lost rank: $(cat kill3/.mppnet/stopped kill3.err)"
expect_status resume3 0 "$T" run --resume kill3 -q || finish
same_files kill3 "np 3, killed rank, then --resume" bigj1
cp -r kill kill2
# --resume under mpirun: prints the report kept, runs the rest
mpi resume run --resume kill || fail "--resume under mpirun: exit $?: $(head -5 resume.err)"
grep -q 'kill was stopped before; it reported then:' resume.err || fail "--resume: no report: $(head -3 resume.err)"
grep -q "resuming kill: $recs of $NRUNS runs already done" resume.err || fail "--resume: $(head -5 resume.err)"
same_files kill "killed rank, then --resume under mpirun" bigj1
[ ! -e kill/.mppnet/stopped ] || fail "--resume left the report"
# --resume without mpirun
expect_status resume_plain 0 "$T" run --resume kill2 -q -j 2 || finish
same_files kill2 "killed rank, then --resume -j 2" bigj1

finish
