# test/cli/booksim.sh — BookSim configuration files from the command line
# (issue 45, docs/booksim.md):
#   1. `mppnet booksim FILE` and `mppnet run FILE` run BookSim's anynet and
#      cmesh examples unchanged (shortened by BookSim overrides) and print
#      BookSim's summary block as well as mppnet's lines; the same output
#      twice (deterministic, the host-time line aside);
#   2. --dump-config shows the mapped experiment (delays summed,
#      credit_delay + 1, the rate in flits);
#   3. bad files and refused keys exit 2 with FILE:LINE:COL on stderr and
#      nothing on stdout; a network_file outside the working folder is
#      refused;
#   4. BookSim names as mppnet overrides get "did you mean" (run, sim).
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
V=$SRCDIR/experiments/validation/booksim
mkdir -p ex && cp "$V/anynet_config" "$V/anynet_file" "$V/cmeshconfig" "$V/mesh88_lat" ex/

# --- 1. runs -----------------------------------------------------------------
short="sample_period=300"
if expect_status bs_anynet 0 "$T" booksim -q ex/anynet_config $short; then
    grep -q '^Packet latency average = ' bs_anynet.out &&
        grep -q '^Accepted flit rate average = ' bs_anynet.out &&
        grep -q '^====== Overall Traffic Statistics ======' bs_anynet.out &&
        grep -q '^run 0 (seed 0): 9 nodes, anynet, router anynet-min' bs_anynet.out &&
        pass "booksim anynet_config: BookSim's block and mppnet's lines" ||
        fail "booksim anynet_config: $(cat bs_anynet.out)"
fi
if expect_status run_anynet 0 "$T" run -q ex/anynet_config $short; then
    if diff <(grep -v '^Total run time' bs_anynet.out) <(grep -v '^Total run time' run_anynet.out) >/dev/null; then
        pass "run FILE recognises a BookSim file: the same output as booksim FILE"
    else
        fail "run FILE and booksim FILE differ"
    fi
fi
if expect_status bs_cmesh 0 "$T" booksim -q ex/cmeshconfig $short sim_count=2; then
    grep -q '^run 1 (seed 1)' bs_cmesh.out && grep -q '(2 samples)' bs_cmesh.out &&
        pass "sim_count=2: two runs averaged" || fail "sim_count=2: $(cat bs_cmesh.out)"
fi
expect_status bs_unstable 0 "$T" booksim -q ex/cmeshconfig $short injection_rate=1.0 latency_thres=40 &&
    grep -q '^Simulation unstable' bs_unstable.out && pass "latency_thres: unstable as BookSim" ||
    fail "latency_thres: $(cat "$T/bs_unstable.out")"

if expect_status check_bs 0 "$T" check ex/cmeshconfig injection_rate=0.2; then
    grep -q '^ex/cmeshconfig: ok, 1 run' check_bs.out && pass "check FILE: a BookSim file is checked as booksim maps it" ||
        fail "check: $(cat check_bs.out)"
fi
expect_status check_dl 0 "$T" check --deadlock ex/cmeshconfig && grep -q 'no cycle' check_dl.out &&
    pass "check --deadlock on a BookSim file" || fail "check --deadlock: $(cat "$T/check_dl.out")"

# --- 2. the mapping ---------------------------------------------------------
if expect_status dump 0 "$T" booksim --dump-config ex/cmeshconfig credit_delay=2 packet_size=4 injection_rate=0.05; then
    for want in 'router_delay: 4' 'credit_latency: 3' 'rate: 0.2' 'packet_flits: 4' \
                'topology: cmesh' 'noc_latency: true' 'router: cmesh-dor' 'vcs: 16' \
                'warmup: 3000' 'measure: 3000' 'pattern: bit-complement'; do
        grep -q "$want" dump.out || fail "dump: no '$want'"
    done
    pass "--dump-config: the mapped keys"
fi

# --- 3. refusals and bad files ----------------------------------------------
printf 'topology = mesh;\nk = 8\nn = 2;\n' >nosemi.cfg
expect_bad nosemi "nosemi.cfg:3:1: expected ';' after the value, got 'n'" booksim "$T/nosemi.cfg"
printf 'k = 8; /* open\n' >open.cfg
expect_bad open "open.cfg:1:8: a block comment" booksim "$T/open.cfg"
printf 'k = 8;\n\0' >nul.cfg
expect_bad nul "nul.cfg:2:1: a NUL byte" run "$T/nul.cfg"
cp "$V/dragonflyconfig" ex/
expect_bad speedup "ex/dragonflyconfig:53:21: BookSim key 'internal_speedup' = 2.0: mppnet cannot honour it" \
    booksim "$T/ex/dragonflyconfig"
if expect_status mesh88 0 "$T" booksim -q ex/mesh88_lat sample_period=500; then
    grep -q '^Packet latency average = ' mesh88.out && pass "mesh88_lat (wait_for_tail_credit, input_speedup 2) runs" ||
        fail "mesh88_lat: $(cat mesh88.out)"
fi
expect_bad unknown_key "command line: num_vc=4: unknown BookSim key 'num_vc'; did you mean 'num_vcs'" \
    booksim "$T/ex/cmeshconfig" num_vc=4
mkdir -p conf/sub && printf 'router 0 node 0 node 1\n' >outside.net
ln -sf ../../outside.net conf/sub/link.net
printf 'topology = anynet; routing_function = min; network_file = ../../outside.net;\n' >conf/sub/dots.cfg
printf 'topology = anynet; routing_function = min; network_file = link.net;\n' >conf/sub/link.cfg
for c in "dots|a path in a file must be relative" "link|outside the working folder"; do
    n=${c%%|*}; want=${c#*|}
    expect_status "outside_$n" 2 "$T/conf" booksim -q "sub/$n.cfg" &&
        grep -q "sub/$n.cfg:1:[0-9]*: key 'network.anynet.file'.*$want" "outside_$n.err" &&
        pass "network_file confined: $(head -c 160 "outside_$n.err")" ||
        fail "outside_$n: $(cat "outside_$n.err")"
done
expect_bad bad_opt "one configuration file" booksim a.cfg b.cfg
cp ex/cmeshconfig "$T/run_j.cfg"
expect_bad run_j "is a BookSim configuration: run it with -q or --dump-config only" run -j 2 "$T/run_j.cfg"

# --- 3b. the router keys BookSim needs, on their own -------------------------
expect_status spd_sep 2 "$T" sim -q --topology mesh:4x4 network.input_speedup=2
grep -q "input_speedup 2 needs allocator: islip" "$T/spd_sep.err" && pass "input_speedup needs islip" ||
    fail "input_speedup with separable: $(cat "$T/spd_sep.err")"
acc() { "$MPPNET" sim -q --json --topology mesh:4x4 --vcs 4 --packet-flits 1 --rate 0.9 --warmup 500 --cycles 2000 \
        network.allocator=islip "$@" | sed -n 's/^  "accepted": \([0-9.]*\),/\1/p'; }
a1=$(acc network.input_speedup=1); a2=$(acc network.input_speedup=2)
python3 -c "import sys; a1, a2 = map(float, sys.argv[1:]); sys.exit(0 if a2 > a1 * 1.01 else 1)" "$a1" "$a2" &&
    pass "input_speedup 2 carries more at saturation ($a1 -> $a2)" || fail "input_speedup: $a1 -> $a2"
w0=$(acc network.vc_reuse_delay=0); w2=$(acc network.vc_reuse_delay=3 network.wait_for_tail_credit=true)
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if b < a * 0.99 else 1)" "$w0" "$w2" &&
    pass "vc_reuse_delay and wait_for_tail_credit carry less at saturation ($w0 -> $w2)" ||
    fail "vc_reuse_delay/wait_for_tail_credit: $w0 -> $w2"

# --- 4. hints ----------------------------------------------------------------
small_exp >exp.yaml
for ov in "num_vcs=4|network.vcs (BookSim's num_vcs)" \
          "routing_function=dim_order|network.router (BookSim's routing_function)" \
          "topology=torus|network.topology (BookSim's topology)"; do
    o=${ov%%|*}; h=${ov#*|}
    expect_status "hint_run_${o%%=*}" 2 "$T" run exp.yaml "$o" --dump-config &&
        grep -qF "did you mean $h?" "$T/hint_run_${o%%=*}.err" &&
        pass "run $o: did you mean $h" || fail "run $o: $(cat "$T/hint_run_${o%%=*}.err")"
    expect_status "hint_sim_${o%%=*}" 2 "$T" sim -q "$o" &&
        grep -qF "did you mean $h?" "$T/hint_sim_${o%%=*}.err" &&
        pass "sim $o: did you mean $h" || fail "sim $o: $(cat "$T/hint_sim_${o%%=*}.err")"
done
finish
