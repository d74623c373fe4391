# test/cli/kary_experiments.sh — the routing experiments on tori, 3D meshes
# and butterflies (experiments/routing/torus.yaml, butterfly.yaml,
# worst.yaml, worst_butterfly.yaml) in small: each checks with its full
# number of runs, then runs end to end on 4x4x4 networks and 16-terminal
# butterflies with a few rates, one results.csv row per run, every run
# delivering something and every butterfly route taking its n - 1 hops
# (2n - 1 with Valiant's loop).
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

run_shrunk "$SRCDIR/experiments/routing/torus.yaml" torus 312 48 \
    'network.kary-ncube.k=[4, 4, 4];sweep.workload.rate=[0.1, 0.6];workload.warmup=200;workload.measure=500' &&
    pass "routing/torus.yaml in small"
run_shrunk "$SRCDIR/experiments/routing/butterfly.yaml" butterfly 48 16 \
    'sweep.network.topology=["butterfly:2x4", "butterfly:4x2"];workload.packets=4' &&
    pass "routing/butterfly.yaml in small"
run_shrunk "$SRCDIR/experiments/routing/worst.yaml" worst 1050 84 \
    'network.kary-ncube.k=[4, 4, 4];sweep.workload.rate=[0.1, 1.0];workload.warmup=200;workload.measure=500' &&
    pass "routing/worst.yaml in small"
run_shrunk "$SRCDIR/experiments/routing/worst_butterfly.yaml" worst_butterfly 350 28 \
    'network.butterfly.k=2;network.butterfly.n=4;sweep.workload.rate=[0.1, 1.0];workload.warmup=200;workload.measure=500' &&
    pass "routing/worst_butterfly.yaml in small"

for b in torus butterfly worst worst_butterfly; do
    csv=$T/$b/results.csv
    [ -f "$csv" ] || continue
    case $b in worst*)
        python3 "$SRCDIR/scripts/worst_report.py" "$csv" >"$T/$b.md" && grep -q '| ecube |' "$T/$b.md" ||
            fail "$b: worst_report.py"
        ;;
    esac
    python3 - "$csv" "$b" <<'PY' || fail "$b: rows out of range"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    assert float(r["accepted"]) > 0, r
    if sys.argv[2].startswith("worst") and r["workload.rate"] == "0.1":
        assert r["saturated"] == "false", r
    if sys.argv[2] == "butterfly":
        n = int(r["network.topology"].split("x")[1])
        want = 2 * n - 1 if r["network.router"] == "valiant" else n - 1
        assert float(r["hops_mean"]) == want, (r["hops_mean"], want)
PY
done
finish
