# test/cli/coll_perm.sh — the `permute` collective through `mppnet run`
# (algorithms/coll_permute.c): a small hypercube experiment runs with
# workload.collective=permute and its overrides, exits 0 and reports the
# collective columns; every bad input exits with status 2, a clear message
# naming the key on stderr and no file written (dims not a permutation: a
# repeat, an out-of-range dimension, the wrong count, none; an unknown perm;
# k > n; a chunk; a mesh whose size is not a power of two); and
# experiments/collectives/permutations.yaml runs in small.
. "$(dirname "$0")/lib.sh"

# A 2^4 hypercube preset, 1 KiB blocks; extra YAML lines as arguments.
perm_exp() {
    cat <<'YAML'
mppnet: 1
name: perm
machine: hypercube
network:
  hypercube: {dim: 4}
  allocator: age
workload:
  type: collective
  collective: binomial
  bytes: 1KiB
output:
  dir: out
  plot: false
YAML
    for line in "$@"; do printf '%s\n' "$line"; done
}

perm_exp >"$T/good.yaml"
mkdir -p "$T/good"
cp "$T/good.yaml" "$T/good/exp.yaml"
# name | messages (16 less the fixed points) | overrides (separated by ';')
while IFS='|' read -r name want ov; do
    [ -n "$name" ] || continue
    IFS=';' read -r -a args <<<"$ov"
    expect_status "$name" 0 "$T/good" run exp.yaml -o "$name" --quiet \
        workload.collective=permute "${args[@]}" || continue
    csv=$T/good/$name/results.csv
    for col in coll_ms analytic_ms bound_ms coll_cycles analytic_cycles bound_cycles \
        vs_analytic vs_bound link_flits_max messages; do
        head -1 "$csv" | tr ',' '\n' | grep -qx "$col" || fail "$name: no column $col"
    done
    # MESSAGES VS_ANALYTIC VS_BOUND
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
             { print $c["messages"], $c["vs_analytic"], $c["vs_bound"] }' "$csv" >"$T/$name.t"
    read -r msgs vsa vsb <"$T/$name.t"
    if [ "$msgs" != "$want" ]; then
        fail "$name: $msgs messages, expected $want"
        continue
    fi
    # e-cube: the analytic time follows the paths (within 4%), above the bound
    if [ "$want" -gt 0 ] &&
        ! awk -v a="$vsa" -v b="$vsb" 'BEGIN { exit !(a > 0.96 && a < 1.04 && b >= 1) }'; then
        fail "$name: vs_analytic $vsa, vs_bound $vsb"
        continue
    fi
    pass "$name: $msgs messages, vs_analytic $vsa, vs_bound $vsb"
done <<'CASES'
transpose|12|
bit_reversal|12|workload.permute.perm=bit_reversal
shuffle|14|workload.permute.perm=shuffle;workload.permute.m=3
complement|16|workload.permute.perm=bit_complement;workload.permute.k=4
index|14|workload.permute.perm=index_reversal
index_fft|14|workload.permute.perm=index_reversal;workload.permute.fft=true
dims|12|workload.permute.perm=dimension_permutation;workload.permute.dims=[2, 3, 0, 1]
identity|0|workload.permute.perm=dimension_permutation;workload.permute.dims=[0, 1, 2, 3]
section|16|workload.permute={perm: bit_complement, k: 2}
CASES
# valiant and romm run on the hypercube (their analytic time is the
# contention-free recurrence: no bound on vs_analytic here)
for r in valiant romm; do
    expect_status "$r" 0 "$T/good" run exp.yaml -o "$r" --quiet workload.collective=permute \
        network.router=$r && pass "routed by $r"
done

# bad input: name | pattern on stderr | overrides (separated by ';')
while IFS='|' read -r name pat ov; do
    [ -n "$name" ] || continue
    perm_exp >"$T/$name.yaml"
    IFS=';' read -r -a args <<<"$ov"
    expect_bad "$name" "$pat" run exp.yaml workload.collective=permute "${args[@]}"
done <<'CASES'
dims_repeat|workload\.permute\.dims \[0, 0, 1, 2\]: dimension 0 appears twice; expected a permutation of 0\.\.3|workload.permute.perm=dimension_permutation;workload.permute.dims=[0,0,1,2]
dims_range|workload\.permute\.dims \[0, 1, 2, 4\]: dimension 4 is out of range; expected a permutation of 0\.\.3|workload.permute.perm=dimension_permutation;workload.permute.dims=[0,1,2,4]
dims_count|workload\.permute\.dims \[2, 0, 1\]: 3 entries.*4 dimensions|workload.permute.perm=dimension_permutation;workload.permute.dims=[2,0,1]
dims_missing|workload\.permute\.dims is required for perm: dimension_permutation.*e\.g\. workload\.permute\.dims=\[1, 2, 3, 0\]|workload.permute.perm=dimension_permutation
dims_text|workload\.permute\.dims|workload.permute.perm=dimension_permutation;workload.permute.dims=2,0,1,3
unknown_perm|workload\.permute\.perm.*transpose, bit_reversal, shuffle, bit_complement, index_reversal, dimension_permutation|workload.permute.perm=butterfly
k_above_n|workload\.permute\.k = 5 is larger than the cube's 4 dimensions|workload.permute.perm=bit_complement;workload.permute.k=5
chunk|workload\.chunk = 256: permute sends every block whole|workload.chunk=256
unknown_key|workload\.permute\.q|workload.permute.q=1
not_pow2|permute needs a power-of-two number of processors.*has 15|machine=paragon;network={mesh: {rows: 3, cols: 5}}
CASES

# experiments/collectives/permutations.yaml in small: two cube sizes (the
# zipped axis of the size and its dims), one seed, 256-byte blocks: one
# row per point, every vs_bound at least 1, and at 2^6 e-cube's transpose
# (links shared by up to 4 messages) more than twice as slow as its
# bit_complement (contention-free); bcast_report draws it
b=permutations
if run_shrunk "$SRCDIR/experiments/collectives/$b.yaml" "$b" 270 36 \
    'sweep.network.hypercube.dim+workload.permute.dims=[[4, [1, 3, 0, 2]], [6, [0, 2, 4, 1, 3, 5]]];seeds=[1];workload.bytes=256'; then
    csv=$T/$b/results.csv
    PY=$(command -v python3 || true)
    if [ -z "$PY" ]; then
        pass "$b: ran in small (no python3 to read its csv)"
    elif ! out=$("$PY" - "$csv" <<'PYCHK'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
t = {(r['nodes'], r['network.router'], r['workload.permute.perm']): r for r in rows}
bad = []
if len(t) != 36:
    bad.append('%d distinct points' % len(t))
bad += ['%s vs_bound %s' % (k, r['vs_bound']) for k, r in t.items() if not float(r['vs_bound']) >= 1]
tr = float(t[('64', 'ecube', 'transpose')]['coll_cycles'])
bc = float(t[('64', 'ecube', 'bit_complement')]['coll_cycles'])
if not tr > 2 * bc:
    bad.append('ecube transpose %g, bit_complement %g' % (tr, bc))
print('; '.join(bad) if bad else 'ecube transpose %.2fx bit_complement at 64 nodes' % (tr / bc))
sys.exit(1 if bad else 0)
PYCHK
    ); then
        fail "$b: $out"
    else
        "$PY" "$SRCDIR/scripts/bcast_report.py" "$csv" --by workload.permute.perm,network.router \
            --where workload.permute.perm=transpose,bit_complement --value coll_ms --show nodes \
            --x nodes --logx --logy --plot "$T/img/coll-$b.png" >"$T/$b.md" 2>"$T/$b.rep.err" ||
            fail "$b: bcast_report: $(head -c 300 "$T/$b.rep.err")"
        [ -s "$T/img/coll-$b.gp" ] || fail "$b: bcast_report wrote no plot script"
        pass "$b: 270 runs in full, $rows in small: $out"
    fi
fi

finish
