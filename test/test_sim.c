/* test/test_sim.c — the cycle engine (core/sim.c, core/network.c):
 * zero-load latency formula on meshes and hypercubes, conservation and
 * credit invariants under load (every allocator), determinism by seed and
 * under a shuffled router update order, chunks of routers sized to the
 * traffic (the same results whatever their size), the deadlock watchdog,
 * configuration errors, and the age allocator's fairness in a parking lot. */
#include <stdlib.h>
#include <string.h>

#include "core/network.h"
#include "core/sim.h"
#include "test/testutil.h"

typedef struct last_rec {
    mpp_packet_record r;
    int n;
} last_rec;

static void keep(void *ud, const mpp_packet_record *r)
{
    last_rec *l = ud;
    l->r = *r;
    l->n++;
}

/* One packet at a time through an empty network: check the formula
 * (H + 1) x D + (H + 2) x Ll + (L - 1) for every pair of nodes. */
static void zero_load(mpp_sim_config *c, uint32_t D, uint32_t Ll, uint32_t L, uint32_t stride)
{
    c->workload.ops = NULL;
    c->net.router_delay = D;
    c->net.link_latency = Ll;
    c->net.credit_latency = 1;
    last_rec lr = {0};
    mpp_err err;
    mpp_sim *s = mpp_sim_create(c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return;
    mpp_sim_on_packet(s, keep, &lr);
    const mpp_topo *t = mpp_sim_topology(s);
    uint32_t N = t->nodes, bad = 0, pairs = 0;
    for (uint32_t a = 0; a < N; a += stride)
        for (uint32_t b = 0; b < N; b++) {
            lr.n = 0;
            if (mpp_sim_send(s, a, b, L, a * N + b, &err) || mpp_sim_run_until_idle(s, 100000, &err)) {
                CHECKF(0, "%s", err.msg);
                mpp_sim_destroy(s);
                return;
            }
            uint32_t H = t->ops->distance(t, a, b);
            uint64_t want = (uint64_t)(H + 1) * D + (uint64_t)(H + 2) * Ll + (L - 1);
            uint64_t got = lr.r.delivered - lr.r.injected;
            pairs++;
            if (lr.n != 1 || got != want || lr.r.hops != H || lr.r.injected != lr.r.created + 1 ||
                lr.r.tag != (uint64_t)a * N + b) {
                if (bad++ < 5)
                    fprintf(stderr, "%s %u->%u: latency %llu want %llu, hops %u want %u\n",
                            t->ops->name, a, b, (unsigned long long)got, (unsigned long long)want,
                            lr.r.hops, H);
            }
        }
    CHECKF(bad == 0, "%u of %u pairs wrong (D=%u Ll=%u L=%u)", bad, pairs, D, Ll, L);
    CHECK(mpp_sim_check(s));
    mpp_sim_destroy(s);
}

static void test_zero_load(void)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_mesh(&c, 5, 7);
    zero_load(&c, 1, 1, 1, 1);
    zero_load(&c, 4, 1, 5, 3);
    zero_load(&c, 2, 3, 8, 4);
    test_mesh(&c, 8, 8);
    zero_load(&c, 4, 1, 5, 5);
    test_hcube(&c, 5);
    zero_load(&c, 1, 1, 5, 1);
    zero_load(&c, 3, 2, 2, 3);
    test_hcube(&c, 8);
    zero_load(&c, 4, 1, 5, 37);
}

/* Load an 8x8 mesh hard, stepping and checking the invariants. */
static void test_invariants(int flow, int alloc)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_mesh(&c, 6, 6);
    c.net.flow = flow;
    c.net.allocator = alloc;
    c.net.buffer_flits = 6;
    test_set(&c, "workload.rate", "0.7");
    test_set(&c, "workload.packet_flits", "4");
    test_set(&c, "workload.warmup", "500");
    test_set(&c, "workload.measure", "1500");
    mpp_err err;
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return;
    for (int i = 0; i < 40; i++) {
        CHECK(mpp_sim_step(s, 50, &err) == 0);
        CHECKF(mpp_sim_check(s), "invariants broken at cycle %llu (flow %d alloc %d)",
               (unsigned long long)mpp_sim_cycle(s), flow, alloc);
        mpp_sim_counts k;
        mpp_sim_counts_get(s, &k);
        CHECK(k.flits_injected == k.flits_ejected + k.flits_in_network);
    }
    mpp_sim_destroy(s);
}

/* Every injected flit is ejected exactly once: a manual burst drains fully. */
static void test_conservation(void)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_hcube(&c, 4);
    c.workload.ops = NULL;
    last_rec lr = {0};
    mpp_err err;
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return;
    mpp_sim_on_packet(s, keep, &lr);
    uint64_t flits = 0;
    for (uint32_t k = 0; k < 20; k++)
        for (uint32_t a = 0; a < 16; a++) {
            uint32_t L = 1 + (a + k) % 7;
            flits += L;
            CHECK(mpp_sim_send(s, a, (a * 7 + k) % 16, L, 0, &err) == 0);
        }
    CHECK(mpp_sim_run_until_idle(s, 1000000, &err) == 0);
    mpp_sim_counts k;
    mpp_sim_counts_get(s, &k);
    CHECK(k.flits_injected == flits);
    CHECK(k.flits_ejected == flits);
    CHECK(k.flits_in_network == 0);
    CHECK(k.packets_delivered == 320);
    CHECK(lr.n == 320);
    CHECK(mpp_sim_check(s));
    mpp_sim_destroy(s);
}

/* Field-by-field equality through the result table (no padding bytes). */
static bool same_result(const mpp_sim_result *a, const mpp_sim_result *b)
{
    for (size_t i = 0; i < mpp_result_nfields; i++) {
        const mpp_result_field *f = &mpp_result_fields[i];
        size_t sz = f->type == MPP_F_U64 || f->type == MPP_F_DOUBLE ? 8 : f->type == MPP_F_U32 ? 4 : 1;
        if (memcmp((const char *)a + f->offset, (const char *)b + f->offset, sz) != 0)
            return false;
    }
    return true;
}

static int run_result(const mpp_sim_config *c, mpp_sim_result *out, mpp_err *err)
{
    mpp_sim *s = mpp_sim_create(c, err);
    if (!s)
        return err->code;
    int rc = mpp_sim_run(s, NULL, NULL, err);
    *out = *mpp_sim_result_get(s);
    out->wall_seconds = 0;
    mpp_sim_destroy(s);
    return rc;
}

static void test_determinism(void)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_mesh(&c, 8, 8);
    test_set(&c, "workload.rate", "0.3");
    test_set(&c, "workload.warmup", "1000");
    test_set(&c, "workload.measure", "3000");
    c.run.seed = 7;
    mpp_sim_result a, b, d, e;
    mpp_err err;
    CHECK(run_result(&c, &a, &err) == 0);
    CHECK(run_result(&c, &b, &err) == 0);
    CHECK(same_result(&a, &b));
    c.net.shuffle_order = true;
    CHECK(run_result(&c, &d, &err) == 0);
    CHECKF(same_result(&a, &d), "shuffled router order changed the result");
    c.net.shuffle_order = false;
    c.run.seed = 8;
    CHECK(run_result(&c, &e, &err) == 0);
    CHECK(!same_result(&a, &e));
    /* the same for iSLIP and random placement on a hypercube */
    test_hcube(&c, 6);
    c.net.allocator = MPP_ALLOC_ISLIP;
    test_set(&c, "workload.placement", "random");
    CHECK(run_result(&c, &a, &err) == 0);
    c.net.shuffle_order = true;
    CHECK(run_result(&c, &d, &err) == 0);
    CHECK(same_result(&a, &d));
}

/* A run in ascending router order, its deliveries and visits chunk by
 * chunk: the chunks are resized to the traffic as it goes (rechunks
 * counts the changes), and the results are those of the shuffled order,
 * which keeps one list of active routers and no chunks. */
static void chunked_run(mpp_sim_config *c, mpp_sim_result *out, uint32_t *rechunks)
{
    mpp_err err;
    mpp_sim *s = mpp_sim_create(c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return;
    CHECKF(mpp_sim_run(s, NULL, NULL, &err) == 0, "%s", err.msg);
    CHECK(mpp_sim_check(s));
    *out = *mpp_sim_result_get(s);
    out->wall_seconds = 0;
    *rechunks = mpp_sim_network(s)->rechunks;
    mpp_sim_destroy(s);
}

static void test_chunks(void)
{
    static const char *const rates[] = {"0.3", "0.01"};
    for (int k = 0; k < 2; k++) {
        mpp_sim_config c;
        mpp_config_defaults(&c);
        test_mesh(&c, 16, 32); /* 512 routers: 8 chunks of 64 at the finest */
        c.net.allocator = MPP_ALLOC_ISLIP;
        test_set(&c, "workload.rate", rates[k]);
        test_set(&c, "workload.warmup", "300");
        test_set(&c, "workload.measure", "700");
        mpp_sim_result a, b;
        uint32_t ra = 0, rb = 0;
        chunked_run(&c, &a, &ra);
        c.net.shuffle_order = true;
        chunked_run(&c, &b, &rb);
        CHECKF(same_result(&a, &b), "rate %s: chunked deliveries changed the result", rates[k]);
        CHECK(rb == 0);
        /* a loaded network leaves the single first chunk for smaller ones */
        if (k == 0)
            CHECKF(ra >= 1, "rate %s: the chunks were never resized", rates[k]);
    }
}

static void test_deadlock(void)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_mesh(&c, 6, 6);
    c.net.routing = mpp_routing_find("xyyx");
    c.net.vcs = 1;
    c.net.buffer_flits = 2;
    c.net.watchdog_cycles = 2000;
    test_set(&c, "workload.rate", "0.9");
    test_set(&c, "workload.packet_flits", "8");
    test_set(&c, "workload.warmup", "1000");
    test_set(&c, "workload.measure", "20000");
    mpp_err err;
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return;
    int rc = mpp_sim_run(s, NULL, NULL, &err);
    CHECKF(rc == MPP_EDEADLOCK, "rc %d", rc);
    const char *rep = mpp_sim_report(s);
    CHECK(strstr(rep, "deadlock") != NULL);
    CHECK(strstr(rep, "router") != NULL);
    CHECK(strstr(rep, "waits for") != NULL);
    CHECK(strstr(err.msg, "deadlock") != NULL);
    CHECK(mpp_sim_check(s));
    mpp_sim_destroy(s);
    /* the same load with ecube does not deadlock */
    c.net.routing = mpp_routing_find("ecube");
    test_set(&c, "workload.measure", "3000");
    mpp_sim_result r;
    CHECK(run_result(&c, &r, &err) == 0);
}

static void test_config_errors(void)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    mpp_err err;
    c.net.message_classes = 2;
    c.net.vcs = 1;
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECK(s == NULL);
    CHECK(err.code == MPP_EINVAL);
    CHECK(strstr(err.msg, "multiple of 2") != NULL);
    mpp_config_defaults(&c);
    c.net.vcs = 0;
    CHECK(mpp_sim_create(&c, &err) == NULL);
    mpp_config_defaults(&c);
    test_hcube(&c, 4);
    c.net.routing = mpp_routing_find("xyyx");
    CHECK(mpp_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "mesh") != NULL);
    mpp_config_defaults(&c);
    test_mesh(&c, 4, 6);
    test_set(&c, "workload.pattern", "transpose");
    CHECK(mpp_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "square") != NULL);
    mpp_config_defaults(&c);
    test_mesh(&c, 3, 3);
    test_set(&c, "workload.pattern", "bitrev");
    CHECK(mpp_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "power-of-two") != NULL);
    mpp_config_defaults(&c);
    c.net.flow = MPP_FLOW_CUT_THROUGH;
    c.net.buffer_flits = 4;
    CHECK(mpp_sim_create(&c, &err) == NULL);
}

/* Per-source finish cycles of a gather. */
typedef struct finish_rec {
    uint64_t last[8];
} finish_rec;

static void note_finish(void *ud, const mpp_packet_record *r)
{
    finish_rec *f = ud;
    if (r->src < 8 && r->delivered > f->last[r->src])
        f->last[r->src] = r->delivered;
}

/* Nodes 0..6 of a 1 x 8 line send 30 packets each to node 7 at once: the
 * parking lot. Round-robin per input port halves the share of every source
 * one hop farther from the sink, so node 6 finishes at a quarter of the
 * run (cycle 225 of 845) and node 0 last. The age allocator (oldest packet
 * first, age counted from injection) serves the packets that have waited
 * longest, which evens the shares out (it slightly favours the far
 * sources, whose packets are older when they reach the sink's row:
 * first finish at cycle 445). Returns last / first finish cycle. */
static double gather_spread(int alloc)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_mesh(&c, 1, 8);
    c.workload.ops = NULL;
    c.net.allocator = alloc;
    finish_rec f = {{0}};
    mpp_err err;
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return 0;
    mpp_sim_on_packet(s, note_finish, &f);
    for (uint32_t a = 0; a < 7; a++)
        for (int k = 0; k < 30; k++)
            CHECK(mpp_sim_send(s, a, 7, 4, 0, &err) == 0);
    CHECK(mpp_sim_run_until_idle(s, 1000000, &err) == 0);
    CHECK(mpp_sim_check(s));
    mpp_sim_destroy(s);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t a = 0; a < 7; a++) {
        lo = f.last[a] < lo ? f.last[a] : lo;
        hi = f.last[a] > hi ? f.last[a] : hi;
    }
    return lo ? (double)hi / (double)lo : 0;
}

static void test_age_fairness(void)
{
    double rr = gather_spread(MPP_ALLOC_SEPARABLE), age = gather_spread(MPP_ALLOC_AGE);
    printf("parking lot, last / first source to finish: separable %.2f, age %.2f\n", rr, age);
    CHECKF(rr > 1.5, "separable: %.2f (the parking-lot unfairness expected)", rr);
    CHECKF(age > 0 && age < 0.6 * rr, "age: sources finish %.2fx apart, separable %.2fx", age,
           rr);
}

int main(void)
{
    test_zero_load();
    test_invariants(MPP_FLOW_WORMHOLE, MPP_ALLOC_SEPARABLE);
    test_invariants(MPP_FLOW_WORMHOLE, MPP_ALLOC_ISLIP);
    test_invariants(MPP_FLOW_CUT_THROUGH, MPP_ALLOC_SEPARABLE);
    test_invariants(MPP_FLOW_WORMHOLE, MPP_ALLOC_AGE);
    test_invariants(MPP_FLOW_CUT_THROUGH, MPP_ALLOC_AGE);
    test_age_fairness();
    test_conservation();
    test_determinism();
    test_chunks();
    test_deadlock();
    test_config_errors();
    TEST_DONE();
}
