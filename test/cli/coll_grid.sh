# test/cli/coll_grid.sh — the unstructured-grid gather and scatter
# (grid_gather, grid_scatter) through `mppnet run`: a small experiment on
# the 2817-vertex airfoil runs and reports the collective columns and
# link_flits_max, the same seed gives the same results and another seed
# another random allocation; every bad input (a map file with a node out of
# range, a missing mesh file, a bad grid: spec, an unknown allocation, alloc
# map without a file, groups other than the machine) exits with status 2, a
# clear message on stderr (FILE:LINE for the map) and no file written; the
# experiments experiments/collectives/grid_gather_scatter*.yaml check with
# their full number of runs and run shrunk.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
mkdir -p data
cp "$SRCDIR/traces/data/naca0012_2817.msh.gz" data/air.msh.gz

# The 2817-vertex airfoil on a 16-node hypercube; extra YAML lines as
# arguments.
gr_exp() {
    cat <<'YAML'
mppnet: 1
name: gr
machine: hypercube
network: {hypercube: {dim: 4}, allocator: age}
workload:
  type: collective
  collective: grid_gather
  grid_gather: {mesh: data/air.msh.gz, alloc: random}
  grid_scatter: {mesh: data/air.msh.gz, alloc: random}
output:
  dir: out
  plot: false
YAML
    for line in "$@"; do printf '%s\n' "$line"; done
}

gr_exp >"$T/good.yaml"
mkdir -p "$T/good/data"
cp "$T/good.yaml" "$T/good/exp.yaml"
cp data/air.msh.gz "$T/good/data/"
if expect_status good 0 "$T/good" run exp.yaml --quiet \
    'sweep={workload.collective: [grid_gather, grid_scatter], workload.grid_gather.combine+workload.grid_scatter.combine: [[true, true], [false, false]]}'; then
    csv=$T/good/out/results.csv
    for col in coll_ms analytic_ms bound_ms coll_cycles analytic_cycles bound_cycles vs_analytic \
        vs_bound link_flits_max messages; do
        head -1 "$csv" | tr ',' '\n' | grep -qx "$col" || fail "results.csv has no column $col"
    done
    rows=$(($(wc -l <"$csv") - 1))
    [ "$rows" = 4 ] || fail "expected 4 rows, got $rows"
    # every time and link load positive; per element sends more messages
    # columns counted from the end: the axis values ("[true, true]") hold commas
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = NF - i; next }
             function v(k) { return $(NF - c[k]) }
             { if (!(v("coll_cycles") > 0 && v("link_flits_max") > 0 && v("vs_bound") >= 1)) bad = 1
               m[NR] = v("messages") }
             END { exit bad || !(m[3] > m[2]) || !(m[5] > m[4]) }' "$csv" ||
        fail "bad values: $(cat "$csv")"
    pass "grid_gather and grid_scatter run: $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = NF - i; next } { printf "%s ", $(NF - c["coll_cycles"]) }' "$csv")cycles"
    expect_status good2 0 "$T/good" run exp.yaml -o again --quiet &&
        expect_status good3 0 "$T/good" run exp.yaml -o again2 --quiet &&
        { cmp -s "$T/good/again/results.csv" "$T/good/again2/results.csv" || fail "two runs differ"; }
    expect_status seed2 0 "$T/good" run exp.yaml -o seed2 --quiet seed=2 &&
        { c1=$(cut -d, -f1-3 --complement "$T/good/again/results.csv" | md5sum)
          c2=$(cut -d, -f1-3 --complement "$T/good/seed2/results.csv" | md5sum)
          [ "$c1" != "$c2" ] || fail "seed 2 gives the same random allocation"; }
    expect_status grid 0 "$T/good" run exp.yaml -o grid --quiet workload.collective=grid_scatter \
        'workload.grid_scatter={mesh: "grid:20x20", alloc: cyclic, combine: false}' &&
        pass "a generated grid runs"
fi

# a map with a node out of range (16 on 16 nodes) at line 5
{ for i in 1 2 3 4; do echo 0; done; echo 16; for i in $(seq 6 2817); do echo 1; done; } >"$T/bad.map"

# bad input: name | pattern on stderr | overrides
while IFS='|' read -r name pat ov; do
    [ -n "$name" ] || continue
    gr_exp >"$T/$name.yaml"
    # the files are given on the command line (absolute paths), so that
    # the run's folder holds nothing but exp.yaml
    # shellcheck disable=SC2086
    expect_bad "$name" "$pat" run exp.yaml workload.grid_gather.mesh="$T/data/air.msh.gz" \
        ${ov//@T@/$T}
done <<'CASES'
map_out_of_range|workload\.grid_gather\.map: .*/bad\.map:5: .*0 \.\. 15|workload.grid_gather.alloc=map workload.grid_gather.map=@T@/bad.map
missing_mesh|workload\.grid_gather\.mesh: .*nothere\.msh|workload.grid_gather.mesh=@T@/nothere.msh
bad_grid|workload\.grid_gather\.mesh 'grid:3by4': expected grid:RxC|workload.grid_gather.mesh=grid:3by4
grid_too_small|expected grid:RxC, R and C at least 2|workload.grid_gather.mesh=grid:1x9
unknown_alloc|alloc.*block, cyclic, random, map|workload.grid_gather.alloc=metis
map_without_file|needs the map file|workload.grid_gather.alloc=map
no_mesh|a mesh is needed|workload.grid_gather.mesh=
groups_rows|whole machine|workload.groups=rows workload.array=4x4
chunk|workload\.chunk|workload.chunk=8
CASES

# the experiments, shrunk: the 2817-vertex airfoil and the grid, two
# allocations, combined only
for b in grid_gather_scatter grid_gather_scatter_cm5; do
    f=$SRCDIR/experiments/collectives/$b.yaml
    run_shrunk "$f" "$b" 64 8 "$(printf '%s;' \
        'sweep.workload.grid_gather.alloc+workload.grid_scatter.alloc=[[block, block], [map, map]]' \
        'sweep.workload.grid_gather.combine+workload.grid_scatter.combine=[[true, true]]' \
        'sweep.workload.grid_gather.mesh+workload.grid_gather.map+workload.grid_scatter.mesh+workload.grid_scatter.map=[[traces/data/naca0012_2817.msh.gz, traces/data/naca0012_2817.part32.gz, traces/data/naca0012_2817.msh.gz, traces/data/naca0012_2817.part32.gz], ["grid:128x128", traces/data/grid_128x128.tiles32.gz, "grid:128x128", traces/data/grid_128x128.tiles32.gz]]')" || continue
    csv=$T/$b/results.csv
    head -1 "$csv" | tr ',' '\n' | grep -qx link_flits_max || fail "$b: no column link_flits_max"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = NF - i; next }
             !($(NF - c["coll_cycles"]) > 0) { bad = 1 } END { exit bad }' "$csv" ||
        fail "$b: a run without a time"
    pass "$b: 64 runs in full, $rows in small"
done

finish
