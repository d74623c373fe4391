# test/cli/list.sh — `mppnet list`: the families, their plug-ins with help
# and parameters; test-only plug-ins hidden.
. "$(dirname "$0")/lib.sh"

expect_status list_all 0 "$T" list || finish
for name in mesh hypercube ecube uniform transpose; do
    grep -Eq "^  $name " "$T/list_all.out" || fail "list: no entry '$name'"
done
grep -q 'xyyx' "$T/list_all.out" && fail "list: shows the test-only router xyyx"
grep -Eq '^      rows .*default 8' "$T/list_all.out" || fail "list: no mesh parameter rows"
grep -q 'dor' "$T/list_all.out" || fail "list: no alias dor of ecube"
pass "list"

expect_status list_routers 0 "$T" list routers || finish
grep -Eq '^  ecube ' "$T/list_routers.out" || fail "list routers: no ecube"
grep -Eq '^  mesh ' "$T/list_routers.out" && fail "list routers: shows topologies"
expect_status list_topologies 0 "$T" list topologies || finish
grep -Eq '^  hypercube ' "$T/list_topologies.out" || fail "list topologies: no hypercube"
expect_status list_patterns 0 "$T" list patterns || finish
grep -Eq '^  bit-reversal ' "$T/list_patterns.out" || fail "list patterns: no bit-reversal"
expect_status list_broadcasts 0 "$T" list broadcasts || finish
for name in br_lin br_xy_source br_xy_dim xor two_step repos part_lin part_xy_source; do
    grep -Eq "^  $name " "$T/list_broadcasts.out" || fail "list broadcasts: no $name"
done
grep -Eq '^      base .*br_xy_source' "$T/list_broadcasts.out" || fail "list broadcasts: no repos base"
grep -Eq '^  ecube ' "$T/list_broadcasts.out" && fail "list broadcasts: shows routers"
grep -Eq '^  two_step ' "$T/list_all.out" || fail "list: no broadcasts"
expect_status list_collectives 0 "$T" list collectives || finish
for name in binomial msbt linear alltoall allreduce scan; do
    grep -Eq "^  $name " "$T/list_collectives.out" || fail "list collectives: no $name"
done
grep -Eq '^  msbt ' "$T/list_all.out" || fail "list: no collectives"
pass "list FAMILY"

# list NAME: one plug-in, by name or alias, in every family that has it
expect_status list_one 0 "$T" list mesh || finish
[ "$(grep -c '^[a-z]' "$T/list_one.out")" = 1 ] || fail "list mesh: not one family heading"
grep -Eq '^  mesh ' "$T/list_one.out" || fail "list mesh: no mesh"
grep -Eq '^      rows .*default 8' "$T/list_one.out" || fail "list mesh: no parameters"
[ "$(grep -Ec '^  [a-z]' "$T/list_one.out")" = 1 ] || fail "list mesh: more than one entry"
expect_status list_alias 0 "$T" list dim_order || finish
grep -Eq '^  ecube ' "$T/list_alias.out" || fail "list dim_order: no ecube"
expect_status list_two 0 "$T" list xor || finish
grep -q '^patterns ' "$T/list_two.out" && grep -q '^broadcasts ' "$T/list_two.out" ||
    fail "list xor: not in both families: $(cat "$T/list_two.out")"
[ "$(grep -Ec '^  [a-z]' "$T/list_two.out")" = 2 ] || fail "list xor: not two entries"
expect_status list_preset 0 "$T" list cm5 || finish
grep -q '^machine presets' "$T/list_preset.out" || fail "list cm5: no preset"
expect_bad list_unknown "list: unknown family or plug-in 'nosuch' \(families: topologies, routers, workloads, patterns, schedulers, broadcasts, collectives, presets" \
    list nosuch
[ -s "$T/list_unknown.out" ] && fail "list nosuch: output on stdout"
pass "list NAME"

finish
