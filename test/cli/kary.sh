# test/cli/kary.sh — k-ary n-cubes and butterflies from the command line:
#   1. a kary-ncube with the shape and dimension order of a mesh or a
#      hypercube gives the same results in every statistics column;
#   2. full load (rate 1.0, 20 000 cycles) of every router on every topology
#      it supports, with its minimum VCs, finishes without deadlock; one VC
#      fewer is a configuration error;
#   3. `mppnet check --deadlock` finds no cycle in each of those, a cycle
#      with one VC fewer (which the setup refuses) and for xyyx;
#   4. bad shapes and combinations: exit 2 with the reason, nothing written.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# --- 1. the mesh and the hypercube as k-ary n-cubes ----------------------
perm_exp() { # TOPOLOGY-SECTION SWEEP-TOPOLOGIES PATTERNS DIR
    cat <<YAML
mppnet: 1
name: same
network:
  topology: mesh
  vcs_per_class: 2
  buffer_flits: 8
  router_delay: 1
$1
workload:
  type: permutation
  packets: 4
  packet_flits: 5
seeds: [1, 2]
sweep:
  workload.pattern: [$3]
  network.router: [ecube, valiant, romm, "romm:k=3"]
  network.topology: [$2]
output:
  dir: $4
  plot: false
YAML
}
# every column but the topology's name and the configuration hash
stats() { cut -d, -f1-3,5,7- "$1"; }
same() { # NAME A.yaml B.yaml
    "$MPPNET" run "$2" -q -j 2 >/dev/null 2>"$T/$1.err" || { fail "$1: $(head -3 "$T/$1.err")"; return; }
    "$MPPNET" run "$3" -q -j 2 >/dev/null 2>>"$T/$1.err" || { fail "$1: $(head -3 "$T/$1.err")"; return; }
    local a b
    a=$(sed -n 's/^  dir: //p' "$2")/results.csv
    b=$(sed -n 's/^  dir: //p' "$3")/results.csv
    if [ "$(stats "$a")" = "$(stats "$b")" ] && [ "$(wc -l <"$a")" -gt 30 ]; then
        pass "$1: $(($(wc -l <"$a") - 1)) runs identical in every statistics column"
    else
        fail "$1: the results differ"
        diff <(stats "$a") <(stats "$b") | head -6 >&2
    fi
}
perm_exp "" '"mesh:4x4", "mesh:6x6"' 'transpose, tornado, neighbor, single-random' m1 >m1.yaml
perm_exp "  kary-ncube: {torus: false}" '"kary-ncube:4x4", "kary-ncube:6x6"' \
    'transpose, tornado, neighbor, single-random' m2 >m2.yaml
same mesh m1.yaml m2.yaml
perm_exp "" '"hypercube:4", "hypercube:6"' 'transpose, bit-reversal, bit-complement, randperm' \
    h1 | sed 's/topology: mesh/topology: hypercube/' >h1.yaml
perm_exp "  kary-ncube: {torus: false, order: descending}" \
    '"kary-ncube:2x2x2x2", "kary-ncube:2x2x2x2x2x2"' \
    'transpose, bit-reversal, bit-complement, randperm' h2 >h2.yaml
same hypercube h1.yaml h2.yaml

# --- 2. full load with the minimum VCs ------------------------------------
full_load() { # TOPOLOGY ROUTER VCS [OVERRIDE]
    local rc=0
    "$MPPNET" sim -q --topology "$1" --router "$2" --vcs "$3" --rate 1.0 --warmup 0 \
        --cycles 20000 workload.drain_factor=0 network.watchdog_cycles=2000 ${4:+"$4"} \
        >"$T/fl.out" 2>"$T/fl.err" || rc=$?
    if [ "$rc" != 0 ] || grep -qi deadlock "$T/fl.out" "$T/fl.err"; then
        fail "full load $1 $2 vcs $3${4:+ $4}: exit $rc $(head -2 "$T/fl.err")"
    else
        pass "full load $1 $2 vcs $3${4:+ $4}: $(grep -o 'accepted *[0-9.]*' "$T/fl.out")"
    fi
    if [ "$3" -gt 1 ]; then
        rc=0
        "$MPPNET" sim -q --topology "$1" --router "$2" --vcs $(($3 - 1)) --cycles 100 ${4:+"$4"} \
            >/dev/null 2>"$T/fl.err" || rc=$?
        [ "$rc" = 2 ] && grep -q "needs vcs to be a multiple of $3" "$T/fl.err" ||
            fail "$1 $2 with vcs $(($3 - 1)): exit $rc, $(cat "$T/fl.err")"
    fi
}
full_load kary-ncube:4x4x4 ecube 2
full_load kary-ncube:4x4x4 valiant 4
full_load kary-ncube:4x4x4 romm 4
full_load hypercube:6 ecube 1
full_load hypercube:6 valiant 2
full_load hypercube:6 romm 2
full_load butterfly:4x3 ecube 1
full_load butterfly:4x3 valiant 2
full_load kary-ncube:4x4x4 ecube 2 network.kary-ncube.dateline=dimension
full_load kary-ncube:4x4x4 valiant 4 network.kary-ncube.dateline=dimension
# the minimum of one VC: zero is refused as well
expect_bad vcs_zero 'between 1 and 64' sim -q --topology butterfly:4x3 --vcs 0 --cycles 10

# --- the static check: no cycle with the minimum VCs, a cycle with one
# fewer (the configurations the setup refuses) and for xyyx -------------
static_check kary-ncube:4x4x4 ecube 2 0
static_check kary-ncube:4x4x4 ecube 1 1
static_check kary-ncube:4x4x4 valiant 4 0
static_check kary-ncube:4x4x4 valiant 3 1
static_check kary-ncube:4x4x4 romm 4 0
static_check kary-ncube:4x4x4 romm 3 1
static_check hypercube:6 ecube 1 0
static_check hypercube:6 valiant 2 0
static_check hypercube:6 valiant 1 1
static_check hypercube:6 romm 2 0
static_check hypercube:6 romm 1 1
static_check butterfly:4x3 ecube 1 0
static_check butterfly:4x3 valiant 2 0
static_check butterfly:4x3 valiant 1 1
static_check mesh:4x4 xyyx 1 1
# BookSim's dateline rule (the topology's key)
DL='network.kary-ncube.dateline=dimension'
static_check kary-ncube:4x4x4 ecube 2 0 "$DL"
static_check kary-ncube:4x4x4 ecube 1 1 "$DL"
static_check kary-ncube:4x4x4 valiant 4 0 "$DL"
static_check kary-ncube:4x4x4 romm 4 0 "$DL"

# --- 4. bad input ---------------------------------------------------------
bad_exp() { # NETWORK-LINES [WORKLOAD-LINES]
    cat <<YAML
mppnet: 1
name: bad
network:
  topology: kary-ncube
$1
workload:
  rate: 0.1
  warmup: 10
  measure: 100
${2:-}
output:
  dir: out
  plot: false
YAML
}
# the bool-list key from a file, an override and --dump-config
bad_exp "  kary-ncube: {k: [4, 3], torus: [true, false]}" >bl.yaml
"$MPPNET" run bl.yaml -q --dump-config 'network.kary-ncube.torus=[false, true]' >bl.out 2>&1 &&
    grep -q '    torus: \[false, true\]' bl.out && pass "torus as a list: override and dump" ||
    fail "torus list: $(head -5 bl.out)"
"$MPPNET" run bl.yaml -q --dump-config 'network.kary-ncube.torus=false' >bl.out 2>&1 &&
    grep -q '    torus: false' bl.out && pass "torus as one value" || fail "torus one value: $(head -5 bl.out)"

bad_exp "  kary-ncube: {k: [65535, 65535, 65535]}" >"$T/kary_overflow.yaml"
expect_bad kary_overflow 'product of k is above the limit' run exp.yaml
bad_exp "  kary-ncube: {k: [4, 0, 4]}" >"$T/kary_zero.yaml"
expect_bad kary_zero 'exp\.yaml:5:[0-9]+: .*k.*between 1 and 65535' run exp.yaml
bad_exp "  kary-ncube: {k: []}" >"$T/kary_empty.yaml"
expect_bad kary_empty 'k lists 0 dimensions' run exp.yaml
bad_exp "  kary-ncube: {k: [4, 1], torus: true}" >"$T/kary_k1_wrap.yaml"
expect_bad kary_k1_wrap 'k\[1\] is 1 with wrap-around' run exp.yaml
bad_exp "  kary-ncube: {k: [4, 4, 4], torus: [true, false]}" >"$T/kary_lengths.yaml"
expect_bad kary_lengths 'torus lists 2 values but k has 3 dimensions' run exp.yaml
bad_exp "  kary-ncube: {k: [4, 4], torus: [true, maybe]}" >"$T/kary_torus_word.yaml"
expect_bad kary_torus_word 'exp\.yaml:5:[0-9]+: .*true, false or a list' run exp.yaml
bad_exp "  kary-ncube: {k: [4, 4, 8]}" "  pattern: transpose" >"$T/kary_transpose.yaml"
expect_bad kary_transpose "transpose.*4 x 4 x 8" run exp.yaml
bad_exp "  router: romm" | sed 's/topology: kary-ncube/topology: butterfly:4x3/' >"$T/fly_romm.yaml"
expect_bad fly_romm "router 'romm' supports the mesh, hypercube and kary-ncube" run exp.yaml
bad_exp "  router: fattree-random" >"$T/kary_fattree.yaml"
expect_bad kary_fattree "supports only the cm5-fattree" run exp.yaml
expect_bad fly_all_port 'node.ports: all is refused on the butterfly' sim -q --topology butterfly:4x3 \
    --cycles 10 node.ports=all
bad_exp "  kary-ncube: {k: [4, 4], order: sideways}" >"$T/kary_order.yaml"
expect_bad kary_order 'exp\.yaml:5:[0-9]+: .*order.*(ascending|one of)' run exp.yaml
bad_exp "  kary-ncube: {k: [4, 4], dateline: maybe}" >"$T/kary_dateline.yaml"
expect_bad kary_dateline 'exp\.yaml:5:[0-9]+: .*dateline.*(crossing|one of)' run exp.yaml
bad_exp "  butterfly: {k: 2, n: 0}" | sed 's/topology: kary-ncube/topology: butterfly/' >"$T/fly_n0.yaml"
expect_bad fly_n0 'exp\.yaml:5:[0-9]+: .*butterfly\.n.*between 1 and 20' run exp.yaml
bad_exp "  butterfly: {k: 2, n: 21}" | sed 's/topology: kary-ncube/topology: butterfly/' >"$T/fly_n25.yaml"
expect_bad fly_n25 'exp\.yaml:5:[0-9]+: .*butterfly\.n.*between 1 and 20' run exp.yaml
bad_exp "  butterfly: {k: 4, n: 13}" | sed 's/topology: kary-ncube/topology: butterfly/' >"$T/fly_big.yaml"
expect_bad fly_big 'k\^n = 4\^13 is above the limit' run exp.yaml
expect_bad kary_short 'expected kary-ncube:K0xK1x' sim -q --topology kary-ncube:4xx4 --cycles 10
expect_bad fly_short 'expected butterfly:KxN' sim -q --topology butterfly:4 --cycles 10
expect_bad fly_k1 'butterfly.*k.*between 2 and 21' sim -q --topology butterfly:1x3 --cycles 10

finish
