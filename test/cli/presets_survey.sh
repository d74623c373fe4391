# test/cli/presets_survey.sh — the machine presets of the survey's machines
# (t3d, jmachine, cm2; docs/machines.md, "Machine presets"):
#   1. each is listed, resolves to its own network and node (--dump-config),
#      and runs a small collective (a 64-node version) and a short `sim`
#      of synthetic traffic: exit 0 and one results row;
#   2. a key that does not exist under the preset (in node:, network:, the
#      topology's section, or on the command line) and an unknown preset
#      are refused: exit 2, the file:line:column (or the command line) and
#      the valid names on stderr, nothing on stdout, nothing written;
#   3. the cm2-against-hypercube collective experiments
#      (experiments/collectives/cm2_vs_hypercube_*.yaml) in small: a 3-cube,
#      1 KiB; one row per point, every vs_bound positive, and on the cm2 the
#      broadcasts and the scatter the same under both routings (their
#      messages go to neighbours).
. "$(dirname "$0")/lib.sh"

PY=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
cd "$T" || exit 1


# coll_exp MACHINE TOPOLOGY-LINES: a 64-node msbt broadcast on MACHINE.
coll_exp() {
    cat <<YAML
mppnet: 1
name: tiny-$1
machine: $1
network:
$2
workload:
  type: collective
  collective: msbt
  bytes: 2KiB
  chunk: 512
output:
  dir: out
  plot: false
YAML
}

# --- 1. each preset runs ---------------------------------------------------
if expect_status list 0 "$T" list presets; then
    for name in t3d jmachine cm2; do
        grep -Eq "^  $name " "$T/list.out" || fail "list presets: no entry '$name'"
    done
fi

while IFS='|' read -r m topo want; do
    [ -n "$m" ] || continue
    d=$T/run_$m
    mkdir -p "$d"
    coll_exp "$m" "$topo" >"$d/exp.yaml"
    ov=()
    # the preset's own values under the file's topology
    if expect_status "dump_$m" 0 "$d" run exp.yaml --dump-config "${ov[@]}"; then
        IFS=';' read -r -a keys <<<"$want"
        for k in "${keys[@]}"; do
            grep -Fqx -- "$k" "$T/dump_$m.out" || fail "$m: --dump-config has no line '$k'"
        done
    fi
    if expect_status "run_$m" 0 "$d" run exp.yaml -q "${ov[@]}"; then
        rows=$(($(wc -l <"$d/out/results.csv") - 1))
        ms=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "coll_ms") c = i; next }
                      { print $c }' "$d/out/results.csv")
        if [ "$rows" = 1 ] && awk -v t="$ms" 'BEGIN { exit !(t > 0) }'; then
            pass "$m: msbt on 64 nodes in $ms ms"
        else
            fail "$m: $rows results rows, coll_ms '$ms'"
        fi
    fi
    if expect_status "sim_$m" 0 "$T" sim -q "machine=$m" --rate 0.05 --warmup 200 --cycles 500 \
        "${ov[@]}"; then
        if grep -Eq '^  packets +[0-9]+ measured' "$T/sim_$m.out"; then
            pass "$m: sim, $(grep -E '^  hops ' "$T/sim_$m.out" | tr -s ' ')"
        else
            fail "$m: sim printed no packets line"
        fi
    fi
done <<'CASES'
t3d|  kary-ncube: {k: [4, 4, 4]}|  router: ecube;    torus: true;  net_mhz: 150;  cpu_mhz: 150;  word_bits: 64
jmachine|  kary-ncube: {k: [4, 4, 4]}|    torus: false;  flow_control: wormhole;  net_mhz: 32;  word_bits: 36;  flit_bits: 9
cm2|  hypercube: {dim: 6}|  topology: hypercube;  vcs: 2;  net_mhz: 0.875;  cpu_mhz: 7;  ports: all
CASES

# --- 2. keys that do not exist, unknown presets ------------------------------
bad_exp() { # MACHINE EXTRA-LINES
    printf 'mppnet: 1\nname: bad\nmachine: %s\n%s\nworkload: {type: collective, collective: binomial, bytes: 1KiB}\noutput: {dir: out, plot: false}\n' \
        "$1" "$2"
}
bad_exp t3d 'node: {no_such_key: 1}' >"$T/t3d_node_key.yaml"
expect_bad t3d_node_key "exp\.yaml:4:[0-9]+: unknown key 'node\.no_such_key'.*cpu_mhz" run exp.yaml
bad_exp t3d 'network: {no_such: 1}' >"$T/t3d_network_key.yaml"
expect_bad t3d_network_key "exp\.yaml:4:[0-9]+: unknown key 'network\.no_such'.*topology" run exp.yaml
bad_exp jmachine 'network: {kary-ncube: {k: [4, 4, 4], no_such: 1}}' >"$T/jmachine_topo_key.yaml"
expect_bad jmachine_topo_key \
    "exp\.yaml:4:[0-9]+: unknown key 'network\.kary-ncube\.no_such'.*k, torus, order, dateline" \
    run exp.yaml
bad_exp cm2 'node: {ports: all}' >"$T/cm2_override_key.yaml"
expect_bad cm2_override_key "unknown key 'network\.hypercube\.no_such'.*dim" run exp.yaml \
    network.hypercube.no_such=1
bad_exp t3e 'node: {cpu_mhz: 150}' >"$T/unknown_preset.yaml"
expect_bad unknown_preset \
    "exp\.yaml:3:[0-9]+: key 'machine': unknown machine preset 't3e'; known presets: booksim, cm2, cm5, hypercube, jmachine, paragon, t3d" \
    run exp.yaml
bad_exp t3d 'node: {cpu_mhz: 150}' >"$T/unknown_preset_override.yaml"
expect_bad unknown_preset_override "command line.*'cm3'.*cm2.*jmachine.*t3d" run exp.yaml machine=cm3

# --- 3. the cm2-against-hypercube experiments in small ------------------------
small=('sweep.workload.bytes=[1KiB]' 'network.hypercube.dim=3')
cm2_ov=$(IFS=';'; echo "${small[*]}")
cm2_small=10
for b in cm2 hypercube; do
    case $b in
    cm2) full=30 n=$cm2_small o=$cm2_ov ;;
    hypercube) full=15 n=5 o=$(IFS=';'; echo "${small[*]}") ;;
    esac
    run_shrunk "$SRCDIR/experiments/collectives/cm2_vs_hypercube_$b.yaml" "cmp_$b" "$full" "$n" "$o" ||
        continue
    csv=$T/cmp_$b/results.csv
    # COLLECTIVE ALG BYTES ROUTER COLL_MS VS_BOUND per row (the joint axis is one
    # quoted column, "[binomial, xor]": read as CSV)
    "$PY" - "$csv" >"$T/cmp_$b.t" <<'PYEOF' || { fail "cmp_$b: cannot read $csv"; continue; }
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline='')):
    coll, alg = r['workload.collective+workload.alg'].strip('[]').split(', ')
    print(coll, alg, r['workload.bytes'], r.get('network.router', '-'), r['coll_ms'],
          r['vs_bound'])
PYEOF
    n=$(awk '{ print $1, $2, $3, $4 }' "$T/cmp_$b.t" | sort -u | wc -l)
    [ "$n" = "$rows" ] || fail "cmp_$b: $n distinct points in $rows rows"
    awk '!($6 > 0) { bad = 1 } END { exit bad }' "$T/cmp_$b.t" ||
        fail "cmp_$b: a vs_bound not positive: $(tr '\n' ' ' <"$T/cmp_$b.t")"
    if [ "$b" = cm2 ]; then
        awk '$1 != "alltoall" { t[$1 " " $3 " " $4] = $5 }
             END { for (k in t) { split(k, a, " ")
                                  if (a[3] == "adaptive" && t[a[1] " " a[2] " ecube"] != t[k]) bad = 1 }
                   exit bad }' "$T/cmp_$b.t" ||
            fail "cmp_cm2: a broadcast or the scatter differs between the routings: $(tr '\n' ' ' <"$T/cmp_$b.t")"
    fi
    pass "cm2_vs_hypercube_$b: $full runs in full, $rows in small"
done
finish
