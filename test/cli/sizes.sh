# test/cli/sizes.sh — sized before built (issue 42): topologies, runs and
# applications above the engine's limits, the machine's memory or
# --max-work are refused at once, with their size, exit 2, nothing written.
# Every command runs under `timeout 5` and a 4 GiB address-space limit, so
# a regression (building first) fails here instead of taking the machine.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# The address-space limit, where the binary runs under it: a build with
# AddressSanitizer reserves terabytes of shadow memory and cannot (there
# the normal build's run of this test is the memory guard; timeout stays).
VLIM=4194304
(ulimit -v $VLIM; "$MPPNET" --version) >/dev/null 2>&1 || VLIM=unlimited

# quick NAME STATUS PATTERN CMD...: CMD (mppnet arguments) must exit with
# STATUS within 5 s and 4 GiB, its stdout and stderr matching PATTERN.
quick() {
    local name=$1 want=$2 pat=$3 st
    shift 3
    (ulimit -v $VLIM; timeout 5 "$MPPNET" "$@") >"$T/$name.out" 2>"$T/$name.err"
    st=$?
    [ "$st" = "$want" ] || { fail "$name: exit $st, expected $want: $(head -c 400 "$T/$name.err")"; return; }
    grep -Eq "$pat" "$T/$name.out" "$T/$name.err" ||
        { fail "$name: no /$pat/ in: $(head -c 400 "$T/$name.out" "$T/$name.err")"; return; }
    pass "$name"
}

exp_with() { # exp_with TOPOLOGY_LINES... : a small experiment on stdout
    printf 'mppnet: 1\nname: big\nnetwork:\n'
    for l in "$@"; do printf '  %s\n' "$l"; done
    printf 'workload:\n  rate: 0.01\n  warmup: 10\n  measure: 10\noutput:\n  dir: out\n  plot: false\n'
}

# a 2-ary 24-fly (855 638 016 endpoints): n is now at most 20, the largest
# 2-ary fly below the endpoint limit
exp_with 'topology: butterfly' 'butterfly: {k: 2, n: 24}' >fly.yaml
quick fly_check 2 'fly\.yaml:[0-9]+:[0-9]+: .*butterfly\.n.* 1 and 20, got .24.' check fly.yaml
quick fly_run 2 'fly\.yaml:[0-9]+:[0-9]+: .*butterfly\.n.* 1 and 20' run fly.yaml -q
quick fly_sim 2 'butterfly\.n.* 1 and 20' sim --topology butterfly:2x24 -q
quick fly_kn 2 'k\^n = 8\^7 is above the limit of 1048576 terminals' sim --topology butterfly:8x7 -q
# the endpoint limit (2^26): a 3-D torus of 2^23 nodes has 8 endpoints a node
quick torus_endpoints 2 'kary-ncube: 8388608 nodes, 8388608 routers and 67108864 channel endpoints .*above the limit of 2\^26 - 1' sim --topology kary-ncube:256x256x128 -q
# the mesh: at most 2^23 nodes (4096 x 4096 was documented and needed 24 GiB)
quick mesh_max 2 'mesh: 4096 x 4096 = 16777216 nodes is above the limit of 8388608' sim --topology mesh:4096x4096 -q
exp_with 'topology: mesh:4096x2048' >mesh.yaml
MPPNET_MEMORY_LIMIT=1GiB quick mesh_size 2 'mesh: 8388608 nodes, 8388608 routers and 50331648 channel endpoints need about 14\.[0-9] GiB' check mesh.yaml
# the largest 2-ary fly within the limit is checked and sized
exp_with 'topology: butterfly' 'butterfly: {k: 2, n: 20}' >fly20.yaml
quick fly20_check 0 'memory 12\.9 GiB \(1048576 nodes, 10485760 routers, 45088768 channel endpoints\)' check fly20.yaml

# the 2^20-node hypercube: sized (about 5 GiB), refused above a lower limit
exp_with 'topology: hypercube:20' >hc.yaml
quick hc_check 0 'memory 5\.[0-9]+ GiB \(1048576 nodes, 1048576 routers, 23068672 channel endpoints\), work' check hc.yaml
MPPNET_MEMORY_LIMIT=1GiB quick hc_limit 2 'hypercube: 1048576 nodes, 1048576 routers and 23068672 channel endpoints need about 5\.[0-9]+ GiB, above this machine.s memory of 1\.00 GiB' check hc.yaml
MPPNET_MEMORY_LIMIT=1GiB quick hc_sim 2 'need about 5\.[0-9]+ GiB' sim --topology hypercube:20 -q
# a limit that does not parse is refused, never ignored
MPPNET_MEMORY_LIMIT=abc quick env_bad 2 "MPPNET_MEMORY_LIMIT='abc': expected a size of at least 1 byte" sim --topology mesh:4x4 -q
MPPNET_MEMORY_LIMIT=0 quick env_zero 2 "MPPNET_MEMORY_LIMIT='0': expected a size" list
quick hc_matrix 2 'traffic matrix' check hc.yaml output.traffic_matrix=true

# the applications at their documented maximum
quick lee_max 2 'app lee: N = 16384 needs about 8\.2.e\+12 cell visits \(4\.50 GiB of memory\).*--max-work' app lee --N 16384
MPPNET_MEMORY_LIMIT=1GiB quick lee_mem 2 'app lee: an N = 16384 grid needs about 4\.50 GiB, above this machine.s memory of 1\.00 GiB' app lee --N 16384 --max-work 1e20
quick wolff_max 2 'app wolff: N = 16384 needs about .* site visits \(1\.50 GiB of memory\)' app wolff --N 16384 --sweeps 1000000
quick lee_small 0 'mean_distance' app lee --N 16 --instances 2 --max-work 1e6
quick lee_small_refused 2 'above --max-work 1e\+03' app lee --N 16 --instances 2 --max-work 1000

# 4096 sources of 10^9 bytes on a 64x64 Paragon: refused by --max-work,
# with its estimate, before any run starts (no output folder)
cat >bc.yaml <<'YAML'
mppnet: 1
name: bcast-4096
machine: paragon
network:
  mesh: {rows: 64, cols: 64}
workload:
  type: broadcast
  dist: E
  s: 4096
  bytes: 1000000000
output:
  dir: bcout
  plot: false
YAML
quick bc_check 0 'run 0 \(seed 1\): memory .* MiB \(4096 nodes, 4096 routers, 24576 channel endpoints\), work 4\.65e\+13 flit-hops \(about [0-9.]+ days of CPU\)' check bc.yaml
quick bc_run 2 'bc\.yaml: run 0 \(seed 1\): estimated work 4\.65e\+13 flit-router crossings .*above --max-work 1e\+12; give --max-work 4\.7e\+13' run bc.yaml -q
[ -e bcout ] && fail "bc_run: created the output folder"
quick bad_max_work 2 'max-work' run bc.yaml --max-work -1
quick bad_app_max_work 2 'app lee: --max-work needs a number, not .x.' app lee --N 16 --max-work x
# a small run passes the default and is refused below its estimate
small_exp >small.yaml
quick small_run 0 '' run small.yaml -q -o smallout
quick small_refused 2 'estimated work .* above --max-work 10;' run small.yaml -q -o smallout2 --max-work 10

finish
