# test/cli/injection.sh — nothing read from a file or the command line is
# ever executed. Gnuplot expands backquotes (and system()) inside double-
# quoted strings; every string mppnet writes into a gnuplot script is data.
# Plants commands in an experiment's name (refused: the name's character
# set), in plot titles and labels, and in a results.csv cell that becomes a curve
# label; runs gnuplot for real when it is installed; checks that no planted
# command ran (no file appeared) and that the scripts hold the text as data.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1

# What a planted command would create.
planted() { find "$T" -name 'PWNED*' | sort; }

# 1. The experiment's name (the title of latency.png, and the default
#    folder's name) may hold only letters, digits and . _ - + /: a name
#    with backquotes and system() is refused, and nothing runs.
cat >exp.yaml <<'YAML'
mppnet: 1
name: "x`touch PWNED1`y'; system(\"touch PWNED2\"); z"
network: {topology: "mesh:4x4", buffer_flits: 4}
workload: {packet_flits: 4, warmup: 100, measure: 500}
sweep:
  workload.rate: [0.05, 0.1]
output: {dir: out1, plot: true}
YAML
expect_status name 2 "$T" run exp.yaml --quiet || finish
[ -z "$(planted)" ] || fail "experiment name: a planted command ran: $(planted)"
[ ! -e out1 ] || fail "experiment name: refused, yet out1 was made"
sed -i 's/^name: .*/name: "x-y.z_1+2"/' exp.yaml
expect_status name 0 "$T" run exp.yaml --quiet || finish
grep -q "^set title 'x-y.z_1+2: " out1/latency.gp ||
    fail "experiment name: not a single-quoted literal: $(grep '^set title' out1/latency.gp)"
[ $have_gnuplot = 0 ] || [ -s out1/latency.png ] || fail "experiment name: gnuplot drew nothing"
pass "experiment name with backquotes and system() is refused; a plain one is a quoted title"

# 2. Plot title and axis labels; a newline must not start a new command.
nl_title=$(printf 'a`touch PWNED3`\nsystem("touch PWNED4")')
expect_status title 0 "$T" plot out1/results.csv --x workload.rate --title "$nl_title" \
    --xlabel "b\`touch PWNED5\`" --ylabel "system('touch PWNED6')" -o t.png || finish
[ -z "$(planted)" ] || fail "plot title: a planted command ran: $(planted)"
[ "$(grep -c 'PWNED' t.gp)" = 3 ] || fail "plot title: expected the 3 texts on 3 lines of t.gp"
[ $have_gnuplot = 0 ] || [ -s t.png ] || fail "plot title: gnuplot drew nothing"
pass "plot --title/--xlabel/--ylabel with backquotes, newlines, system() are data"

# 3. A crafted results.csv: a sweep-axis cell becomes a curve label.
{
    echo 'run,workload.pattern,seed,config_hash,offered,latency_mean,saturated'
    echo '0,"u`touch PWNED7`",1,0,0.1,10,false'
    echo '1,"u`touch PWNED7`",1,0,0.2,12,false'
    echo "2,\"v'; system(\"\"touch PWNED8\"\"); '\",1,0,0.1,11,false"
    echo "3,\"v'; system(\"\"touch PWNED8\"\"); '\",1,0,0.2,14,false"
} >crafted.csv
expect_status cell 0 "$T" plot crafted.csv --x offered --by workload.pattern -o c.png || finish
[ -z "$(planted)" ] || fail "csv cell: a planted command ran: $(planted)"
grep -q 'PWNED7' c.gp && grep -q 'PWNED8' c.gp || fail "csv cell: labels missing from c.gp"
[ $have_gnuplot = 0 ] || [ -s c.png ] || fail "csv cell: gnuplot drew nothing"
pass "results.csv cells with backquotes and system() are data"

[ $have_gnuplot = 1 ] || echo "note: gnuplot not installed; scripts checked, not run"
finish
