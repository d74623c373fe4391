# test/cli/mpi.sh — `mppnet mpi TRACE`: a hand-written capture folder is
# replayed on the cm5 preset (per-rank table, the reports of -o, the
# traffic matrix read back by `mppnet com info`, the same totals on
# paragon); a truncated trace, an unsupported call and more ranks than
# nodes, a damaged SimGrid trace exit 2 with their message, nothing on
# stdout and no file (a damaged OTF2 archive: test_mpi_otf2); a receive
# that no send matches exits 1 naming the rank, the call and its index.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# capture DIR NRANKS: a capture folder with the meta file; rank files follow
capture() {
    mkdir -p "$1"
    printf 'mpptrace 1\nranks %s\nhost_ops_per_s 1e9\n' "$2" >"$1/capture.mpt"
}

# 3 ranks: 0 sends 100 B to 1 and 200 B to 2, 1 and 2 answer with 16 B to
# 0 (a wildcard receive at 0 matched 2 first), an alltoall of 64 B, a barrier
capture ok 3
cat >ok/rank-0.mpt <<'R'
mpptrace 1 rank 0 ranks 3
1000 send 1 5 0 100
0 send 2 5 0 200
0 recv 2 6 0 16
0 recv 1 6 0 16
0 alltoall 0 64
0 barrier 0
end 0
R
for r in 1 2; do
    b=$((r * 100))
    cat >ok/rank-$r.mpt <<R
mpptrace 1 rank $r ranks 3
0 recv 0 5 0 $b
0 send 0 6 0 16
0 alltoall 0 64
0 barrier 0
end 0
R
done
if expect_status ok 0 "$T" mpi ok -o rep; then
    grep -Eq '^machine cm5: 3 ranks, predicted time [0-9.]+ us' ok.out ||
        fail "ok: no totals line: $(tail -1 ok.out)"
    [ "$(grep -c '^[0-2] ' ok.out)" = 3 ] || fail "ok: not one line per rank"
    for f in ranks.csv calls.csv pairs.csv traffic.com; do
        [ -s "rep/$f" ] || fail "ok: rep/$f missing"
    done
    want='src,dst,messages,bytes
0,1,2,164
0,2,2,264
1,0,2,80
1,2,1,64
2,0,2,80
2,1,1,64'
    [ "$(cat rep/pairs.csv)" = "$want" ] || fail "ok: pairs.csv is $(cat rep/pairs.csv)"
    grep -q '^recv,4,' rep/calls.csv || fail "ok: calls.csv: $(cat rep/calls.csv)"
    # -o makes the folders it needs, as run's -o does
    if expect_status deep 0 "$T" mpi ok -o new/deeper/rep; then
        cmp -s rep/pairs.csv new/deeper/rep/pairs.csv || fail "deep: -o new/deeper/rep differs"
    fi
    if expect_status com 0 "$T" com info rep/traffic.com; then
        grep -q 'n=3 nnz=6' com.out && grep -q 'total_bytes=716' com.out ||
            fail "com info: $(cat com.out)"
    fi
    pass "mpi: the replay, its reports and its traffic matrix"
fi
expect_status paragon 0 "$T" mpi ok --machine paragon &&
    grep -q '^machine paragon: 3 ranks' paragon.out && pass "mpi on paragon"

# the Paragon's message co-processor sends an eager message only after the
# call that made it: rank 0 computes 2 ms, then sends 16 B (its send engine
# once wrote it at once, and the message arrived before it was sent)
capture late 2
printf 'mpptrace 1 rank 0 ranks 2\n2000000 send 1 5 0 16\nend 0\n' >late/rank-0.mpt
printf 'mpptrace 1 rank 1 ranks 2\n0 recv 0 5 0 16\nend 0\n' >late/rank-1.mpt
if expect_status late 0 "$T" mpi late --machine paragon; then
    read -r c0 e1 cyc <<<"$(awk '$1 == 0 {c = $4} $1 == 1 {e = $3}
        /^machine/ {for (i = 1; i <= NF; i++) if ($i == "network") n = $(i - 1)}
        END {print c, e, n}' late.out)"
    python3 -c "import sys; sys.exit(not ($e1 > $c0 and 0 < $cyc < 1e5))" &&
        pass "paragon: the message leaves after 0's compute ($c0 us; 1 ends at $e1 us, $cyc cycles)" ||
        fail "paragon: rank 1 ended at $e1 us, before 0's compute of $c0 us ended, or $cyc cycles a message"
fi

# workload.collectives, a map of call type to plug-in: 8 ranks broadcast
# 4 KiB; a linear broadcast sends 7 messages from the root where the
# binomial tree spreads them, so the run differs; in an experiment file the
# map is written as YAML and echoed in results.json; a value that is not a
# name is refused at its line and column
capture c8 8
for r in $(seq 0 7); do
    printf 'mpptrace 1 rank %s ranks 8\n0 bcast 0 0 4096\n0 alltoall 0 64\nend 0\n' "$r" >c8/rank-$r.mpt
done
if expect_status cbin 0 "$T" mpi c8 --machine hypercube &&
    expect_status clin 0 "$T" mpi c8 --machine hypercube workload.collectives.bcast=linear &&
    expect_status cmap 0 "$T" mpi c8 --machine hypercube \
        'workload.collectives={bcast: linear, alltoall: alltoall}'; then
    a=$(tail -1 cbin.out) b=$(tail -1 clin.out) c=$(tail -1 cmap.out)
    [ "$a" != "$b" ] && [ "$b" = "$c" ] && pass "mpi: workload.collectives chooses the plug-ins" ||
        fail "collectives: binomial '$a', linear '$b', map '$c'"
fi
cat >colls.yaml <<'Y'
mppnet: 1
machine: hypercube
workload:
  type: mpi
  trace: c8
  collectives: {bcast: linear, alltoall: direct}
Y
if expect_status colls 0 "$T" run colls.yaml -o colls -q; then
    grep -q '"collectives":{"bcast":"linear","alltoall":"direct"}' colls/results.json &&
        pass "mpi: the collectives map in an experiment" ||
        fail "colls: results.json: $(head -c 600 colls/results.json)"
fi
printf 'mppnet: 1\nmachine: hypercube\nworkload:\n  type: mpi\n  trace: %s\n  collectives:\n    bcast: [linear]\n' \
    c8 >"$T/cbad.yaml"
expect_bad cbad "exp.yaml:7:12: key 'workload.collectives.bcast': expected a mapping of names" run exp.yaml -o out
expect_bad cbad2 "'workload.collectives.bcast': 'nosuch' cannot run bcast" mpi "$T/c8" \
    workload.collectives.bcast=nosuch

# bad input: exit 2, the message, nothing written
capture "$T/tr-trunc" 2
printf 'mpptrace 1 rank 0 ranks 2\n0 send 1 0 0 8\n' >"$T/tr-trunc/rank-0.mpt"
printf 'mpptrace 1 rank 1 ranks 2\n0 recv 0 0 0 8\nend 0\n' >"$T/tr-trunc/rank-1.mpt"
expect_bad trunc 'truncated|end' mpi "$T/tr-trunc" -o out

capture "$T/tr-unsup" 2
printf 'mpptrace 1 rank 0 ranks 2\n0 send 1 0 0 8\nend 0\n' >"$T/tr-unsup/rank-0.mpt"
printf 'mpptrace 1 rank 1 ranks 2\n0 recv 0 0 0 8\n0 unsupported MPI_Put\nend 0\n' \
    >"$T/tr-unsup/rank-1.mpt"
expect_bad unsup 'rank 1, call 1: MPI_Put cannot be replayed: one-sided communication' \
    mpi "$T/tr-unsup" -o out

capture "$T/tr-big" 40
for r in $(seq 0 39); do
    printf 'mpptrace 1 rank %s ranks 40\n0 barrier 0\nend 0\n' "$r" >"$T/tr-big/rank-$r.mpt"
done
# a SimGrid time-independent trace with a damaged line: FILE:LINE, exit 2
printf '0 init\n1 init\n0 send 1 abc\n1 recv 0 100\n0 finalize\n1 finalize\n' >"$T/sg-bad.txt"
expect_bad sgbad 'sg-bad.txt:3: send: expected a number' mpi "$T/sg-bad.txt" -o out

expect_bad big 'the trace has 40 ranks, the machine 32 nodes' mpi "$T/tr-big" -o out
expect_bad machine 'preset' mpi "$T/tr-big" --machine 'x: y'

# a receive no send matches: exit 1, the rank, the call and its index
capture dl 2
printf 'mpptrace 1 rank 0 ranks 2\n0 barrier 0\nend 0\n' >dl/rank-0.mpt
printf 'mpptrace 1 rank 1 ranks 2\n0 barrier 0\n0 recv 0 7 0 16\nend 0\n' >dl/rank-1.mpt
if expect_status dl 1 "$T" mpi dl -o dlout network.watchdog_cycles=5000; then
    grep -q 'deadlock' dl.err && grep -q 'rank 1 waits in MPI_Recv (call 1) from rank 0, tag 7' dl.err &&
        [ ! -s dl.out ] && [ ! -e dlout ] && pass "mpi: the deadlock names the rank and the call" ||
        { fail "dl: stderr:"; sed 's/^/    /' dl.err >&2; }
fi
finish
