# test/cli/confine.sh — nothing outside the folder (docs/config.md "Paths
# in a file", docs/cli.md): a folder or an input file named by an
# experiment file (or by the overrides a run folder keeps for --resume)
# cannot lead outside the working folder through a symlink; `.mppnet` must
# be a real folder of the user; gnuplot never comes from a relative PATH
# entry. The same paths given on the command line still work.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# exp_in DIR [LINES...]: the small experiment as DIR/exp.yaml, its output
# section replaced by the lines given.
exp_in() {
    local d=$1
    shift
    mkdir -p "$d"
    small_exp | sed '/^output:/,$d' >"$d/exp.yaml"
    for line in "$@"; do printf '%s\n' "$line" >>"$d/exp.yaml"; done
}

# snapshot DIR: every file of DIR with its size and content hash.
snapshot() { (cd "$1" && find . -type f -exec md5sum {} + | sort); }

# --- 1. output.dir through a symlink --------------------------------------
mkdir -p victim1
exp_in out1 "output: {dir: link/res, plot: false}"
ln -s ../victim1 out1/link
expect_status out_link 2 out1 run exp.yaml -q &&
    grep -q "'link' is a symbolic link.*give it on the command line (-o link/res)" "$T/out_link.err" &&
    pass "output.dir through a symlink: $(head -1 "$T/out_link.err")" ||
    fail "output.dir through a symlink: $(cat "$T/out_link.err")"
[ -z "$(ls -A victim1)" ] || fail "output.dir through a symlink: wrote at the target: $(ls -A victim1)"
# the default folder results/NAME is named by the file too
mkdir -p victim1b
exp_in out1b "output: {plot: false}"
ln -s ../victim1b out1b/results
expect_status out_default_link 2 out1b run exp.yaml -q &&
    grep -q "'results' is a symbolic link" "$T/out_default_link.err" &&
    pass "default results/NAME through a symlink: refused" ||
    fail "default results/NAME through a symlink: $(cat "$T/out_default_link.err")"
[ -z "$(ls -A victim1b)" ] || fail "default folder through a symlink: wrote $(ls -A victim1b)"
# on the command line the same folder is the user's: -o, or output.dir=
expect_status out_link_o 0 out1 run exp.yaml -q -o link/res &&
    [ -s victim1/res/results.csv ] && [ -d victim1/res/.mppnet ] &&
    pass "a symlinked -o folder works" || fail "-o link/res: $(cat "$T/out_link_o.err")"
rm -rf victim1/res
expect_status out_link_ov 0 out1 run exp.yaml -q output.dir=link/res &&
    [ -s victim1/res/results.csv ] &&
    pass "a symlinked output.dir=... of the command line works" ||
    fail "output.dir=link/res: $(cat "$T/out_link_ov.err")"

# --- 2. an input file through a symlink (workload.com) --------------------
mkdir -p victim2 in2
(cd victim2 && "$MPPNET" com gen --gen random-regular --n 16 --d 3 --units 4 --msg-unit 8 \
    --seed 7 -o m.mtx) >/dev/null 2>&1 || fail "com gen"
ln -s ../victim2 in2/link
# sched_exp COM: a schedule workload of the 16-node CM-5 reading COM
sched_exp() {
    printf 'mppnet: 1\nname: c\nmachine: cm5\nnetwork: {cm5-fattree: {nodes: 16}}\n'
    printf 'workload:\n  type: schedule\n  scheduler: cgm\n  com: %s\n' "$1"
    printf 'output: {dir: out, plot: false}\n'
}
sched_exp link/m.mtx >in2/exp.yaml
expect_status com_link 2 in2 run exp.yaml -q &&
    grep -Eq "exp.yaml:[0-9]+:[0-9]+: key 'workload.com': 'link/m.mtx' leads outside the working folder" \
        "$T/com_link.err" &&
    pass "workload.com through a symlink: $(head -1 "$T/com_link.err")" ||
    fail "workload.com through a symlink: $(cat "$T/com_link.err")"
[ -e in2/out ] && fail "workload.com through a symlink: the output folder was created"
cp victim2/m.mtx in2/inside.mtx
expect_status com_inside 0 in2 run exp.yaml -q workload.com=link/m.mtx &&
    [ -s in2/out/results.csv ] &&
    pass "workload.com=link/m.mtx on the command line works" ||
    fail "workload.com on the command line: $(cat "$T/com_inside.err")"
# a symlink that stays inside the working folder is fine
ln -s inside.mtx in2/alias.mtx
sed -i 's|com: link/m.mtx|com: alias.mtx|' in2/exp.yaml
expect_status com_alias 0 in2 run exp.yaml -q &&
    pass "workload.com through a symlink inside the folder works" ||
    fail "workload.com: alias.mtx: $(cat "$T/com_alias.err")"

# --- 3. a planted .mppnet symlink ------------------------------------------
mkdir -p victim3 pl3/out
for f in run-1.rec .run-2.rec.abc .experiment.xyz experiment keep; do echo "$f" >"victim3/$f"; done
before=$(snapshot victim3)
exp_in pl3 "output: {dir: out, plot: false}"
ln -s ../../victim3 pl3/out/.mppnet
expect_status planted 2 pl3 run exp.yaml -q &&
    grep -q "out/.mppnet is a symbolic link" "$T/planted.err" &&
    pass "a planted .mppnet symlink: $(head -1 "$T/planted.err")" ||
    fail "a planted .mppnet symlink: $(cat "$T/planted.err")"
[ "$(snapshot victim3)" = "$before" ] ||
    fail "a planted .mppnet symlink: its target changed: $(ls -A victim3)"
# the same with -o (a command-line folder is free, its .mppnet is not)
expect_status planted_o 2 pl3 run exp.yaml -q -o out &&
    grep -q "out/.mppnet is a symbolic link" "$T/planted_o.err" ||
    fail "a planted .mppnet symlink with -o: $(cat "$T/planted_o.err")"
expect_status planted_resume 2 pl3 run --resume out -q &&
    grep -q "out/.mppnet is a symbolic link" "$T/planted_resume.err" ||
    fail "a planted .mppnet symlink with --resume: $(cat "$T/planted_resume.err")"
[ "$(snapshot victim3)" = "$before" ] || fail "a planted .mppnet: its target changed"
[ "$(snapshot victim3)" = "$before" ] && pass "the files at the planted target were neither written nor deleted"

# --- 4. .mppnet not owned by the user ---------------------------------------
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    exp_in own4 "output: {dir: out, plot: false}"
    mkdir -p own4/out/.mppnet
    chown nobody own4/out/.mppnet
    expect_status not_owned 2 own4 run exp.yaml -q &&
        grep -q "out/.mppnet belongs to user [0-9]*, not to you" "$T/not_owned.err" &&
        pass ".mppnet of another user: $(head -1 "$T/not_owned.err")" ||
        fail ".mppnet of another user: $(cat "$T/not_owned.err")"
    [ -z "$(ls -A own4/out/.mppnet)" ] || fail ".mppnet of another user: written"
else
    echo "skip: .mppnet of another user (needs root)"
fi

# --- 5. --resume: the folder's stored overrides are checked as a file's -----
# put_copy DIR OVERRIDE: rewrite DIR/.mppnet/experiment with OVERRIDE added
# (the copy's format: "mppnet-run 1", then fields "NAME LEN" + LEN bytes).
put_copy() {
    local d=$1 ov=$2 text
    text=$(cat exp5/exp.yaml; echo x)
    text=${text%x}
    {
        printf 'mppnet-run 1\n'
        printf 'path %d\n%s\n' 8 exp.yaml
        printf 'override %d\n%s\n' "${#ov}" "$ov"
        printf 'text %d\n%s\n' "${#text}" "$text"
    } >"$d/.mppnet/experiment"
}
mkdir -p exp5
sched_exp inside.mtx >exp5/exp.yaml
cp victim2/m.mtx exp5/inside.mtx
expect_status resume_first 0 exp5 run exp.yaml -q || fail "resume: the first run"
rm -f exp5/out/.mppnet/run-*.rec
mkdir -p abs5
put_copy exp5/out "output.dir=$T/abs5"
expect_status resume_abs 2 exp5 run --resume out -q &&
    grep -Eq "out/.mppnet/experiment:5:12: key 'output.dir': a path in a file must be relative" \
        "$T/resume_abs.err" &&
    pass "--resume with a stored output.dir=/abs: $(head -1 "$T/resume_abs.err")" ||
    fail "--resume with a stored output.dir=/abs: $(cat "$T/resume_abs.err")"
[ -z "$(ls -A abs5)" ] || fail "--resume output.dir=/abs: wrote there"
put_copy exp5/out "workload.com=/etc/passwd"
expect_status resume_passwd 2 exp5 run --resume out -q &&
    grep -Eq "out/.mppnet/experiment:5:14: key 'workload.com': a path in a file must be relative" \
        "$T/resume_passwd.err" &&
    pass "--resume with a stored workload.com=/etc/passwd: refused" ||
    fail "--resume with a stored workload.com=/etc/passwd: $(cat "$T/resume_passwd.err")"
put_copy exp5/out "workload.com=../x.mtx"
expect_status resume_dotdot 2 exp5 run --resume out -q &&
    grep -q "key 'workload.com': a path in a file must be relative and must not contain '..'" \
        "$T/resume_dotdot.err" && pass "--resume with a stored '..': refused" ||
    fail "--resume with a stored workload.com=../x.mtx: $(cat "$T/resume_dotdot.err")"
# a stored override through a symlink out of the folder
mkdir -p exp5/lnk5 && rmdir exp5/lnk5 && ln -s ../victim2 exp5/lnk5
put_copy exp5/out "workload.com=lnk5/m.mtx"
expect_status resume_link 2 exp5 run --resume out -q &&
    grep -q "key 'workload.com': 'lnk5/m.mtx' leads outside the working folder" \
        "$T/resume_link.err" && pass "--resume with a stored override through a symlink: refused" ||
    fail "--resume with a stored workload.com=lnk5/m.mtx: $(cat "$T/resume_link.err")"
# the same on the command line, with --resume, is the user's
put_copy exp5/out "output.dir=$T/abs5"
expect_status resume_cmdline 0 exp5 run --resume out -q "output.dir=$T/abs5" &&
    [ -z "$(ls -A abs5)" ] && pass "--resume with output.dir=/abs on the command line works" ||
    fail "--resume with the override on the command line: $(cat "$T/resume_cmdline.err")"

# --- 6. gnuplot from a relative PATH entry ------------------------------------
# a `gnuplot` planted in the output folder and in the working folder; it
# leaves a marker when it runs
plant() {
    printf '#!/bin/sh\ntouch "%s"\nexit 0\n' "$T/pwned" >"$1/gnuplot"
    chmod +x "$1/gnuplot"
}
exp_in gp6 "sweep: {workload.rate: [0.05, 0.1]}" "output: {dir: out, plot: true}"
mkdir -p gp6/out
plant gp6
plant gp6/out
for p in ".:\$PATH" ":\$PATH" "\$PATH:" "out:\$PATH"; do
    rm -f "$T/pwned"
    rc=0
    (cd gp6 && PATH=$(eval "echo \"$p\"") "$MPPNET" run exp.yaml -q) >"$T/gp.out" 2>"$T/gp.err" || rc=$?
    [ "$rc" = 0 ] || fail "run with PATH=$p: exit $rc: $(cat "$T/gp.err")"
    [ -e "$T/pwned" ] && fail "run with PATH=$p: the planted gnuplot ran" ||
        pass "run with PATH=$p: the planted gnuplot did not run"
    # the real one (an absolute entry of PATH) still draws the plot
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s gp6/out/latency.png ] || fail "run with PATH=$p: no latency.png from the real gnuplot"
    fi
done
# mppnet plot: the script's folder is the CSV's
cp gp6/out/results.csv gp6/r.csv
for p in ".:\$PATH" ":\$PATH"; do
    rm -f "$T/pwned"
    (cd gp6 && PATH=$(eval "echo \"$p\"") "$MPPNET" plot r.csv -o out/p.png) >"$T/gp.out" 2>"$T/gp.err"
    [ -e "$T/pwned" ] && fail "plot with PATH=$p: the planted gnuplot ran" ||
        pass "plot with PATH=$p: the planted gnuplot did not run"
done
# only relative entries: no gnuplot at all (the run still succeeds)
rm -f "$T/pwned"
rc=0
(cd gp6 && PATH=.:out: "$MPPNET" run exp.yaml -q) >"$T/gp.out" 2>"$T/gp.err" || rc=$?
[ "$rc" = 0 ] || fail "run with PATH=.:out:: exit $rc: $(cat "$T/gp.err")"
[ -e "$T/pwned" ] && fail "run with PATH=.:out:: the planted gnuplot ran" ||
    pass "run with PATH=.:out: (no absolute entry): no gnuplot run"

finish
