# test/cli/plot.sh — `mppnet plot`: default and chosen columns, curves by
# --by, --where filters, seed averaging, saturated points, --script-only,
# quoted CSV fields, no gnuplot on PATH, and bad input (exit 2, nothing
# written).
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
small_exp 'seeds: [1, 2]' 'sweep:' '  workload.pattern: [uniform, transpose]' \
    '  workload.rate: [0.05, 0.2, 0.6]' >exp.yaml
expect_status plot_run 0 "$T" run exp.yaml -o r --quiet || finish
[ "$(wc -l <r/results.csv)" -eq 13 ] || fail "setup: results.csv should have 12 rows"
HAVE_GNUPLOT=0
command -v gnuplot >/dev/null 2>&1 && HAVE_GNUPLOT=1

# shape FILE.dat: the number of data rows of each block ("3 3").
shape() {
    awk 'BEGIN { RS = ""; FS = "\n" }
         { n = 0; for (i = 1; i <= NF; i++) if ($i !~ /^#/ && $i != "") n++
           printf "%s%d", (NR > 1 ? " " : ""), n }
         END { print "" }' "$1"
}
# blocks FILE.dat: the number of blocks, checking that each starts with a
# comment line and that blocks are separated by exactly two blank lines.
blocks() {
    local b
    b=$(awk 'BEGIN { RS = "" } END { print NR }' "$1")
    [ "$(grep -c '^$' "$1")" -eq $((2 * (b - 1))) ] || fail "$1: blocks not separated by two blank lines"
    awk 'BEGIN { RS = ""; FS = "\n" } $1 !~ /^# / { exit 1 }' "$1" ||
        fail "$1: a block does not start with its label comment"
    echo "$b"
}
# check_png FILE: a PNG picture, when gnuplot is there.
check_png() {
    [ "$HAVE_GNUPLOT" = 1 ] || return 0
    [ -s "$1" ] || { fail "no picture $1"; return; }
    [ "$(head -c 4 "$1" | tail -c 3)" = PNG ] || fail "$1 is not a PNG file"
}

# Defaults: x = workload.rate (last axis, numeric), y = latency_mean, one
# curve per pattern, seeds averaged; files next to results.csv.
expect_status plot_default 0 "$T" plot r/results.csv || finish
P=r/plot-latency_mean-vs-workload.rate
for f in "$P.gp" "$P.dat"; do [ -s "$f" ] || fail "default: $f missing"; done
[ "$(cat "$T/plot_default.out")" = "$P.png" ] || fail "default: stdout: $(cat "$T/plot_default.out")"
[ "$(blocks "$P.dat")" = 2 ] || fail "default: expected 2 blocks"
[ "$(shape "$P.dat")" = "3 3" ] || fail "default: rows per block: $(shape "$P.dat")"
grep -qx '# workload.pattern=uniform' "$P.dat" || fail "default: no uniform curve label"
grep -qx '# workload.pattern=transpose' "$P.dat" || fail "default: no transpose curve label"
awk '!/^#/ && NF { if ($4 != 2) exit 1 }' "$P.dat" || fail "default: points should average 2 seeds"
awk 'BEGIN { RS = ""; FS = "\n" } { prev = -1e300
     for (i = 1; i <= NF; i++) { if ($i ~ /^#/) continue; split($i, v, " ")
         if (v[1] + 0 < prev) exit 1; prev = v[1] + 0 } }' "$P.dat" ||
    fail "default: points not sorted by x"
grep -q 'pngcairo size 900,600' "$P.gp" || fail "default: no pngcairo terminal in the script"
grep -q 'datafile index 1 using 1:2' "$P.gp" || fail "default: the script does not plot block 1"
check_png "$P.png"
ls -a r | grep -q '\.tmp' && fail "default: temporary files left in r"
# The mean of the seeds: average latency_mean of uniform at rate 0.05.
want=$(awk -F, 'NR > 1 && $2 == "uniform" && $3 == "0.05" { s += $11; n++ } END { printf "%.6f", s / n }' r/results.csv)
got=$(awk 'NR == 3 { printf "%.6f", $2 }' "$P.dat")
[ "$want" = "$got" ] || fail "default: mean of seeds $got, expected $want"
head -1 r/results.csv | cut -d, -f11 | grep -qx latency_mean || fail "setup: column 11 is not latency_mean"
pass "plot with the defaults"

# Same input, same files.
cp "$P.dat" p1.dat && cp "$P.gp" p1.gp
expect_status plot_again 0 "$T" plot r/results.csv || finish
cmp -s p1.dat "$P.dat" && cmp -s p1.gp "$P.gp" || fail "determinism: a second plot differs"

# --x/--y/--by/--where, two y columns, --script-only, -o in a new directory.
expect_status plot_cols 0 "$T" plot r/results.csv --x offered --y latency_mean,latency_p99 \
    --by workload.pattern --where workload.pattern=uniform --script-only -o sub/a.png --logy \
    --title 'a "quoted" title' || finish
for f in sub/a.gp sub/a.dat; do [ -s "$f" ] || fail "cols: $f missing"; done
[ -e sub/a.png ] && fail "cols: --script-only drew a picture"
[ "$(blocks sub/a.dat)" = 2 ] || fail "cols: expected 2 blocks (2 y columns x 1 pattern)"
[ "$(shape sub/a.dat)" = "3 3" ] || fail "cols: rows per block: $(shape sub/a.dat)"
grep -qx '# latency_p99: workload.pattern=uniform' sub/a.dat || fail "cols: no latency_p99 label"
grep -q transpose sub/a.dat && fail "cols: --where kept transpose rows"
grep -q '^set logscale y' sub/a.gp || fail "cols: no logscale y"
grep -qF "set title 'a \"quoted\" title'" sub/a.gp || fail "cols: title not quoted for gnuplot"
pass "--x, --y, --by, --where, --script-only"

# The look: the key below the plot, outside the data, titled with the --by
# columns, entries the values; each curve its colour, dash and marker.
grep -qx "set key outside below center horizontal title 'workload.pattern'" "$P.gp" ||
    fail "key: not outside below with the --by title: $(grep '^set key' "$P.gp")"
grep -q "title 'transpose'" "$P.gp" || fail "key: entry is not the value alone"
# 24 curves (24 patterns x 2 rates, y spanning three decades): no two share
# colour and dash, nor colour and marker; no curve uses the saturated circle.
{
    echo 'run,workload.pattern,workload.rate,seed,config_hash,offered,latency_mean,saturated'
    for i in $(seq 0 23); do
        echo "$((2 * i)),p$i,0.1,1,00000000000000aa,0.1,$((10 + i)),false"
        echo "$((2 * i + 1)),p$i,0.5,1,00000000000000ab,0.5,$((10000 + i)),true"
    done
} >many.csv
expect_status plot_many 0 "$T" plot many.csv --x offered --script-only -o many.png || finish
curves=$(grep -c 'using 1:2 with linespoints' many.gp)
[ "$curves" = 24 ] || fail "styles: $curves curves in the script, expected 24"
styles() { grep 'using 1:2 with linespoints' many.gp | sed -E "s/.*lc rgb \"([^\"]*)\" dt ([0-9]+) pt ([0-9]+).*/\\1 \\$1/"; }
[ "$(styles '2' | sort -u | wc -l)" = 24 ] || fail "styles: two curves share colour and dash"
[ "$(styles '3' | sort -u | wc -l)" = 24 ] || fail "styles: two curves share colour and marker"
grep 'using 1:2 with linespoints' many.gp | grep -q ' pt 6 ' && fail "styles: a curve uses the saturated circle"
[ "$(grep -c 'pt 6 ps 2.5 lw 1.5 notitle' many.gp)" = 24 ] || fail "saturated: not every curve's saturated point circled"
# more than two decades of y: logarithmic; x offered (measured): linear
grep -qx 'set logscale y' many.gp || fail "log: y spans three decades, no logscale y"
grep -q 'set logscale x' many.gp && fail "log: offered made logarithmic"
expect_status plot_liny 0 "$T" plot many.csv --x offered --no-logy --script-only -o liny.png || finish
grep -q 'set logscale' liny.gp && fail "log: --no-logy left a logscale"
# within two decades: linear (the default experiment's y at most 0.6 load)
expect_status plot_low 0 "$T" plot r/results.csv --where workload.rate=0.05 --x offered \
    --script-only -o low.png || finish
grep -q 'set logscale' low.gp && fail "log: y within two decades made logarithmic"
# an x sweep axis over more than two decades: logarithmic x
sed -e 's/,0\.1,1,/,1,1,/' -e 's/,0\.5,1,/,1000,1,/' many.csv >wide.csv
expect_status plot_logx 0 "$T" plot wide.csv --script-only -o wide.png || finish
grep -qx 'set logscale x' wide.gp || fail "log: workload.rate 1..1000 not logarithmic"
pass "key outside, 24 distinct curves, automatic log scales"

# A text column as x: its values as tics in order of first appearance,
# points at 0, 1, ...
expect_status plot_cat 0 "$T" plot r/results.csv --x workload.pattern --script-only -o cat.png ||
    finish
grep -qxF "set xtics ('uniform' 0, 'transpose' 1)" cat.gp || fail "categorical: $(grep xtics cat.gp)"
grep -qxF 'set xrange [-0.5:1.5]' cat.gp || fail "categorical: no xrange"
[ "$(blocks cat.dat)" = 3 ] || fail "categorical: expected one curve per rate"
awk '!/^#/ && NF && $1 != 0 && $1 != 1 { exit 1 }' cat.dat || fail "categorical: x not 0 or 1"
# the default x without a rate axis: the axis with the most values
{
    echo 'run,network.router,workload.pattern,seed,config_hash,offered,latency_mean,saturated'
    echo '0,ecube,uniform,1,00000000000000aa,0.1,10,false'
    echo '1,ecube,transpose,1,00000000000000ab,0.1,12,false'
    echo '2,ecube,shuffle,1,00000000000000ac,0.1,11,false'
    echo '3,romm,uniform,1,00000000000000ad,0.1,9,false'
} >cat2.csv
expect_status plot_cat2 0 "$T" plot cat2.csv --script-only -o cat2.png || finish
grep -qxF "set xtics ('uniform' 0, 'transpose' 1, 'shuffle' 2)" cat2.gp ||
    fail "default categorical x: $(grep -c xtics cat2.gp)"
pass "categorical x"

# --where on one column twice matches either value; numbers compare by value.
expect_status plot_where2 0 "$T" plot r/results.csv --where workload.rate=0.050 \
    --where workload.rate=0.6 --script-only -o w/w.png || finish
[ "$(shape w/w.dat)" = "2 2" ] || fail "where: rows per block: $(shape w/w.dat)"

# --no-mean-seeds: one point per row; --by '': one curve.
expect_status plot_seeds 0 "$T" plot r/results.csv --no-mean-seeds --script-only -o s/s.png || finish
[ "$(shape s/s.dat)" = "6 6" ] || fail "no-mean-seeds: rows per block: $(shape s/s.dat)"
expect_status plot_one 0 "$T" plot r/results.csv --by '' --script-only -o one/o.png || finish
[ "$(blocks one/o.dat)" = 1 ] || fail "--by '': expected 1 block"
[ "$(shape one/o.dat)" = 6 ] || fail "--by '': rows: $(shape one/o.dat)"
pass "--no-mean-seeds and --by ''"

# Saturated rows are flagged in the data and circled in the picture.
nsat=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "saturated") c = i; next }
                $c == "true" { n++ } END { print n + 0 }' r/results.csv)
dsat=$(awk '!/^#/ && NF && $3 == 1 { n++ } END { print n + 0 }' s/s.dat)
[ "$nsat" = "$dsat" ] || fail "saturated: $dsat flagged points, $nsat saturated rows"
if [ "$nsat" -gt 0 ]; then
    grep -q 'pt 6' s/s.gp || fail "saturated: no open-circle overlay in the script"
    grep -q 'title "saturated"' s/s.gp || fail "saturated: no key entry"
    pass "saturated points marked ($nsat rows)"
else
    echo "note: no saturated run in this experiment; marking not checked"
fi

# Quoted fields.
{
    echo 'run,network.router,workload.pattern,seed,config_hash,offered,latency_mean,saturated'
    echo '0,"romm:k=2,x",uniform,1,00000000000000aa,0.1,10,false'
    echo '1,"romm:k=2,x",transpose,1,00000000000000ab,0.2,"12",true'
    echo '2,"say ""hi""",uniform,1,00000000000000ac,0.1,11,false'
} >q.csv
expect_status plot_quoted 0 "$T" plot q.csv --x offered --by network.router --script-only || finish
Q=plot-latency_mean-vs-offered
[ "$(blocks $Q.dat)" = 2 ] || fail "quoted: expected 2 blocks"
grep -qx '# network.router=romm:k=2,x' $Q.dat || fail "quoted: label of a quoted field"
grep -qx '# network.router=say "hi"' $Q.dat || fail "quoted: label with doubled quotes"
[ "$(shape $Q.dat)" = "2 1" ] || fail "quoted: rows per block: $(shape $Q.dat)"
expect_status plot_quoted_where 0 "$T" plot q.csv --where 'network.router=romm:k=2,x' \
    --x offered --by network.router --script-only -o qw.png || finish
[ "$(shape qw.dat)" = 2 ] || fail "quoted: --where on a quoted value"
pass "quoted CSV fields"

# The picture of `mppnet run` (gnuplot needed: without it none is made).
if [ "$HAVE_GNUPLOT" = 1 ]; then
    expect_status auto_rate 0 "$T" run exp.yaml -o ar -q output.plot=true || finish
    check_png ar/latency.png
    grep -q '^\$mppdata << EOD$' ar/latency.gp || fail "auto: latency.gp does not hold its data"
    grep -qx "set key outside below center horizontal title 'workload.pattern'" ar/latency.gp ||
        fail "auto: key not outside below"
    grep -qF "using 1:(\$3 > 0 ? \$2 : NaN) with points" ar/latency.gp ||
        fail "auto: saturated points not circled"
    grep -qF "set xlabel 'offered load (flits/node/cycle)'" ar/latency.gp || fail "auto: x not offered"
    (cd ar && gnuplot -e "outfile='again.png'" latency.gp) && [ -s ar/again.png ] ||
        fail "auto: latency.gp does not stand alone"
    # no rate axis: the workload's cost against the numeric axis, per the other
    cat >pp.yaml <<'YAML'
mppnet: 1
name: pp
machine: cm5
workload: {type: pingpong, round_trips: 2}
sweep:
  workload.paradigm: [sync, am]
  workload.bytes: [16, 256, 4096]
output: {dir: pp, plot: true}
YAML
    expect_status auto_norate 0 "$T" run pp.yaml -q || finish
    check_png pp/plot.png
    [ -e pp/latency.gp ] && fail "auto: latency.gp without a rate axis"
    grep -qF "set title 'pp: half_round_trip_us vs workload.bytes'" pp/plot.gp ||
        fail "auto: not cost against size: $(grep '^set title' pp/plot.gp)"
    grep -qx 'set logscale x' pp/plot.gp || fail "auto: bytes 16..4096 not logarithmic"
    [ "$(grep -c 'using 1:2 with linespoints' pp/plot.gp)" = 2 ] || fail "auto: not one curve per paradigm"
    pass "the plots of mppnet run"
else
    echo "note: no gnuplot; the plots of mppnet run not checked"
fi

# Without gnuplot on PATH: the script and data, a note, exit 0.
mkdir -p nogp && cp r/results.csv nogp/
rc=0
(PATH=/nonexistent "$MPPNET" plot nogp/results.csv) >nogp.out 2>nogp.err </dev/null || rc=$?
[ "$rc" = 0 ] || fail "no gnuplot: exit status $rc"
[ -s nogp/$(basename "$P").gp ] && [ -s nogp/$(basename "$P").dat ] || fail "no gnuplot: files missing"
[ -e nogp/$(basename "$P").png ] && fail "no gnuplot: a picture appeared"
grep -q 'gnuplot' nogp.err || fail "no gnuplot: no note on stderr"
pass "no gnuplot on PATH"

# Help.
expect_status plot_help 0 "$T" plot --help && grep -q '^usage: mppnet plot' plot_help.out ||
    fail "plot --help"
expect_status plot_help2 0 "$T" help plot && cmp -s plot_help.out plot_help2.out ||
    fail "help plot differs from plot --help"
grep -Eq '^  plot ' <("$MPPNET" --help) || fail "--help does not list plot"

# Bad input: exit 2, "mppnet: plot: ..." on stderr, nothing on stdout, no
# file written. Each case runs in a fresh directory holding results.csv.
bad() {
    local name=$1 pat=$2
    shift 2
    local d=$T/bad_$name
    mkdir -p "$d" && cp r/results.csv q.csv "$d/"
    echo 'mppnet: 1' >"$d/exp.yaml"
    local before after
    before=$(cd "$d" && find . | sort)
    expect_status "bad_$name" 2 "$d" plot "$@" || return
    grep -q '^mppnet: plot: ' "bad_$name.err" || fail "bad $name: no 'mppnet: plot:' message"
    grep -Eq -- "$pat" "bad_$name.err" || fail "bad $name: stderr does not match /$pat/: $(cat "bad_$name.err")"
    [ -s "bad_$name.out" ] && fail "bad $name: output on stdout"
    after=$(cd "$d" && find . | sort)
    [ "$before" = "$after" ] || fail "bad $name: files were written: $after"
}
bad missing 'cannot read nosuch.csv' nosuch.csv
bad not_csv "not a results.csv" exp.yaml
bad no_file 'missing the results file'
bad unknown_option "unknown option '--frob'" results.csv --frob
bad unknown_y "unknown column 'nosuch'.*valid columns: run, workload.pattern, workload.rate" \
    results.csv --y nosuch
bad unknown_by "unknown column 'nope'" results.csv --by workload.pattern,nope
bad unknown_where "unknown column 'nope'" results.csv --where nope=1
bad text_y "--y column 'saturated' is not numeric" results.csv --y saturated
bad where_none "--where workload.rate=0.3 matches no row" results.csv --where workload.rate=0.3
bad where_form "COL=VALUE" results.csv --where workload.rate
bad where_and "no row matches every --where" q.csv --where offered=0.2 --where latency_mean=11
bad no_value "needs a value" results.csv --y
pass "bad input"

finish
