# test/cli/bsnets.sh — BookSim's networks from the command line (issue 45):
#   1. `mppnet check --deadlock` finds no cycle for cmesh-dor, cmesh-express,
#      fattree-nca and anynet-min on BookSim's example network (exit 0),
#      and the cycle of shortest paths round a ring of five routers (exit 1);
#   2. a short run on each (rate 0.2) finishes, every packet delivered;
#   3. a bad anynet file exits 2 with FILE:LINE:COLUMN on stderr and nothing
#      on stdout; an absolute anynet path in an experiment file is refused.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
printf 'router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\nrouter 2 node 6 node 7 node 8 router 1 router 0\n' >example.net
printf 'router 0 router 1 node 0\nrouter 1 router 2 node 1\nrouter 2 router 3 node 2\nrouter 3 router 4 node 3\nrouter 4 router 0 node 4\n' >ring.net
printf 'router 0 node 0\nrouter 1 nod 1\n' >bad.net

exp_net() { # NAME TOPOLOGY ROUTER [FILE]
    printf 'mppnet: 1\nname: %s\nnetwork:\n  topology: %s\n  router: %s\n  vcs: 1\n' "$1" "$2" "$3"
    [ -n "${4:-}" ] && printf '  anynet: {file: %s}\n' "$4"
    printf 'workload: {pattern: uniform, rate: 0.1}\noutput: {dir: out}\n'
}

# --- 1. the static check --------------------------------------------------
for tr in "cmesh:4 cmesh-dor" "cmesh:8 cmesh-express" "fattree:4x3 fattree-nca" \
          "anynet anynet-min example.net"; do
    set -- $tr
    n=${2}
    exp_net "$n" "$1" "$2" "${3:-}" >"$n.yaml"
    if expect_status "check_$n" 0 "$T" check --deadlock "$n.yaml"; then
        grep -Eq '^  no cycle: [0-9]+ channels' "check_$n.out" ||
            fail "$n: no 'no cycle' line: $(cat "check_$n.out")"
        pass "check --deadlock $1 $2: no cycle"
    fi
done
exp_net ring anynet anynet-min ring.net >ring.yaml
if expect_status check_ring 1 "$T" check --deadlock ring.yaml; then
    grep -q 'cycle' check_ring.out || fail "ring: no cycle shown: $(cat check_ring.out)"
    pass "check --deadlock on a ring of five: the cycle"
fi

# --- 2. a short run ---------------------------------------------------------
for tr in "cmesh:4 cmesh-dor" "cmesh:4 cmesh-express" "fattree:4x3 fattree-nca" \
          "anynet anynet-min network.anynet.file=example.net"; do
    set -- $tr
    if expect_status "sim_$2" 0 "$T" sim --topology "$1" --router "$2" --rate 0.2 \
        --warmup 500 --cycles 3000 --json -q ${3:-}; then
        python3 - "sim_$2.out" <<'PY' || fail "$2 at rate 0.2: $(cat "$T/sim_$2.out")"
import json, sys
m = json.load(open(sys.argv[1]))
assert m['packets_delivered'] == m['packets_measured'] > 0, m
PY
        pass "$1 $2 at rate 0.2: every packet delivered"
    fi
done

# --- 3. bad input ---------------------------------------------------------
if expect_status bad 2 "$T" sim --topology anynet --router anynet-min network.anynet.file=bad.net; then
    grep -q "bad.net:2:10: expected 'router' or 'node', got 'nod'" bad.err ||
        fail "bad file: stderr '$(cat bad.err)'"
    [ -s bad.out ] && fail "bad file: stdout '$(cat bad.out)'"
    pass "bad anynet file: exit 2 with FILE:LINE:COLUMN"
fi
exp_net abs anynet anynet-min "$T/example.net" >abs.yaml
if expect_status abs 2 "$T" run abs.yaml; then
    grep -q "must be relative" abs.err || fail "absolute path: stderr '$(cat abs.err)'"
    pass "an absolute anynet path in a file is refused"
fi
finish
