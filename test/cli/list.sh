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

finish
