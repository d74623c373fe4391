/* test/test_traffic.c — synthetic traffic patterns (algorithms/patterns.c, core/traffic.c): known
 * destinations of the fixed patterns, permutations are permutations, random
 * patterns stay in range (and uniform-noself never picks the source), size
 * checks refuse networks a pattern is not defined for, aliases resolve. */
#include <stdlib.h>
#include <string.h>

#include "core/traffic.h"
#include "test/testutil.h"

static void topo(mpp_topo *t, const char *name, uint32_t a, uint32_t b)
{
    const mpp_topo_ops *ops = mpp_topo_find(name);
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    if (strcmp(name, "mesh") == 0) {
        test_set_u32(&ops->schema, &cfg, "rows", a);
        test_set_u32(&ops->schema, &cfg, "cols", b);
    } else {
        test_set_u32(&ops->schema, &cfg, "dim", a);
    }
    mpp_err err;
    CHECK(mpp_topo_build(t, ops, cfg.b, &err) == 0);
}

static int init(mpp_traffic *tr, const char *pat, const mpp_topo *t, mpp_blob *cfg)
{
    mpp_err err;
    const mpp_pattern_ops *ops = mpp_pattern_find(pat);
    CHECKF(ops != NULL, "pattern %s", pat);
    return mpp_traffic_init(tr, ops, cfg->b, t, 1, &err);
}

static bool is_perm(const uint32_t *tab, uint32_t n)
{
    char *seen = calloc(n, 1);
    bool ok = true;
    for (uint32_t i = 0; i < n; i++) {
        if (tab[i] >= n || seen[tab[i]])
            ok = false;
        else
            seen[tab[i]] = 1;
    }
    free(seen);
    return ok;
}

int main(void)
{
    mpp_topo m8, m35, h6, h5;
    topo(&m8, "mesh", 8, 8);
    topo(&m35, "mesh", 3, 5);
    topo(&h6, "hypercube", 6, 0);
    topo(&h5, "hypercube", 5, 0);
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_traffic tr;

    CHECK(init(&tr, "transpose", &m8, &cfg) == 0);
    CHECK(tr.table[1] == 8 && tr.table[8 * 2 + 5] == 5 * 8 + 2);
    CHECK(is_perm(tr.table, 64));
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "transpose", &m35, &cfg) == MPP_EINVAL);
    CHECK(init(&tr, "transpose", &h6, &cfg) == 0);
    CHECK(tr.table[0x07] == 0x38);
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "transpose", &h5, &cfg) == MPP_EINVAL);

    CHECK(init(&tr, "bitrev", &h6, &cfg) == 0);
    CHECK(tr.table[1] == 32 && tr.table[0x06] == 0x18);
    CHECK(is_perm(tr.table, 64));
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "bit-reversal", &m35, &cfg) == MPP_EINVAL);
    CHECK(init(&tr, "bitcomp", &h5, &cfg) == 0);
    CHECK(tr.table[0] == 31 && tr.table[5] == 26);
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "shuffle", &h5, &cfg) == 0);
    CHECK(tr.table[1] == 2 && tr.table[16] == 1);
    CHECK(is_perm(tr.table, 32));
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "tornado", &m8, &cfg) == 0);
    CHECK(tr.table[0] == 3 * 8 + 3);
    CHECK(is_perm(tr.table, 64));
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "neighbor", &m35, &cfg) == 0);
    CHECK(tr.table[4] == 5 + 0); /* (x=4,y=0) -> (0,1) */
    CHECK(is_perm(tr.table, 15));
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "randperm", &m35, &cfg) == 0);
    CHECK(is_perm(tr.table, 15));
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "single-random", &h5, &cfg) == 0);
    for (uint32_t i = 0; i < 32; i++)
        CHECK(tr.table[i] != i && tr.table[i] < 32);
    mpp_traffic_free(&tr);

    mpp_rng rng;
    mpp_rng_init(&rng, 5, MPP_RNG_TRAFFIC, 0);
    CHECK(init(&tr, "uniform-noself", &m35, &cfg) == 0);
    uint32_t hist[15] = {0};
    for (int k = 0; k < 15000; k++) {
        uint32_t d = mpp_traffic_dest(&tr, 7, &rng);
        CHECK(d < 15 && d != 7);
        if (d < 15)
            hist[d]++;
    }
    for (uint32_t d = 0; d < 15; d++)
        if (d != 7)
            CHECKF(hist[d] > 800 && hist[d] < 1350, "noself bucket %u = %u", d, hist[d]);
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "uniform", &m35, &cfg) == 0);
    uint32_t self = 0;
    for (int k = 0; k < 15000; k++)
        self += mpp_traffic_dest(&tr, 7, &rng) == 7;
    CHECK(self > 700 && self < 1300); /* BookSim's uniform includes the source */
    mpp_traffic_free(&tr);

    /* hotspot through its schema: nodes [3], fraction 1 -> always node 3 */
    const mpp_pattern_ops *hs = mpp_pattern_find("hotspot");
    CHECK(hs && hs->schema.nparams == 2);
    memset(&cfg, 0, sizeof cfg);
    mpp_u32list nodes = {1, {3}};
    double frac = 1.0;
    memcpy(cfg.b + hs->schema.params[0].offset, &nodes, sizeof nodes);
    memcpy(cfg.b + hs->schema.params[1].offset, &frac, sizeof frac);
    CHECK(init(&tr, "hotspot", &m35, &cfg) == 0);
    for (int k = 0; k < 100; k++)
        CHECK(mpp_traffic_dest(&tr, 0, &rng) == 3);
    mpp_traffic_free(&tr);
    nodes.v[0] = 99;
    memcpy(cfg.b + hs->schema.params[0].offset, &nodes, sizeof nodes);
    CHECK(init(&tr, "hotspot", &m35, &cfg) == MPP_EINVAL);

    for (const mpp_pattern_ops *const *o = mpp_pattern_all(); *o; o++) {
        CHECK((*o)->name && (*o)->help);
        CHECK(((*o)->perm == NULL) != ((*o)->dest == NULL));
        CHECK(mpp_pattern_find((*o)->name) == *o);
    }
    CHECK(mpp_pattern_find("bitcomp") == mpp_pattern_find("bit-complement"));
    mpp_topo_free(&m8);
    mpp_topo_free(&m35);
    mpp_topo_free(&h6);
    mpp_topo_free(&h5);
    TEST_DONE();
}
