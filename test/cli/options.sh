# test/cli/options.sh — one option parser for every command (core/cli/args.h):
# `-q` and `--quiet`, `-o X`, `-oX`, `--output=X` and `--output X`, `--run=N`
# and `--run N`, `--seed=X` and `--seed X`, options before or after the other
# arguments, give the same exit status, the same files and the same stdout
# in run, sim, plot, com gen, com convert, com partition, schedule and
# replay; a missing value is the same usage error everywhere; -h and --help
# print the same help for every command and subcommand.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# same NAME CASE...: every CASE (a name given to expect_status) printed the
# same stdout as the first.
same_out() {
    local what=$1 first=$2
    shift 2
    for c in "$@"; do
        cmp -s "$T/$first.out" "$T/$c.out" || fail "$what: stdout of $c differs from $first"
    done
}
# same_files WHAT FILE DIR...: DIR/FILE is the same in every DIR.
same_files() {
    local what=$1 file=$2 first=$3
    shift 3
    [ -s "$first/$file" ] || { fail "$what: $first/$file missing or empty"; return; }
    for d in "$@"; do
        cmp -s "$first/$file" "$d/$file" || fail "$what: $d/$file differs from $first/$file"
    done
}

# ---- run: -o DIR / -oDIR / --output=DIR / --output DIR, -q / --quiet ----------
small_exp 'sweep:' '  workload.rate: [0.05, 0.1]' >exp.yaml
expect_status run_a 0 "$T" run exp.yaml -q -o ra || finish
expect_status run_b 0 "$T" run -orb exp.yaml --quiet || finish
expect_status run_c 0 "$T" run --output=rc exp.yaml -q || finish
expect_status run_d 0 "$T" run --quiet exp.yaml --output rd || finish
same_files "run -o" results.csv ra rb rc rd
same_out "run -o" run_a run_b run_c run_d
for c in run_a run_b run_c run_d; do
    [ -s "$T/$c.err" ] && fail "run: $c wrote to stderr with -q/--quiet: $(cat "$T/$c.err")"
done
pass "run: -o DIR, -oDIR, --output=DIR, --output DIR; -q, --quiet"

# ---- sim: -q / --quiet ---------------------------------------------------------
SIM="--topology mesh:4x4 --rate=0.1 --warmup 100 --cycles=300 --json"
# shellcheck disable=SC2086
expect_status sim_a 0 "$T" sim $SIM -q || finish
# shellcheck disable=SC2086
expect_status sim_b 0 "$T" sim --quiet $SIM || finish
for c in sim_a sim_b; do no_timing "$T/$c.out" >"$T/$c.notime"; done
cmp -s "$T/sim_a.notime" "$T/sim_b.notime" || fail "sim: -q and --quiet differ"
pass "sim: -q, --quiet"

# ---- plot: -o OUT.png in its four forms -----------------------------------------
for f in a b c d; do mkdir -p "p$f" && cp ra/results.csv "p$f/"; done
expect_status plot_a 0 "$T/pa" plot results.csv --script-only -o out/p.png || finish
expect_status plot_b 0 "$T/pb" plot -oout/p.png results.csv --script-only || finish
expect_status plot_c 0 "$T/pc" plot --output=out/p.png --script-only results.csv || finish
expect_status plot_d 0 "$T/pd" plot --script-only results.csv --output out/p.png || finish
same_files "plot -o" out/p.gp pa pb pc pd
same_files "plot -o" out/p.dat pa pb pc pd
same_out "plot -o" plot_a plot_b plot_c plot_d
grep -qx 'out/p.gp' "$T/plot_a.out" || fail "plot: stdout: $(cat "$T/plot_a.out")"
pass "plot: -o OUT, -oOUT, --output=OUT, --output OUT"

# ---- com gen: -o FILE in its four forms; --seed=S / --seed S -------------------
GEN="--gen random-nonuniform --n 12 --d 3 --steps 2"
for f in a b c d; do mkdir -p "g$f"; done
# shellcheck disable=SC2086
expect_status gen_a 0 "$T/ga" com gen $GEN --seed 5 -o m.mtx || finish
# shellcheck disable=SC2086
expect_status gen_b 0 "$T/gb" com gen -om.mtx $GEN --seed=5 || finish
# shellcheck disable=SC2086
expect_status gen_c 0 "$T/gc" com gen --output=m.mtx --seed=5 $GEN || finish
# shellcheck disable=SC2086
expect_status gen_d 0 "$T/gd" com gen --seed 5 --output m.mtx $GEN || finish
same_files "com gen -o" m.mtx ga gb gc gd
for c in gen_a gen_b gen_c gen_d; do
    [ -s "$T/$c.out" ] && fail "com gen: $c printed on stdout"
done
pass "com gen: -o FILE, -oFILE, --output=FILE, --output FILE; --seed=S, --seed S"

# ---- com convert: IN OUT, IN -o OUT, -oOUT IN, --output=OUT IN -----------------
for f in a b c d; do mkdir -p "c$f" && cp ga/m.mtx "c$f/"; done
expect_status conv_a 0 "$T/ca" com convert m.mtx out.mtx.gz || finish
expect_status conv_b 0 "$T/cb" com convert m.mtx -o out.mtx.gz || finish
expect_status conv_c 0 "$T/cc" com convert -oout.mtx.gz m.mtx || finish
expect_status conv_d 0 "$T/cd" com convert --output=out.mtx.gz m.mtx || finish
same_files "com convert" out.mtx.gz ca cb cc cd
pass "com convert: IN OUT, IN -o OUT, -oOUT IN, --output=OUT IN"

# ---- com partition: -o COM in its four forms; --parts=N / --parts N ------------
# A 6-cycle cut into 2 parts by a partition file (no METIS needed).
printf '%% a 6-cycle\n6 6\n2 6\n1 3\n2 4\n3 5\n4 6\n5 1\n' >ring.graph
printf '0\n0\n0\n1\n1\n1\n' >ring.part
for f in a b c d; do mkdir -p "q$f" && cp ring.graph ring.part "q$f/"; done
expect_status part_a 0 "$T/qa" com partition ring.graph --parts 2 --part-in ring.part \
    -o ring.com || finish
expect_status part_b 0 "$T/qb" com partition -oring.com --parts=2 ring.graph \
    --part-in=ring.part || finish
expect_status part_c 0 "$T/qc" com partition --output=ring.com ring.graph --part-in ring.part \
    --parts 2 || finish
expect_status part_d 0 "$T/qd" com partition --parts=2 --part-in ring.part --output ring.com \
    ring.graph || finish
same_files "com partition -o" ring.com qa qb qc qd
same_out "com partition -o" part_a part_b part_c part_d
grep -q '^com: 2 x 2, 2 messages, 4 vertices sent' "$T/part_a.out" ||
    fail "com partition: summary: $(cat "$T/part_a.out")"
pass "com partition: -o COM, -oCOM, --output=COM, --output COM (--part-in)"
# With METIS, when this build has it.
for f in m1 m2; do mkdir -p "$f" && cp ring.graph "$f/"; done
rc=0
(cd m1 && "$MPPNET" com partition ring.graph --parts 2 -o ring.com) >"$T/metis_a.out" \
    2>"$T/metis_a.err" </dev/null || rc=$?
if [ "$rc" = 2 ] && grep -q 'without METIS' "$T/metis_a.err"; then
    echo "skip: com partition with METIS (this build has no METIS)"
elif [ "$rc" != 0 ]; then
    fail "com partition with METIS: exit status $rc: $(cat "$T/metis_a.err")"
else
    expect_status metis_b 0 "$T/m2" com partition --output=ring.com --parts=2 ring.graph &&
        same_files "com partition (METIS) -o" ring.com m1 m2
    same_out "com partition (METIS) -o" metis_a metis_b
    pass "com partition: -o COM, --output=COM (METIS)"
fi

# ---- schedule: --opt=V / --opt V, options after FILE (no -o: output on stdout) --
# Host times (us) vary from run to run: drop them.
no_us() { sed -E 's/[0-9.]+ us/- us/; /host_us/d' "$1"; }
expect_status sched_a 0 "$T" schedule --alg cgm --seed 3 ga/m.mtx || finish
expect_status sched_b 0 "$T" schedule ga/m.mtx --alg=cgm --seed=3 || finish
[ "$(no_us "$T/sched_a.out")" = "$(no_us "$T/sched_b.out")" ] ||
    fail "schedule: --alg=cgm --seed=3 after FILE differs from --alg cgm --seed 3 before it"
expect_status sched_c 0 "$T" schedule --alg=lp --gen=random-regular --n=8 --d=2 --samples=2 \
    --json || finish
expect_status sched_d 0 "$T" schedule --json --samples 2 --d 2 --n 8 --gen random-regular \
    --alg lp || finish
[ "$(no_us "$T/sched_c.out")" = "$(no_us "$T/sched_d.out")" ] ||
    fail "schedule --gen: --opt=V and --opt V differ"
pass "schedule: --opt=V, --opt V, before or after FILE"

# ---- replay: --run=N / --run N, -q / --quiet ----------------------------------
cat >rexp.yaml <<'YAML'
mppnet: 1
machine: cm5
network: {cm5-fattree: {nodes: 16}}
workload: {type: schedule, scheduler: cgm, d: 2, msg_unit: 64}
sweep:
  workload.d: [2, 3]
YAML
expect_status rep_a 0 "$T" replay rexp.yaml --run 1 || finish
expect_status rep_b 0 "$T" replay --run=1 rexp.yaml || finish
same_out "replay --run" rep_a rep_b
expect_status rep_c 0 "$T" replay rexp.yaml --run=1 -q || finish
expect_status rep_d 0 "$T" replay --quiet rexp.yaml --run 1 || finish
same_out "replay -q" rep_c rep_d
[ "$(wc -l <"$T/rep_c.out")" = 1 ] ||
    fail "replay -q: expected the summary line only: $(cat "$T/rep_c.out")"
tail -1 "$T/rep_a.out" | cmp -s - "$T/rep_c.out" ||
    fail "replay -q: another summary than without -q"
expect_status rep_e 0 "$T" replay rexp.yaml -q || finish
cmp -s "$T/rep_c.out" "$T/rep_e.out" && fail "replay: --run=1 made the same run as run 0"
pass "replay: --run=N, --run N; -q, --quiet"

# ---- a missing value is the same usage error in every command ------------------
expect_bad miss_run "^mppnet: run: option -o needs a value" run exp.yaml -o
expect_bad miss_plot "^mppnet: plot: option --output needs a value" plot x.csv --output
expect_bad miss_gen "^mppnet: com gen: option -o needs a value" \
    com gen --gen random-regular --n 4 --d 1 -o
expect_bad miss_conv "^mppnet: com convert: option -o needs a value" com convert x.mtx -o
expect_bad miss_part "^mppnet: com partition: option --parts needs a value" \
    com partition x.graph --parts
expect_bad miss_sched "^mppnet: schedule: option --seed needs a value" schedule --alg cgm --seed
expect_bad miss_rep "^mppnet: replay: option --run needs a value" replay x.yaml --run
expect_bad bad_run "^mppnet: replay: --run needs a whole number" replay x.yaml --run=x
expect_bad bad_q "^mppnet: com gen: unknown option '-q'" com gen -q
pass "a missing value: one message everywhere"

# ---- -h and --help for every command and subcommand ----------------------------
for cmd in run sim check list bench plot com "com gen" "com info" "com convert" \
    "com partition" schedule replay; do
    n=help_${cmd// /_}
    # shellcheck disable=SC2086
    expect_status "${n}_h" 0 "$T" $cmd -h || continue
    # shellcheck disable=SC2086
    expect_status "${n}_long" 0 "$T" $cmd --help || continue
    grep -q "^usage: mppnet $cmd" "$T/${n}_h.out" || fail "$cmd -h: no usage line"
    cmp -s "$T/${n}_h.out" "$T/${n}_long.out" || fail "$cmd: -h and --help differ"
done
pass "-h and --help"

finish
