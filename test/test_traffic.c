/* test/test_traffic.c — synthetic traffic patterns (algorithms/patterns.c, core/traffic.c): known
 * destinations of the fixed patterns, permutations are permutations, random
 * patterns stay in range (and uniform-noself never picks the source), size
 * checks refuse networks a pattern is not defined for, aliases resolve.
 * The k-ary n-cube's forms (rotated coordinates, offsets per dimension)
 * and the permutation workload's bound on it run on cubes made here by
 * hand (kind, nodes and the mpp_cube shape on a copy of a registered
 * network, whose node links give the ejection bound): the bound of a cube
 * shaped as a mesh or a hypercube must equal theirs bit for bit. */
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

/* t made a k-ary n-cube k[0] x ... x k[n-1] (rings where wrap) on a
 * shallow copy of base (NULL: no node links), its shape in *c. Nothing to
 * free: the arrays stay base's. */
static mpp_topo cube(mpp_cube *c, const mpp_topo *base, uint32_t n, const uint32_t *k, bool wrap)
{
    mpp_topo t;
    if (base)
        t = *base;
    else
        memset(&t, 0, sizeof t);
    memset(c, 0, sizeof *c);
    c->n = n;
    uint32_t N = 1;
    for (uint32_t d = 0; d < n; d++) {
        c->k[d] = k[d];
        c->stride[d] = N;
        c->wrap[d] = wrap;
        N *= k[d];
    }
    c->any_wrap = wrap;
    CHECKF(!base || base->nodes == N, "base of %u nodes for a cube of %u", base->nodes, N);
    t.kind = MPP_TOPO_KARY;
    t.nodes = N;
    t.priv = c;
    return t;
}

/* Node id of (x, y, z) on a cube of extents k. */
static uint32_t at3(const uint32_t *k, uint32_t x, uint32_t y, uint32_t z)
{
    return x + k[0] * (y + k[1] * z);
}

/* mpp_permutation_bound for the messages i -> tab[i] (i != tab[i]) of f[i]
 * flits, as the permutation workload sets them up. */
static double perm_bound(const mpp_topo *t, const uint32_t *tab, const uint64_t *f)
{
    uint32_t N = t->nodes, n = 0;
    uint32_t *src = calloc(N, sizeof *src), *dst = calloc(N, sizeof *dst);
    uint64_t *fl = calloc(N, sizeof *fl), *dst_flits = calloc(N, sizeof *dst_flits);
    CHECK(src && dst && fl && dst_flits);
    for (uint32_t i = 0; i < N; i++)
        if (tab[i] != i) {
            src[n] = i;
            dst[n] = tab[i];
            fl[n++] = f[i];
            dst_flits[tab[i]] += f[i];
        }
    double b = mpp_permutation_bound(t, dst_flits, src, dst, fl, n);
    free(src);
    free(dst);
    free(fl);
    free(dst_flits);
    return b;
}

/* Bit-identical doubles (== would also accept -0 for 0). */
static bool same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The bounds of t and of u (the same nodes, another kind) agree bit for bit
 * under the fixed pattern pat of t and under random permutations with
 * random message sizes. */
static void same_bound(const mpp_topo *t, const mpp_topo *u, const char *pat)
{
    uint32_t N = t->nodes;
    uint32_t *tab = malloc(N * sizeof *tab);
    uint64_t *f = malloc(N * sizeof *f);
    mpp_traffic tr;
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_err err;
    CHECK(mpp_traffic_init(&tr, mpp_pattern_find(pat), cfg.b, t, 1, &err) == 0);
    for (uint32_t i = 0; i < N; i++)
        f[i] = 160;
    double a = perm_bound(t, tr.table, f), b = perm_bound(u, tr.table, f);
    CHECKF(same_double(a, b), "%s: %.17g against %.17g", pat, a, b);
    mpp_traffic_free(&tr);
    mpp_rng rng;
    mpp_rng_init(&rng, 9, MPP_RNG_TRAFFIC, N);
    for (int rep = 0; rep < 20; rep++) {
        for (uint32_t i = 0; i < N; i++) {
            tab[i] = i;
            f[i] = 1 + mpp_rng_below(&rng, 1000);
        }
        mpp_rng_shuffle(&rng, tab, N);
        a = perm_bound(t, tab, f);
        b = perm_bound(u, tab, f);
        CHECKF(same_double(a, b), "random %d: %.17g against %.17g", rep, a, b);
    }
    free(tab);
    free(f);
}

/* The k-ary n-cube's patterns and bound, and the butterfly's (ids only). */
static void test_cube(const mpp_topo *m8, const mpp_topo *m35, const mpp_topo *h6)
{
    mpp_topo m4, m48, h3;
    topo(&m4, "mesh", 4, 4);
    topo(&m48, "mesh", 4, 8);
    topo(&h3, "hypercube", 3, 0);
    mpp_blob cfg;
    memset(&cfg, 0, sizeof cfg);
    mpp_traffic tr, tm;
    mpp_err err;
    mpp_cube c;

    /* transpose: (x, y, z) -> (y, z, x) */
    const uint32_t k444[] = {4, 4, 4};
    mpp_topo t = cube(&c, NULL, 3, k444, true);
    CHECK(init(&tr, "transpose", &t, &cfg) == 0);
    CHECK(is_perm(tr.table, 64));
    CHECK(tr.table[at3(k444, 1, 0, 0)] == at3(k444, 0, 0, 1));
    CHECK(tr.table[at3(k444, 0, 0, 1)] == at3(k444, 0, 1, 0));
    CHECK(tr.table[at3(k444, 1, 2, 3)] == at3(k444, 2, 3, 1));
    CHECK(tr.table[at3(k444, 3, 3, 3)] == at3(k444, 3, 3, 3));
    mpp_traffic_free(&tr);
    /* a binary 6-cube: the hypercube's swap of the address halves */
    const uint32_t k2x6[] = {2, 2, 2, 2, 2, 2};
    t = cube(&c, NULL, 6, k2x6, false);
    CHECK(init(&tr, "transpose", &t, &cfg) == 0);
    for (uint32_t i = 0; i < 64; i++)
        CHECK(tr.table[i] == (((i & 7) << 3) | (i >> 3)));
    mpp_traffic_free(&tr);
    /* on two dimensions, the mesh's (x, y) -> (y, x) */
    const uint32_t k44[] = {4, 4};
    t = cube(&c, NULL, 2, k44, false);
    CHECK(init(&tr, "transpose", &t, &cfg) == 0);
    CHECK(init(&tm, "transpose", &m4, &cfg) == 0);
    CHECK(memcmp(tr.table, tm.table, 16 * sizeof *tr.table) == 0);
    mpp_traffic_free(&tr);
    mpp_traffic_free(&tm);
    /* extents differ: refused, naming them (dimension 0 first) */
    const uint32_t k448[] = {4, 4, 8};
    t = cube(&c, NULL, 3, k448, true);
    CHECK(mpp_traffic_init(&tr, mpp_pattern_find("transpose"), cfg.b, &t, 1, &err) ==
          MPP_EINVAL);
    CHECKF(strcmp(err.msg, "traffic pattern 'transpose' needs dimensions of one size; this "
                           "k-ary n-cube is 4 x 4 x 8") == 0,
           "%s", err.msg);

    /* tornado, neighbor: every coordinate moved, modulo its own extent */
    const uint32_t k53[] = {5, 3};
    t = cube(&c, NULL, 2, k53, true);
    CHECK(init(&tr, "tornado", &t, &cfg) == 0);
    CHECK(is_perm(tr.table, 15));
    CHECK(tr.table[0] == 2 + 5 * 1);              /* (0,0) -> (2,1): ceil(5/2)-1, ceil(3/2)-1 */
    CHECK(tr.table[4 + 5 * 2] == 1 + 5 * 0);      /* (4,2) -> (1,0) */
    CHECK(init(&tm, "tornado", m35, &cfg) == 0);  /* the 3-row, 5-column mesh's */
    CHECK(memcmp(tr.table, tm.table, 15 * sizeof *tr.table) == 0);
    mpp_traffic_free(&tr);
    mpp_traffic_free(&tm);
    CHECK(init(&tr, "neighbor", &t, &cfg) == 0);
    CHECK(is_perm(tr.table, 15));
    CHECK(tr.table[0] == 1 + 5 * 1);
    CHECK(tr.table[4 + 5 * 2] == 0);
    CHECK(tr.table[4 + 5 * 0] == 0 + 5 * 1);
    CHECK(init(&tm, "neighbor", m35, &cfg) == 0);
    CHECK(memcmp(tr.table, tm.table, 15 * sizeof *tr.table) == 0);
    mpp_traffic_free(&tr);
    mpp_traffic_free(&tm);
    t = cube(&c, NULL, 3, k444, true);
    CHECK(init(&tr, "tornado", &t, &cfg) == 0); /* ceil(4/2) - 1 = 1 */
    CHECK(is_perm(tr.table, 64));
    CHECK(tr.table[at3(k444, 0, 1, 2)] == at3(k444, 1, 2, 3));
    CHECK(tr.table[at3(k444, 3, 3, 3)] == at3(k444, 0, 0, 0));
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "neighbor", &t, &cfg) == 0);
    CHECK(is_perm(tr.table, 64));
    CHECK(tr.table[at3(k444, 3, 0, 2)] == at3(k444, 0, 1, 3));
    mpp_traffic_free(&tr);
    const uint32_t k852[] = {8, 5, 2};
    t = cube(&c, NULL, 3, k852, false);
    CHECK(init(&tr, "tornado", &t, &cfg) == 0); /* offsets 3, 2, 0 */
    CHECK(is_perm(tr.table, 80));
    CHECK(tr.table[at3(k852, 6, 4, 1)] == at3(k852, 1, 1, 1));
    mpp_traffic_free(&tr);

    /* the bound: a cube of the mesh's or the hypercube's shape without rings
     * gives their bound bit for bit */
    const uint32_t k88[] = {8, 8}, k2[] = {2, 2, 2, 2, 2, 2};
    t = cube(&c, m8, 2, k88, false);
    same_bound(m8, &t, "transpose");
    t = cube(&c, m35, 2, k53, false);
    same_bound(m35, &t, "tornado");
    t = cube(&c, h6, 6, k2, false);
    same_bound(h6, &t, "bit-reversal");
    same_bound(h6, &t, "transpose");
    /* transpose on 8x8, 160 flits each: 16 messages cross the column cut
     * one way over 8 rows, twice the ejection bound */
    CHECK(init(&tr, "transpose", m8, &cfg) == 0);
    uint64_t f[64];
    for (int i = 0; i < 64; i++)
        f[i] = 160;
    t = cube(&c, m8, 2, k88, false);
    CHECK(perm_bound(&t, tr.table, f) == 2 * 160);
    mpp_traffic_free(&tr);
    /* rings: tornado on an 8 x 4 torus (offsets 3, 1); dimension 0's cut
     * is crossed by 3 messages per line each way, over 2 channels a line
     * each way: 3 * 160 / 2; without the rings the mesh's 3 * 160 */
    const uint32_t k84[] = {8, 4};
    t = cube(&c, &m48, 2, k84, true);
    CHECK(init(&tr, "tornado", &t, &cfg) == 0);
    CHECK(perm_bound(&t, tr.table, f) == 6 * 160 / 4.0);
    c.wrap[0] = c.wrap[1] = 0;
    CHECK(perm_bound(&t, tr.table, f) == 3 * 160);
    mpp_traffic_free(&tr);

    /* a butterfly (2-ary 3-fly, 8 terminals): patterns on ids; the bound is
     * the ejection bound */
    t = h3;
    t.kind = MPP_TOPO_BUTTERFLY;
    t.dims[0] = 2;
    t.dims[1] = 3;
    t.priv = NULL;
    CHECK(init(&tr, "transpose", &t, &cfg) == MPP_EINVAL); /* 8 is not 4^k */
    CHECK(init(&tr, "bit-reversal", &t, &cfg) == 0);
    CHECK(tr.table[1] == 4 && tr.table[3] == 6);
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "tornado", &t, &cfg) == 0);
    CHECK(tr.table[0] == 3 && tr.table[7] == 2);
    CHECK(perm_bound(&t, tr.table, f) == 160);
    mpp_traffic_free(&tr);
    CHECK(init(&tr, "neighbor", &t, &cfg) == 0);
    CHECK(tr.table[7] == 0);
    mpp_traffic_free(&tr);

    mpp_topo_free(&m4);
    mpp_topo_free(&m48);
    mpp_topo_free(&h3);
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
    test_cube(&m8, &m35, &h6);
    mpp_topo_free(&m8);
    mpp_topo_free(&m35);
    mpp_topo_free(&h6);
    mpp_topo_free(&h5);
    TEST_DONE();
}
