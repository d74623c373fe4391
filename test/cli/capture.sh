# test/cli/capture.sh — `mppnet capture` and libmppcapture.so on a tiny MPI
# program (4 ranks, oversubscribed): the files of a capture folder, the
# lines of a few calls (wildcard receives as they matched, a nonblocking
# exchange, a collective, a Comm_split with its members in world ranks, a
# sendrecv with an MPI_PROC_NULL side, an unsupported call), and the
# errors: a folder that is not empty and a command that does not exist
# (exit 2, nothing created), a program that exits 3 and one that aborts
# before MPI_Finalize (exit 1, no complete-looking trace), the library
# preloaded without MPPNET_CAPTURE_DIR (one warning, nothing written).
# Skipped (77) when the build has no capture library or mpicc/mpirun are
# missing. Builds nothing of mppnet; compiles the program with mpicc.
. "$(dirname "$0")/lib.sh"

LIB=$(dirname "$MPPNET")/traces/capture/libmppcapture.so
skip() { echo "SKIP: no MPI (install libopenmpi-dev openmpi-bin): $*"; exit 77; }
[ -f "$LIB" ] || skip "this build has no $LIB"
# The MPI the library was built with: MPICH's tools for an MPICH build.
if ldd "$LIB" 2>/dev/null | grep -q libmpich; then
    MPICC=mpicc.mpich MPIRUN=(mpirun.mpich)
else
    MPICC=mpicc.openmpi MPIRUN=(mpirun.openmpi --allow-run-as-root --oversubscribe)
    command -v "$MPICC" >/dev/null 2>&1 || MPICC=mpicc
    command -v "${MPIRUN[0]}" >/dev/null 2>&1 || MPIRUN[0]=mpirun
fi
command -v "$MPICC" >/dev/null 2>&1 || skip "no $MPICC"
command -v "${MPIRUN[0]}" >/dev/null 2>&1 || skip "no ${MPIRUN[0]}"

cd "$T" || exit 1
cat >prog.c <<'C'
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
/* prog [exit N | abort] */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, v = 0, buf[8] = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && !strcmp(argv[1], "abort")) {
        if (rank == 1)
            MPI_Abort(MPI_COMM_WORLD, 5);
        MPI_Recv(buf, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0) {
        for (int i = 1; i < size; i++)
            MPI_Recv(buf, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(buf, rank, MPI_INT, 0, 10 + rank, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* no later message can match those wildcards */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request r[2];
    MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&rank, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Allreduce(&rank, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    MPI_Bcast(buf, 2, MPI_DOUBLE, 0, half);
    MPI_Comm_free(&half);
    MPI_Sendrecv(&rank, 1, MPI_INT, rank == 0 ? MPI_PROC_NULL : left, 3, &v, 1, MPI_INT,
                 rank == size - 1 ? MPI_PROC_NULL : right, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return argc > 2 && !strcmp(argv[1], "exit") ? atoi(argv[2]) : 0;
}
C
"$MPICC" -o prog prog.c 2>cc.err || { fail "$MPICC prog.c: $(head -5 cc.err)"; finish; }

# 1. a capture
rc=0
"$MPPNET" capture -o cap -- "${MPIRUN[@]}" -np 4 ./prog >cap.out 2>cap.err </dev/null || rc=$?
if [ "$rc" != 0 ]; then
    fail "capture: exit $rc: $(tail -5 cap.err)"
    finish
fi
grep -qx "captured 4 ranks into $T/cap" cap.out && pass "capture: $(cat cap.out)" ||
    fail "capture: stdout: $(cat cap.out)"
ls -A cap | sort >files
printf '%s\n' capture.mpt rank-0.mpt.gz rank-1.mpt.gz rank-2.mpt.gz rank-3.mpt.gz | cmp -s - files &&
    pass "capture: the files of the folder" || fail "capture: files: $(tr '\n' ' ' <files)"
grep -qx 'mpptrace 1' cap/capture.mpt && grep -qx 'ranks 4' cap/capture.mpt &&
    grep -Eqx 'host_ops_per_s [1-9][0-9]*' cap/capture.mpt && grep -q '^library .' cap/capture.mpt &&
    pass "capture.mpt: $(tr '\n' ';' <cap/capture.mpt | cut -c1-80)" ||
    fail "capture.mpt: $(cat cap/capture.mpt)"
for r in 0 1 2 3; do zcat "cap/rank-$r.mpt.gz" >"r$r" || fail "rank $r: not gzip"; done
# header, an end line last, CPU times first on every line
for r in 0 1 2 3; do
    [ "$(head -1 "r$r")" = "mpptrace 1 rank $r ranks 4" ] || fail "rank $r: header $(head -1 "r$r")"
    tail -1 "r$r" | grep -Eqx 'end [0-9]+' || fail "rank $r: last line $(tail -1 "r$r")"
    sed '1d;$d' "r$r" | grep -Evq '^[0-9]+ [a-z_]+( |$)' && fail "rank $r: a line without CPU time"
    grep -q ' unsupported MPI_Win_create$' "r$r" || fail "rank $r: no unsupported MPI_Win_create"
    grep -Eq '^[0-9]+ allreduce 0 4$' "r$r" || fail "rank $r: no allreduce 0 4"
    grep -Eq '^[0-9]+ barrier 0$' "r$r" || fail "rank $r: no barrier 0"
done
# rank 0: three wildcard receives, as they matched (source, tag 10+source, 4 x source bytes)
got=$(awk '$2 == "recv" && $4 != 3 { print $3, $4, $5, $6 }' r0 | sort | tr '\n' ';')
[ "$got" = "1 11 0 4;2 12 0 8;3 13 0 12;" ] && pass "wildcard receives as matched: $got" ||
    fail "rank 0 receives: $got"
# the ring: irecv posted with wildcards, its completion with the status (from the left)
for r in 0 1 2 3; do
    left=$(((r + 3) % 4)) right=$(((r + 1) % 4))
    grep -Eq "^[0-9]+ irecv -1 7 0 0$" "r$r" && grep -Eq "^[0-9]+ isend $right 7 0 4 1$" "r$r" &&
        grep -Eq "^[0-9]+ waitall 2 0/$left/7/4 1$" "r$r" || fail "rank $r: the ring: $(grep -E 'irecv|isend|waitall' "r$r" | tr '\n' ';')"
done
# comm_split: key size - rank orders each half by falling world rank
grep -Eq '^[0-9]+ comm_split 0 2 2 2 0$' r0 && grep -Eq '^[0-9]+ comm_split 0 2 2 3 1$' r1 &&
    grep -Eq '^[0-9]+ bcast 2 2 16$' r0 && grep -Eq '^[0-9]+ bcast 3 2 16$' r3 &&
    grep -Eq '^[0-9]+ comm_free 2$' r2 && pass "comm_split: members as world ranks, the root translated" ||
    fail "comm_split: $(grep -E 'comm_|bcast' r0 r1 | tr '\n' ';')"
# sendrecv: a side with MPI_PROC_NULL leaves the other alone
grep -Eq '^[0-9]+ recv 1 3 0 4$' r0 && grep -Eq '^[0-9]+ sendrecv 0 3 4 2 3 4 0$' r1 &&
    grep -Eq '^[0-9]+ send 2 3 0 4$' r3 && pass "sendrecv with an MPI_PROC_NULL side" ||
    fail "sendrecv: $(grep -E 'send' r0 r1 r3 | tr '\n' ';')"

# 2. errors: nothing created, exit 2
expect_status nonempty 2 "$T" capture -o cap -- "${MPIRUN[@]}" -np 4 ./prog &&
    grep -q 'cap exists and is not empty' nonempty.err && [ ! -s nonempty.out ] &&
    pass "a folder that is not empty: $(head -1 nonempty.err)" || fail "nonempty: $(cat nonempty.err)"
expect_status nocmd 2 "$T" capture -o new1 -- ./no-such-program &&
    grep -q 'command not found: ./no-such-program' nocmd.err && [ ! -e new1 ] &&
    pass "a command that does not exist: $(head -1 nocmd.err)" || fail "nocmd: $(cat nocmd.err)"
expect_status noargs 2 "$T" capture -o new2 && grep -q 'needs the command' noargs.err && [ ! -e new2 ] &&
    pass "no command: $(head -1 noargs.err)" || fail "noargs: $(cat noargs.err)"
expect_status noout 2 "$T" capture -- true && grep -q 'needs -o DIR' noout.err &&
    pass "no -o: $(head -1 noout.err)" || fail "noout: $(cat noout.err)"

# 3. a program that fails: exit 1, its status said
expect_status exit3 1 "$T" capture -o c3 -- "${MPIRUN[@]}" -np 2 ./prog exit 3 &&
    grep -q 'failed with exit status 3' exit3.err && [ ! -s exit3.out ] &&
    pass "a program that exits 3: $(grep 'mppnet:' exit3.err | head -1)" || fail "exit3: $(cat exit3.err)"
# a program that aborts before MPI_Finalize: no complete-looking trace
expect_status abort 1 "$T" capture -o c4 -- "${MPIRUN[@]}" -np 2 ./prog abort &&
    grep -q 'the trace in .*c4 is incomplete' abort.err &&
    [ -z "$(find c4 -name 'rank-*.mpt.gz' -o -name capture.mpt)" ] &&
    pass "a program that aborts: $(grep 'incomplete' abort.err | head -1)" ||
    fail "abort: $(cat abort.err); files: $(ls -A c4 | tr '\n' ' ')"

# 4. the library without MPPNET_CAPTURE_DIR: one warning (rank 0), nothing written
mkdir plain && (cd plain && env -u MPPNET_CAPTURE_DIR LD_PRELOAD="$LIB" "${MPIRUN[@]}" -np 2 ../prog) \
    >plain.out 2>plain.err </dev/null || fail "plain run: exit $?: $(tail -3 plain.err)"
[ "$(grep -c 'MPPNET_CAPTURE_DIR is not set' plain.err)" = 1 ] && [ -z "$(ls -A plain)" ] &&
    pass "without MPPNET_CAPTURE_DIR: $(grep mppcapture plain.err)" ||
    fail "without MPPNET_CAPTURE_DIR: $(cat plain.err); $(ls -A plain)"
finish
