#!/usr/bin/env bash
# test/layering.sh — the layers of docs/architecture.md, enforced.
#
#   layering.sh SRCDIR LAYER=LIBRARY ...
#
# 1. Symbols: for every library, every undefined symbol (nm -u) must be
#    defined in a library of the same or a lower layer, or in none of ours
#    (the C library, libyaml, zlib, METIS). A symbol defined only in a higher
#    layer is a call upward: fail, naming both.
# 2. Includes: every #include "..." of every source file under the layered
#    folders must name a header of a folder that the table "What each folder
#    may include" of docs/architecture.md allows for the file's folder.
# Exit 0 when both hold, 1 with one line per violation otherwise.
set -u
SRC=$1
shift
fails=0
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

command -v nm >/dev/null 2>&1 || { echo "nm not found: skipped" >&2; exit 77; }

# --- 1. symbols -------------------------------------------------------------
T=$(mktemp -d "${TMPDIR:-/tmp}/mpp-layering.XXXXXX")
trap 'rm -rf "$T"' EXIT
: >"$T/defs"
for arg in "$@"; do
    layer=${arg%%=*}
    lib=${arg#*=}
    [ -f "$lib" ] || { fail "no library $lib"; continue; }
    name=$(basename "$lib")
    # defined external symbols: "symbol layer library"
    nm -g --defined-only "$lib" 2>/dev/null |
        awk -v l="$layer" -v n="$name" 'NF >= 3 { print $3, l, n }' >>"$T/defs"
    nm -u "$lib" 2>/dev/null | awk -v l="$layer" -v n="$name" 'NF >= 2 { print $2, l, n }' \
        >>"$T/undefs"
done
# for every undefined symbol of a library: the lowest layer defining it
awk '
    NR == FNR { if (!($1 in low) || $2 < low[$1]) { low[$1] = $2; where[$1] = $3 } ; next }
    ($1 in low) && low[$1] > $2 {
        printf "%s (layer %d) needs %s, defined only in %s (layer %d)\n", $3, $2, $1, where[$1], low[$1]
    }
' "$T/defs" "$T/undefs" | sort -u >"$T/up"
while IFS= read -r line; do fail "$line"; done <"$T/up"

# --- 2. includes -------------------------------------------------------------
DOC=$SRC/docs/architecture.md
[ -f "$DOC" ] || { fail "no $DOC"; exit 1; }
# "| `core` | engine | `core/base`, `core` |" -> "core core/base core"
awk -F'|' '
    /^## What each folder may include/ { on = 1; next }
    /^## / { on = 0 }
    on && $2 ~ /`/ {
        from = $2; gsub(/[` ]/, "", from)
        to = $4; gsub(/[` ]/, "", to); gsub(/,/, " ", to)
        print from, to
    }
' "$DOC" >"$T/matrix"
[ -s "$T/matrix" ] || fail "docs/architecture.md has no include matrix"

# The folder (as the matrix names it) of a path relative to SRC.
folder_of() {
    case $1 in
    core/base/*) echo core/base ;;
    core/config/*) echo core/config ;;
    core/cli/*) echo core/cli ;;
    core/*) echo core ;;
    topologies/*) echo topologies ;;
    routers/*) echo routers ;;
    traces/*) echo traces ;;
    algorithms/*) echo algorithms ;;
    *) echo "" ;;
    esac
}

cd "$SRC" || exit 1
nfiles=0
for f in $(find core topologies routers traces algorithms -name '*.[ch]' | sort); do
    from=$(folder_of "$f")
    allowed=$(awk -v f="$from" '$1 == f { $1 = ""; print }' "$T/matrix")
    if [ -z "$allowed" ]; then
        fail "$f: folder $from is not in the matrix of docs/architecture.md"
        continue
    fi
    nfiles=$((nfiles + 1))
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
        inc=$(printf '%s\n' "$line" | sed -E 's/^([0-9]+):.*"([^"]+)".*/\2/')
        num=${line%%:*}
        to=$(folder_of "$inc")
        if [ -z "$to" ]; then
            echo "$f:$num: includes \"$inc\", which is not a root-relative path of ours"
            continue
        fi
        ok=0
        for a in $allowed; do [ "$a" = "$to" ] && ok=1; done
        [ $ok = 1 ] || echo "$f:$num: includes \"$inc\" ($to), but $from may include only: $allowed"
    done
done >"$T/inc"
while IFS= read -r line; do fail "$line"; done <"$T/inc"

if [ $fails -gt 0 ]; then
    echo "$fails layering violation(s) (see docs/architecture.md)" >&2
    exit 1
fi
echo "layering: $# libraries, $nfiles files: no call into a higher layer, every include allowed"
exit 0
