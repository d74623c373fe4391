# test/cli/threads.sh — one network on several threads (sim.threads,
# docs/scaling.md): every run below gives the same output, timing
# aside, at T = 1, 2, 3 and 7 (7 is more threads than this machine may have
# cores: the team then waits by sleeping, and the results must not care);
# `mppnet run` honours sim: threads and its override; bad values are refused
# with exit status 2. The networks have 1024 routers (16 blocks of 64, the
# unit of a thread's share), so 7 threads each get some.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

# same_for_threads NAME split|serial ARGS...: `mppnet sim ARGS --json` at
# T = 1 and each T of $TS (default 2 3 7), the outputs without their timing
# line compared with T = 1's; the threads the run used (the timing line)
# must be more than 1 when the network is split (split), 1 when the run
# cannot be (serial).
same_for_threads() {
    local name=$1 split=$2 t used
    shift 2
    for t in 1 ${TS:-2 3 7}; do
        "$MPPNET" sim "$@" --threads "$t" --json -q >"$name.$t.json" 2>"$name.$t.err"
        rc=$?
        if [ "$rc" != 0 ]; then
            fail "$name: --threads $t: exit $rc $(head -c 300 "$name.$t.err")"
            return
        fi
        no_timing "$name.$t.json" >"$name.$t.notime"
        used=$(sed -n 's/.*"threads": \([0-9]*\).*/\1/p' "$name.$t.json")
        if [ "$split" = split ] && [ "$t" -gt 1 ] && ! [ "${used:-0}" -gt 1 ]; then
            fail "$name: --threads $t ran on ${used:-?} thread(s)"
        fi
        if [ "$split" = serial ] && [ "${used:-0}" != 1 ]; then
            fail "$name: --threads $t: expected the serial path, used ${used:-?}"
        fi
        [ "$t" = 1 ] && continue
        cmp -s "$name.1.notime" "$name.$t.notime" ||
            fail "$name: --threads $t differs from --threads 1: $(diff "$name.1.notime" "$name.$t.notime" | head -5)"
    done
    pass "$name: identical at threads 1 ${TS:-2 3 7}"
}

# the networks of the issue at T = 1, 2, 3, 7; the other variants at T = 1, 3
W=(--warmup 60 --cycles 100)
same_for_threads mesh split --topology mesh:32x32 --rate 0.25 "${W[@]}"
same_for_threads torus split --topology kary-ncube:16x16x4 --rate 0.2 "${W[@]}"
same_for_threads hypercube split --topology hypercube:10 --rate 0.3 "${W[@]}"
same_for_threads adaptive split --topology kary-ncube:16x16x4 --router adaptive --vcs 3 \
    --rate 0.3 "${W[@]}"
# saturated, and a drain: the measured packets drain long after the window
same_for_threads drain split --topology mesh:32x32 --rate 0.3 --warmup 50 --cycles 50 \
    workload.drain_factor=10
# node programs through the NIC (the CM-5, messages): the serial path
same_for_threads cm5_nic serial machine=cm5 network.cm5-fattree.nodes=64 \
    workload.type=messages workload.shape=permutation workload.pattern=randperm \
    workload.bytes=256 workload.paradigm=sync
TS=3
same_for_threads mesh_low split --topology mesh:32x32 --rate 0.02 "${W[@]}"
same_for_threads misroute_age split --topology mesh:32x32 --router misroute --vcs 2 \
    --rate 0.45 network.allocator=age "${W[@]}"
same_for_threads separable_ct split --topology mesh:32x32 --rate 0.2 \
    network.allocator=separable network.flow_control=cut-through network.buffer_flits=8 "${W[@]}"
# nodes with several links: the fat tree's two, and all-port on a mesh
same_for_threads fattree split --topology cm5-fattree:1024 --router fattree-random --rate 0.3 \
    "${W[@]}"
same_for_threads allport split --topology mesh:32x32 --router romm --rate 0.2 node.ports=all \
    "${W[@]}"
# long links (dragonfly: local 10, global 100 cycles): sends many cycles ahead
same_for_threads longlinks split --topology dragonfly:p=4 --router ugal --vcs 4 --rate 0.2 \
    --warmup 150 --cycles 100
unset TS

# the watchdog: xyyx (test only) deadlocks the mesh; the same cycle, exit
# status and report at every T
for t in 1 2 3 7; do
    "$MPPNET" sim --topology mesh:32x32 --router xyyx --vcs 1 --buffer-flits 2 --rate 0.9 \
        --warmup 100 --cycles 500 network.watchdog_cycles=300 --threads "$t" -q \
        >dl.$t.out 2>dl.$t.err
    echo "exit $?" >>dl.$t.err
    grep -q "deadlock at cycle" dl.$t.err || fail "deadlock: --threads $t: no deadlock: $(head -c 200 dl.$t.err)"
    [ "$t" = 1 ] || cmp -s dl.1.err dl.$t.err || fail "deadlock: --threads $t: another report or status"
done
pass "deadlock: the same report at threads 1 2 3 7"

# mppnet run: sim: threads in the file, and the override sim.threads=...
small_exp >exp.yaml
sed -i 's/rows: 4, cols: 4/rows: 32, cols: 32/; s/warmup: 200/warmup: 50/; s/measure: 1000/measure: 100/' exp.yaml
"$MPPNET" run exp.yaml -q -o r1 >/dev/null 2>r1.err || fail "run: exit $? $(head -c 300 r1.err)"
"$MPPNET" run exp.yaml -q -o r2 sim.threads=3 >/dev/null 2>r2.err ||
    fail "run sim.threads=3: exit $? $(head -c 300 r2.err)"
printf 'sim:\n  threads: 2\n' >>exp.yaml
"$MPPNET" run exp.yaml -q -o r3 >/dev/null 2>r3.err || fail "run sim: threads: 2: exit $? $(head -c 300 r3.err)"
for r in r2 r3; do
    cmp -s <(no_timing r1/results.json) <(no_timing "$r/results.json") ||
        fail "run: $r/results.json differs from the serial run's"
    cmp -s r1/results.csv "$r/results.csv" || fail "run: $r/results.csv differs from the serial run's"
done
"$MPPNET" check exp.yaml >/dev/null 2>&1 || fail "check: sim: threads: 2 refused"
"$MPPNET" run exp.yaml --dump-config 2>/dev/null | grep -q threads &&
    fail "run --dump-config: sim.threads is not part of the model"
pass "run: sim.threads in the file and as an override"

# bad values: exit 2 and a message naming the flag or key
for v in 0 1000 abc -1 2.5; do
    "$MPPNET" sim --threads "$v" -q >bad.out 2>bad.err
    rc=$?
    [ "$rc" = 2 ] || fail "sim --threads $v: exit $rc, expected 2"
    grep -q "threads" bad.err || fail "sim --threads $v: no message naming threads: $(cat bad.err)"
done
"$MPPNET" sim sim.threads=0 -q >bad.out 2>bad.err
[ $? = 2 ] && grep -q "between 1 and 256" bad.err || fail "sim.threads=0: $(cat bad.err)"
"$MPPNET" sim sim.thread=2 -q >bad.out 2>bad.err
[ $? = 2 ] && grep -q "valid keys of sim: threads" bad.err || fail "sim.thread=2: $(cat bad.err)"
small_exp 'sim:' '  threads: 300' >bad.yaml
"$MPPNET" check bad.yaml >bad.out 2>bad.err
[ $? = 2 ] && grep -q "bad.yaml:[0-9]*:[0-9]*" bad.err || fail "sim: threads: 300 in a file: $(cat bad.err)"
pass "bad thread counts refused"

finish
