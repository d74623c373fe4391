# test/cli/shard.sh — `mppnet run --shard I/N` and `mppnet merge`
# (docs/scaling.md): three shards merged are the files of -j 1 (results.json
# but for its timing lines); bad --shard values are usage errors; merge
# refuses folders of another experiment, a shard given twice, a run
# missing, a damaged record, and an OUT that exists, writing nothing.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

small_exp 'seeds: [1, 2]' 'sweep: {network.mesh.rows: [2, 4, 8], workload.measure: [300, 600]}' >exp.yaml
NRUNS=12

# the reference: one run of the whole experiment
expect_status j1 0 "$T" run exp.yaml -q -o j1 || finish

# three shards, into out-shard-I-of-3 (output.dir is out), one with -j 2
for i in 1 2 3; do
    jobs=1
    [ "$i" = 2 ] && jobs=2
    expect_status "shard$i" 0 "$T" run exp.yaml -q --shard "$i/3" -j "$jobs" || finish
    [ -f "out-shard-$i-of-3/results.csv" ] || fail "--shard $i/3: no out-shard-$i-of-3/results.csv"
done
# each shard holds its runs: index = I-1 modulo 3
for i in 1 2 3; do
    got=$(cut -d, -f1 "out-shard-$i-of-3/results.csv" | tail -n +2 | tr '\n' ' ')
    want=$(seq $((i - 1)) 3 $((NRUNS - 1)) | tr '\n' ' ')
    [ "$got" = "$want" ] || fail "--shard $i/3 ran runs '$got', expected '$want'"
done
# -o names a shard's folder
expect_status shard_o 0 "$T" run exp.yaml -q --shard 2/3 -o mine || finish
cmp -s mine/results.csv out-shard-2-of-3/results.csv || fail "--shard 2/3 -o mine differs"

expect_status merge 0 "$T" merge out-shard-1-of-3 out-shard-2-of-3 out-shard-3-of-3 -o merged ||
    finish
if cmp -s j1/results.csv merged/results.csv &&
    cmp -s <(no_timing j1/results.json) <(no_timing merged/results.json); then
    pass "3 shards merged == -j 1 (results.csv, results.json but timing)"
else
    fail "the merge differs from -j 1: $(diff j1/results.csv merged/results.csv | head -5)"
fi
# the merged folder is a complete run folder: --resume runs nothing
expect_status resume_merged 0 "$T" run --resume merged -q || finish
cmp -s j1/results.csv merged/results.csv || fail "--resume of the merged folder changed it"
# the order of the folders does not matter; a shard's -j neither
expect_status merge2 0 "$T" merge out-shard-3-of-3 mine out-shard-1-of-3 -o merged2 -q || finish
cmp -s j1/results.csv merged2/results.csv || fail "merge in another order differs"

# bad --shard values: usage errors, nothing written
for bad in 0/3 4/3 3 a/b 1/0 -1/3 1/ /3 2/1 1/3x; do
    expect_bad "bad_shard_${bad//\//_}" "--shard needs I/N" run exp.yaml --shard "$bad" -o o || true
done
cp exp.yaml "$T/resume_shard.yaml"
expect_status resume_shard 2 "$T" run --resume out-shard-1-of-3 --shard 1/3
grep -q 'no --shard with it' "$T/resume_shard.err" || fail "--resume --shard: $(cat "$T/resume_shard.err")"

# --resume of a shard completes that shard only
rm out-shard-2-of-3/.mppnet/run-4.rec out-shard-2-of-3/.mppnet/run-7.rec
expect_status resume2 0 "$T" run --resume out-shard-2-of-3 || finish
grep -q 'resuming out-shard-2-of-3: 2 of 4 runs already done' "$T/resume2.err" ||
    fail "resume of a shard: $(cat "$T/resume2.err")"
cmp -s mine/results.csv out-shard-2-of-3/results.csv || fail "--resume of shard 2/3 differs"

# merge refuses, writing nothing: a run missing (a shard not given)
expect_status missing 2 "$T" merge out-shard-1-of-3 out-shard-3-of-3 -o m1
grep -q 'runs missing (run 1, 4, 7, 10).*shard 2/3, which is not among the folders' "$T/missing.err" ||
    fail "missing shard: $(cat "$T/missing.err")"
[ ! -e m1 ] || fail "missing shard: m1 was written"
# a run missing in a shard that did not finish
rm out-shard-3-of-3/.mppnet/run-5.rec
expect_status unfinished 2 "$T" merge out-shard-1-of-3 out-shard-2-of-3 out-shard-3-of-3 -o m2
grep -q 'run 5 (.*), of shard 3/3, is not finished in out-shard-3-of-3 (`mppnet run --resume out-shard-3-of-3`' \
    "$T/unfinished.err" || fail "unfinished shard: $(cat "$T/unfinished.err")"
[ ! -e m2 ] || fail "unfinished shard: m2 was written"
expect_status resume3 0 "$T" run --resume out-shard-3-of-3 -q || finish
# a shard given twice (another folder of the same shard)
expect_status dup 2 "$T" merge out-shard-1-of-3 out-shard-2-of-3 mine out-shard-3-of-3 -o m3
grep -q 'run 1 (.*) is in both out-shard-2-of-3 and mine: give each shard once' "$T/dup.err" ||
    fail "duplicate: $(cat "$T/dup.err")"
[ ! -e m3 ] || fail "duplicate: m3 was written"
# the same folder twice
expect_status same 2 "$T" merge out-shard-1-of-3 out-shard-1-of-3 -o m4
grep -q 'are the same folder' "$T/same.err" || fail "same folder: $(cat "$T/same.err")"
# another experiment (one run's configuration changed)
expect_status other 0 "$T" run exp.yaml -q --shard 2/3 -o other network.vcs=3 || finish
expect_status mismatch 2 "$T" merge out-shard-1-of-3 other out-shard-3-of-3 -o m5
grep -q 'out-shard-1-of-3 and other hold different experiments: run 0 (.*) has config_hash' \
    "$T/mismatch.err" || fail "mismatch: $(cat "$T/mismatch.err")"
# another run count
small_exp 'seeds: [1, 2, 3]' 'sweep: {network.mesh.rows: [2, 4, 8], workload.measure: [300, 600]}' >exp3.yaml
expect_status other3 0 "$T" run exp3.yaml -q --shard 2/3 -o other3 || finish
expect_status count 2 "$T" merge out-shard-1-of-3 other3 out-shard-3-of-3 -o m6
grep -q 'hold different experiments: 12 runs against 18' "$T/count.err" ||
    fail "run count: $(cat "$T/count.err")"
# a damaged record: refused, and left as it was
cp out-shard-1-of-3/.mppnet/run-3.rec saved.rec
printf 'X' | dd of=out-shard-1-of-3/.mppnet/run-3.rec bs=1 seek=40 conv=notrunc status=none
expect_status damaged 2 "$T" merge out-shard-1-of-3 out-shard-2-of-3 out-shard-3-of-3 -o m7
grep -q 'run-3.rec is damaged' "$T/damaged.err" || fail "damaged: $(cat "$T/damaged.err")"
cmp -s saved.rec out-shard-1-of-3/.mppnet/run-3.rec && fail "damaged: the test did not damage it"
[ -f out-shard-1-of-3/.mppnet/run-3.rec ] || fail "damaged: merge removed the record"
cp saved.rec out-shard-1-of-3/.mppnet/run-3.rec
# OUT exists (not empty): refused; an empty folder is fine
expect_status exists 2 "$T" merge out-shard-1-of-3 out-shard-2-of-3 out-shard-3-of-3 -o merged
grep -q 'merged exists and is not an empty folder' "$T/exists.err" || fail "exists: $(cat "$T/exists.err")"
cmp -s j1/results.csv merged/results.csv || fail "exists: merged was changed"
mkdir empty
expect_status empty 0 "$T" merge out-shard-1-of-3 out-shard-2-of-3 out-shard-3-of-3 -o empty -q ||
    finish
cmp -s j1/results.csv empty/results.csv || fail "merge into an empty folder differs"
# not a run folder; no folder; no -o
mkdir plain
expect_status plain 2 "$T" merge plain -o m8
grep -q 'holds no experiment' "$T/plain.err" || fail "plain folder: $(cat "$T/plain.err")"
expect_status nodir 2 "$T" merge -o m9
expect_status noout 2 "$T" merge out-shard-1-of-3
for m in m1 m2 m3 m4 m5 m6 m7 m8 m9; do [ ! -e "$m" ] || fail "$m was written"; done
left=$(find . -maxdepth 1 -name '*.merge-*')
[ -z "$left" ] || fail "temporary folders left: $left"
[ "$FAILS" = 0 ] && pass "merge refuses missing, duplicate, mismatched and damaged shards"

finish
