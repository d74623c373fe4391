# test/cli/coll_red.sh — the reductions of the collective workload from the
# command line:
#   - the experiments of experiments/collectives (reductions_vs_M,
#     reductions_vs_dim) in small: each checks with its full number of
#     runs, then runs with overrides that shrink it (two lengths or two
#     dimensions, 3 collectives, both port models), exits 0 and writes one
#     results.csv row per run with the collective columns; with one-port
#     nodes allreduce by exchange beats reduce + broadcast, and every
#     vs_bound is at least 1;
#   - bad inputs exit 2 with the key in the message, nothing on stdout and
#     no file: an operation the data type does not have (xor, and, or on
#     doubles), an unknown operation or type, a vector that is not whole
#     8-byte elements, a chunk that is not whole elements.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# file | full runs | small runs | overrides (separated by ';')
while IFS='|' read -r b full small ov; do
    [ -n "$b" ] || continue
    run_shrunk "$SRCDIR/experiments/collectives/$b.yaml" "$b" "$full" "$small" "$ov" || continue
    csv=$T/$b/results.csv
    for c in coll_cycles analytic_cycles bound_cycles vs_analytic vs_bound link_flits_max; do
        head -1 "$csv" | tr ',' '\n' | grep -qx "$c" || fail "$b: no column $c"
    done
    # X COLLECTIVE PORTS CYCLES VS_BOUND per row
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                       x = c["workload.bytes"] ? c["workload.bytes"] : c["network.hypercube.dim"]
                       next }
             { print $x, $c["workload.collective"], $c["node.ports"], $c["coll_cycles"], $c["vs_bound"] }' \
        "$csv" >"$T/$b.t"
    awk '!($5 >= 1) { bad = 1 } END { exit bad }' "$T/$b.t" ||
        fail "$b: a vs_bound below 1: $(tr '\n' ' ' <"$T/$b.t")"
    # one-port: allreduce by exchange (n steps) beats reduce + broadcast (2n)
    awk '$3 == "one" { t[$1 " " $2] = $4; k[$1] = 1 }
         END { for (x in k) { e = t[x " allreduce"]; r = t[x " allreduce:alg=reduce_bcast"]
                   if (!(e > 0 && r > 0 && e < r)) bad = 1; n++ }
               exit bad || n != 2 }' "$T/$b.t" ||
        fail "$b: allreduce by exchange not faster than reduce + broadcast: $(tr '\n' ' ' <"$T/$b.t")"
    pass "$b: $small runs"
done <<'RUNS'
reductions_vs_M|40|12|sweep.workload.bytes=[256, 2KiB];sweep.workload.collective=[allreduce, 'allreduce:alg=reduce_bcast', scan];network.hypercube.dim=4
reductions_vs_dim|90|12|sweep.network.hypercube.dim=[2, 4];sweep.workload.collective=[allreduce, 'allreduce:alg=reduce_bcast', reduce_scatter]
RUNS

# bad inputs
red_exp() {
    cat <<'YAML'
mppnet: 1
name: red
machine: hypercube
network:
  hypercube: {dim: 3}
workload:
  type: collective
  collective: allreduce
  bytes: 1KiB
output:
  dir: out
  plot: false
YAML
}
while IFS='|' read -r name pat ov; do
    [ -n "$name" ] || continue
    red_exp >"$T/$name.yaml"
    # shellcheck disable=SC2086
    expect_bad "$name" "$pat" run exp.yaml $ov && pass "$name"
done <<'CASES'
xor_double|workload\.allreduce\.op = xor is not defined for type double|workload.allreduce.op=xor
and_double|workload\.scan\.op = and is not defined for type double|workload.collective=scan workload.scan.op=and
or_double_reduce|workload\.reduce\.op = or is not defined for type double|workload.collective=reduce workload.reduce.op=or workload.reduce.type=double
unknown_op|workload\.allreduce\.op.*sum, max, min, and, or, xor|workload.allreduce.op=prod
unknown_type|workload\.allreduce\.type.*double, int64|workload.allreduce.type=float
bytes_not_elements|workload\.bytes = 100 is not a whole number of double elements|workload.bytes=100
chunk_not_elements|workload\.chunk = 100 is not a whole number|workload.collective=reduce workload.chunk=100
CASES

# an integer operation on int64 is fine
red_exp >"$T/int.yaml"
expect_status int_xor 0 "$T" run int.yaml -q -o "$T/int" workload.allreduce.op=xor \
    workload.allreduce.type=int64 && pass "xor on int64 runs"

finish
