# test/cli/messages.sh — `mppnet run` with output.per_message: messages.csv
# (header, one row per delivered message, cycles = delivered - issue, the
# microsecond columns) and byte-identical files with -j 2.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
# CM-5 preset cut down to 16 nodes: nodes 0..3 each send 256 bytes to node 7.
# Two seeds, so that -j 2 really sends runs through the worker pipes.
cat >exp.yaml <<'YAML'
mppnet: 1
name: gather
machine: cm5
workload:
  type: messages
  shape: gather
  senders: 4
  receiver: 7
  bytes: 256
seeds: [1, 2]
output:
  dir: out
  plot: false
YAML
OV="network.cm5-fattree.nodes=16"
HEADER='run,src,dst,bytes,packets,issue,first_inject,delivered,cycles,hops,issue_us,first_inject_us,delivered_us'

expect_status msg1 0 "$T" run exp.yaml -o m1 --quiet "$OV" output.per_message=true || finish
[ -s m1/messages.csv ] || fail "messages.csv missing or empty"
head -1 m1/messages.csv | grep -qx "$HEADER" || fail "messages.csv header: $(head -1 m1/messages.csv)"
for run in 0 1; do
    rows=$(grep -c "^$run," m1/messages.csv)
    [ "$rows" -ge 3 ] && [ "$rows" -le 4 ] || fail "messages.csv: run $run has $rows rows, expected 3 or 4"
done
# Every row: 13 fields, a sender 0..3 to node 7, 256 bytes, cycles =
# delivered - issue, issue <= first_inject <= delivered, us = cycles / 5 MHz.
awk -F, 'NR > 1 {
    if (NF != 13 || $2 > 3 || $3 != 7 || $4 != 256 || $9 != $8 - $6 || $6 > $7 || $7 > $8)
        bad = 1
    if ($13 - $8 / 5 > 1e-9 || $8 / 5 - $13 > 1e-9)
        bad = 1
} END { exit bad }' m1/messages.csv || fail "messages.csv: bad rows:$(sed 's/^/ /' m1/messages.csv)"
# The row count agrees with the messages column of results.csv.
col=$(head -1 m1/results.csv | tr ',' '\n' | grep -nx messages | cut -d: -f1)
if [ -n "$col" ]; then
    want=$(awk -F, -v c="$col" 'NR > 1 { s += $c } END { print s }' m1/results.csv)
    [ "$(($(wc -l <m1/messages.csv) - 1))" -eq "$want" ] ||
        fail "messages.csv rows differ from results.csv messages ($want)"
else
    fail "results.csv has no messages column"
fi
ls -a m1 | grep -q '\.tmp' && fail "temporary files left in m1"
pass "messages.csv"

expect_status msg2 0 "$T" run exp.yaml -o m2 -j 2 --quiet "$OV" output.per_message=true || finish
cmp -s m1/messages.csv m2/messages.csv || fail "-j 2: messages.csv differs from -j 1"
cmp -s m1/results.csv m2/results.csv || fail "-j 2: results.csv differs from -j 1"
pass "-j 2 gives the same messages.csv"

# Off by default.
expect_status msg3 0 "$T" run exp.yaml -o m3 --quiet "$OV" || finish
[ -e m3/messages.csv ] && fail "messages.csv written without output.per_message"
cmp -s m1/results.csv m3/results.csv || fail "output.per_message changed results.csv"
pass "output.per_message is off by default"

finish
