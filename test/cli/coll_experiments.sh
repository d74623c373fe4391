# test/cli/coll_experiments.sh — the collective experiments of
# experiments/collectives (bcast_vs_dim, bcast_vs_dim_cm5, alltoall_vs_N)
# in small: every file checks with its full number of runs, then runs end
# to end with overrides that shrink it to a few runs (two sizes, shorter
# messages; the full runs are in docs/collectives.md, "Experiments"),
# exits 0 and writes one results.csv row per run, one for every
# combination of the swept values, with the collective columns. Every
# vs_bound is positive; at the larger of the two sizes msbt beats binomial
# in both port models (Johnsson 1995), and all-port direct alltoall beats
# one-port direct; scripts/bcast_report.py turns each
# into its table and writes its plot script.
. "$(dirname "$0")/lib.sh"

PY=$(command -v python3 || true)
cd "$T" || exit 1

# file | full runs | size axis | shrunk runs | overrides (separated by ';')
while IFS='|' read -r b full axis small ov; do
    [ -n "$b" ] || continue
    run_shrunk "$SRCDIR/experiments/collectives/$b.yaml" "$b" "$full" "$small" "$ov" || continue
    csv=$T/$b/results.csv
    head -1 "$csv" | tr ',' '\n' >"$T/$b.cols"
    for c in "$axis" coll_ms analytic_ms bound_ms coll_cycles analytic_cycles bound_cycles \
        vs_analytic vs_bound nodes; do
        grep -qx "$c" "$T/$b.cols" || fail "$b: no column $c"
    done
    # SIZE ALG PORTS COLL_MS VS_BOUND per row (PORTS '-' when not swept)
    awk -F, -v axis="$axis" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  a = c["workload.collective"] ? c["workload.collective"] : c["workload.alg"]
                  next }
        { print $c[axis], $a, (c["node.ports"] ? $c["node.ports"] : "-"), $c["coll_ms"], $c["vs_bound"] }' \
        "$csv" >"$T/$b.t"
    # one row per combination of the swept values, none twice
    n=$(awk '{ print $1, $2, $3 }' "$T/$b.t" | sort -u | wc -l)
    [ "$n" = "$small" ] || fail "$b: $n distinct points in $small rows: $(tr '\n' ' ' <"$T/$b.t")"
    awk '!($5 > 0) { bad = 1 } END { exit bad }' "$T/$b.t" ||
        fail "$b: a vs_bound not positive: $(tr '\n' ' ' <"$T/$b.t")"
    case $b in
    bcast_vs_dim*)
        # at the largest size, msbt faster than binomial with each port model
        awk '{ if ($1 + 0 > max) max = $1 + 0; t[$1 " " $2 " " $3] = $4; p[$3] = 1 }
             END { for (q in p) { k++; if (!(t[max " msbt " q] < t[max " binomial " q])) bad = 1 }
                   exit bad || k != 2 }' "$T/$b.t" ||
            fail "$b: msbt does not beat binomial at the largest size: $(tr '\n' ' ' <"$T/$b.t")"
        rep=(--by workload.collective,node.ports --value coll_ms --also bound_ms --logy) ;;
    alltoall_vs_N)
        # at the largest size, all-port direct (its paired steps) faster
        # than one-port direct
        awk '{ if ($1 + 0 > max) max = $1 + 0; t[$1 " " $2 " " $3] = $4 }
             END { exit !(t[max " direct all"] > 0 && t[max " direct all"] < t[max " direct one"]) }' \
            "$T/$b.t" ||
            fail "$b: all-port direct not faster than one-port: $(tr '\n' ' ' <"$T/$b.t")"
        rep=(--by workload.alg,node.ports --value coll_ms --also bound_ms --show nodes --x nodes --logx --logy) ;;
    esac
    if [ -n "$PY" ]; then
        "$PY" "$SRCDIR/scripts/bcast_report.py" "$csv" "${rep[@]}" \
            --plot "$T/img/coll-$b.png" >"$T/$b.md" 2>"$T/$b.rep.err" ||
            { fail "$b: bcast_report: $(head -c 300 "$T/$b.rep.err")"; continue; }
        n=$(grep -c '^| ' "$T/$b.md")
        [ "$n" = 3 ] || fail "$b: bcast_report printed $n table lines, expected 3"
        grep -q '| bound_ms' "$T/$b.md" || fail "$b: bcast_report printed no bound column"
        [ -s "$T/img/coll-$b.gp" ] || fail "$b: bcast_report wrote no plot script"
    fi
    pass "$b: $full runs in full, $rows in small"
done <<'CASES'
bcast_vs_dim|36|network.hypercube.dim|8|sweep.network.hypercube.dim=[2, 4];workload.bytes=4KiB
bcast_vs_dim_cm5|36|network.cm5-fattree.nodes|8|sweep.network.cm5-fattree.nodes=[4, 32];workload.bytes=4KiB
alltoall_vs_N|42|network.hypercube.dim|12|sweep.network.hypercube.dim=[4, 5];workload.bytes=64
CASES
finish
