# test/cli/mpi_examples.sh — the issue's end-to-end check (docs/capture.md):
# every example program of examples/mpi/ (stencil2d, cg, transpose,
# master_worker) captured with `mppnet capture` under Open MPI with 4 and
# 16 ranks (oversubscribed) and under MPICH with 4 (the programs and the
# capture library compiled with mpicc.mpich, preloaded by hand as
# docs/capture.md shows), replayed with `mppnet mpi` on the cm5 preset: the
# replay's traffic matrix (pairs.csv) equals, for every rank pair, the
# counts the program printed in that same run (test/mpi_pairs.sh). Skipped
# (77) when the build has no capture library or no examples, or Open MPI's
# tools are missing; the MPICH part is skipped (said so) without MPICH.
. "$(dirname "$0")/lib.sh"

BUILD=$(dirname "$MPPNET")
LIB=$BUILD/traces/capture/libmppcapture.so
EX=$BUILD/examples/mpi
skip() { echo "SKIP: $*"; exit 77; }
[ -f "$LIB" ] || skip "no MPI (install libopenmpi-dev openmpi-bin): this build has no $LIB"
[ -x "$EX/stencil2d" ] || skip "this build has no example programs ($EX)"
ldd "$LIB" 2>/dev/null | grep -q libmpich && skip "the capture library of this build is MPICH's (the test drives Open MPI's)"
MPIRUN=(mpirun.openmpi --allow-run-as-root --oversubscribe)
command -v mpirun.openmpi >/dev/null 2>&1 || MPIRUN[0]=mpirun
command -v "${MPIRUN[0]}" >/dev/null 2>&1 || skip "no mpirun"
PAIRS=$SRCDIR/test/mpi_pairs.sh
MESH=$SRCDIR/traces/data/naca0012_2817.msh.gz

# NAME ARGS: small sizes (each capture well under a second of host time)
args_of() {
    case $1 in
    stencil2d) echo "64 20 5 isend" ;;
    cg) echo "$MESH 10" ;;
    transpose) echo "64 2" ;;
    master_worker) echo "32 2000" ;;
    esac
}

# check TAG DIR STDOUT: replay DIR and compare with the program's counts
check() {
    local tag=$1 dir=$2 out=$3
    if ! "$MPPNET" mpi "$dir" -o "$T/r-$tag" >"$T/r-$tag.out" 2>&1; then
        cat "$T/r-$tag.out"; fail "$tag: the replay failed"; return
    fi
    if bash "$PAIRS" "$out" "$T/r-$tag/pairs.csv" >"$T/p-$tag.out" 2>&1; then
        pass "$tag: $(tail -1 "$T/p-$tag.out")"
    else
        cat "$T/p-$tag.out"; fail "$tag: the replay's traffic matrix differs from the program's counts"
    fi
}

cd "$T" || exit 1
for name in stencil2d cg transpose master_worker; do
    for np in 4 16; do
        tag=ompi-$name-$np
        # shellcheck disable=SC2046
        if "$MPPNET" capture -o "$T/c-$tag" -- "${MPIRUN[@]}" -np $np "$EX/$name" $(args_of $name) \
            >"$T/$tag.stdout" 2>"$T/$tag.err"; then
            check "$tag" "$T/c-$tag" "$T/$tag.stdout"
        else
            cat "$T/$tag.err"; fail "$tag: the capture failed"
        fi
    done
done

# MPICH: the library and the programs built against it here
if command -v mpicc.mpich >/dev/null 2>&1 && command -v mpirun.mpich >/dev/null 2>&1; then
    if mpicc.mpich -O1 -shared -fPIC -o "$T/libcap-mpich.so" "$SRCDIR/traces/capture/mppcapture.c" -lz \
        2>"$T/cc.err"; then
        for name in stencil2d cg transpose master_worker; do
            tag=mpich-$name-4
            if ! mpicc.mpich -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$T/$name-mpich" \
                "$SRCDIR/examples/mpi/$name.c" "$SRCDIR/examples/mpi/pairs.c" -I"$SRCDIR/examples/mpi" -lm -lz \
                2>"$T/cc-$name.err"; then
                cat "$T/cc-$name.err"; fail "$tag: mpicc.mpich failed"; continue
            fi
            mkdir "$T/c-$tag"
            # shellcheck disable=SC2046
            if LD_PRELOAD="$T/libcap-mpich.so" MPPNET_CAPTURE_DIR="$T/c-$tag" \
                mpirun.mpich -np 4 "$T/$name-mpich" $(args_of $name) >"$T/$tag.stdout" 2>"$T/$tag.err"; then
                check "$tag" "$T/c-$tag" "$T/$tag.stdout"
            else
                cat "$T/$tag.err"; fail "$tag: the MPICH run failed"
            fi
        done
    else
        cat "$T/cc.err"; fail "mpicc.mpich could not build the capture library"
    fi
else
    echo "note: MPICH part skipped (no mpicc.mpich / mpirun.mpich: apt-get install libmpich-dev mpich)"
fi

# SimGrid: the stencil built with smpicc and traced with smpirun -trace-ti,
# imported and replayed: the same traffic matrix as its PMPI capture (and
# as the program's own counts)
if command -v smpicc >/dev/null 2>&1 && command -v smpirun >/dev/null 2>&1; then
    printf 'node-0\nnode-1\nnode-2\nnode-3\n' >"$T/hosts"
    if smpicc -O1 -o "$T/stencil2d-sg" "$SRCDIR/examples/mpi/stencil2d.c" "$SRCDIR/examples/mpi/pairs.c" \
        -I"$SRCDIR/examples/mpi" -lm -lz >"$T/sgcc.log" 2>&1 &&
        (cd "$T" && smpirun -trace-ti --cfg=tracing/filename:sg -np 4 \
            -platform "$SRCDIR/test/data/simgrid/platform.xml" -hostfile hosts \
            ./stencil2d-sg $(args_of stencil2d) >sg.stdout 2>sg.err); then
        check simgrid-stencil2d-4 "$T/sg" "$T/sg.stdout"
        if cmp -s "$T/r-simgrid-stencil2d-4/pairs.csv" "$T/r-ompi-stencil2d-4/pairs.csv"; then
            pass "simgrid: the stencil's SimGrid trace and its PMPI capture replay with the same traffic matrix"
        else
            fail "simgrid: the SimGrid trace's traffic matrix differs from the PMPI capture's"
        fi
    else
        cat "$T/sgcc.log" "$T/sg.err" 2>/dev/null; fail "simgrid: smpicc/smpirun failed"
    fi
else
    echo "note: SimGrid part skipped (no smpicc / smpirun: apt-get install libsimgrid-dev)"
fi
finish
