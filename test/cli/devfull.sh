# test/cli/devfull.sh — every command checks its output: with stdout on
# /dev/full (every write fails with "No space left on device") each command,
# subcommand and --help exits 2 with "mppnet: CMD: cannot write the output:
# ..." on stderr, never 0 with its result lost nor 2 in silence. The
# commands that write files refuse a device or FIFO as the file (it is not
# replaced) with exit 2 and a message, and -o naming a folder is refused.
# Skipped when /dev/full is missing.
. "$(dirname "$0")/lib.sh"

[ -c /dev/full ] || { echo "no /dev/full: skipped"; exit 77; }
cd "$T" || exit 1
small_exp >exp.yaml
cat >sched.yaml <<'YAML'
mppnet: 1
machine: cm5
network: {cm5-fattree: {nodes: 16}}
workload: {type: schedule, scheduler: cgm, d: 3, msg_unit: 128}
YAML
printf '%% a 6-cycle\n6 6\n2 6\n1 3\n2 4\n3 5\n4 6\n5 1\n' >ring.graph
printf '0\n0\n0\n1\n1\n1\n' >ring.part
"$MPPNET" com gen --gen random-regular --n 8 --d 2 -o m.mtx 2>gen.err ||
    { fail "com gen: $(cat gen.err)"; finish; }
"$MPPNET" run exp.yaml -q -o res >/dev/null 2>run.err || { fail "run: $(cat run.err)"; finish; }

n=0
# full NAME CMD...: mppnet CMD with stdout on /dev/full must exit 2 and say
# that it cannot write its output.
full() {
    local name=$1 rc=0
    shift
    rm -rf out
    "$MPPNET" "$@" >/dev/full 2>"$name.err" </dev/null || rc=$?
    n=$((n + 1))
    if [ "$rc" != 2 ]; then
        fail "$name: exit status $rc with stdout on /dev/full, expected 2 (mppnet $*)"
    elif ! grep -q "^mppnet: .*cannot write the output: " "$name.err"; then
        fail "$name: exit 2 without the message: '$(head -c 300 "$name.err")' (mppnet $*)"
    else
        echo "ok: mppnet $* >/dev/full: $(grep 'cannot write the output' "$name.err")"
    fi
}

full top_help --help
full version --version
full help help
full help_run help run
full run run exp.yaml -q
full run_dump run exp.yaml --dump-config
full run_help run --help
full merge_help merge --help
full sim sim --topology mesh:4x4 --warmup 100 --cycles 500 -q
full sim_json sim --topology mesh:4x4 --warmup 100 --cycles 500 -q --json
full sim_help sim --help
full check check exp.yaml
full check_dl check --deadlock exp.yaml
full check_help check --help
full list list
full list_routers list routers
full list_presets list presets
full list_help list --help
full com_help com --help
full com_gen_help com gen --help
full com_info com info m.mtx
full com_info_json com info m.mtx --json
full com_info_help com info --help
full com_convert_help com convert --help
full com_part com partition ring.graph --parts 2 --part-in ring.part
full com_part_help com partition --help
full schedule schedule --alg gm m.mtx
full schedule_json schedule --alg gm --json m.mtx
full schedule_gen schedule --alg gm --gen random-regular --n 8 --d 2 --samples 2
full schedule_help schedule --help
full replay replay sched.yaml
full replay_quiet replay sched.yaml -q
full replay_help replay --help
full bcast_show bcast show --mesh 4x4 --dist R --s 4
full bcast_json bcast show --mesh 4x4 --dist R --s 4 --json
full bcast_help bcast --help
full bcast_show_help bcast show --help
full app_wolff app wolff --N 16 --therm 2 --sweeps 2
full app_wolff_json app wolff --N 16 --therm 2 --sweeps 2 --json
full app_lee app lee --N 16 --instances 1
full app_help app --help
full app_wolff_help app wolff --help
full app_lee_help app lee --help
full plot plot res/results.csv --script-only -o p.png
full plot_help plot --help
full bench_help bench --help

# the file a command writes: a device or a FIFO is refused, not replaced
# (a FIFO of our own stands for /dev/full, which an old mppnet run as root
# would replace by a regular file), a folder is refused before any work
mkfifo fifo || { fail "mkfifo"; finish; }
file_bad() {
    local name=$1 pat=$2 rc=0
    shift 2
    "$MPPNET" "$@" >/dev/null 2>"$name.err" </dev/null || rc=$?
    n=$((n + 1))
    if [ "$rc" != 2 ] || ! grep -Eq -- "$pat" "$name.err"; then
        fail "$name: exit $rc, '$(head -c 300 "$name.err")' (mppnet $*)"
    else
        echo "ok: mppnet $*: $(head -1 "$name.err")"
    fi
    [ -p fifo ] || { fail "$name: the FIFO was replaced"; rm -f fifo; mkfifo fifo; }
}
file_bad gen_dev 'cannot write fifo: not a regular file' \
    com gen --gen random-regular --n 8 --d 2 -o fifo
file_bad convert_dev 'cannot write fifo: not a regular file' com convert m.mtx fifo
file_bad rec_ops_dev 'cannot write fifo: not a regular file' \
    replay sched.yaml -q --record-ops fifo
file_bad rec_msgs_dev 'cannot write fifo: not a regular file' \
    replay sched.yaml -q --record-messages fifo
file_bad part_dev 'cannot write fifo: not a regular file' \
    com partition ring.graph --parts 2 --part-in ring.part -o fifo
file_bad gen_dot "com gen: -o must name a file, not a folder \('\.'\)" \
    com gen --gen random-regular --n 8 --d 2 -o .
file_bad convert_dir "com convert: OUT must name a file, not a folder" com convert m.mtx res
file_bad part_dir "com partition: --part-out must name a file, not a folder" \
    com partition ring.graph --parts 2 --part-in ring.part --part-out res/
[ -e .m.mtx ] && fail "a temporary was left"
pass "$n commands checked"
finish
