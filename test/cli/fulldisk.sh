# test/cli/fulldisk.sh — a full disk fails before any run: the folder is
# written (the experiment's copy, the empty result files) before the first
# simulation, so no work is done that could not be kept. Needs a small
# tmpfs (mount, as root); exits 77 (skipped) only when it cannot mount one.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
mkdir full
if ! mount -t tmpfs -o size=256k tmpfs full 2>/dev/null; then
    echo "cannot mount a tmpfs here: skipped"
    exit 77
fi
trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
# fill it
dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
small_exp 'sweep: {workload.rate: [0.1, 0.2]}' >exp.yaml
start=$(date +%s)
expect_status full 2 "$T" run exp.yaml -o full/out --quiet
grep -Eiq "no space|cannot" full.err || fail "full disk: no clear message: $(cat full.err)"
[ $(($(date +%s) - start)) -le 2 ] || fail "full disk: it simulated before failing"
[ -e full/out/results.csv ] && fail "full disk: a results.csv was written"
pass "a full disk fails before any run: $(head -1 full.err)"
finish
