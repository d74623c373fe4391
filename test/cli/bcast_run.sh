# test/cli/bcast_run.sh — the broadcast workload through `mppnet run`: a
# tiny experiment runs and reports its columns, the same seed gives the
# same results, and every bad input (s > p, a distribution that does not
# exist or cannot place s sources, an unknown algorithm or repos base, a
# bad mesh view) exits with status 2, a clear message on stderr and no file
# written.
. "$(dirname "$0")/lib.sh"

# A 4x4 Paragon-like mesh, 5 sources in rows; extra YAML lines as arguments.
bc_exp() {
    cat <<'YAML'
mppnet: 1
name: bc
machine: paragon
network: {mesh: {rows: 4, cols: 4}}
workload:
  type: broadcast
  algorithm: part_xy_source
  dist: R
  s: 5
  bytes: 256
output:
  dir: out
  plot: false
YAML
    for line in "$@"; do printf '%s\n' "$line"; done
}

bc_exp >"$T/good.yaml"
mkdir -p "$T/good"
cp "$T/good.yaml" "$T/good/exp.yaml"
if expect_status good 0 "$T/good" run exp.yaml --quiet; then
    csv=$T/good/out/results.csv
    for col in bcast_ms part_redist_ms part_bcast_ms part_exchange_ms max_msgs_sent \
        max_bytes_sent messages makespan_ms; do
        head -1 "$csv" | tr ',' '\n' | grep -qx "$col" || fail "results.csv has no column $col"
    done
    # bcast_ms is a positive number of milliseconds
    col=$(head -1 "$csv" | tr ',' '\n' | grep -nx bcast_ms | cut -d: -f1)
    val=$(sed -n 2p "$csv" | cut -d, -f"$col")
    awk -v v="$val" 'BEGIN { exit !(v + 0 > 0) }' || fail "bcast_ms is '$val'"
    grep -q bcast_ms "$T/good.out" || fail "no summary table"
    pass "a broadcast experiment runs: bcast_ms = $val"
    # the same run again (and another algorithm with a section) is identical
    expect_status good2 0 "$T/good" run exp.yaml -o again --quiet &&
        { cmp -s "$csv" "$T/good/again/results.csv" || fail "two runs differ"; }
    expect_status repos 0 "$T/good" run exp.yaml -o repos --quiet workload.algorithm=repos \
        workload.repos.base=br_lin && pass "repos with base br_lin runs"
    # a hypercube is a linear array
    expect_status hcube 0 "$T/good" run exp.yaml -o hc --quiet machine=hypercube \
        'network={hypercube: {dim: 4}}' workload.dist=random && pass "a hypercube runs"
fi

# bad input: name | pattern on stderr | overrides
while IFS='|' read -r name pat ov; do
    [ -n "$name" ] || continue
    bc_exp >"$T/$name.yaml"
    # shellcheck disable=SC2086
    expect_bad "$name" "$pat" run exp.yaml $ov
done <<'CASES'
s_above_p|workload\.s = 17.*1 to 16 sources|workload.s=17
s_zero|workload\.s.*between 1|workload.s=0
unknown_dist|workload\.dist.*unknown distribution 'Z'.*R, C, DR, DL, E, cross, B_i_j|workload.dist=Z
block_wrong_s|B_2_2.*4 sources, not 5|workload.dist=B_2_2
block_too_big|B_5_1.*does not fit|workload.dist=B_5_1
list_short|list.*2 processors listed, not s = 5|workload.dist=list:1,2
list_out_of_range|list.*processor 99|workload.dist=list:1,2,3,4,99
unknown_algorithm|algorithm 'ring'.*br_lin, br_xy_source, br_xy_dim, xor|workload.algorithm=ring
bad_repos_base|base.*br_xy_source, br_lin|workload.algorithm=repos workload.repos.base=xor
mesh_wrong_count|workload\.mesh 3x3.*9 processors.*16 nodes|workload.mesh=3x3
mesh_garbage|workload\.mesh 'four'.*ROWSxCOLS|workload.mesh=four
bytes_zero|workload\.bytes|workload.bytes=0
bad_paradigm|paradigm.*sync, async, am, am_put|workload.paradigm=rdma
CASES

finish
