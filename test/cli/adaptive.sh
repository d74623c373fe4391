# test/cli/adaptive.sh — the adaptive routers from the command line:
#   1. experiments/routing/adaptive.yaml in small (the rates around each
#      saturation point, the full study's windows and seeds, so the rows
#      are the full study's): valiant and misroute saturate clearly above
#      dimension order on the 8x8 torus under tornado, adaptive does not;
#      adaptive clearly above on the 8x8 mesh under transpose; under uniform
#      traffic adaptive and misroute within 10% (scripts/adaptive_criteria.py);
#      -j 1 and -j 2 give the same bytes;
#   2. full load (rate 1.0) of both routers with their minimum VCs on every
#      topology they support finishes without deadlock (also cut-through);
#      one VC fewer is refused, naming the escape classes;
#   3. `check --deadlock` finds no cycle in the escape sub-network of each,
#      and a cycle where one VC fewer would fold its two dateline classes;
#   4. misroute delivers every packet with at most m misroutes (m = 1, 3)
#      under a load that makes it misroute;
#   5. bad inputs: exit 2 with the reason, nothing written.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
E=$SRCDIR/experiments/routing/adaptive.yaml

# --- 1. the comparisons, small ------------------------------------------------
run_shrunk "$E" torus_tornado 1200 40 "sweep.network.topology=[kary-ncube];sweep.workload.pattern=[tornado];sweep.workload.rate=[0.2, 0.225, 0.25, 0.275, 0.3]" &&
    run_shrunk "$E" mesh_transpose 1200 20 "sweep.network.topology=[mesh];sweep.workload.pattern=[transpose];sweep.network.router=[ecube, adaptive];sweep.workload.rate=[0.1, 0.15, 0.2, 0.3, 0.35]" &&
    run_shrunk "$E" uniform 1200 72 "sweep.workload.pattern=[uniform];sweep.network.router=[ecube, adaptive, misroute];sweep.workload.rate=[0.2, 0.35, 0.375, 0.4, 0.55, 0.6]" && {
    { cat torus_tornado/results.csv; tail -n +2 mesh_transpose/results.csv; tail -n +2 uniform/results.csv; } >all.csv
    if python3 "$SRCDIR/scripts/adaptive_criteria.py" all.csv >crit.out 2>&1; then
        sed 's/^ok: /ok: criteria: /; s/^note: /ok: criteria (note): /' crit.out
    else
        fail "criteria: $(grep -v '^ok' crit.out)"
    fi
}
# how misroute's T and m were chosen: the sweep, one point of it
run_shrunk "$SRCDIR/experiments/routing/misroute_params.yaml" misroute_params 1440 2 \
    "sweep.network.topology+workload.pattern=[[kary-ncube, tornado]];sweep.network.misroute.threshold=[16];sweep.network.misroute.max=[2];sweep.workload.rate=[0.275]" &&
    python3 -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1])))
sys.exit(not r or any(x["saturated"] != "false" for x in r))' misroute_params/results.csv &&
    pass "misroute_params.yaml in small: T 16, m 2 unsaturated on the torus at 0.275" ||
    fail "misroute_params.yaml in small: $(cat misroute_params/results.csv 2>/dev/null | head -3)"
# the same bytes at -j 1
(cd "$SRCDIR" && "$MPPNET" run "$E" -q -j 1 -o "$T/tt1" 'sweep.network.topology=[kary-ncube]' \
    'sweep.workload.pattern=[tornado]' 'sweep.workload.rate=[0.2, 0.225, 0.25, 0.275, 0.3]') >/dev/null 2>&1 &&
    cmp -s tt1/results.csv torus_tornado/results.csv && pass "adaptive.yaml in small: -j 1 and -j 2 identical" ||
    fail "adaptive.yaml in small: -j 1 differs from -j 2"

# --- 2. full load with the minimum VCs ----------------------------------------
full_load() { # TOPOLOGY ROUTER VCS ESCAPE [OVERRIDE...]
    local topo=$1 rt=$2 v=$3 esc=$4 rc=0
    shift 4
    "$MPPNET" sim -q --json --topology "$topo" --router "$rt" --vcs "$v" --rate 1.0 --warmup 0 \
        --cycles 20000 workload.drain_factor=0 network.watchdog_cycles=2000 "$@" \
        >fl.out 2>fl.err || rc=$?
    if [ "$rc" != 0 ] || grep -qi deadlock fl.out fl.err; then
        fail "full load $topo $rt vcs $v${*:+ $*}: exit $rc $(head -2 fl.err)"
    else
        pass "full load $topo $rt vcs $v${*:+ $*}: accepted $(sed -n 's/.*"accepted": \([0-9.]*\).*/\1/p' fl.out | head -c 6)," \
            "misroutes per packet $(sed -n 's/.*"misroutes_mean": \([0-9.]*\).*/\1/p' fl.out | head -c 5)"
    fi
    rc=0
    "$MPPNET" sim -q --topology "$topo" --router "$rt" --vcs $((v - 1)) --cycles 100 "$@" \
        >/dev/null 2>fl.err || rc=$?
    [ "$rc" = 2 ] && grep -q "needs vcs to be a multiple of $v .*$esc escape" fl.err ||
        fail "$topo $rt with vcs $((v - 1)): exit $rc, $(cat fl.err)"
}
for rt in adaptive misroute; do
    full_load kary-ncube:4x4x4 $rt 3 2
    full_load kary-ncube:4x4x4 $rt 2 1 network.kary-ncube.torus=false
    full_load kary-ncube:5x4 $rt 3 2 'network.kary-ncube.torus=[true, false]'
    full_load kary-ncube:4x4x4 $rt 3 2 network.kary-ncube.dateline=dimension
    full_load mesh:8x8 $rt 2 1
    full_load hypercube:6 $rt 2 1
done
full_load kary-ncube:4x4x4 adaptive 3 2 network.flow_control=cut-through
full_load kary-ncube:4x4x4 misroute 3 2 network.flow_control=cut-through network.misroute.threshold=0
full_load mesh:8x8 adaptive 2 1 node.ports=all
full_load hypercube:6 misroute 2 1 node.ports=all

# a network whose records exceed the cache: the engine fetches ahead (and
# once routed oblivious heads ahead of their visit, which must not happen
# to adaptive ones: it left them on the adaptive class without their
# escape, and a 32x32 torus deadlocked)
for rt in adaptive misroute:threshold=2; do
    rc=0
    "$MPPNET" sim -q --json --topology kary-ncube:32x32 --router "$rt" --vcs 12 \
        --traffic tornado --rate 0.12 --warmup 1000 --cycles 2000 workload.drain_factor=0 \
        >big.out 2>big.err || rc=$?
    got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["packets_delivered"], d["misroutes_mean"] or 0)' big.out 2>&1)
    set -- $got
    if [ "$rc" = 0 ] && [ "${1:-0}" -gt 1000 ] &&
        { [ "$rt" = adaptive ] || python3 -c "import sys; sys.exit(not ${2:-0} > 0)"; }; then
        pass "32x32 torus (records fetched ahead), $rt: $1 packets delivered, $2 misroutes each"
    else
        fail "32x32 torus, $rt: exit $rc, $got $(head -2 big.err)"
    fi
done

# --- 3. the static check of the escape sub-network ----------------------------
# every report must say that it checks the escape sub-network
CK_ALSO='the escape sub-network \(route class'
for rt in adaptive misroute; do
    static_check kary-ncube:4x4x4 $rt 3 0
    static_check kary-ncube:4x4x4 $rt 2 1
    static_check kary-ncube:4x4x4 $rt 2 0 network.kary-ncube.torus=false
    static_check kary-ncube:4x4x4 $rt 3 0 network.kary-ncube.dateline=dimension
    static_check mesh:8x8 $rt 2 0
    static_check hypercube:6 $rt 2 0
done

# --- 4. misroute: every packet delivered, at most m misroutes -----------------
for m in 1 3; do
    rc=0
    "$MPPNET" sim -q --json --topology kary-ncube:8x8 --router "misroute:max=$m,threshold=4" \
        --traffic tornado --rate 0.25 --vcs 6 --buffer-flits 4 --packet-flits 5 --warmup 1000 \
        --cycles 4000 workload.drain_factor=40 >mr.out 2>mr.err || rc=$?
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["drained"], d["packets_delivered"] == d["packets_measured"], d["misroutes_max"], round(d["misroutes_mean"], 3))' mr.out 2>&1)
    set -- $got
    if [ "$rc" = 0 ] && [ "$1" = True ] && [ "$2" = True ] && [ "$3" -le "$m" ] &&
        python3 -c "import sys; sys.exit(not $4 > 0)"; then
        pass "misroute m=$m: every packet delivered, at most $3 misroutes, $4 per packet"
    else
        fail "misroute m=$m: exit $rc, $got $(head -2 mr.err)"
    fi
done

# --- 5. bad input ---------------------------------------------------------------
bad_exp() { # NETWORK-LINES
    cat <<YAML
mppnet: 1
name: bad
network:
$1
workload:
  rate: 0.1
  warmup: 10
  measure: 100
output:
  dir: out
  plot: false
YAML
}
bad_exp "  topology: kary-ncube
  router: adaptive
  vcs: 2" >ad_vcs.yaml
expect_bad ad_vcs "router 'adaptive' needs vcs to be a multiple of 3 .*2 escape \(dimension order, datelines\) \+ 1 adaptive\); vcs is 2" run exp.yaml
bad_exp "  topology: mesh
  router: misroute
  vcs: 1" >mr_vcs.yaml
expect_bad mr_vcs "router 'misroute' needs vcs to be a multiple of 2 .*1 escape \(dimension order\) \+ 1 adaptive" run exp.yaml
bad_exp "  topology: mesh
  router: misroute
  vcs: 2
  misroute: {max: -1}" >mr_neg.yaml
expect_bad mr_neg 'exp\.yaml:7:[0-9]+: .*misroute\.max.*between 0 and 64' run exp.yaml
bad_exp "  topology: mesh
  router: misroute
  vcs: 2
  misroute: {threshold: soon}" >mr_word.yaml
expect_bad mr_word 'exp\.yaml:7:[0-9]+: .*misroute\.threshold' run exp.yaml
bad_exp "  topology: mesh
  router: misroute
  vcs: 2
  misroute: {patience: 3}" >mr_key.yaml
expect_bad mr_key "exp\.yaml:7:[0-9]+: .*patience" run exp.yaml
expect_bad mr_cli 'misroute.max.*between 0 and 64' sim -q --router misroute:max=-1 --vcs 2 --cycles 10
bad_exp "  topology: butterfly
  router: adaptive
  vcs: 2" >ad_fly.yaml
expect_bad ad_fly "router 'adaptive' supports the mesh, hypercube and kary-ncube topologies, not 'butterfly'" run exp.yaml
bad_exp "  topology: cm5-fattree
  router: misroute
  vcs: 2" >mr_fat.yaml
expect_bad mr_fat "router 'misroute' supports the mesh, hypercube and kary-ncube topologies, not 'cm5-fattree'" run exp.yaml
finish
