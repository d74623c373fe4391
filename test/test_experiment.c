/* test/test_experiment.c — YAML experiments (core/experiment.h): defaults,
 * every kind of bad input with its location, units, sweeps (count, order,
 * values), command-line overrides, seeds, the schema version, and the
 * determinism of the dumps and hashes. Uses the registered plug-ins mesh,
 * hypercube, ecube (alias dor), xyyx, uniform and hotspot. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/experiment.h"
#include "topologies/topology.h"
#include "routers/routing.h"
#include "algorithms/patterns.h"
#include "test/testutil.h"

static int failures;

#define EXPECT(cond)                                                               \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);    \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static mpp_experiment *parse_ov(const char *text, size_t nov, const char *const *ov, mpp_err *err)
{
    mpp_err_clear(err);
    return mpp_experiment_parse(text, "t.yaml", nov, ov, err);
}


/* Loading text (with overrides) must fail with a message containing want. */
static void fails_ov(const char *text, size_t nov, const char *const *ov, const char *want,
                     int line)
{
    mpp_err err;
    mpp_experiment *e = parse_ov(text, nov, ov, &err);
    if (e || err.code != MPP_EINVAL || !strstr(err.msg, want)) {
        fprintf(stderr, "%s:%d: expected error '%s'\n  got code %d '%s'\n", __FILE__, line, want,
                err.code, err.msg);
        failures++;
    }
    mpp_experiment_destroy(e);
}
#define FAILS(text, want) fails_ov(text, 0, NULL, want, __LINE__)
#define FAILS_OV(text, ov, want) fails_ov(text, 1, (const char *const[]){ov}, want, __LINE__)

/* Loading must succeed; prints the error otherwise. */
static mpp_experiment *ok_ov(const char *text, size_t nov, const char *const *ov, int line)
{
    mpp_err err;
    mpp_experiment *e = parse_ov(text, nov, ov, &err);
    if (!e) {
        fprintf(stderr, "%s:%d: load failed: %s\n", __FILE__, line, err.msg);
        failures++;
    }
    return e;
}
#define OK(text) ok_ov(text, 0, NULL, __LINE__)
#define OK_OV(text, n, ...) ok_ov(text, n, (const char *const[]){__VA_ARGS__}, __LINE__)

/* Read u32 / double key of a plug-in blob through its schema. */
static uint32_t blob_u32(const mpp_schema *s, const mpp_blob *b, const char *key)
{
    for (size_t i = 0; i < s->nparams; i++)
        if (!strcmp(s->params[i].key, key) && s->params[i].type == MPP_PT_U32) {
            uint32_t v;
            memcpy(&v, b->b + s->params[i].offset, sizeof v);
            return v;
        }
    fprintf(stderr, "no u32 key %s\n", key);
    failures++;
    return 0;
}

static uint32_t mesh_rows(const mpp_sim_config *c)
{
    return blob_u32(&c->net.topo->schema, &c->net.topo_cfg, "rows");
}
static uint32_t mesh_cols(const mpp_sim_config *c)
{
    return blob_u32(&c->net.topo->schema, &c->net.topo_cfg, "cols");
}

static void test_defaults(void)
{
    mpp_sim_config d;
    mpp_config_defaults(&d);
    EXPECT(d.net.topo == mpp_topo_find("mesh"));
    EXPECT(d.net.routing == mpp_routing_find("ecube"));
    EXPECT(test_wl_plugin(&d, "pattern") == mpp_pattern_find("uniform"));
    EXPECT(d.net.vcs == 2 && d.net.buffer_flits == 8 && d.net.router_delay == 1);
    EXPECT(d.net.link_latency == 1 && d.net.credit_latency == 1 && d.net.message_classes == 1);
    EXPECT(d.net.flow == MPP_FLOW_WORMHOLE && d.net.allocator == MPP_ALLOC_SEPARABLE);
    EXPECT(d.net.nic == MPP_NIC_IDEAL && d.net.net_mhz == 0 && d.net.watchdog_cycles == 100000);
    EXPECT(!d.net.shuffle_order);
    EXPECT(d.workload.ops == mpp_workload_find("synthetic") && test_wl_num(&d, "rate") == 0.1 && test_wl_num(&d, "packet_flits") == 5);
    EXPECT(test_wl_num(&d, "warmup") == 10000 && test_wl_num(&d, "measure") == 30000 && test_wl_num(&d, "drain_factor") == 10);
    EXPECT(test_wl_num(&d, "placement") == 0 && d.run.seed == 1);
    EXPECT(!d.run.record_channels && !d.run.record_matrix);
    if (d.net.topo)
        EXPECT(mesh_rows(&d) == 8 && mesh_cols(&d) == 8);

    mpp_experiment *e = OK("mppnet: 1\n");
    if (!e)
        return;
    EXPECT(mpp_experiment_runs(e) == 1 && mpp_experiment_axes(e) == 0);
    EXPECT(!strcmp(mpp_experiment_name(e), "experiment"));
    const mpp_output_config *o = mpp_experiment_output(e);
    EXPECT(!strcmp(o->dir, "results/experiment") && o->plot && !o->per_channel &&
           !o->traffic_matrix);
    const mpp_sim_config *c = mpp_experiment_config(e, 0);
    EXPECT(c->net.topo == d.net.topo && c->net.routing == d.net.routing);
    EXPECT(test_wl_plugin(c, "pattern") == test_wl_plugin(&d, "pattern"));
    EXPECT(!memcmp(&c->net.topo_cfg, &d.net.topo_cfg, sizeof d.net.topo_cfg));
    EXPECT(c->net.vcs == 2 && test_wl_num(c, "rate") == 0.1 && c->run.seed == 1);
    EXPECT(test_wl_num(c, "measure") == 30000 && c->net.watchdog_cycles == 100000);
    mpp_experiment_destroy(e);
    mpp_experiment_destroy(NULL);
}

static void test_full(void)
{
    const char *text = "mppnet: 1\n"
                       "name: full\n"
                       "description: \"every key\"\n"
                       "network:\n"
                       "  topology: hypercube\n"
                       "  hypercube: {dim: 4}\n"
                       "  mesh: {rows: 3}\n"
                       "  router: dor\n"
                       "  vcs: 4\n"
                       "  buffer_flits: 16\n"
                       "  router_delay: 0\n"
                       "  link_latency: 2\n"
                       "  credit_latency: 3\n"
                       "  message_classes: 2\n"
                       "  flow_control: cut-through\n"
                       "  allocator: islip\n"
                       "  nic: ideal\n"
                       "  net_mhz: 40\n"
                       "  watchdog_cycles: 5000\n"
                       "  shuffle_order: true\n"
                       "workload:\n"
                       "  type: synthetic\n"
                       "  pattern: hotspot\n"
                       "  hotspot: {nodes: [1, 2], fraction: 0.5}\n"
                       "  rate: 0.25\n"
                       "  packet_flits: 1\n"
                       "  warmup: 0\n"
                       "  measure: 100\n"
                       "  drain_factor: 0\n"
                       "  placement: random\n"
                       "seed: 42\n"
                       "output:\n"
                       "  dir: out/here\n"
                       "  per_channel: true\n"
                       "  traffic_matrix: true\n"
                       "  plot: false\n";
    mpp_experiment *e = OK(text);
    if (!e)
        return;
    const mpp_sim_config *c = mpp_experiment_config(e, 0);
    EXPECT(!strcmp(mpp_experiment_name(e), "full"));
    EXPECT(c->net.topo == mpp_topo_find("hypercube"));
    EXPECT(blob_u32(&c->net.topo->schema, &c->net.topo_cfg, "dim") == 4);
    EXPECT(c->net.routing == mpp_routing_find("ecube"));
    EXPECT(c->net.vcs == 4 && c->net.buffer_flits == 16 && c->net.router_delay == 0);
    EXPECT(c->net.link_latency == 2 && c->net.credit_latency == 3 && c->net.message_classes == 2);
    EXPECT(c->net.flow == MPP_FLOW_CUT_THROUGH && c->net.allocator == MPP_ALLOC_ISLIP);
    EXPECT(c->net.net_mhz == 40 && c->net.watchdog_cycles == 5000 && c->net.shuffle_order);
    EXPECT(test_wl_plugin(c, "pattern") == mpp_pattern_find("hotspot"));
    EXPECT(test_wl_num(c, "rate") == 0.25 && test_wl_num(c, "packet_flits") == 1 && test_wl_num(c, "warmup") == 0);
    EXPECT(test_wl_num(c, "measure") == 100 && test_wl_num(c, "drain_factor") == 0);
    EXPECT(test_wl_num(c, "placement") == 1 && c->run.seed == 42);
    EXPECT(c->run.record_channels && c->run.record_matrix);
    const mpp_output_config *o = mpp_experiment_output(e);
    EXPECT(!strcmp(o->dir, "out/here") && o->per_channel && o->traffic_matrix && !o->plot);

    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_experiment_config_yaml(e, 0, &sb);
    /* Canonical names, the selected sections only, pattern section. */
    EXPECT(strstr(sb.s, "network:\n  topology: hypercube\n  hypercube:\n    dim: 4\n"));
    EXPECT(strstr(sb.s, "  router: ecube\n  vcs: 4\n"));
    EXPECT(!strstr(sb.s, "mesh"));
    EXPECT(strstr(sb.s, "workload:\n  type: synthetic\n  pattern: hotspot\n  hotspot:\n"
                        "    nodes: [1, 2]\n    fraction: 0.5\n  rate: 0.25\n"));
    EXPECT(strstr(sb.s, "  net_mhz: 40\n  watchdog_cycles: 5000\n  shuffle_order: true\n"));
    EXPECT(strstr(sb.s, "  flow_control: cut-through\n"));
    EXPECT(!strcmp(sb.s + sb.len - 9, "seed: 42\n"));
    EXPECT(!strstr(sb.s, "output") && !strstr(sb.s, "name"));
    mpp_sb_reset(&sb);
    mpp_experiment_config_json(e, 0, &sb);
    static const char jhead[] =
        "{\"network\":{\"topology\":\"hypercube\",\"hypercube\":{\"dim\":4,";
    EXPECT(!strncmp(sb.s, jhead, sizeof jhead - 1));
    EXPECT(strstr(sb.s, "\"hotspot\":{\"nodes\":[1,2],\"fraction\":0.5},\"rate\":0.25,"));
    EXPECT(strstr(sb.s, "\"shuffle_order\":true}"));
    EXPECT(!strcmp(sb.s + sb.len - 10, "\"seed\":42}"));
    mpp_sb_free(&sb);
    mpp_experiment_destroy(e);
}

static void test_bad_values(void)
{
    /* Nested keys, with line and column of the value. */
    FAILS("mppnet: 1\nnetwork:\n  vcs: 0\n",
          "t.yaml:3:8: key 'network.vcs': expected an integer between 1 and 64, got '0'");
    FAILS("mppnet: 1\nnetwork:\n  topology: mesh\n  mesh:\n    rows: abc\n",
          "t.yaml:5:11: key 'network.mesh.rows': expected an integer");
    FAILS("mppnet: 1\nnetwork: {mesh: {rows: 4, cols: 1.5}}\n",
          "t.yaml:2:33: key 'network.mesh.cols': expected an integer");
    FAILS("mppnet: 1\nworkload:\n  hotspot:\n    nodes: [1, x]\n",
          "t.yaml:4:16: key 'workload.hotspot.nodes[1]': expected an integer");
    /* Wrong types. */
    FAILS("mppnet: 1\nnetwork:\n  vcs: abc\n", "key 'network.vcs': expected an integer between "
                                               "1 and 64, got 'abc'");
    FAILS("mppnet: 1\nnetwork:\n  vcs: [2]\n", "t.yaml:3:8: key 'network.vcs': expected an "
                                               "integer between 1 and 64, got a list");
    FAILS("mppnet: 1\nnetwork:\n  vcs:\n", "got an empty value");
    FAILS("mppnet: 1\nnetwork:\n  shuffle_order: yes\n",
          "t.yaml:3:18: key 'network.shuffle_order': expected true or false, got 'yes'");
    FAILS("mppnet: 1\nnetwork: 5\n", "t.yaml:2:10: key 'network': expected a mapping of network "
                                     "keys, got '5'");
    FAILS("mppnet: 1\nnetwork:\n  mesh: [4, 4]\n", "key 'network.mesh': expected a mapping of "
                                                   "mesh parameters, got a list");
    FAILS("mppnet: 1\nworkload:\n  rate: fast\n", "key 'workload.rate': expected a number "
                                                  "between 0 and 1, got 'fast'");
    FAILS("mppnet: 1\nnetwork:\n  topology: [mesh]\n", "t.yaml:3:13: key 'network.topology': "
                                                       "expected a topology name");
    /* Out of range. */
    FAILS("mppnet: 1\nworkload:\n  rate: 1.5\n",
          "t.yaml:3:9: key 'workload.rate': expected a number between 0 and 1, got '1.5'");
    FAILS("mppnet: 1\nnetwork:\n  buffer_flits: 70000\n",
          "key 'network.buffer_flits': expected an integer between 1 and 65535, got '70000'");
    FAILS("mppnet: 1\nnetwork:\n  vcs: 99999999999999999999999\n", "key 'network.vcs'");
    FAILS("mppnet: 1\nnetwork:\n  hypercube: {dim: 99}\n", "key 'network.hypercube.dim'");
    /* Zero and negative sizes. */
    FAILS("mppnet: 1\nworkload:\n  packet_flits: 0\n",
          "key 'workload.packet_flits': expected an integer between 1 and 65535, got '0'");
    FAILS("mppnet: 1\nworkload:\n  packet_flits: -5\n", "got '-5'");
    FAILS("mppnet: 1\nworkload:\n  measure: 0\n",
          "key 'workload.measure': expected a number of cycles between 1 and 281474976710656");
    FAILS("mppnet: 1\nnetwork:\n  watchdog_cycles: -1\n", "got '-1'");
    FAILS("mppnet: 1\nnetwork:\n  net_mhz: -100\n",
          "key 'network.net_mhz': expected a number between 0 and 1000000, got '-100'");
    /* Enums. */
    FAILS("mppnet: 1\nnetwork:\n  flow_control: store-and-forward\n",
          "t.yaml:3:17: key 'network.flow_control': expected one of wormhole, cut-through, got "
          "'store-and-forward'");
    FAILS("mppnet: 1\nnetwork:\n  allocator: wavefront\n", "expected one of separable, islip");
    FAILS("mppnet: 1\nworkload:\n  type: manual\n",
          "t.yaml:3:9: key 'workload.type': unknown workload 'manual'; valid names: synthetic, "
          "permutation, messages, schedule");
    FAILS("mppnet: 1\nworkload:\n  placement: x\n", "expected one of identity, random");
    /* Plug-in names. */
    FAILS("mppnet: 1\nnetwork:\n  topology: torus\n",
          "t.yaml:3:13: key 'network.topology': unknown topology 'torus'; valid names: mesh, "
          "hypercube");
    FAILS("mppnet: 1\nnetwork:\n  router: magic\n",
          "key 'network.router': unknown routing 'magic'; valid names: ecube");
    FAILS("mppnet: 1\nworkload:\n  pattern: zipf\n",
          "key 'workload.pattern': unknown traffic pattern 'zipf'; valid names: uniform");
}

static void test_unknown_keys(void)
{
    FAILS("mppnet: 1\nnetwrok: {}\n",
          "t.yaml:2:1: unknown key 'netwrok'; valid top-level keys: mppnet, name, description, "
          "machine, network, node, workload, seed, seeds, sweep, output");
    FAILS("mppnet: 1\nnetwork:\n  vcz: 2\n",
          "t.yaml:3:3: unknown key 'network.vcz'; valid keys of network: topology, router, vcs, "
          "vcs_per_class, buffer_flits");
    FAILS("mppnet: 1\nnetwork:\n  vcz: 2\n", "or a topology section: mesh, hypercube");
    FAILS("mppnet: 1\nworkload:\n  rates: 0.1\n",
          "t.yaml:3:3: unknown key 'workload.rates'; valid keys of workload (type synthetic): type, "
          "pattern, rate, packet_flits");
    /* a key of another workload type says so */
    FAILS("mppnet: 1\nworkload:\n  d: 4\n",
          "unknown key 'workload.d'; valid keys of workload (type synthetic)");
    FAILS("mppnet: 1\nworkload:\n  d: 4\n", "; it is a key of workload type schedule");
    FAILS("mppnet: 1\noutput:\n  plots: true\n",
          "t.yaml:3:3: unknown key 'output.plots'; valid keys of output: dir, per_channel, "
          "traffic_matrix, plot");
    /* In plug-in sections, selected or not. */
    FAILS("mppnet: 1\nnetwork:\n  mesh: {rows: 4, colz: 4}\n",
          "t.yaml:3:19: unknown key 'network.mesh.colz'; valid keys of network.mesh: rows, cols");
    FAILS("mppnet: 1\nnetwork:\n  topology: mesh\n  hypercube: {dimm: 3}\n",
          "t.yaml:4:15: unknown key 'network.hypercube.dimm'; valid keys of network.hypercube: "
          "dim");
    FAILS("mppnet: 1\nnetwork:\n  ecube: {k: 2}\n",
          "t.yaml:3:11: unknown key 'network.ecube.k': network.ecube ecube has no parameters");
    FAILS("mppnet: 1\nworkload:\n  hotspot: {node: [1]}\n",
          "unknown key 'workload.hotspot.node'; valid keys of workload.hotspot: nodes, fraction");
    /* A section of a pattern that exists in another family is unknown. */
    FAILS("mppnet: 1\nworkload:\n  mesh: {}\n", "unknown key 'workload.mesh'");
    /* Sections are not accepted under an alias. */
    FAILS("mppnet: 1\nnetwork:\n  dor: {}\n", "unknown key 'network.dor'");
}

static void test_units(void)
{
    mpp_experiment *e = OK("mppnet: 1\nnetwork:\n  watchdog_cycles: 1.5us\n  net_mhz: 100\n"
                           "workload:\n  warmup: 2us\n  measure: 0.5ms\n");
    if (e) {
        const mpp_sim_config *c = mpp_experiment_config(e, 0);
        EXPECT(c->net.watchdog_cycles == 150);
        EXPECT(test_wl_num(c, "warmup") == 200 && test_wl_num(c, "measure") == 50000);
        mpp_experiment_destroy(e);
    }
    FAILS("mppnet: 1\nnetwork:\n  watchdog_cycles: 1.5us\n",
          "t.yaml:3:20: key 'network.watchdog_cycles': a time ('1.5us') needs the network clock");
    FAILS("mppnet: 1\nworkload:\n  warmup: 10us\n", "key 'workload.warmup': a time ('10us')");
    FAILS("mppnet: 1\nnetwork:\n  net_mhz: 10\nworkload:\n  warmup: 10 parsecs\n",
          "key 'workload.warmup': expected a number of cycles between 0 and 281474976710656 (an "
          "integer, or a time in ns, us, "
          "ms or s), got '10 parsecs'");
    FAILS("mppnet: 1\nnetwork:\n  watchdog_cycles: 2KiB\n", "got '2KiB'");
    FAILS("mppnet: 1\nnetwork:\n  net_mhz: 100\n  watchdog_cycles: 1ns\n",
          "key 'network.watchdog_cycles'"); /* 0.1 cycle rounds to 0 < 1 */
}

static void test_plugins(void)
{
    mpp_experiment *e = OK("mppnet: 1\nnetwork:\n  mesh: {rows: 2}\n");
    if (e) {
        const mpp_sim_config *c = mpp_experiment_config(e, 0);
        EXPECT(mesh_rows(c) == 2 && mesh_cols(c) == 8);
        mpp_experiment_destroy(e);
    }
    /* An empty section is the defaults. */
    e = OK("mppnet: 1\nnetwork:\n  mesh:\nworkload:\n");
    if (e) {
        EXPECT(mesh_rows(mpp_experiment_config(e, 0)) == 8);
        mpp_experiment_destroy(e);
    }
    /* The short form of a topology. */
    const mpp_topo_ops *mesh = mpp_topo_find("mesh");
    if (mesh && mesh->parse_short) {
        e = OK("mppnet: 1\nnetwork:\n  mesh: 4x3\n");
        if (e) {
            const mpp_sim_config *c = mpp_experiment_config(e, 0);
            EXPECT(mesh_rows(c) == 4 && mesh_cols(c) == 3);
            mpp_experiment_destroy(e);
        }
        FAILS("mppnet: 1\nnetwork:\n  mesh: 4by3\n", "t.yaml:3:9: key 'network.mesh': ");
        FAILS("mppnet: 1\nnetwork:\n  mesh: 0x3\n", "t.yaml:3:9: key 'network.mesh.rows'");
    }
    /* Switching the topology resets its config to that plug-in's defaults. */
    e = OK("mppnet: 1\nnetwork:\n  topology: hypercube\n");
    if (e) {
        const mpp_sim_config *c = mpp_experiment_config(e, 0);
        mpp_blob d;
        memset(&d, 0, sizeof d);
        EXPECT(c->net.topo == mpp_topo_find("hypercube"));
        EXPECT(blob_u32(&c->net.topo->schema, &c->net.topo_cfg, "dim") ==
               (uint32_t)atoi(c->net.topo->schema.params[0].def));
        mpp_experiment_destroy(e);
    }
}

static void test_sweep(void)
{
    const char *text = "mppnet: 1\n"
                       "seeds: [7, 8]\n"
                       "sweep:\n"
                       "  network.router: [ecube, xyyx]\n"
                       "  workload.rate: [0.1, 0.2, \"0.30\"]\n";
    mpp_experiment *e = OK(text);
    if (!e)
        return;
    EXPECT(mpp_experiment_runs(e) == 12);
    EXPECT(mpp_experiment_axes(e) == 2);
    EXPECT(!strcmp(mpp_experiment_axis(e, 0), "network.router"));
    EXPECT(!strcmp(mpp_experiment_axis(e, 1), "workload.rate"));
    const char *routers[] = {"ecube", "xyyx"};
    const double rates[] = {0.1, 0.2, 0.3};
    const char *rate_text[] = {"0.1", "0.2", "0.30"};
    for (size_t i = 0; i < 12 && mpp_experiment_runs(e) == 12; i++) {
        const mpp_sim_config *c = mpp_experiment_config(e, i);
        size_t s = i % 2, r = (i / 2) % 3, a = i / 6;
        EXPECT(c->run.seed == (s ? 8u : 7u));
        EXPECT(test_wl_num(c, "rate") == rates[r]);
        EXPECT(c->net.routing == mpp_routing_find(routers[a]));
        EXPECT(!strcmp(mpp_experiment_value(e, i, 0), routers[a]));
        EXPECT(!strcmp(mpp_experiment_value(e, i, 1), rate_text[r]));
    }
    /* Different runs hash differently; the same run the same. */
    EXPECT(mpp_experiment_hash(e, 0) != mpp_experiment_hash(e, 1));
    EXPECT(mpp_experiment_hash(e, 0) != mpp_experiment_hash(e, 2));
    EXPECT(mpp_experiment_hash(e, 3) == mpp_experiment_hash(e, 3));
    mpp_experiment_destroy(e);

    /* Mapping values replace the section; their text is flow YAML. */
    e = OK("mppnet: 1\nsweep:\n  network.mesh: [{rows: 2, cols: 2}, {rows: 4}]\n"
           "  network.vcs: [2]\n");
    if (e) {
        EXPECT(mpp_experiment_runs(e) == 2);
        EXPECT(!strcmp(mpp_experiment_value(e, 0, 0), "{rows: 2, cols: 2}"));
        EXPECT(!strcmp(mpp_experiment_value(e, 1, 0), "{rows: 4}"));
        EXPECT(!strcmp(mpp_experiment_value(e, 1, 1), "2"));
        EXPECT(mesh_rows(mpp_experiment_config(e, 0)) == 2);
        EXPECT(mesh_cols(mpp_experiment_config(e, 1)) == 8);
        mpp_experiment_destroy(e);
    }
    /* A swept key may be absent from the file or present (the sweep wins). */
    e = OK("mppnet: 1\nnetwork:\n  vcs: 8\nsweep:\n  network.vcs: [2, 4]\n"
           "  workload.hotspot.fraction: [0.5]\n");
    if (e) {
        EXPECT(mpp_experiment_config(e, 0)->net.vcs == 2);
        EXPECT(mpp_experiment_config(e, 1)->net.vcs == 4);
        mpp_experiment_destroy(e);
    }
    FAILS("mppnet: 1\nsweep:\n  workload.rate: []\n",
          "t.yaml:3:18: key 'sweep.workload.rate': expected a non-empty list of values, got an "
          "empty list");
    FAILS("mppnet: 1\nsweep:\n  workload.rate: 0.1\n",
          "key 'sweep.workload.rate': expected a non-empty list of values, got '0.1'");
    FAILS("mppnet: 1\nsweep: [1]\n", "key 'sweep': expected a mapping");
    FAILS("mppnet: 1\nsweep:\n  seed: [1, 2]\n", "t.yaml:3:3: key 'sweep.seed': only keys under "
                                                 "network., node. and workload. can be swept");
    FAILS("mppnet: 1\nsweep:\n  network.: [1]\n", "key 'sweep.network.'");
    /* A bad swept value points at the value in the list and names the point. */
    FAILS("mppnet: 1\nsweep:\n  network.router: [ecube]\n  workload.rate: [0.1, 1.5]\n",
          "t.yaml:4:24: key 'workload.rate': expected a number between 0 and 1, got '1.5' (in "
          "sweep point network.router=ecube, workload.rate=1.5)");
    /* An error that does not depend on the sweep does not name a point. */
    FAILS("mppnet: 1\nnetwork: {vcs: 0}\nsweep:\n  workload.rate: [0.1]\n",
          "got '0'");
    {
        mpp_err err;
        mpp_experiment *x = parse_ov(
            "mppnet: 1\nnetwork: {vcs: 0}\nsweep:\n  workload.rate: [0.1]\n", 0, NULL, &err);
        EXPECT(!x && !strstr(err.msg, "sweep point"));
        mpp_experiment_destroy(x);
    }
    /* An error that does is reported with its point. */
    FAILS("mppnet: 1\nworkload: {warmup: 1us}\nsweep:\n  network.net_mhz: [100, 0]\n",
          "t.yaml:2:20: key 'workload.warmup': a time ('1us') needs the network clock, but "
          "network.net_mhz is 0 (unknown): give a number of cycles or set network.net_mhz (in "
          "sweep point network.net_mhz=0)");
    FAILS("mppnet: 1\nsweep:\n  network.vcz: [1, 2]\n",
          "t.yaml:3:17: unknown key 'network.vcz'; valid keys of network");
    FAILS("mppnet: 1\nnetwork: {vcs: 2}\nsweep:\n  network.vcs.x: [1]\n",
          "t.yaml:4:19: cannot set 'network.vcs.x': 'network.vcs' is a value, not a mapping");
}

static void test_overrides(void)
{
    const char *base = "mppnet: 1\n"
                       "network:\n"
                       "  vcs: 2\n"
                       "sweep:\n"
                       "  workload.rate: [0.1, 0.2]\n";
    mpp_experiment *e = OK_OV(base, 5, "network.vcs=4", "seeds=[5, 6, 7]",
                              "network.mesh={rows: 4, cols: 2}", "workload.pattern=hotspot",
                              "workload.hotspot.nodes=[3]");
    if (e) {
        EXPECT(mpp_experiment_runs(e) == 6);
        const mpp_sim_config *c = mpp_experiment_config(e, 5);
        EXPECT(c->net.vcs == 4 && c->run.seed == 7 && test_wl_num(c, "rate") == 0.2);
        EXPECT(mesh_rows(c) == 4 && mesh_cols(c) == 2);
        EXPECT(test_wl_plugin(c, "pattern") == mpp_pattern_find("hotspot"));
        mpp_experiment_destroy(e);
    }
    /* A key that the file does not have at all, and a whole section. */
    e = OK_OV("mppnet: 1\n", 2, "network.net_mhz=100", "network.watchdog_cycles=2us");
    if (e) {
        EXPECT(mpp_experiment_config(e, 0)->net.watchdog_cycles == 200);
        mpp_experiment_destroy(e);
    }
    /* Overriding a swept key removes the axis; sweep.KEY sets one. */
    e = OK_OV(base, 1, "workload.rate=0.3");
    if (e) {
        EXPECT(mpp_experiment_runs(e) == 1 && mpp_experiment_axes(e) == 0);
        EXPECT(test_wl_num(mpp_experiment_config(e, 0), "rate") == 0.3);
        mpp_experiment_destroy(e);
    }
    e = OK_OV(base, 1, "sweep.network.vcs=[1, 2, 4]");
    if (e) {
        EXPECT(mpp_experiment_runs(e) == 6 && mpp_experiment_axes(e) == 2);
        EXPECT(!strcmp(mpp_experiment_axis(e, 1), "network.vcs"));
        EXPECT(mpp_experiment_config(e, 5)->net.vcs == 4);
        mpp_experiment_destroy(e);
    }
    /* Overrides apply in order: the last one wins. */
    e = OK_OV(base, 2, "network.vcs=8", "network.vcs=16");
    if (e) {
        EXPECT(mpp_experiment_config(e, 0)->net.vcs == 16);
        mpp_experiment_destroy(e);
    }
    /* The file may be empty when the overrides supply the version. */
    e = OK_OV("", 1, "mppnet=1");
    mpp_experiment_destroy(e);

    FAILS_OV(base, "foo", "command line: foo: expected KEY=VALUE");
    FAILS_OV(base, "network.vcs=[1,", "command line: network.vcs=[1,: ");
    FAILS_OV(base, "network.vcz=3",
             "command line: network.vcz=3: unknown key 'network.vcz'; valid keys of network");
    FAILS_OV(base, "network.vcs=0",
             "command line: network.vcs=0: key 'network.vcs': expected an integer between 1 and "
             "64, got '0'");
    FAILS_OV(base, "network.vcs.x=1", "command line: network.vcs.x=1: cannot set");
    FAILS_OV(base, "bogus=1", "command line: bogus=1: unknown key 'bogus'");
    FAILS_OV(base, "sweep.workload.packet_flits=[]",
             "command line: sweep.workload.packet_flits=[]: key 'sweep.workload.packet_flits': "
             "expected a non-empty list");
}

static void test_seeds_and_version(void)
{
    mpp_experiment *e = OK("mppnet: 1\nseed: 99\n");
    if (e) {
        EXPECT(mpp_experiment_runs(e) == 1 && mpp_experiment_config(e, 0)->run.seed == 99);
        mpp_experiment_destroy(e);
    }
    e = OK("mppnet: 1\nseeds: 5\n");
    if (e) {
        EXPECT(mpp_experiment_runs(e) == 1 && mpp_experiment_config(e, 0)->run.seed == 5);
        mpp_experiment_destroy(e);
    }
    e = OK("mppnet: 1\nseeds: [3, 1, 2]\n");
    if (e) {
        EXPECT(mpp_experiment_runs(e) == 3 && mpp_experiment_config(e, 1)->run.seed == 1);
        mpp_experiment_destroy(e);
    }
    FAILS("mppnet: 1\nseed: 1\nseeds: [1, 2]\n",
          "t.yaml:3:8: key 'seeds': give either 'seed' or 'seeds', not both");
    FAILS("mppnet: 1\nseeds: []\n", "key 'seeds': expected a non-empty list of seeds");
    FAILS("mppnet: 1\nseeds: [1, 2, 1]\n", "t.yaml:2:15: key 'seeds[2]': seed 1 is already");
    FAILS("mppnet: 1\nseeds: [1, x]\n", "t.yaml:2:12: key 'seeds[1]': expected an integer "
                                        "between 0 and 2^64 - 1, got 'x'");
    FAILS("mppnet: 1\nseed: -1\n",
          "t.yaml:2:7: key 'seed': expected an integer between 0 and 2^64 - 1");
    FAILS("mppnet: 1\nseed: {a: 1}\n", "got a mapping");

    FAILS("network: {}\n", "t.yaml: missing required key 'mppnet'");
    FAILS("", "t.yaml: the experiment is empty");
    FAILS("mppnet: 2\n", "t.yaml:1:9: key 'mppnet': expected the schema version 1, got '2'");
    FAILS("mppnet: 1.0\n", "got '1.0'");
    FAILS("mppnet: [1]\n", "got a list");
    FAILS("- mppnet: 1\n", "t.yaml:1:1: expected a mapping of experiment keys");
    FAILS("mppnet: 1\nname: \"\"\n", "t.yaml:2:7: key 'name': expected non-empty text");
    FAILS("mppnet: 1\nname: [a]\n", "key 'name': expected non-empty text, got a list");
    FAILS("mppnet: 1\ndescription: {a: 1}\n", "key 'description': expected text");
    FAILS("mppnet: 1\noutput:\n  dir: [x]\n", "key 'output.dir'");
    FAILS("mppnet: 1\noutput:\n  plot: maybe\n", "key 'output.plot': expected true or false");
    /* Syntax errors keep their location. */
    FAILS("mppnet: 1\nnetwork:\n  vcs: [2\n", "t.yaml:4:1: did not find expected ',' or ']'");
    FAILS("mppnet: 1\nmppnet: 1\n", "t.yaml:2:1: duplicate key 'mppnet'");
    e = OK("mppnet: 1\nname: mine\n");
    if (e) {
        EXPECT(!strcmp(mpp_experiment_name(e), "mine"));
        EXPECT(!strcmp(mpp_experiment_output(e)->dir, "results/mine"));
        mpp_experiment_destroy(e);
    }
}

static void test_files(void)
{
    mpp_err err;
    mpp_experiment *e = mpp_experiment_load("/nonexistent/x.yaml", 0, NULL, &err);
    EXPECT(!e && err.code == MPP_EIO && strstr(err.msg, "/nonexistent/x.yaml"));

    char dir[] = "/tmp/mpp_exp_XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "skipping file tests: mkdtemp failed\n");
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "%s/quick.start.yaml", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fputs("mppnet: 1\nnetwork:\n  vcs: 100\n", f);
    fclose(f);
    e = mpp_experiment_load(path, 0, NULL, &err);
    char want[128];
    snprintf(want, sizeof want, "%s:3:8: key 'network.vcs'", path);
    EXPECT(!e && err.code == MPP_EINVAL && strstr(err.msg, want));
    const char *ov[] = {"network.vcs=3"};
    e = mpp_experiment_load(path, 1, ov, &err);
    EXPECT(e);
    if (e) {
        EXPECT(!strcmp(mpp_experiment_name(e), "quick.start"));
        EXPECT(!strcmp(mpp_experiment_output(e)->dir, "results/quick.start"));
        EXPECT(mpp_experiment_config(e, 0)->net.vcs == 3);
        mpp_experiment_destroy(e);
    }
    remove(path);
    remove(dir);
}

static void test_dump_determinism(void)
{
    const char *text = "mppnet: 1\nnetwork:\n  router: dor\n  net_mhz: 33.3\nworkload:\n"
                       "  rate: 0.123456789\n";
    mpp_experiment *a = OK(text);
    mpp_experiment *b = OK(text);
    mpp_experiment *c = OK_OV(text, 1, "seed=2");
    if (!a || !b || !c)
        goto out;
    mpp_sb sa, sb, sc;
    mpp_sb_init(&sa);
    mpp_sb_init(&sb);
    mpp_sb_init(&sc);
    mpp_experiment_config_yaml(a, 0, &sa);
    mpp_experiment_config_yaml(b, 0, &sb);
    mpp_experiment_config_yaml(c, 0, &sc);
    EXPECT(!strcmp(sa.s, sb.s));
    EXPECT(strcmp(sa.s, sc.s) != 0);
    EXPECT(mpp_experiment_hash(a, 0) == mpp_experiment_hash(b, 0));
    EXPECT(mpp_experiment_hash(a, 0) != mpp_experiment_hash(c, 0));
    static const char head[] = "network:\n  topology: mesh\n  mesh:\n    rows: 8\n"
                               "    cols: 8\n  router: ecube\n  vcs: 2\n";
    EXPECT(!strncmp(sa.s, head, sizeof head - 1));
    EXPECT(strstr(sa.s, "  net_mhz: 33.3\n"));
    EXPECT(strstr(sa.s, "  rate: 0.123456789\n"));
    EXPECT(strstr(sa.s, "  pattern: uniform\n  rate:")); /* uniform has no section */
    /* The hash is FNV-1a 64 of the YAML text. */
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < sa.len; i++)
        h = (h ^ (unsigned char)sa.s[i]) * 1099511628211ULL;
    EXPECT(h == mpp_experiment_hash(a, 0));

    /* The YAML dump reads back as the same configuration. */
    mpp_sb rt;
    mpp_sb_init(&rt);
    mpp_sb_add(&rt, "mppnet: 1\n");
    mpp_sb_add(&rt, sa.s);
    mpp_experiment *r = OK(rt.s);
    if (r) {
        EXPECT(mpp_experiment_hash(r, 0) == mpp_experiment_hash(a, 0));
        mpp_experiment_destroy(r);
    }
    /* The JSON is one line, every key present. */
    mpp_sb_reset(&sa);
    mpp_experiment_config_json(a, 0, &sa);
    EXPECT(!strchr(sa.s, '\n'));
    EXPECT(strstr(sa.s, "\"router\":\"ecube\",\"vcs\":2,"));
    EXPECT(strstr(sa.s, "\"net_mhz\":33.3,"));
    mpp_sb_reset(&sb);
    mpp_experiment_config_json(b, 0, &sb);
    EXPECT(!strcmp(sa.s, sb.s));
    mpp_sb_free(&rt);
    mpp_sb_free(&sa);
    mpp_sb_free(&sb);
    mpp_sb_free(&sc);
out:
    mpp_experiment_destroy(a);
    mpp_experiment_destroy(b);
    mpp_experiment_destroy(c);
}

int main(void)
{
    if (!mpp_topo_find("mesh") || !mpp_topo_find("hypercube") || !mpp_routing_find("ecube") ||
        !mpp_routing_find("xyyx") || !mpp_pattern_find("uniform") ||
        !mpp_pattern_find("hotspot")) {
        fprintf(stderr, "test_experiment: a plug-in these tests use is not registered\n");
        return 77;
    }
    test_defaults();
    test_full();
    test_bad_values();
    test_unknown_keys();
    test_units();
    test_plugins();
    test_sweep();
    test_overrides();
    test_seeds_and_version();
    test_files();
    test_dump_determinism();
    if (failures)
        fprintf(stderr, "test_experiment: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
