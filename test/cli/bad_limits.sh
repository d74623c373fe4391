# test/cli/bad_limits.sh — inputs that are too large, endless, or that
# would overflow: each is refused at once (exit 2, a message naming the
# file and line, or the run and operation), before memory is taken and
# before any output is written. Sizes read from a file are checked against
# the documented limits (docs/formats.md) and against what the file can
# hold; packet counts and times are 64-bit with overflow checks; only
# regular files are read; paths read from a file stay inside the working
# folder.
. "$(dirname "$0")/lib.sh"

IN=$T/in
mkdir -p "$IN"
H='%%MatrixMarket matrix coordinate integer general'

# quick NAME PATTERN CMD...: expect_bad, and within 2 seconds
# (2 s; MPPNET_TIME_SCALE times that under the sanitizers, see test/meson.build)
quick() {
    local name=$1 start end limit=$((2000 * ${MPPNET_TIME_SCALE:-1}))
    start=$(date +%s%N)
    expect_bad "$@"
    end=$(date +%s%N)
    [ $(((end - start) / 1000000)) -le $limit ] ||
        fail "$name: took $(((end - start) / 1000000)) ms, expected well under $limit ms"
}

# --- communication matrices -------------------------------------------------
printf '%s\n4294967295 4294967295 0\n' "$H" >"$IN/big.mtx"
quick com_dim 'big\.mtx:2: 4294967295 processors, expected at most 1048576' com info "$IN/big.mtx"
quick schedule_dim 'big\.mtx:2: 4294967295 processors' schedule --alg cgm "$IN/big.mtx"
printf '%s\n4 4 4294967295\n1 2 3\n' "$H" >"$IN/nnz.mtx"
quick com_nnz 'nnz\.mtx:2: nnz 4294967295 is more than' com info "$IN/nnz.mtx"
printf '%s\n100000 100000 50000000\n1 2 3\n' "$H" >"$IN/short.mtx"
quick com_nnz_file 'short\.mtx:2: .*more than the rest of the file can hold' com info "$IN/short.mtx"
# data after the gzip stream is an error, not ignored
printf '%s\n2 2 1\n1 2 3\n' "$H" | gzip -c >"$IN/trail.mtx.gz"
printf 'trailing bytes\n' >>"$IN/trail.mtx.gz"
quick com_gz_trailing 'trail\.mtx\.gz:.*data after the end of the gzip stream' \
    com info "$IN/trail.mtx.gz"
# a line far longer than any valid one
{ printf '%s\n2 2 1\n1 2 ' "$H"; head -c 100000 /dev/zero | tr '\0' 7; echo; } >"$IN/long.mtx"
quick com_long_line 'long\.mtx:3: line longer than' com info "$IN/long.mtx"
quick com_binary 'NUL byte|not a text' com info /bin/sh
quick com_gen_n '--n needs a whole number from 1 to 1048576' \
    com gen --gen random-regular --n 4294967295 --d 1 -o "$T/x.mtx"
quick com_gen_nnz 'at most 1048576 processors and 67108864 entries' \
    com gen --gen random-regular --n 65536 --d 2048 -o "$T/x.mtx"
[ -e "$T/x.mtx" ] && fail "com gen: a refused matrix was written"

# --- graphs and meshes ----------------------------------------------------------
printf '4294967295 1\n2\n1\n' >"$IN/big.graph"
quick graph_vertices 'big\.graph:1: ' com partition "$IN/big.graph" --parts 2
printf '3 4294967295\n2\n1 3\n2\n' >"$IN/edges.graph"
quick graph_edges 'edges\.graph:1: the edge count' com partition "$IN/edges.graph" --parts 2
printf '100000000 1\n2\n1\n' >"$IN/many.graph"
quick graph_capacity 'many\.graph:1: .*more than the rest of the file can hold' \
    com partition "$IN/many.graph" --parts 2
printf '$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4294967295\n1 0 0 0\n$EndNodes\n' \
    >"$IN/big.msh"
quick mesh_nodes 'big\.msh:5: the node count 4294967295' com partition "$IN/big.msh" --parts 2
printf '$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n100000000\n1 0 0 0\n$EndNodes\n' \
    >"$IN/many.msh"
quick mesh_capacity 'many\.msh:5: .*more than the rest of the file can hold' \
    com partition "$IN/many.msh" --parts 2

# --- traces ---------------------------------------------------------------------------
cat >"$IN/cm5.yaml" <<'YAML'
mppnet: 1
machine: cm5
network: {cm5-fattree: {nodes: 4}}
workload: {type: messages}
YAML
trace() { printf '# mppnet message trace 1\nnodes %s\ntime us\n%s\n' "$1" "$2" >"$IN/$3"; }
trace 16777217 '' nodes.trace
quick trace_nodes 'nodes\.trace:2: expected `nodes N` once, 1 <= N <= 16777216' \
    replay "$IN/cm5.yaml" --messages "$IN/nodes.trace"
trace 4 '1e300 0 1 16 0' t300.trace
quick trace_time_1e300 'issue time 1e\+300 us .* beyond' \
    replay "$IN/cm5.yaml" --messages "$IN/t300.trace"
trace 4 '1e17 0 1 16 0' t17.trace
quick trace_time_1e17 'COMPUTE of .* CPU cycles is more than' \
    replay "$IN/cm5.yaml" --messages "$IN/t17.trace"
trace 4 '0 0 1 18446744073709551615 0' bytes.trace
quick trace_bytes_2e64 'a message of 18446744073709551615 bytes is .* packets' \
    replay "$IN/cm5.yaml" --messages "$IN/bytes.trace"
trace 4 '0 0 1 18446744073709551616 0' bytes2.trace
quick trace_bytes_overflow 'bytes2\.trace:4: expected' \
    replay "$IN/cm5.yaml" --messages "$IN/bytes2.trace"
trace 4 '0 0 1 16 0 9' fields.trace
quick trace_fields 'fields\.trace:4: expected 5 fields .*, got more than 5' \
    replay "$IN/cm5.yaml" --messages "$IN/fields.trace"
trace 4 'nan 0 1 16 0' nan.trace
quick trace_time_nan 'nan\.trace:4: expected a time' \
    replay "$IN/cm5.yaml" --messages "$IN/nan.trace"
printf '# mppnet operation trace 1\nnodes 4\nconfig_hash 0123456789abcdef\nseed 1\n0 0 SEND 1 0 0 18446744073709551615 sync\n' \
    >"$IN/ops.trace"
quick optrace_bytes 'recorded on configuration|packets' \
    replay "$IN/cm5.yaml" --ops "$IN/ops.trace"
printf '# mppnet operation trace 1\nnodes 4\nconfig_hash 0123456789abcdef\nseed 1\n2 0 SEND 2 0 0 16 sync\n' \
    >"$IN/self.trace"
quick optrace_self 'operation 0: a message to itself' \
    sim --topology mesh:2x2 workload.type=optrace "workload.file=$IN/self.trace"
quick optrace_big 'a message of 18446744073709551615 bytes is .* packets' \
    sim --topology mesh:2x2 workload.type=optrace "workload.file=$IN/ops.trace"

# --- messages in an experiment: 64 GiB + 16 B, exactly 64 GiB, to itself ------------------
msgs() {
    printf 'mppnet: 1\nmachine: %s\nworkload: {type: messages, shape: list, sends: %s}\n' \
        "$1" "$2" >"$T/$3.yaml"
}
msgs cm5 '[[0, 1, 68719476752]]' msg_64g16_cm5
quick msg_64g16_cm5 'a message of 68719476752 bytes is 4294967297 packets' run exp.yaml -q
msgs cm5 '[[0, 1, 64GiB]]' msg_64g_cm5
quick msg_64g_cm5 'a message of 68719476736 bytes is 4294967296 packets' run exp.yaml -q
msgs hypercube '[[0, 1, 68719476752]]' msg_64g16_ideal
quick msg_64g16_ideal 'unbounded send FIFO' run exp.yaml -q
msgs hypercube '[[1, 1, 16]]' msg_self
quick msg_self 'two different nodes' run exp.yaml -q
msgs cm5 '[[0, 1, 16, 4]]' msg_list_count 'got a list of 4 items'
quick msg_list_count 'got a list of 4 items' run exp.yaml -q

# --- endless and oversized input --------------------------------------------------------
quick check_dev_zero 'not a regular file' check /dev/zero
quick plot_dev_zero 'not a regular file' plot /dev/zero -o "$T/p.png"
quick com_dev_zero 'not a regular file' com info /dev/zero
quick replay_dev_zero 'not a regular file' replay "$IN/cm5.yaml" --messages /dev/zero
mkfifo "$IN/fifo.yaml"
quick check_fifo 'not a regular file' check "$IN/fifo.yaml"
truncate -s 17M "$IN/huge.yaml"
quick yaml_too_big 'huge\.yaml: .*16 MiB' check "$IN/huge.yaml"
truncate -s 300M "$IN/huge.csv"
quick csv_too_big 'huge\.csv: .*256 MiB' plot "$IN/huge.csv" -o "$T/p.png"
# an experiment with 160000 keys is refused in linear time
{ echo "mppnet: 1"; echo "network:"; seq -f '  k%g: 1' 1 160000; } >"$IN/keys.yaml"
quick yaml_many_keys "keys\.yaml:3:3: unknown key 'network\.k1'" check "$IN/keys.yaml"
{ echo "mppnet: 1"; echo "network:"; seq -f '  k%g: 1' 1 80000; seq -f '  k%g: 1' 1 80000; } \
    >"$IN/dups.yaml"
quick yaml_dup_keys "dups\.yaml:80003:3: duplicate key 'k1'" check "$IN/dups.yaml"

# --- paths read from a file ---------------------------------------------------------------
small_exp | sed 's/^name: small/name: ..\/escape/' >"$T/path_name.yaml"
quick path_name "'\.\.'" run exp.yaml -q
small_exp | sed 's|dir: out|dir: /tmp/mppnet-abs-out|' >"$T/path_outdir.yaml"
quick path_outdir 'relative' run exp.yaml -q
[ -e /tmp/mppnet-abs-out ] && fail "path_outdir: an absolute output.dir from a file was used"
printf 'mppnet: 1\nmachine: cm5\nworkload: {type: schedule, scheduler: cgm, com: /etc/passwd}\n' \
    >"$T/path_com.yaml"
quick path_com 'relative' run exp.yaml -q
long=$(printf 'ab/%.0s' $(seq 1 1700))
small_exp >"$T/path_long.yaml"
quick path_long 'too long' run exp.yaml -q -o "$long"

# --- the network's records ---------------------------------------------------------------
# 64 VCs x 65535 flits on 12288 endpoints: refused before anything is allocated,
# with the size and the machine's memory (docs/performance.md, "Memory")
quick net_records "12288 channel endpoints need about 192 GiB, above this machine's memory" \
    sim --topology hypercube:10 --vcs 64 --buffer-flits 65535 --rate 0.1 -q

# --- the command line -----------------------------------------------------------------------
quick param_twice "parameter 'k' given twice" sim --router romm:k=3,k=4
quick option_ambiguous "ambiguous option '--log' \(--logx, --logy\)" plot x.csv --log

finish
