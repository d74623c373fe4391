# test/cli/bcast.sh — `mppnet bcast show`: the exact drawing of 10x10 DR
# s=30, the JSON form, --ideal (with and without --dist), help, and bad
# input: exit status 2, one line "mppnet: bcast show: ..." on stderr,
# nothing on stdout.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# The drawing of DR with 30 sources on 10x10: diagonals 0, 3 and 6.
expect_status dr 0 "$T" bcast show --mesh 10x10 --dist DR --s 30 || finish
cat >want_dr.txt <<'TXT'
mesh=10x10 dist=DR s=30 max_r=3 max_c=3
S . . S . . S . . .
. S . . S . . S . .
. . S . . S . . S .
. . . S . . S . . S
S . . . S . . S . .
. S . . . S . . S .
. . S . . . S . . S
S . . S . . . S . .
. S . . S . . . S .
. . S . . S . . . S
TXT
cmp -s want_dr.txt dr.out || { fail "show DR: the drawing differs:"; diff want_dr.txt dr.out >&2; }
[ -s dr.err ] && fail "show DR: output on stderr: $(cat dr.err)"
pass "bcast show 10x10 DR s=30"

# Options in other forms give the same text (getopt_long: --opt=V, any order).
expect_status dr2 0 "$T" bcast show --s=30 --dist=DR --mesh=10x10 --seed 9 || finish
cmp -s dr.out dr2.out || fail "show DR: --opt=V and another order differ"

# --json: one object, the ids ascending.
expect_status json 0 "$T" bcast show --mesh 10x10 --dist DR --s 30 --json || finish
want='{"rows":10,"cols":10,"s":30,"dist":"DR","sources":[0,3,6,11,14,17,22,25,28,33,36,39,40,44,47,51,55,58,62,66,69,70,73,77,81,84,88,92,95,99]}'
[ "$(cat json.out)" = "$want" ] || fail "show --json: $(cat json.out)"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["rows"] == 10 and len(d["sources"]) == 30' \
        json.out || fail "show --json: not valid JSON"
fi
pass "bcast show --json"

# --ideal alone: the ideal distribution of br_xy_source, rows 0 and 6.
expect_status ideal 0 "$T" bcast show --mesh 10x10 --s 20 --ideal br_xy_source || finish
cat >want_ideal.txt <<'TXT'
mesh=10x10 dist=ideal_xy s=20 max_r=10 max_c=2
S S S S S S S S S S
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
S S S S S S S S S S
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
TXT
cmp -s want_ideal.txt ideal.out || { fail "show --ideal: differs:"; diff want_ideal.txt ideal.out >&2; }
# --dist and --ideal: the distribution, a blank line, the ideal one.
expect_status both 0 "$T" bcast show --mesh 10x10 --dist R --s 20 --ideal br_xy_source || finish
{ "$MPPNET" bcast show --mesh 10x10 --dist R --s 20; echo; cat want_ideal.txt; } >want_both.txt
cmp -s want_both.txt both.out || { fail "show --dist --ideal: differs:"; diff want_both.txt both.out >&2; }
head -1 both.out | grep -qx 'mesh=10x10 dist=R s=20 max_r=10 max_c=2' || fail "show R: $(head -1 both.out)"
sed -n 7p both.out | grep -qx 'S S S S S S S S S S' || fail "show R s=20: row 5 is not a source row"
# br_lin, JSON, with and without --dist.
expect_status lin 0 "$T" bcast show --mesh 4x8 --s 8 --ideal br_lin --json || finish
[ "$(cat lin.out)" = '{"rows":4,"cols":8,"s":8,"dist":"ideal_lin","sources":[0,1,12,13,20,21,24,25]}' ] ||
    fail "show --ideal br_lin --json: $(cat lin.out)"
expect_status lin2 0 "$T" bcast show --mesh 4x8 --s 8 --dist E --ideal br_lin --json || finish
[ "$(cat lin2.out)" = '{"rows":4,"cols":8,"s":8,"dist":"E","sources":[0,4,8,12,16,20,24,28],"ideal":"br_lin","ideal_sources":[0,1,12,13,20,21,24,25]}' ] ||
    fail "show --dist E --ideal br_lin --json: $(cat lin2.out)"
pass "bcast show --ideal"

# random: a function of the seed.
expect_status rnd1 0 "$T" bcast show --mesh 8x8 --dist random --s 10 --seed 3 --json || finish
expect_status rnd2 0 "$T" bcast show --mesh 8x8 --dist random --s 10 --seed 3 --json || finish
expect_status rnd3 0 "$T" bcast show --mesh 8x8 --dist random --s 10 --seed 4 --json || finish
cmp -s rnd1.out rnd2.out || fail "random: the same seed gave other sources"
cmp -s rnd1.out rnd3.out && fail "random: another seed gave the same sources"
expect_status list 0 "$T" bcast show --mesh 2x3 --dist list:5,0 --s 2 || finish
[ "$(cat list.out)" = "$(printf 'mesh=2x3 dist=list:5,0 s=2 max_r=1 max_c=1\nS . .\n. . S')" ] ||
    fail "show list: $(cat list.out)"
pass "bcast show random and list"

# Help.
expect_status help 0 "$T" bcast --help && grep -q '^usage: mppnet bcast show' help.out ||
    fail "bcast --help"
expect_status help_show 0 "$T" bcast show --help &&
    grep -q '^usage: mppnet bcast show --mesh' help_show.out || fail "bcast show --help"
expect_status help_cmd 0 "$T" help bcast && cmp -s help.out help_cmd.out || fail "help bcast"
grep -Eq '^  bcast show ' <("$MPPNET" --help) || fail "--help does not list bcast show"

# bad NAME PATTERN ARGS...: exit status 2, ONE line on stderr matching
# PATTERN, nothing on stdout.
bad() {
    local name=$1 pat=$2
    shift 2
    expect_status "$name" 2 "$T" "$@" || return
    grep -Eq -- "$pat" "$name.err" || fail "$name: stderr does not match /$pat/: $(cat "$name.err")"
    [ "$(wc -l <"$name.err")" = 1 ] || fail "$name: not one line on stderr: $(cat "$name.err")"
    [ -s "$name.out" ] && fail "$name: output on stdout"
    pass "$name: $(cat "$name.err")"
}
S='bcast show --mesh 10x10'
bad s_big '^mppnet: bcast show: distribution DR: s = 101 sources on a 10 x 10 mesh \(100 processors\)$' \
    $S --dist DR --s 101
bad s_zero '^mppnet: bcast show: distribution R: s = 0 sources$' $S --dist R --s 0
bad s_huge '^mppnet: bcast show: --s needs a whole number from 0 to 4294967295, not' \
    $S --dist R --s 99999999999
bad s_text '^mppnet: bcast show: --s needs a whole number' $S --dist R --s 3x
bad block '^mppnet: bcast show: distribution B_3_4 holds 12 sources, not 11$' $S --dist B_3_4 --s 11
bad block_big '^mppnet: bcast show: distribution B_11_1 does not fit on a 10 x 10 mesh$' \
    $S --dist B_11_1 --s 11
bad list_off '^mppnet: bcast show: distribution list: processor 100 is not on the 10 x 10 mesh$' \
    $S --dist list:1,100 --s 2
bad list_len '^mppnet: bcast show: distribution list: 2 processors listed, not s = 3$' \
    $S --dist list:1,2 --s 3
bad list_dup '^mppnet: bcast show: distribution list: processor 2 is listed twice$' \
    $S --dist list:2,1,2 --s 3
bad unknown "^mppnet: bcast show: unknown distribution 'XY', valid: R, C, DR, DL, E, cross, B_i_j, random, list:ID,ID,\.\.\., ideal_xy, ideal_lin$" \
    $S --dist XY --s 3
bad mesh '^mppnet: bcast show: --mesh needs ROWSxCOLS such as 10x10, not .10.$' \
    bcast show --mesh 10 --dist R --s 3
bad mesh0 '^mppnet: bcast show: --mesh needs ROWSxCOLS such as 10x10, not .0x5.$' \
    bcast show --mesh 0x5 --dist R --s 3
bad mesh_big '^mppnet: bcast show: --mesh 2048x1024 has more than 1048576 processors$' \
    bcast show --mesh 2048x1024 --dist R --s 3
bad ideal "^mppnet: bcast show: unknown --ideal 'br_xy', valid: br_xy_source, br_lin$" \
    $S --dist R --s 3 --ideal br_xy
bad ideal_s '^mppnet: bcast show: distribution ideal_lin: s = 0 sources$' \
    $S --s 0 --ideal br_lin
bad seed '^mppnet: bcast show: --seed needs a whole number' $S --dist random --s 3 --seed -1

# Usage errors of the parser: exit 2, nothing on stdout.
for args in "bcast" "bcast nope" "bcast show --mesh 10x10 --s 3" "bcast show --dist R --s 3" \
    "bcast show --mesh 10x10 --dist R" "bcast show --mesh 10x10 --dist R --s 3 extra" \
    "bcast show --mesh 10x10 --dist R --s 3 --bogus"; do
    # shellcheck disable=SC2086
    expect_status usage 2 "$T" $args || continue
    [ -s usage.out ] && fail "'$args': output on stdout"
    grep -q '^mppnet: \|^usage: mppnet bcast' usage.err || fail "'$args': $(cat usage.err)"
done
pass "bcast usage errors"
finish
