#!/usr/bin/env bash
# test/mpi_pairs.sh — does a replay's traffic matrix equal what an MPI
# example program says it sent? (docs/capture.md, docs/testing.md)
#
#   mpi_pairs.sh STDOUT PAIRS.CSV     compare
#   mpi_pairs.sh --self-test          check this script on hand-made inputs
#
# STDOUT is the program's standard output under mpirun: its lines
#     mppnet-pair SRC DST MESSAGES BYTES
# (examples/mpi/pairs.h; the ranks' lines in any order) are read, every
# other line is ignored. PAIRS.CSV holds src,dst,messages,bytes per line,
# with an optional header line (src,dst,messages,bytes); rows with 0
# messages are ignored. The two must hold the same (src, dst) pairs with
# the same messages and bytes, exactly: no tolerance, order free.
# Exit 0 when they do; 1 when they differ, with one line per difference
# (at most 20, then a count); 2 for bad input (a file missing, a malformed
# line or row, a pair given twice), with FILE:LINE and what was expected.
set -u

# norm KIND FILE: print "src dst messages bytes" per pair, sorted; exit 2
# with a message on bad input.
norm() {
    local kind=$1 file=$2
    if [ ! -r "$file" ] || [ -d "$file" ]; then
        echo "mpi_pairs.sh: $file: cannot be read" >&2
        return 2
    fi
    LC_ALL=C awk -v kind="$kind" -v file="$file" '
        function bad(what) {
            printf "mpi_pairs.sh: %s:%d: %s, got \"%s\"\n", file, NR, what, $0 > "/dev/stderr"
            failed = 1; exit 2
        }
        function num(s) { return s ~ /^[0-9]+$/ && length(s) <= 18 }
        function add(s, d, m, b,   k) {
            k = (s + 0) " " (d + 0)
            if (k in seen) bad("the pair " s " -> " d " is given twice")
            seen[k] = 1
            if (m + 0 > 0) print (s + 0), (d + 0), (m + 0), (b + 0)
        }
        kind == "out" {
            sub(/\r$/, "")
            if ($1 != "mppnet-pair") next
            if (NF != 5 || !num($2) || !num($3) || !num($4) || !num($5) || $4 + 0 == 0)
                bad("expected mppnet-pair SRC DST MESSAGES BYTES (unsigned integers, MESSAGES > 0)")
            add($2, $3, $4, $5)
            next
        }
        kind == "csv" {
            sub(/\r$/, "")
            if ($0 ~ /^[ \t]*$/) next
            n = split($0, f, ",")
            for (i = 1; i <= n; i++) gsub(/^[ \t]+|[ \t]+$/, "", f[i])
            if (NR == 1 && f[1] == "src") {
                if (n != 4 || f[2] != "dst" || f[3] != "messages" || f[4] != "bytes")
                    bad("expected the header src,dst,messages,bytes")
                next
            }
            if (n != 4 || !num(f[1]) || !num(f[2]) || !num(f[3]) || !num(f[4]))
                bad("expected src,dst,messages,bytes (unsigned integers)")
            add(f[1], f[2], f[3], f[4])
        }
        END { if (failed) exit 2 }
    ' "$file" | LC_ALL=C sort -k1,1n -k2,2n
    return "${PIPESTATUS[0]}"
}

# compare STDOUT CSV: the exit statuses above.
compare() {
    local out csv rc
    out=$(norm out "$1") || return 2
    csv=$(norm csv "$2") || return 2
    if [ -z "$out" ]; then
        echo "mpi_pairs.sh: $1: no mppnet-pair line (not the output of an example program?)" >&2
        return 2
    fi
    # join on "src dst": a pair on one side only, or with other counts
    LC_ALL=C awk -v A="$1" -v B="$2" '
        FNR == NR { k = $1 " " $2; p[k] = $3 " " $4; next }
        { k = $1 " " $2; c[k] = $3 " " $4 }
        END {
            n = 0
            for (k in p) {
                if (!(k in c)) line[n++] = sprintf("pair %s: the program sent %s (messages bytes), the replay has none", k, p[k])
                else if (p[k] != c[k]) line[n++] = sprintf("pair %s: the program sent %s, the replay has %s (messages bytes)", k, p[k], c[k])
            }
            for (k in c)
                if (!(k in p)) line[n++] = sprintf("pair %s: the replay has %s (messages bytes), the program sent nothing", k, c[k])
            if (n == 0) exit 0
            # a fixed order: sort by the text
            for (i = 1; i < n; i++) for (j = i; j > 0 && line[j - 1] > line[j]; j--) { t = line[j]; line[j] = line[j - 1]; line[j - 1] = t }
            for (i = 0; i < n && i < 20; i++) print "mpi_pairs.sh: " line[i]
            if (n > 20) print "mpi_pairs.sh: ... and " (n - 20) " more differences"
            printf "mpi_pairs.sh: %s and %s differ in %d pairs\n", A, B, n
            exit 1
        }' <(printf '%s\n' "$out") <(printf '%s\n' "$csv")
    rc=$?
    [ "$rc" -eq 0 ] && echo "mpi_pairs.sh: $(printf '%s\n' "$out" | wc -l) pairs, the same in both"
    return "$rc"
}

selftest() {
    local tmp fails=0 got rc
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    # expect WANT_RC PATTERN ARGS...: run compare, check status and message
    expect() {
        local want=$1 pat=$2
        shift 2
        got=$(compare "$@" 2>&1)
        rc=$?
        if [ "$rc" -ne "$want" ] || ! grep -q -- "$pat" <<<"$got"; then
            echo "FAIL: compare $* -> $rc (want $want), output:" >&2
            printf '%s\n' "$got" >&2
            fails=$((fails + 1))
        fi
    }
    # 1. a 3-rank program's output, ranks interleaved, other lines among
    # them, and the same matrix as a CSV with a header, another order, a
    # zero row and CRLF line ends
    printf '%s\n' 'stencil2d: step 10 update 1e-3' 'mppnet-pair 2 0 5 400' \
        'mppnet-pair 0 1 10 8000' 'mppnet-pair 1 0 10 8000' 'mppnet-pair 0 2 5 400' \
        'mppnet-pair 1 2 3 24' >"$tmp/a.out"
    printf 'src,dst,messages,bytes\r\n1,2,3,24\r\n0,2,5,400\r\n0,1,10,8000\r\n2,1,0,0\r\n1,0,10,8000\r\n2,0,5,400\r\n' >"$tmp/a.csv"
    expect 0 "5 pairs, the same in both" "$tmp/a.out" "$tmp/a.csv"
    # 2. the same two with one change each: bytes, a missing pair, an extra
    # pair, a self pair in the replay
    sed 's/^0,1,10,8000/0,1,10,8008/; /^1,2,3,24/d' "$tmp/a.csv" >"$tmp/b.csv"
    printf '2,2,1,16\n3,0,1,8\n' >>"$tmp/b.csv"
    expect 1 "pair 0 1: the program sent 10 8000, the replay has 10 8008" "$tmp/a.out" "$tmp/b.csv"
    expect 1 "pair 1 2: the program sent 3 24 (messages bytes), the replay has none" "$tmp/a.out" "$tmp/b.csv"
    expect 1 "pair 2 2: the replay has 1 16 (messages bytes), the program sent nothing" "$tmp/a.out" "$tmp/b.csv"
    expect 1 "differ in 4 pairs" "$tmp/a.out" "$tmp/b.csv"
    # a message count off by one, bytes equal
    sed 's/^mppnet-pair 2 0 5 400/mppnet-pair 2 0 6 400/' "$tmp/a.out" >"$tmp/c.out"
    expect 1 "pair 2 0: the program sent 6 400, the replay has 5 400" "$tmp/c.out" "$tmp/a.csv"
    # 3. bad input: exit 2 naming the file and line
    printf 'mppnet-pair 0 1 x 8\n' >"$tmp/bad1.out"
    expect 2 "bad1.out:1: expected mppnet-pair SRC DST MESSAGES BYTES" "$tmp/bad1.out" "$tmp/a.csv"
    printf 'mppnet-pair 0 1 1 8\nmppnet-pair 0 1 1 8\n' >"$tmp/bad2.out"
    expect 2 "bad2.out:2: the pair 0 -> 1 is given twice" "$tmp/bad2.out" "$tmp/a.csv"
    printf 'src,dst,messages,bytes\n0,1,10\n' >"$tmp/bad3.csv"
    expect 2 "bad3.csv:2: expected src,dst,messages,bytes" "$tmp/a.out" "$tmp/bad3.csv"
    printf 'src,dst,msgs,bytes\n' >"$tmp/bad4.csv"
    expect 2 "bad4.csv:1: expected the header" "$tmp/a.out" "$tmp/bad4.csv"
    printf 'nothing here\n' >"$tmp/none.out"
    expect 2 "no mppnet-pair line" "$tmp/none.out" "$tmp/a.csv"
    expect 2 "cannot be read" "$tmp/missing.out" "$tmp/a.csv"
    if [ "$fails" -ne 0 ]; then
        echo "mpi_pairs.sh: self-test: $fails checks failed" >&2
        return 1
    fi
    echo "mpi_pairs.sh: self-test: all checks passed"
}

if [ "$#" -eq 1 ] && [ "$1" = "--self-test" ]; then
    selftest
    exit $?
fi
if [ "$#" -ne 2 ]; then
    echo "usage: mpi_pairs.sh STDOUT PAIRS.CSV | mpi_pairs.sh --self-test" >&2
    exit 2
fi
compare "$1" "$2"
exit $?
