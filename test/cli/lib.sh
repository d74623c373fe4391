# test/cli/lib.sh — helpers sourced by the command-line tests (not a test).
#
# Each test is run by meson as `bash test/cli/X.sh PATH_TO_MPPNET SRCDIR`
# and exits 0 (pass), 1 (fail) or 77 (skip). Everything happens in a
# temporary directory that is removed on exit.

set -u

MPPNET=${1:?usage: bash X.sh PATH_TO_MPPNET SRCDIR}
SRCDIR=${2:?usage: bash X.sh PATH_TO_MPPNET SRCDIR}
case $MPPNET in /*) ;; *) MPPNET=$PWD/$MPPNET ;; esac
case $SRCDIR in /*) ;; *) SRCDIR=$PWD/$SRCDIR ;; esac
if [ ! -x "$MPPNET" ]; then
    echo "FAIL: no executable mppnet at $MPPNET" >&2
    exit 1
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/mppnet-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
FAILS=0

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; }

# End the test: exit 1 when anything failed.
finish() {
    if [ "$FAILS" -gt 0 ]; then
        echo "$FAILS check(s) failed" >&2
        exit 1
    fi
    exit 0
}

# A small, fast experiment (4x4 mesh, short windows) on stdout; extra YAML
# lines given as arguments are appended (e.g. a sweep: section).
small_exp() {
    cat <<'YAML'
mppnet: 1
name: small
network:
  topology: mesh
  mesh: {rows: 4, cols: 4}
  router: ecube
  vcs: 2
  buffer_flits: 4
workload:
  pattern: uniform
  rate: 0.1
  packet_flits: 4
  warmup: 200
  measure: 1000
output:
  dir: out
  plot: false
YAML
    for line in "$@"; do printf '%s\n' "$line"; done
}

# An experiment file run in small: `mppnet check FILE` must count FULL runs,
# then FILE runs with the overrides OV (separated by ';') into $T/NAME, and
# its results.csv must have SMALL rows (left in $rows). Returns 1, after a
# fail, when any of it goes wrong.
run_shrunk() {
    local f=$1 b=$2 full=$3 small=$4 ov=$5 out
    local -a args
    [ -f "$f" ] || { fail "$b: no $f"; return 1; }
    out=$( (cd "$SRCDIR" && "$MPPNET" check "$f") 2>&1) || { fail "$b: check: $out"; return 1; }
    case $out in *"ok, $full runs") ;; *) fail "$b: expected $full runs: $out" ;; esac
    IFS=';' read -r -a args <<<"$ov"
    (cd "$SRCDIR" && "$MPPNET" run "$f" -q -j 2 -o "$T/$b" "${args[@]}") >"$T/$b.out" 2>"$T/$b.err" ||
        { fail "$b: exit $? $(head -c 300 "$T/$b.err")"; return 1; }
    rows=$(($(wc -l <"$T/$b/results.csv") - 1))
    [ "$rows" = "$small" ] || { fail "$b: $rows rows, expected $small"; return 1; }
}

# Files in directory $1 other than exp.yaml (what a failed command left).
stray_files() { find "$1" -mindepth 1 ! -name exp.yaml | sort; }

# expect_status NAME WANT DIR CMD...: run CMD (mppnet arguments) in DIR,
# stdout to $T/NAME.out, stderr to $T/NAME.err; fail unless the exit status
# is WANT. Returns 0 when it matched.
expect_status() {
    local name=$1 want=$2 dir=$3
    shift 3
    local rc=0
    (cd "$dir" && "$MPPNET" "$@") >"$T/$name.out" 2>"$T/$name.err" </dev/null || rc=$?
    if [ "$rc" != "$want" ]; then
        fail "$name: exit status $rc, expected $want (mppnet $*)"
        sed 's/^/    stderr: /' "$T/$name.err" | head -20 >&2
        return 1
    fi
    return 0
}

# expect_bad NAME PATTERN CMD...: in a fresh directory $T/NAME that holds
# $T/NAME.yaml as exp.yaml (when that file exists), run mppnet CMD and
# demand exit status 2, a message on stderr matching the extended regular
# expression PATTERN, nothing on stdout, and no file created.
expect_bad() {
    local name=$1 pat=$2
    shift 2
    local d=$T/$name
    mkdir -p "$d"
    [ -f "$T/$name.yaml" ] && cp "$T/$name.yaml" "$d/exp.yaml"
    expect_status "$name" 2 "$d" "$@" || return 1
    if [ ! -s "$T/$name.err" ]; then
        fail "$name: no error message on stderr"
        return 1
    fi
    if ! grep -Eq -- "$pat" "$T/$name.err"; then
        fail "$name: stderr does not match /$pat/:"
        sed 's/^/    stderr: /' "$T/$name.err" >&2
        return 1
    fi
    if [ -s "$T/$name.out" ]; then
        fail "$name: unexpected output on stdout"
        return 1
    fi
    local left
    left=$(stray_files "$d")
    if [ -n "$left" ]; then
        fail "$name: files were created: $left"
        return 1
    fi
    pass "$name: $(head -1 "$T/$name.err")"
}

# static_check TOPOLOGY ROUTER VCS WANT-STATUS [OVERRIDE]: `mppnet check
# --deadlock` of a network of that topology, router and VCs must exit with
# WANT-STATUS and say `no cycle` (0), or show a cycle and, unless the
# router is xyyx, that the setup refuses the configuration (1). When
# CK_ALSO is set, the report must also match that extended regular
# expression.
static_check() {
    cat >"$T/ck.yaml" <<YAML
mppnet: 1
name: ck
network:
  topology: "$1"
  router: "$2"
  vcs: $3
YAML
    local rc=0
    "$MPPNET" check --deadlock "$T/ck.yaml" ${5:+"$5"} >"$T/ck.out" 2>&1 || rc=$?
    if [ "$rc" != "$4" ] || { [ -n "${CK_ALSO:-}" ] && ! grep -Eq -- "$CK_ALSO" "$T/ck.out"; }; then
        fail "check --deadlock $1 $2 vcs $3: exit $rc, expected $4: $(head -4 "$T/ck.out")"
    elif [ "$4" = 0 ]; then
        grep -q '  no cycle: ' "$T/ck.out" && pass "check --deadlock $1 $2 vcs $3${5:+ $5}: no cycle" ||
            fail "check --deadlock $1 $2 vcs $3: $(cat "$T/ck.out")"
    else
        grep -q 'cycle of [0-9]* channels' "$T/ck.out" &&
            { [ "$2" = xyyx ] || grep -q 'the setup refuses this configuration' "$T/ck.out"; } &&
            pass "check --deadlock $1 $2 vcs $3${5:+ $5}: $(grep -o 'cycle of [0-9]* channels' "$T/ck.out")" ||
            fail "check --deadlock $1 $2 vcs $3: $(cat "$T/ck.out")"
    fi
}

# Strip the host-timing lines of a results.json / sim --json output.
no_timing() { grep -v wall_seconds "$1"; }
