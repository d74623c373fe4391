# test/cli/bad_yaml.sh — bad experiment files and overrides: every one must
# give exit status 2, a message on stderr (FILE:LINE:COL for errors in the
# file) and no output directory or file.
. "$(dirname "$0")/lib.sh"

LOC='exp\.yaml:[0-9]+:[0-9]+'

# mk NAME [sed expression]: $T/NAME.yaml = the small experiment, edited.
mk() {
    if [ $# -gt 1 ]; then small_exp | sed -e "$2" >"$T/$1.yaml"; else small_exp >"$T/$1.yaml"; fi
}

mk unknown_key 's/^  vcs: 2/  vcss: 2/'
expect_bad unknown_key "$LOC.*vcss" run exp.yaml

mk unknown_section 's/^output:/outptu:/'
expect_bad unknown_section "$LOC" run exp.yaml

mk wrong_type 's/^  vcs: 2/  vcs: two/'
expect_bad wrong_type "$LOC" run exp.yaml

mk wrong_type_rate 's/^  rate: 0.1/  rate: [0.1]/'
expect_bad wrong_type_rate "$LOC" run exp.yaml

mk zero_vcs 's/^  vcs: 2/  vcs: 0/'
expect_bad zero_vcs "$LOC" run exp.yaml

mk zero_packet_flits 's/^  packet_flits: 4/  packet_flits: 0/'
expect_bad zero_packet_flits "$LOC" run exp.yaml

mk zero_buffer_flits 's/^  buffer_flits: 4/  buffer_flits: 0/'
expect_bad zero_buffer_flits "$LOC" run exp.yaml

mk negative_vcs 's/^  vcs: 2/  vcs: -1/'
expect_bad negative_vcs "$LOC" run exp.yaml

mk negative_rows 's/rows: 4/rows: -4/'
expect_bad negative_rows "$LOC" run exp.yaml

mk unknown_topology 's/^  topology: mesh/  topology: torusx/'
expect_bad unknown_topology "$LOC.*mesh" run exp.yaml

mk unknown_router 's/^  router: ecube/  router: nosuchrouter/'
expect_bad unknown_router "$LOC.*ecube" run exp.yaml

mk invalid_yaml 's/^network:/network: [/'
expect_bad invalid_yaml "$LOC" run exp.yaml

mk bad_schema_version 's/^mppnet: 1/mppnet: 99/'
expect_bad bad_schema_version "$LOC" run exp.yaml

mk bad_sweep_key
echo 'sweep: {workload.nosuchkey: [1, 2]}' >>"$T/bad_sweep_key.yaml"
expect_bad bad_sweep_key "$LOC|nosuchkey" run exp.yaml

mk bad_sweep_value
echo 'sweep: {network.vcs: [2, zero]}' >>"$T/bad_sweep_value.yaml"
expect_bad bad_sweep_value "$LOC" run exp.yaml

# Hypercubes: a node count that is not a power of two, dimension 0.
mk hypercube_nodes
expect_bad hypercube_nodes "power.of.two" run exp.yaml \
    network.topology=hypercube network.hypercube.nodes=12
mk hypercube_dim0
expect_bad hypercube_dim0 "dim|hypercube" run exp.yaml \
    network.topology=hypercube network.hypercube.dim=0

# The engine must refuse a router that needs more VCs than configured:
# two message classes cannot share one VC.
mk too_few_vcs
expect_bad too_few_vcs "[Vv][Cc]" run exp.yaml network.vcs=1 network.message_classes=2
mk too_few_vcs_check
mk valiant_one_vc
expect_bad valiant_one_vc "multiple of 2" run exp.yaml network.router=valiant network.vcs=1
mk romm_k3_two_vcs
expect_bad romm_k3_two_vcs "multiple of 3" run exp.yaml network.router=romm network.romm.k=3
expect_bad too_few_vcs_check "[Vv][Cc]" check exp.yaml network.vcs=1 network.message_classes=2

# Overrides that are not key.path=value, or whose value is not YAML.
mk override_no_eq
expect_bad override_no_eq "foo" run exp.yaml foo
mk override_bad_yaml
expect_bad override_bad_yaml "network.vcs" run exp.yaml 'network.vcs=['
mk override_empty_key
expect_bad override_empty_key "=3" run exp.yaml =3
mk override_unknown_key
expect_bad override_unknown_key "command line.*nosuch" run exp.yaml network.nosuch=3
mk override_zero
expect_bad override_zero "command line.*vcs" run exp.yaml network.vcs=0

# An error found when a run is set up (after the file is read) points at
# the line of the value: in the workload section, and in a sweep.
cat >"$T/setup_error.yaml" <<'YAML'
mppnet: 1
name: bad
machine: cm5
workload:
  type: schedule
  gen: random-regular
  d: 40
YAML
expect_bad setup_error "exp\.yaml:7:6: workload\.d = 40" run exp.yaml
sed -e 's/^  d: 40/  d: 4/' "$T/setup_error.yaml" >"$T/setup_error_sweep.yaml"
printf 'sweep:\n  workload.d: [4, 40]\n' >>"$T/setup_error_sweep.yaml"
expect_bad setup_error_sweep "exp\.yaml:9:19: run 1 .*workload\.d = 40" run exp.yaml
sed -e 's/^  d: 40/  d: 4/' "$T/setup_error.yaml" >"$T/setup_error_zip.yaml"
printf 'sweep:\n  network.cm5-fattree.nodes+workload.d: [[32, 4], [32, 40]]\n' \
    >>"$T/setup_error_zip.yaml"
expect_bad setup_error_zip "exp\.yaml:9:56: run 1 .*workload\.d = 40" run exp.yaml

# Files that are not there or not YAML experiments.
mkdir -p "$T/missing_file"
expect_bad missing_file "nonexistent\.yaml" run nonexistent.yaml
printf 'just a string\n' >"$T/not_a_mapping.yaml"
expect_bad not_a_mapping "exp\.yaml" run exp.yaml
: >"$T/empty_file.yaml"
expect_bad empty_file "exp\.yaml" run exp.yaml

finish
