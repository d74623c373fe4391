# test/cli/records.sh — run records that cannot lie (docs/formats.md, "Run
# records"). A damaged or crafted DIR/.mppnet/run-N.rec is never trusted
# and never fatal: `mppnet run --resume DIR` names it in a warning, removes
# it, runs its run again, exits 0, and leaves results.csv and channels.csv
# byte for byte as an untouched run's. Crafted: (a) a channel's name bytes
# all non-NUL (the heap over-read of the old reader), (b) the saturated
# bool byte 0x17 (undefined behaviour when loaded as _Bool), (c) one bit
# flipped in a result double (went into results.csv with exit 0), (d) a
# truncated record, (e) a record under another run's name, (f) a record of
# the older format. (a), (b) and (e) carry a correct checksum, as a crafted
# record can, so the field checks are what refuse them. A sound record of
# a run the experiment no longer has is a changed experiment: refused, kept.
#
# Run as: bash records.sh MPPNET SRCDIR TEST_RECORDS (test/test_records,
# whose --layout prints the offsets used here).
. "$(dirname "$0")/lib.sh"

LAYOUT_EXE=${3:?usage: bash records.sh MPPNET SRCDIR TEST_RECORDS}
case $LAYOUT_EXE in /*) ;; *) LAYOUT_EXE=$PWD/$LAYOUT_EXE ;; esac
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
cd "$T" || exit 1
"$LAYOUT_EXE" --layout >layout || { fail "test_records --layout"; finish; }
read -r _ HDR _ RES _ SAT _ ACC _ CHAN <layout

small_exp '  per_channel: true' 'seeds: [1, 2]' >exp.yaml
expect_status ref 0 "$T" run exp.yaml -o ref -q || finish
[ -s ref/channels.csv ] || fail "reference: no channels.csv"

# craft FILE MODE: change the record FILE in place (python3, offsets from
# the layout); reseal rewrites its trailing CRC-32 as a crafted record has.
craft() {
    python3 - "$1" "$2" "$HDR" "$RES" "$SAT" "$ACC" "$CHAN" <<'PY'
import struct, sys, zlib
path, mode = sys.argv[1], sys.argv[2]
hdr, res, sat, acc, chan = map(int, sys.argv[3:])
b = bytearray(open(path, 'rb').read())
nch = struct.unpack_from('=Q', b, 24)[0]
assert nch > 0, 'the record holds no channels'
def reseal():
    struct.pack_into('=I', b, len(b) - 4, zlib.crc32(bytes(b[:-4])) & 0xffffffff)
if mode == 'names':        # the last channel: 112 bytes, none of them NUL
    o = hdr + res + (nch - 1) * chan
    b[o:o + chan] = b'A' * chan
    reseal()
elif mode == 'bool':       # result.saturated = 0x17
    b[hdr + sat] = 0x17
    reseal()
elif mode == 'flip':       # one bit of result.accepted
    b[hdr + acc + 6] ^= 0x10
elif mode == 'truncate':
    del b[100:]
elif mode == 'renumber':   # the header says run 5
    struct.pack_into('=Q', b, 16, 5)
    reseal()
elif mode == 'old':
    b[0:8] = b'mpprun1\0'
open(path, 'wb').write(b)
PY
}

# damaged NAME MODE REASON [RECORD]: a copy of ref whose run-1.rec (or
# RECORD, copied to run-1.rec) was crafted in MODE resumes with exit 0, a
# warning naming the record and REASON (an extended regular expression), and the reference's files; a second
# resume finds both runs sound.
damaged() {
    local name=$1 mode=$2 reason=$3 src=${4:-run-1.rec}
    rm -rf "$name"
    cp -r ref "$name"
    cp "ref/.mppnet/$src" "$name/.mppnet/run-1.rec"
    [ -z "$mode" ] || craft "$name/.mppnet/run-1.rec" "$mode" || { fail "$name: craft"; return; }
    expect_status "$name" 0 "$T" run --resume "$name" -q || return
    grep -Eq "mppnet: warning: $name/\.mppnet/run-1\.rec: $reason" "$name.err" ||
        { fail "$name: no warning naming the record and '$reason': $(cat "$name.err")"; return; }
    grep -q "removed, run 1 is run again" "$name.err" || { fail "$name: not run again"; return; }
    cmp -s ref/results.csv "$name/results.csv" || { fail "$name: results.csv differs"; return; }
    cmp -s ref/channels.csv "$name/channels.csv" || { fail "$name: channels.csv differs"; return; }
    expect_status "$name.again" 0 "$T" run --resume "$name" || return
    grep -q "2 of 2 runs already done" "$name.again.err" && ! grep -q warning "$name.again.err" ||
        { fail "$name: the re-run's record is not sound: $(cat "$name.again.err")"; return; }
    pass "$name: $(grep -o 'run-1.rec: .*' "$name.err")"
}

damaged names names "channel [0-9]+: its from name is not NUL-terminated within its 48 bytes"
damaged bool bool "result.saturated is byte 0x17, not 0 or 1"
damaged flip flip "checksum mismatch \(CRC-32 [0-9a-f]{8} stored"
damaged truncate truncate "truncated: 100 bytes"
damaged swapped "" "it holds run 0, not the run of its name" run-0.rec
damaged old old "not a run record of this mppnet version"

# A sound record of a run the experiment does not have (run-5.rec, holding
# run 5, of 2 runs): a changed experiment, refused and kept.
rm -rf beyond
cp -r ref beyond
cp ref/.mppnet/run-1.rec beyond/.mppnet/run-5.rec
craft beyond/.mppnet/run-5.rec renumber
expect_status beyond 2 "$T" run --resume beyond -q &&
    grep -q "differs from the one beyond was run with: 1 finished run (5)" beyond.err &&
    [ -f beyond/.mppnet/run-5.rec ] &&
    pass "a sound record beyond the experiment's runs: a changed experiment, refused" ||
    fail "beyond: $(cat beyond.err)"

finish
