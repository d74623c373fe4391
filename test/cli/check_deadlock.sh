# test/cli/check_deadlock.sh — `mppnet check --deadlock`, the static
# deadlock check: e-cube on a mesh has no cycle (exit 0), xyyx has the
# 4-cycle of a square (exit 1), e-cube round a torus with one VC is refused
# by the setup and the check shows the ring that makes the refusal
# necessary (exit 1), with two VCs no cycle; a sweep is checked once per
# distinct network, labelled with its sweep values; bad input exits 2 with
# nothing on stdout; nothing is ever written.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# exp_net NAME TOPOLOGY-LINES ROUTER VCS [EXTRA YAML LINES]: an experiment
# in $T/NAME.yaml
exp_net() {
    local name=$1 topo=$2 router=$3 vcs=$4
    shift 4
    {
        printf 'mppnet: 1\nname: %s\nnetwork:\n%s\n  router: %s\n  vcs: %s\n' \
            "$name" "$topo" "$router" "$vcs"
        printf 'workload:\n  pattern: uniform\n  rate: 0.1\noutput:\n  dir: out\n'
        for line in "$@"; do printf '%s\n' "$line"; done
    } >"$T/$name.yaml"
}
MESH='  topology: mesh
  mesh: {rows: 4, cols: 4}'
TORUS='  topology: kary-ncube
  kary-ncube: {k: [4, 4], torus: true}'
# one line of a cycle: router R port NAME (-> router R2 port NAME2) class(es) [VC(s)]
CHAN='^    router [0-9]+ port [^ ]+ \(-> router [0-9]+ port [^ ]+\) class(es)? [0-9.]+ \[VCs? [0-9.]+\]$'

# e-cube on a mesh: acyclic with one VC
exp_net mesh_ecube "$MESH" ecube 1
if expect_status mesh_ecube 0 "$T" check --deadlock mesh_ecube.yaml; then
    head -1 mesh_ecube.out | grep -qx 'mesh_ecube.yaml: router ecube, topology mesh (16 nodes), 1 VC, 1 route class' ||
        fail "mesh ecube: header '$(head -1 mesh_ecube.out)'"
    grep -Eq '^  no cycle: 48 channels, 48 VC groups, [0-9]+ dependencies, [0-9]+ states$' mesh_ecube.out ||
        fail "mesh ecube: no 'no cycle' line: $(cat mesh_ecube.out)"
    [ -s mesh_ecube.err ] && fail "mesh ecube: stderr: $(cat mesh_ecube.err)"
    pass "mesh ecube: no cycle"
fi

# xyyx (test only) mixes XY and YX on one class: the 4 channels round a square
exp_net mesh_xyyx "$MESH" xyyx 1
if expect_status mesh_xyyx 1 "$T" check --deadlock mesh_xyyx.yaml; then
    grep -qx '  cycle of 4 channels, each held by a packet that waits for the next:' mesh_xyyx.out ||
        fail "mesh xyyx: no cycle line: $(cat mesh_xyyx.out)"
    n=$(grep -Ec "$CHAN" mesh_xyyx.out)
    [ "$n" = 4 ] || fail "mesh xyyx: $n channel lines, expected 4: $(cat mesh_xyyx.out)"
    grep -q 'class 0 \[VC 0\]$' mesh_xyyx.out || fail "mesh xyyx: not class 0, VC 0"
    grep -q 'refuses' mesh_xyyx.out && fail "mesh xyyx: a refusal for a valid configuration"
    pass "mesh xyyx: cycle of 4"
fi

# e-cube round a torus: two route classes (the dateline). One VC: refused,
# and the ring of one dimension is why; two VCs: no cycle.
if "$MPPNET" list topologies | grep -q '^  kary-ncube '; then
    exp_net torus1 "$TORUS" ecube 1
    if expect_status torus1 1 "$T" check --deadlock torus1.yaml; then
        sed -n 2p torus1.out | grep -qx "  the setup refuses this configuration: router 'ecube' needs 2 route classes per message class on this topology; with 1 VC they share VCs" ||
            fail "torus vcs 1: no refusal first: $(cat torus1.out)"
        grep -qx '  cycle of 4 channels that makes the refusal necessary, each held by a packet that waits for the next:' torus1.out ||
            fail "torus vcs 1: no cycle line: $(cat torus1.out)"
        n=$(grep -Ec "$CHAN" torus1.out)
        [ "$n" = 4 ] || fail "torus vcs 1: $n channel lines, expected 4"
        [ "$(grep -c 'classes 0\.\.1 \[VC 0\]$' torus1.out)" = 4 ] ||
            fail "torus vcs 1: the classes do not share VC 0: $(cat torus1.out)"
        pass "torus vcs 1: refused, cycle of 4"
    fi
    # plain check refuses it, as run would
    expect_status torus1_plain 2 "$T" check torus1.yaml &&
        grep -q "needs vcs to be a multiple of 2" torus1_plain.err && pass "torus vcs 1: check refuses it"

    exp_net torus2 "$TORUS" ecube 2
    if expect_status torus2 0 "$T" check --deadlock torus2.yaml; then
        grep -Eq '^  no cycle: ' torus2.out || fail "torus vcs 2: $(cat torus2.out)"
        grep -q 'refuses' torus2.out && fail "torus vcs 2: a refusal"
        pass "torus vcs 2: no cycle"
    fi

    # a sweep: one check per distinct network, labelled by what varies
    exp_net sweep "$TORUS" ecube 1 'seeds: [1, 2]' \
        'sweep: {network.vcs: [1, 2], workload.rate: [0.1, 0.2]}'
    if expect_status sweep 1 "$T" check --deadlock sweep.yaml; then
        [ "$(grep -c '^sweep\.yaml' sweep.out)" = 2 ] || fail "sweep: not 2 results: $(cat sweep.out)"
        grep -q '^sweep\.yaml (network\.vcs=1): router ecube' sweep.out || fail "sweep: no vcs=1 label"
        grep -q '^sweep\.yaml (network\.vcs=2): router ecube' sweep.out || fail "sweep: no vcs=2 label"
        grep -q 'rate' sweep.out && fail "sweep: the rate labels a result"
        pass "sweep: checked once per network"
    fi
    # an override picks the valid one
    expect_status sweep_ov 0 "$T" check --deadlock sweep.yaml 'sweep={network.vcs: [2]}' &&
        pass "sweep override: no cycle"
else
    echo "skip: no kary-ncube topology: the torus checks did not run"
fi

# bad input: exit 2, the error on stderr, nothing on stdout, no file
exp_net dl_bad_yaml "$MESH" ecube lots
expect_bad dl_bad_yaml 'exp\.yaml:[0-9]+:[0-9]+' check --deadlock exp.yaml
exp_net dl_bad_router "$MESH" ecube 1
expect_bad dl_bad_router "router 'xyyx' supports the mesh topology only" \
    check --deadlock exp.yaml network.topology=hypercube network.router=xyyx
expect_bad dl_missing 'nope\.yaml' check --deadlock nope.yaml
expect_bad dl_bad_option "unknown option '--deadlok'" check --deadlok exp.yaml

# the option is documented in the command's help
expect_status dl_help 0 "$T" check --help && grep -q -- '--deadlock' dl_help.out ||
    fail "check --help does not mention --deadlock"
[ -e out ] && fail "check --deadlock created the output directory"

finish
