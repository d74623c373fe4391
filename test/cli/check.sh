# test/cli/check.sh — `mppnet check`: ok with the number of runs, errors
# with file:line:column and exit 2, and nothing written either way.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
small_exp 'seeds: [1, 2]' 'sweep: {workload.rate: [0.05, 0.1, 0.15]}' >exp.yaml
expect_status check_ok 0 "$T" check exp.yaml || finish
grep -qx 'exp.yaml: ok, 6 runs' "$T/check_ok.out" || fail "check: got '$(cat "$T/check_ok.out")'"
[ -e out ] && fail "check: created the output directory"
pass "check ok"

expect_status check_override 0 "$T" check exp.yaml 'seeds=[5]' || true
grep -qx 'exp.yaml: ok, 3 runs' "$T/check_override.out" ||
    fail "check: overrides: got '$(cat "$T/check_override.out")'"

small_exp | sed 's/^  vcs: 2/  vcs: lots/' >"$T/check_bad.yaml"
expect_bad check_bad 'exp\.yaml:[0-9]+:[0-9]+' check exp.yaml
expect_bad check_missing 'nope\.yaml' check nope.yaml
cp "$T/exp.yaml" "$T/check_bad_override.yaml"
expect_bad check_bad_override 'command line' check exp.yaml network.vcs=-3

# The shipped experiments are valid.
for f in "$SRCDIR"/experiments/*.yaml; do
    [ -e "$f" ] || continue
    expect_status "check_$(basename "$f" .yaml)" 0 "$T" check "$f" && pass "check $(basename "$f")"
done

finish
