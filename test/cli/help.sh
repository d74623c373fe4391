# test/cli/help.sh — --help of every command, --version, `help CMD`.
. "$(dirname "$0")/lib.sh"

expect_status help_main 0 "$T" --help || finish
grep -q '^usage: mppnet' "$T/help_main.out" || fail "--help: no usage line"
for cmd in run merge sim check list bench; do
    grep -Eq "^  $cmd " "$T/help_main.out" || fail "--help: command $cmd not listed"
    expect_status "help_$cmd" 0 "$T" "$cmd" --help || continue
    grep -q "^usage: mppnet $cmd" "$T/help_$cmd.out" || fail "$cmd --help: no usage line"
    expect_status "help2_$cmd" 0 "$T" help "$cmd" || continue
    cmp -s "$T/help_$cmd.out" "$T/help2_$cmd.out" || fail "help $cmd differs from $cmd --help"
done
expect_status version 0 "$T" --version || finish
grep -Eq '^mppnet [0-9]+\.[0-9]+' "$T/version.out" || fail "--version: $(cat "$T/version.out")"
pass "help and version"
finish
