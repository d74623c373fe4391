# test/cli/bad_node.sh — bad node, machine-preset, messages- and collective-workload
# input: every case must give exit status 2, a clear message on stderr and
# no output directory or file. Also checks that `mppnet list presets`
# shows the shipped presets.
. "$(dirname "$0")/lib.sh"

# A small messages experiment on the CM-5 preset (32 nodes): a random
# permutation of 64-byte messages; extra YAML lines as arguments.
msg_exp() {
    cat <<'YAML'
mppnet: 1
name: msgs
machine: cm5
workload:
  type: messages
  shape: permutation
  pattern: randperm
  bytes: 64
output:
  dir: out
  plot: false
YAML
    for line in "$@"; do printf '%s\n' "$line"; done
}

# mk NAME [sed expression]: $T/NAME.yaml = the messages experiment, edited.
mk() {
    if [ $# -gt 1 ]; then msg_exp | sed -e "$2" >"$T/$1.yaml"; else msg_exp >"$T/$1.yaml"; fi
}

# The experiment itself must be good, or every case below proves nothing.
mk good
mkdir -p "$T/good"
cp "$T/good.yaml" "$T/good/exp.yaml"
if expect_status good 0 "$T/good" check exp.yaml; then
    pass "the messages experiment on machine: cm5 is valid"
else
    finish
fi

# Node parameters that must be at least 1.
mk send_fifo_zero
expect_bad send_fifo_zero "node\.send_fifo_packets.*between 1" run exp.yaml \
    node.send_fifo_packets=0
mk recv_fifo_zero
expect_bad recv_fifo_zero "node\.recv_fifo_packets.*between 1" run exp.yaml \
    node.recv_fifo_packets=0
mk interfaces_zero
expect_bad interfaces_zero "node\.interfaces.*between 1" run exp.yaml node.interfaces=0
mk send_fifo_zero_file 's/^workload:/node: {send_fifo_packets: 0}\nworkload:/'
expect_bad send_fifo_zero_file "exp\.yaml:[0-9]+:[0-9]+.*send_fifo_packets" run exp.yaml

# Node counts the CM-5 fat tree cannot build (m x 4^h, m = 1, 2, 3).
mk fattree_20
expect_bad fattree_20 "cm5-fattree.*20.*(16|32)" run exp.yaml network.cm5-fattree.nodes=20
mk fattree_5
expect_bad fattree_5 "cm5-fattree.*5.*(4|8)" run exp.yaml network.cm5-fattree.nodes=5

# An unknown preset: the message lists the known ones.
mk unknown_preset 's/^machine: cm5/machine: cm6/'
expect_bad unknown_preset "exp\.yaml:[0-9]+:[0-9]+.*cm6.*cm5.*hypercube.*paragon" run exp.yaml
mk unknown_preset_override
expect_bad unknown_preset_override "command line.*cm6.*cm5.*hypercube.*paragon" run exp.yaml \
    machine=cm6
mk unknown_preset_check 's/^machine: cm5/machine: cm6/'
expect_bad unknown_preset_check "cm6.*cm5.*hypercube.*paragon" check exp.yaml

# Keys that do not exist, under a preset.
mk preset_bad_topology_key
expect_bad preset_bad_topology_key "levels.*nodes, node_links, parents" run exp.yaml \
    network.cm5-fattree.levels=2
mk preset_bad_node_key
expect_bad preset_bad_node_key "cpu_ghz.*cpu_mhz" run exp.yaml node.cpu_ghz=1
mk preset_bad_node_key_file 's/^workload:/node:\n  cpu_ghz: 1\nworkload:/'
expect_bad preset_bad_node_key_file "exp\.yaml:[0-9]+:[0-9]+.*cpu_ghz.*cpu_mhz" run exp.yaml

# node.ports: all where no node would have a second link (a 1x2 mesh, a
# hypercube of dimension 1): refused, located at the key in the file, or
# naming it when given on the command line.
small_exp | sed -e 's/rows: 4, cols: 4/rows: 1, cols: 2/' \
    -e 's/^workload:/node:\n  ports: all\nworkload:/' >"$T/ports_all_1x2.yaml"
expect_bad ports_all_1x2 "exp\.yaml:[0-9]+:[0-9]+.*node\.ports: all.*mesh.*no node has more than one link" \
    run exp.yaml
small_exp >"$T/ports_all_hcube1.yaml"
expect_bad ports_all_hcube1 "node\.ports: all.*hypercube.*no node has more than one link" run exp.yaml \
    network.topology=hypercube network.hypercube.dim=1 node.ports=all
small_exp >"$T/ports_bad_value.yaml"
expect_bad ports_bad_value "node\.ports.*auto.*one.*all" run exp.yaml node.ports=two

# nic: model needs processors, i.e. the messages workload.
small_exp >"$T/nic_model_synthetic.yaml"
expect_bad nic_model_synthetic "nic.*model.*messages" run exp.yaml \
    network.nic=model workload.type=synthetic
# (a workload's keys belong to it: the other types get a file of their own)
printf 'mppnet: 1\nmachine: cm5\nworkload: {type: synthetic}\noutput: {dir: out}\n' \
    >"$T/preset_synthetic.yaml"
expect_bad preset_synthetic "nic.*model.*messages" run exp.yaml
printf 'mppnet: 1\nmachine: cm5\nworkload: {type: permutation, pattern: randperm}\n' \
    >"$T/preset_permutation_type.yaml"
expect_bad preset_permutation_type "nic.*model.*messages" run exp.yaml
mk other_type_key
expect_bad other_type_key "unknown key 'workload.shape'.*key of workload type messages" \
    run exp.yaml workload.type=synthetic

# Bad [src, dst, bytes] triples in a send list.
mk sends_self
expect_bad sends_self "sends\[0\].*different nodes" run exp.yaml \
    workload.shape=list 'workload.sends=[[0, 0, 16]]'
mk sends_out_of_range
expect_bad sends_out_of_range "sends\[0\].*99.*below 32" run exp.yaml \
    workload.shape=list 'workload.sends=[[0, 99, 16]]'
mk sends_second_bad
expect_bad sends_second_bad "sends\[1\]" run exp.yaml \
    workload.shape=list 'workload.sends=[[0, 1, 16], [2, 2, 16]]'
mk sends_pair
expect_bad sends_pair "workload\.sends" run exp.yaml \
    workload.shape=list 'workload.sends=[[0, 1]]'

# A gather whose receiver (or sender count) the network does not have.
mk gather_receiver
expect_bad gather_receiver "gather.*receiver.*32" run exp.yaml \
    workload.shape=gather workload.senders=4 workload.receiver=32
mk gather_senders
expect_bad gather_senders "gather.*senders.*40" run exp.yaml \
    workload.shape=gather workload.senders=40 workload.receiver=31

# Bad choices for the messages keys.
mk bad_paradigm
expect_bad bad_paradigm "paradigm.*sync, async, am, am_put" run exp.yaml workload.paradigm=cmmd
mk bad_shape
expect_bad bad_shape "shape.*permutation, gather, list" run exp.yaml workload.shape=scatter
mk bad_delivery
expect_bad bad_delivery "delivery.*poll, interrupt" run exp.yaml node.delivery=dma
# the CMMD costs of the CM-5 refit: integers in range, named in the error
mk bad_phase
expect_bad bad_phase "node\.phase_cycles.*between 0" run exp.yaml node.phase_cycles=-1
mk bad_sendrecv
expect_bad bad_sendrecv "node\.sendrecv_cycles.*integer" run exp.yaml node.sendrecv_cycles=lots
mk bad_handshake
expect_bad bad_handshake "node\.handshake_cycles" run exp.yaml node.handshake_cycles=1e12
mk bad_match
expect_bad bad_match "node\.async_match_cycles.*integer" run exp.yaml node.async_match_cycles=-3
# the message switch and the DMA engines' costs
mk bad_switch
expect_bad bad_switch "node\.switch_cycles.*integer" run exp.yaml node.switch_cycles=-1
mk bad_dma_packet
expect_bad bad_dma_packet "node\.dma_packet_cycles" run exp.yaml node.dma_packet_cycles=2e9
mk bad_dma_word
expect_bad bad_dma_word "node\.dma_word_cycles.*integer" run exp.yaml node.dma_word_cycles=fast
mk bad_dma_stream
expect_bad bad_dma_stream "node\.dma_stream.*true or false" run exp.yaml node.dma_stream=maybe
mk bad_nic
expect_bad bad_nic "nic.*ideal, model, dma" run exp.yaml network.nic=coprocessor
# the schedule workload's new keys
cat >"$T/sched.yaml" <<'YAML'
mppnet: 1
machine: cm5
network: {cm5-fattree: {nodes: 16}}
workload: {type: schedule, scheduler: cgm, d: 3, msg_unit: 16}
output: {dir: out, plot: false}
YAML
for c in "bad_sched_paradigm|paradigm.*published, sync|workload.paradigm=sync2" \
         "bad_reuse|workload\.reuse.*between 1|workload.reuse=0" \
         "bad_recv_vector|recv_vector.*reduce, concat|workload.scheduler=drs_n workload.drs_n.recv_vector=gather" \
         "bad_pack|workload\.pack.*true or false|workload.pack=sometimes"; do
    IFS='|' read -r name pat ov <<<"$c"
    cp "$T/sched.yaml" "$T/$name.yaml"
    # shellcheck disable=SC2086
    expect_bad "$name" "$pat" run exp.yaml $ov
    [ -e "$T/$name/out" ] && fail "$name: wrote $T/$name/out"
done

# The collective workload: a tree collective on a group that is not a power
# of two, a root out of range, a chunk larger than the message, an unknown
# collective, a plan too large (refused before anything is planned).
cat >"$T/coll.yaml" <<'YAML'
mppnet: 1
name: coll
machine: hypercube
network: {hypercube: {dim: 3}}
workload: {type: collective, collective: binomial, bytes: 256}
output: {dir: out, plot: false}
YAML
for c in "coll_not_cube|msbt needs a power-of-two.*7 .*linear runs on any size|network.topology=mesh network.mesh.rows=1 network.mesh.cols=7 workload.collective=msbt" \
         "coll_root|workload\.root = 8 is out of range.*0\.\.7|workload.root=8" \
         "coll_chunk|workload\.chunk = 512 bytes is larger than the message|workload.chunk=512" \
         "coll_unknown|command line: workload\.collective=tree.*unknown collective 'tree'.*binomial, msbt|workload.collective=tree" \
         "coll_array|workload\.array 3x3 does not cover the machine's 8 nodes|workload.groups=rows workload.array=3x3" \
         "coll_size|binomial on 8 processors would send its pieces over an edge 5\.87e\+07 times, more than 16777216|workload.bytes=64MiB workload.chunk=8"; do
    IFS='|' read -r name pat ov <<<"$c"
    cp "$T/coll.yaml" "$T/$name.yaml"
    # shellcheck disable=SC2086
    expect_bad "$name" "$pat" run exp.yaml $ov
    [ -e "$T/$name/out" ] && fail "$name: wrote $T/$name/out"
done

# A positive check: the presets are listed.
if expect_status list_presets 0 "$T" list presets; then
    for name in cm5 paragon hypercube; do
        grep -Eq "^  $name " "$T/list_presets.out" || fail "list presets: no entry '$name'"
    done
    grep -Eq '^  (mesh|ecube|uniform) ' "$T/list_presets.out" &&
        fail "list presets: shows other families"
    pass "list presets"
fi

finish
