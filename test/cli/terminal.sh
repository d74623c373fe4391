# test/cli/terminal.sh — the terminal is safe and the messages are clear:
# control characters from YAML escapes and from arguments reach stderr only
# as \xNN; the experiment's name (the output folder) holds only the safe
# set; bad UTF-8, a key past libyaml's 1024 characters, an alias's inline
# parameters, `sim --router :`, and a folder with no experiment to resume
# each give a clear message (exit 2, nothing written).
. "$(dirname "$0")/lib.sh"

# raw NAME: fail when $T/NAME.err holds a raw control character (ESC, BEL,
# CR or any other below 0x20 but newline and tab, or DEL)
raw() {
    if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$T/$1.err"; then
        fail "$1: a raw control character on stderr: $(od -c "$T/$1.err" | head -5)"
    fi
}

# 1. a YAML escape in the name: refused at its line and column, escaped
small_exp | sed -e 's/^name: small/name: "\\e]0;PWNED\\a"/' >"$T/esc_name.yaml"
expect_bad esc_name "exp\.yaml:2:7: key 'name': '.x1b' \(character 1\) is not allowed in a name.*letters, digits and \. _ - \+ /.*got '.x1b\]0;PWNED.x07'" \
    run exp.yaml
raw esc_name
[ -e "$T/esc_name/results" ] && fail "esc_name: a results folder was made"
# the same in a description (not a path): escaped wherever it is echoed
small_exp | sed -e 's/^name: small/name: small\ndescription: ok/' \
    -e 's/^  rate: 0.1/  rate: "\\e[31m"/' >"$T/esc_value.yaml"
expect_bad esc_value "exp\.yaml:[0-9]+:[0-9]+: .*\\\\x1b\[31m" run exp.yaml
raw esc_value
# other names outside the set; the set itself (subfolders allowed)
for n in 'a b' 'a;b' 'x$y' '$(id)' 'é'; do
    small_exp >"$T/name_set.yaml"
    expect_bad name_set "command line: name=.*: key 'name': .* is not allowed in a name" \
        check exp.yaml "name=$n"
    rm -rf "$T/name_set"
done
small_exp >"$T/ok.yaml"
expect_status name_ok 0 "$T" check ok.yaml 'name=sub/Fig_3.a-b+c' || true
# a default name (the file's) is made safe, not refused
small_exp | sed -e '/^name:/d' -e '/^  dir: out/d' >"$T/a b;c.yaml"
expect_status default_name 0 "$T" run "a b;c.yaml" -q || true
[ -d "$T/results/a_b_c" ] || fail "default_name: no results/a_b_c ($(ls "$T/results" 2>&1))"

# 2. control characters from the command line: escaped on stderr
expect_bad arg_cmd "unknown command '.x1b\]0;PWNED.x07'" "$(printf '\033]0;PWNED\007')"
raw arg_cmd
expect_bad arg_router "sim --router .x1b\[31mred: control characters are not allowed \(byte 0x1b\)" \
    sim --router "$(printf '\033[31mred')"
raw arg_router
expect_bad arg_newline "unknown option '--a.x0ab'" sim "$(printf -- '--a\nb')"
[ "$(wc -l <"$T/arg_newline.err")" = 2 ] || fail "arg_newline: a newline of an argument was printed"
small_exp >"$T/arg_file.yaml"
expect_bad arg_file "cannot read .x1bx\.yaml" check "$(printf '\033x.yaml')"
raw arg_file

# 3. unclear messages made clear
small_exp | sed -e 's/^name: small/name: small\ndescription: caf\xe9/' >"$T/latin1.yaml"
expect_bad latin1 "exp\.yaml:3:17: not UTF-8 text: the bytes 0xe9 0x0a are not a UTF-8 character.*iconv" \
    check exp.yaml
printf 'mppnet: 1\nname: x\ndescription: "caf\xe9"\n' >"$T/latin1_q.yaml"
expect_bad latin1_q "exp\.yaml:3:18: not UTF-8 text: the bytes 0xe9 0x22 are not a UTF-8 character" \
    check exp.yaml
printf 'mppnet: 1\nname: x\ndescription: caf\xc3' >"$T/utf8_cut.yaml"
expect_bad utf8_cut "exp\.yaml:3:17: not UTF-8 text: the byte 0xc3 .*ends inside it" check exp.yaml
grep -q "0x00" "$T/utf8_cut.err" && fail "utf8_cut: still 'byte 0x00'"
{ small_exp; printf '%s: 1\n' "$(head -c 1100 /dev/zero | tr '\0' k)"; } >"$T/long_key.yaml"
expect_bad long_key "exp\.yaml:18:1: a key of 1100 characters: YAML allows keys of at most 1024" \
    check exp.yaml
small_exp >"$T/alias.yaml"
expect_status alias 0 "$T" check alias.yaml 'network.router=chaos:threshold=4' || true
expect_status alias_dump 0 "$T" run alias.yaml 'network.router=chaos:threshold=4' --dump-config &&
    { grep -A1 '^  misroute:' "$T/alias_dump.out" | grep -q 'threshold: 4' ||
        fail "alias: the threshold did not reach misroute: $(cat "$T/alias_dump.out")"; }
small_exp | sed -e 's/^  router: ecube/  router: chaos\n  chaos: {threshold: 4}/' >"$T/alias_sec.yaml"
expect_bad alias_sec "exp\.yaml:[0-9]+:[0-9]+: unknown key 'network\.chaos': 'chaos' is an alias of the routing 'misroute', whose parameters go in the section network\.misroute" \
    check exp.yaml
expect_bad router_colon "sim: --router ':': a plug-in name is expected before ':'" sim --router :
expect_bad traffic_colon "sim: --traffic ':x=1': a plug-in name is expected before ':'" \
    sim --traffic :x=1
small_exp >"$T/sel_colon.yaml"
expect_bad sel_colon "key 'network\.router': expected NAME:ARGS, a routing name before ':'" \
    check exp.yaml 'network.router=":k=3"'
mkdir -p "$T/noexp/.mppnet"
expect_status noexp 2 "$T" run --resume noexp
grep -q "^mppnet: noexp holds no experiment to resume (cannot read noexp/\.mppnet/experiment: No such file or directory): it was not written by" "$T/noexp.err" ||
    fail "noexp: garbled: $(cat "$T/noexp.err")"
# a folder with no .mppnet at all: refused, and nothing written into it
mkdir -p "$T/stranger"
expect_status stranger 2 "$T" run --resume stranger
grep -q "^mppnet: stranger holds no experiment to resume (no stranger/\.mppnet)" "$T/stranger.err" ||
    fail "stranger: $(cat "$T/stranger.err")"
[ -z "$(ls -A "$T/stranger")" ] || fail "stranger: --resume wrote into it: $(ls -A "$T/stranger")"
finish
