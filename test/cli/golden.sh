# test/cli/golden.sh — golden runs: small experiments (test/golden/*.yaml)
# whose results.csv (and, for the machine run, messages.csv) must match the
# checked-in files byte for byte, also with -j 2. A change that alters any
# simulated number fails here; if the change is intended, regenerate with
#   for g in synthetic permutation machine; do
#     build/mppnet run test/golden/$g.yaml -o /tmp/g --quiet &&
#     cp /tmp/g/results.csv test/golden/$g.csv; done
#   cp /tmp/g/messages.csv test/golden/machine.messages.csv   (after machine)
# and say why in the commit.
. "$(dirname "$0")/lib.sh"

G=$SRCDIR/test/golden
for g in synthetic permutation machine; do
    for j in 1 2; do
        expect_status "$g-j$j" 0 "$T" run "$G/$g.yaml" -o "$T/$g-j$j" -j "$j" --quiet || continue
        if ! cmp -s "$G/$g.csv" "$T/$g-j$j/results.csv"; then
            fail "$g (-j $j): results.csv differs from test/golden/$g.csv"
            diff "$G/$g.csv" "$T/$g-j$j/results.csv" | head -6 >&2
        fi
        if [ "$g" = machine ] && ! cmp -s "$G/machine.messages.csv" "$T/$g-j$j/messages.csv"; then
            fail "machine (-j $j): messages.csv differs from test/golden/machine.messages.csv"
        fi
    done
done
pass "golden runs match"
finish
