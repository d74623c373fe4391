# test/cli/bad_args.sh — bad command lines: exit status 2, a one-line
# message plus "see 'mppnet CMD --help'" on stderr, nothing written.
. "$(dirname "$0")/lib.sh"

small_exp >"$T/exp.yaml"
# with_exp NAME: give case NAME the small experiment as exp.yaml
with_exp() { cp "$T/exp.yaml" "$T/$1.yaml"; }

expect_bad no_command "usage|mppnet" 
expect_bad unknown_command "unknown command 'frobnicate'" frobnicate
expect_bad unknown_top_option "unknown option" --frobnicate

with_exp run_unknown_flag
expect_bad run_unknown_flag "unknown option '--frob'" run exp.yaml --frob
grep -q "see 'mppnet run --help'" "$T/run_unknown_flag.err" || fail "run_unknown_flag: no help pointer"
expect_bad run_no_file "missing the experiment file" run
with_exp run_o_no_value
expect_bad run_o_no_value "needs a value" run exp.yaml -o
for j in 0 257 abc -1 2x; do
    with_exp "run_bad_jobs_$j"
    expect_bad "run_bad_jobs_$j" "jobs|-j" run exp.yaml -j "$j"
done
with_exp run_extra_positional
expect_bad run_extra_positional "malformed override 'other\.yaml'" run exp.yaml other.yaml

expect_bad check_unknown_flag "unknown option" check --frob
expect_bad check_no_file "missing the experiment file" check

expect_bad list_unknown_family "unknown family" list nosuchfamily
expect_bad bench_unknown_workload "unknown workload" bench --only z
expect_bad bench_unknown_flag "unknown option" bench --frob

expect_bad sim_unknown_flag "unknown option '--frob'" sim --frob
expect_bad sim_topology_abc "hypercube" sim --topology hypercube:abc
expect_bad sim_topology_unknown "unknown topology 'torusx'.*mesh" sim --topology torusx:4
expect_bad sim_topology_mesh_bad "mesh" sim --topology mesh:8by8
expect_bad sim_router_unknown "unknown routing 'nosuch'" sim --router nosuch
expect_bad sim_router_hidden_ok_but_badkv "key=value" sim --router ecube:oops
expect_bad sim_traffic_unknown "unknown traffic pattern 'nosuch'" sim --traffic nosuch
expect_bad sim_rate_abc "--rate" sim --rate abc
expect_bad sim_rate_missing "needs a value" sim --rate
expect_bad sim_vcs_negative "--vcs" sim --vcs -2
expect_bad sim_vcs_zero "vcs" sim --vcs 0
expect_bad sim_packet_zero "packet_flits" sim --packet-flits 0
expect_bad sim_override_bad "malformed override 'foo'" sim foo
expect_bad sim_override_yaml "network.vcs" sim 'network.vcs=['
expect_bad sim_too_few_vcs "[Vv][Cc]" sim --vcs 1 network.message_classes=2
expect_bad sim_dim0 "dim|hypercube" sim --topology hypercube:0

finish
