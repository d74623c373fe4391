# test/cli/com.sh — `mppnet com gen|info|convert`: generated files have d
# non-zeros per row and column, sequences carry step comments, the same
# seed gives the same file, convert round-trips plain <-> .gz, info prints
# one line (or JSON object) per matrix; bad files and bad usage give exit
# status 2 with "mppnet: FILE:LINE: ..." and write nothing.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# gen: a 16 x 16 matrix, 3 non-zeros per row and column.
expect_status gen 0 "$T" com gen --gen random-regular --n 16 --d 3 --units 4 --msg-unit 8 \
    --seed 7 -o a.mtx || finish
head -1 a.mtx | grep -qx '%%MatrixMarket matrix coordinate integer general' ||
    fail "gen: no Matrix Market header"
grep -qx '16 16 48' a.mtx || fail "gen: size line is not '16 16 48'"
grep -qx '% step=0 msg_unit=8' a.mtx || fail "gen: no step comment for msg_unit 8"
awk '!/^%/ && NR > 1 && n++ { r[$1]++; c[$2]++; if ($1 == $2 || $3 != 4) bad = 1 }
     END { for (i = 1; i <= 16; i++) if (r[i] != 3 || c[i] != 3) bad = 1; exit bad }' a.mtx ||
    fail "gen: rows/columns do not all have 3 entries of 4 units, or a diagonal entry"
[ -s "$T/gen.out" ] && fail "gen: output on stdout"
expect_status gen_again 0 "$T" com gen --gen random-regular --n 16 --d 3 --units 4 --msg-unit 8 \
    --seed 7 -o a2.mtx || finish
cmp -s a.mtx a2.mtx || fail "gen: the same seed gave a different file"
expect_status gen_seed 0 "$T" com gen --gen random-regular --n 16 --d 3 --units 4 --msg-unit 8 \
    --seed 8 -o a3.mtx || finish
cmp -s a.mtx a3.mtx && fail "gen: another seed gave the same file"
pass "com gen random-regular"

# A sequence of 3 non-uniform matrices, gzip-compressed.
expect_status gen_seq 0 "$T" com gen --gen random-nonuniform --n 32 --d 5 --steps 3 \
    -o s.mtx.gz || finish
[ "$(head -c 2 s.mtx.gz | od -An -tx1 | tr -d ' ')" = 1f8b ] || fail "gen: s.mtx.gz is not gzip"
[ "$(gzip -dc s.mtx.gz | grep -c '^% step=')" = 3 ] || fail "gen: expected 3 step comments"
gzip -dc s.mtx.gz | awk '!/^%/ && !($1 == 32 && $2 == 32) { if ($3 < 1 || $3 > 32) exit 1 }' ||
    fail "gen: a non-uniform size outside 1..32"
ls -a | grep -q '\.tmp' && fail "gen: temporary files left"
pass "com gen random-nonuniform --steps 3 (.gz)"

# info: one line per matrix; --json: an array of 3 objects.
expect_status info 0 "$T" com info s.mtx.gz || finish
[ "$(wc -l <info.out)" = 3 ] || fail "info: expected 3 lines: $(cat info.out)"
grep -q '^step=1 n=32 nnz=160 .*max_degree=5 sent_max=5 sent_min=5 sent_avg=5 ' info.out ||
    fail "info: line of step 1: $(sed -n 2p info.out)"
expect_status info_a 0 "$T" com info a.mtx || finish
grep -q 'units_max=4 units_min=4 units_avg=4 bytes_max=32 bytes_min=32 bytes_avg=32 total_bytes=1536' \
    info_a.out || fail "info: lengths of a.mtx: $(cat info_a.out)"
expect_status info_json 0 "$T" com info s.mtx.gz --json || finish
[ "$(grep -c '"step": ' info_json.out)" = 3 ] || fail "info --json: expected 3 objects"
head -1 info_json.out | grep -qx '\[' || fail "info --json: not an array"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d) == 3 and d[2]["n"] == 32' \
        info_json.out || fail "info --json: not valid JSON"
fi
pass "com info"

# convert: .gz -> plain -> .gz gives the same matrices.
expect_status conv1 0 "$T" com convert s.mtx.gz s.mtx || finish
gzip -dc s.mtx.gz | cmp -s - s.mtx || fail "convert: plain text differs from the .gz content"
expect_status conv2 0 "$T" com convert s.mtx s2.mtx.gz || finish
cmp -s s.mtx.gz s2.mtx.gz || fail "convert: .gz -> plain -> .gz changed the file"
pass "com convert"

# Help.
expect_status help 0 "$T" com --help && grep -q '^usage: mppnet com' help.out || fail "com --help"
expect_status help_gen 0 "$T" com gen --help && grep -q '^usage: mppnet com gen' help_gen.out ||
    fail "com gen --help"
expect_status help_cmd 0 "$T" help com && cmp -s help.out help_cmd.out || fail "help com"
grep -Eq '^  com ' <("$MPPNET" --help) || fail "--help does not list com"

# bad NAME PATTERN ARGS...: run mppnet ARGS in $T/NAME (created when
# missing); demand exit status 2, stderr matching PATTERN, nothing on
# stdout and no file created or changed.
bad() {
    local name=$1 pat=$2
    shift 2
    local d=$T/$name before after
    mkdir -p "$d"
    before=$(cd "$d" && ls -lA --time-style=+%s . | sort)
    expect_status "$name" 2 "$d" "$@" || return
    grep -Eq -- "$pat" "$T/$name.err" || fail "$name: stderr does not match /$pat/: $(cat "$T/$name.err")"
    [ -s "$T/$name.out" ] && fail "$name: output on stdout"
    after=$(cd "$d" && ls -lA --time-style=+%s . | sort)
    [ "$before" = "$after" ] || fail "$name: files were written: $after"
}

# Bad files: exit 2, "mppnet: FILE:LINE: ...".
H='%%MatrixMarket matrix coordinate integer general'
bad_file() {
    local name=$1 pat=$2 text=$3
    mkdir -p "$T/$name"
    printf '%s\n' "$text" >"$T/$name/in.mtx"
    bad "$name" "$pat" com info in.mtx
}
bad_file bad_header '^mppnet: in\.mtx:1: field .real. is not supported' \
    "$(printf '%%%%MatrixMarket matrix coordinate real general\n3 3 0\n')"
bad_file bad_diag '^mppnet: in\.mtx:4: diagonal entry \(2, 2\)' "$(printf '%s\n3 3 2\n1 2 1\n2 2 1\n' "$H")"
bad_file bad_trunc '^mppnet: in\.mtx:3: the file ends after 1 of the 2 entries' \
    "$(printf '%s\n3 3 2\n1 2 1\n' "$H")"
bad_file bad_dup '^mppnet: in\.mtx:4: duplicate entry \(1, 2\), first given on line 3' \
    "$(printf '%s\n3 3 2\n1 2 1\n1 2 5\n' "$H")"
bad_file bad_value "^mppnet: in\.mtx:3: value 'x' is not an integer" "$(printf '%s\n3 3 1\n1 2 x\n' "$H")"
bad_file bad_extra '^mppnet: in\.mtx:4: more entries than the 1 declared on line 2' \
    "$(printf '%s\n3 3 1\n1 2 1\n2 3 1\n' "$H")"
# A truncated gzip file; convert must not create its output.
mkdir -p "$T/bad_gz"
head -c 100 s.mtx.gz >"$T/bad_gz/in.mtx.gz"
bad bad_gz '^mppnet: in\.mtx\.gz:1: truncated gzip data' com convert in.mtx.gz out.mtx
bad bad_missing '^mppnet: cannot read nosuch\.mtx' com info nosuch.mtx
pass "bad files"

# Bad usage: exit 2, nothing written.
bad use_d "--d needs a whole number from 0 to 15, not '16'" \
    com gen --gen random-regular --n 16 --d 16 -o u.mtx
bad use_gen "unknown generator 'nope'" com gen --gen nope --n 4 --d 1 -o u.mtx
bad use_out "missing the output file" com gen --gen random-regular --n 4 --d 1
bad use_units "--units applies to random-regular only" \
    com gen --gen random-nonuniform --n 4 --d 1 --units 2 -o u.mtx
bad use_sub "unknown command 'frob'" com frob
bad use_opt "unknown option '--frob'" com info a.mtx --frob
bad use_none "usage: mppnet com" com
pass "bad usage"

finish
