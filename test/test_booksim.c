/* test/test_booksim.c — the BookSim configuration reader and its mapping
 * (core/config/booksim.c): the grammar (both comment styles, strings,
 * {lists}, overrides, the last assignment wins), its bounds and errors
 * with FILE:LINE:COLUMN, detection against YAML, the mapping of keys onto
 * mppnet's (delays summed, credit_delay + 1, rates in packets scaled by
 * packet_size, warm-up and samples), refusals that name the key and what
 * mppnet would need, and the "did you mean" hints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/booksim.h"
#include "core/config/experiment.h"
#include "core/sections.h"
#include "test/testutil.h"

static mpp_booksim *parse(const char *text, mpp_err *err)
{
    return mpp_booksim_parse(text, strlen(text), "t.cfg", err);
}

/* text must be refused with a message containing part. */
static void refused(const char *text, const char *part)
{
    mpp_err err;
    mpp_err_clear(&err);
    mpp_booksim *b = parse(text, &err);
    mpp_booksim_info info;
    mpp_experiment *e = b ? mpp_booksim_experiment(b, &info, &err) : NULL;
    CHECKF(!e && strstr(err.msg, part), "'%s': expected an error with '%s', got '%s'", text,
           part, err.msg);
    mpp_experiment_destroy(e);
    mpp_booksim_free(b);
}

static mpp_experiment *mapped(const char *text, size_t nov, const char *const *ov,
                              mpp_booksim_info *info)
{
    mpp_err err;
    mpp_err_clear(&err);
    mpp_booksim *b = parse(text, &err);
    CHECKF(b != NULL, "%s", err.msg);
    if (!b)
        return NULL;
    for (size_t i = 0; i < nov; i++)
        CHECKF(mpp_booksim_override(b, ov[i], &err) == 0, "%s", err.msg);
    mpp_experiment *e = mpp_booksim_experiment(b, info, &err);
    CHECKF(e != NULL, "%s", err.msg);
    mpp_booksim_free(b);
    return e;
}

static void test_grammar(void)
{
    mpp_err err;
    const char *ok = "// a comment\n/* a block\n comment */ topology = mesh; k=4 ;n = 2;\n"
                     "routing_function = dor; // trailing\nnum_vcs = 2; num_vcs = 4;\n"
                     "watch_out = -; stats_out = \"a b.txt\"; injection_rate = .05;\n"
                     "hotspot_nodes_unused_list = {1,2,3};\n";
    /* an unknown key is refused at mapping, not at reading */
    mpp_booksim *b = parse(ok, &err);
    CHECKF(b != NULL, "%s", err.msg);
    mpp_booksim_info info;
    CHECK(!mpp_booksim_experiment(b, &info, &err));
    CHECKF(strstr(err.msg, "t.cfg:7:1: unknown BookSim key 'hotspot_nodes_unused_list'"), "%s",
           err.msg);
    mpp_booksim_free(b);

    CHECK(mpp_booksim_detect("// x\ntopology = mesh;", 18));
    CHECK(mpp_booksim_detect("k=8;", 4));
    CHECK(!mpp_booksim_detect("mppnet: 1\n", 10));
    CHECK(!mpp_booksim_detect("# yaml\nnetwork:\n  vcs: 2\n", 24));
    CHECK(!mpp_booksim_detect("", 0));

    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"k = 8", "t.cfg:1:6: expected ';' after the value, got the end"},
        {"k 8;", "t.cfg:1:3: expected '=' after the key, got '8'"},
        {"k = ;", "t.cfg:1:5: expected a value"},
        {"= 8;", "t.cfg:1:1: expected a key"},
        {"k = 8;\n/* open", "t.cfg:2:1: a block comment /* ... */ that never ends"},
        {"s = \"abc;\n", "a string \"...\" that does not end on its line"},
        {"l = {1,2;", "a {list} holds names, numbers and commas only"},
        {"k = 8; n = 2 2;", "t.cfg:1:14: expected ';' after the value, got '2'"},
    };
    for (size_t i = 0; i < MPP_COUNTOF(bad); i++) {
        mpp_err_clear(&err);
        b = parse(bad[i].text, &err);
        CHECKF(!b && strstr(err.msg, bad[i].msg), "'%s': got '%s'", bad[i].text, err.msg);
        mpp_booksim_free(b);
    }
    /* a NUL byte, with its place */
    b = mpp_booksim_parse("k = 8;\nn\0= 2;", 14, "t.cfg", &err);
    CHECKF(!b && strstr(err.msg, "t.cfg:2:2: a NUL byte"), "%s", err.msg);
    /* the bounds */
    char *big = malloc(MPP_BOOKSIM_MAX_BYTES + 2);
    memset(big, ' ', MPP_BOOKSIM_MAX_BYTES + 1);
    big[MPP_BOOKSIM_MAX_BYTES + 1] = '\0';
    b = parse(big, &err);
    CHECKF(!b && strstr(err.msg, "above the limit"), "%s", err.msg);
    char key[200];
    memset(key, 'a', 70);
    strcpy(key + 70, " = 1;");
    b = parse(key, &err);
    CHECKF(!b && strstr(err.msg, "a key longer than 64"), "%s", err.msg);
    size_t n = 0;
    for (unsigned i = 0; i <= MPP_BOOKSIM_MAX_STMTS; i++)
        n += (size_t)snprintf(big + n, 16, "k=1;");
    b = parse(big, &err);
    CHECKF(!b && strstr(err.msg, "more than 4096 statements"), "%s", err.msg);
    memset(big, '1', 2000);
    memcpy(big, "k = ", 4);
    strcpy(big + 2000, ";");
    b = parse(big, &err);
    CHECKF(!b && strstr(err.msg, "a value longer than 1024"), "%s", err.msg);
    free(big);
    /* overrides */
    b = parse("k = 8;", &err);
    CHECK(b && mpp_booksim_override(b, "k=4", &err) == 0);
    CHECK(b && mpp_booksim_override(b, "k", &err) != 0 && strstr(err.msg, "command line: k"));
    CHECK(b && mpp_booksim_override(b, "k=4 n=2", &err) != 0 &&
          strstr(err.msg, "command line: k=4 n=2"));
    mpp_booksim_free(b);
}

static void test_mapping(void)
{
    mpp_booksim_info info;
    /* the shared reference's mesh: every delay, its sample periods */
    const char *mesh = "topology = mesh; k = 8; n = 2; routing_function = dor; num_vcs = 2;\n"
                       "vc_buf_size = 8; packet_size = 5; injection_rate_uses_flits = 1;\n"
                       "injection_rate = 0.1; sample_period = 10000; warmup_periods = 1;\n"
                       "max_samples = 4; stopping_thres = 0.0; latency_thres = -1.0; seed = 1;\n";
    mpp_experiment *e = mapped(mesh, 0, NULL, &info);
    if (e) {
        const mpp_sim_config *c = mpp_experiment_config(e, 0);
        CHECK(c->net.vcs == 2 && c->net.buffer_flits == 8);
        CHECK(c->net.router_delay == 4 && c->net.credit_latency == 1);
        CHECK(info.warmup == 10000 && info.measure == 30000 && info.packet_flits == 5);
        CHECK(info.latency_thres < 0 && info.sim_count == 1);
        CHECK(c->net.vc_reuse_delay == 2 && !c->net.wait_for_tail_credit);
        CHECK(test_wl_num(c, "rate") == 0.1 && test_wl_num(c, "warmup") == 10000 &&
              test_wl_num(c, "measure") == 30000);
        mpp_experiment_destroy(e);
    }
    /* BookSim's defaults: a torus, 16 VCs, rate in packets, 3 samples */
    const char *const ov[] = {"packet_size=4", "injection_rate=0.05", "credit_delay=2",
                              "routing_delay=0", "sim_count=3", "wait_for_tail_credit=1",
                              "sw_alloc_delay=2", "input_speedup=2"};
    e = mapped("routing_function = dim_order;", MPP_COUNTOF(ov), ov, &info);
    if (e) {
        const mpp_sim_config *c = mpp_experiment_config(e, 0);
        CHECK(mpp_experiment_runs(e) == 3);
        CHECK(!strcmp(c->net.topo->name, "kary-ncube") && c->net.vcs == 16);
        CHECK(c->net.router_delay == 4 && c->net.credit_latency == 3);
        CHECK(c->net.vc_reuse_delay == 3 && c->net.wait_for_tail_credit);
        CHECK(c->net.input_speedup == 2);
        CHECK(test_wl_num(c, "rate") == 0.2 && info.measure == 3000 && info.warmup == 3000);
        mpp_experiment_destroy(e);
    }
    /* refusals name the key and what mppnet would need */
    refused("routing_function = dor; output_speedup = 2;",
            "t.cfg:1:42: BookSim key 'output_speedup' = 2: mppnet cannot honour it; it would "
            "need a crossbar with several outputs per output port");
    refused("routing_function = dor; internal_speedup = 2.0;", "internal speedup");
    refused("routing_function = dor; input_speedup = 2; vc_allocator = separable_input_first; "
            "sw_allocator = separable_input_first;", "input speedup with a separable allocator");
    refused("routing_function = dor; input_speedup = 9;", "BookSim key 'input_speedup': expected "
            "an integer in 1..8");
    refused("routing_function = dor; use_read_write = 1;", "request-reply traffic");
    refused("routing_function = dor; sim_type = batch;", "sim_type");
    refused("routing_function = dor; vc_allocator = wavefront;", "mapped values here: islip, "
            "separable_input_first");
    refused("routing_function = dor; vc_allocator = islip; sw_allocator = "
            "separable_input_first;", "different VC and switch allocators");
    refused("routing_function = planar_adapt; topology = mesh;",
            "the routing function planar_adapt_mesh");
    refused("topology = qtree; routing_function = nca;", "BookSim key 'topology' = qtree");
    refused("routing_function = dor; seed = time;", "a seed from the clock");
    refused("routing_function = dor; traffic = hotspot({0},{1});", "BookSim key 'traffic'");
    refused("routing_function = dor; num_vcs = many;", "BookSim key 'num_vcs': expected an "
            "integer");
    refused("routing_function = dor; injection_rate = 0.5; packet_size = 4;",
            "offered load is 2 flits/node/cycle");
    refused("routing_function = dor; hold_switch_for_packet = 1; packet_size = 4;",
            "hold_switch_for_packet");
    refused("num_vc = 4;", "unknown BookSim key 'num_vc'; did you mean 'num_vcs'?");
    refused("", "BookSim key 'routing_function' = none");
    /* keys without effect are accepted */
    e = mapped("routing_function = dor; print_activity = 1; watch_out = -; sim_power = 1;\n"
               "read_request_size = 4; batch_size = 2000;", 0, NULL, &info);
    mpp_experiment_destroy(e);
}

static void test_hints(void)
{
    CHECK(!strcmp(mpp_booksim_hint("num_vcs"), "network.vcs"));
    CHECK(!strcmp(mpp_booksim_hint("routing_function"), "network.router"));
    CHECK(!strcmp(mpp_booksim_hint("topology"), "network.topology"));
    CHECK(mpp_booksim_hint("vcs") == NULL);
    mpp_err err;
    const char *const ov[] = {"num_vcs=4"};
    mpp_experiment *e = mpp_experiment_parse("mppnet: 1\n", "x.yaml", 1, ov, &err);
    CHECKF(!e && strstr(err.msg, "did you mean network.vcs (BookSim's num_vcs)?"), "%s",
           err.msg);
    e = mpp_experiment_parse("mppnet: 1\nnetwork:\n  routing_function: dor\n", "x.yaml", 0, NULL,
                             &err);
    CHECKF(!e && strstr(err.msg, "x.yaml:3:3: unknown key 'network.routing_function'; did you "
                                 "mean network.router (BookSim's routing_function)?"),
           "%s", err.msg);
}

int main(void)
{
    test_grammar();
    test_mapping();
    test_hints();
    TEST_DONE();
}
