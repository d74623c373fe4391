# test/build_output.sh — scripts/build.sh (what ./run.sh, ./test.sh and CI
# build with) is quiet when the build works and prints the compiler's (or
# meson's) output when it fails. Builds a two-file project in a temporary
# folder with a copy of the script.
#   bash test/build_output.sh SRCDIR
set -u
SRC=${1:?usage: bash test/build_output.sh SRCDIR}
T=$(mktemp -d "${TMPDIR:-/tmp}/mppnet-build.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
FAILS=0
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
command -v meson >/dev/null && command -v ninja >/dev/null || { echo "no meson/ninja: skipped"; exit 77; }

mkdir -p "$T/p/scripts"
cp "$SRC/scripts/build.sh" "$T/p/scripts/"
printf "project('t', 'c')\nexecutable('t', 't.c')\n" >"$T/p/meson.build"
printf 'int main(void) { return 0; }\n' >"$T/p/t.c"

# 1. all is well: nothing printed, status 0
bash "$T/p/scripts/build.sh" b >"$T/ok.out" 2>"$T/ok.err"
rc=$?
[ $rc = 0 ] || fail "a good build: status $rc: $(cat "$T/ok.err")"
[ -s "$T/ok.out" ] || [ -s "$T/ok.err" ] && fail "a good build printed something"

# 2. a compiler error: its message is shown, status 1
printf 'int main(void) { return undeclared_name; }\n' >"$T/p/t.c"
bash "$T/p/scripts/build.sh" b >"$T/bad.out" 2>"$T/bad.err"
rc=$?
[ $rc = 1 ] || fail "a failing build: status $rc, expected 1"
grep -q "undeclared_name" "$T/bad.err" || fail "the compiler's error is not shown: $(cat "$T/bad.err")"
grep -q "ninja's output is above" "$T/bad.err" || fail "no closing line"

# 3. a meson error at setup: meson's output is shown
printf "project('t', 'c')\nexecutable('t', 'missing.c')\n" >"$T/p/meson.build"
bash "$T/p/scripts/build.sh" b2 >"$T/setup.out" 2>"$T/setup.err"
rc=$?
[ $rc = 1 ] || fail "a failing meson setup: status $rc, expected 1"
grep -q "missing.c" "$T/setup.err" || fail "meson's error is not shown: $(cat "$T/setup.err")"

[ $FAILS = 0 ] && echo "ok: quiet when the build works; the compiler's and meson's output when it fails"
[ $FAILS = 0 ]
