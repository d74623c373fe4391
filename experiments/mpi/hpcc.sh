#!/usr/bin/env bash
# experiments/mpi/hpcc.sh — a public MPI program nobody here wrote, run
# unchanged: the HPC Challenge benchmark (Debian's package hpcc 1.5.0,
# /usr/bin/hpcc), captured with 4 ranks under Open MPI and replayed on the
# cm5, paragon, hypercube and t3d presets (docs/capture.md, "A public
# program: HPCC").
#
#   experiments/mpi/hpcc.sh [BUILD]        (from the source root)
#
# Installs hpcc with apt when it is missing (as scripts/deps.sh installs
# the rest). The input is Debian's example /usr/share/doc/hpcc/examples/
# _hpccinf.txt with the HPL problem shrunk (Ns 1000 -> 200, NBs 80 -> 20) on
# its 2 x 2 process grid; everything else, PTRANS, FFT, RandomAccess, STREAM,
# DGEMM and the latency-bandwidth rings, as Debian ships it. Output in
# results/mpi/hpcc/: hpccinf.txt, hpccoutf.txt (hpcc's own report), cap/ (the
# capture), and per machine MACHINE/ (mppnet mpi -o: ranks.csv, calls.csv,
# pairs.csv, traffic.com) with MACHINE.txt (its per-rank table and totals,
# and the wall time). The replays run two at a time.
#
# Cost: the capture takes about a minute. hpcc's bandwidth rings send 424
# messages of 2 MB from each rank (0.85 GB a rank, 99.9% of its bytes), and
# every byte goes through the flit-level network: each replay took 14 to 36
# minutes on this project's 2-core machine with other jobs running (the
# table of docs/capture.md, "A public program: HPCC", gives the figures).
# $MPPNET: the binary (default BUILD/mppnet, BUILD default build-release).
# Exit status: 0 when all went well, 1 when a replay failed, 2 for a
# missing tool.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-release}
out=results/mpi/hpcc

if ! command -v hpcc >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "hpcc.sh: installing hpcc" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq hpcc >/dev/null ||
    { echo "hpcc.sh: cannot install hpcc (apt-get install hpcc)" >&2; exit 2; }
fi
example=/usr/share/doc/hpcc/examples/_hpccinf.txt
[ -f "$example" ] || { echo "hpcc.sh: $example is missing (package hpcc)" >&2; exit 2; }
if [ -z "${MPPNET:-}" ]; then
  bash scripts/build.sh "$build" --buildtype=release || exit 2
  MPPNET=$build/mppnet
fi
mppnet=$(readlink -f "$MPPNET")
"$mppnet" capture --help >/dev/null 2>&1 ||
  { echo "hpcc.sh: $mppnet has no \`capture\` (was MPI found when it was configured?)" >&2; exit 2; }

mkdir -p "$out"
# Debian's example input, with the HPL problem of line 6 (Ns) and line 8
# (NBs) made small; hpcc reads hpccinf.txt from its working folder
sed -e '6s/^1000 /200  /' -e '8s/^80  /20  /' "$example" >"$out/hpccinf.txt"
grep -q '^200 .*Ns' "$out/hpccinf.txt" && grep -q '^20 .*NBs' "$out/hpccinf.txt" ||
  { echo "hpcc.sh: $example is not the expected file (Ns, NBs lines)" >&2; exit 2; }
rm -rf "$out/cap" "$out/hpccoutf.txt"
(cd "$out" && "$mppnet" capture -o cap -- \
   mpirun --allow-run-as-root --oversubscribe -np 4 hpcc) || exit 1

rc=0
run() {
  local m=$1 t0 t1 r=0
  t0=$(date +%s)
  "$mppnet" mpi "$out/cap" --machine "$m" -o "$out/$m" >"$out/$m.txt" 2>&1 || r=$?
  t1=$(date +%s)
  echo "wall: $((t1 - t0)) s" >>"$out/$m.txt"
  return "$r"
}
run cm5 & a=$!
run paragon & b=$!
wait "$a" || rc=1
wait "$b" || rc=1
run hypercube & a=$!
run t3d & b=$!
wait "$a" || rc=1
wait "$b" || rc=1
for m in cm5 paragon hypercube t3d; do
  printf '%-10s %s   (%s)\n' "$m" "$(grep '^machine ' "$out/$m.txt")" "$(tail -1 "$out/$m.txt")"
done
exit "$rc"
