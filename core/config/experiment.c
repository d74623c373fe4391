/* core/config/experiment.c — YAML experiments: load, resolve, expand sweeps, dump
 * (see experiment.h).
 *
 * What it models: an experiment file is a description of a family of runs.
 * Loading reads the file into a located tree (core/cfgtree.h), applies the
 * command-line overrides to the tree, expands the `sweep:` cross product and
 * the seeds, and resolves every run against the parameter schemas into an
 * mpp_sim_config. A loaded experiment is therefore valid as a whole; nothing
 * is resolved later and nothing reads the tree after load.
 *
 * THE SCHEMA (version 1). Every key is optional except `mppnet`; the
 * defaults below come from the schema tables in this file (network_params,
 * workload_params, output_params, top_params) and from each plug-in's
 * ops->schema, and are the same defaults mpp_sim_config_defaults() fills.
 *
 *   mppnet: 1                 # required: schema version; only 1 is accepted
 *   name: quickstart          # text; default: the file's base name without
 *                             #   .yaml/.yml ("experiment" for YAML text)
 *   description: "..."        # free text, not used
 *   machine: cm5              # a shipped machine preset (cm5, paragon,
 *                             #   hypercube): its network: and node: keys
 *                             #   apply under whatever the file and the
 *                             #   command line say
 *   network:
 *     topology: mesh          # a topology name (mppnet list); default mesh
 *     mesh: {rows: 8, cols: 8}  # the section named after a topology holds
 *     hypercube: {dim: 6}       #   that plug-in's parameters (its schema);
 *                             #   a topology with a short form also takes it
 *                             #   as a scalar: `mesh: 8x8`, `hypercube: 6`
 *     router: ecube           # a routing name or alias ("dor" = ecube);
 *                             #   any selector (topology, router, pattern)
 *                             #   may carry its parameters inline as
 *                             #   NAME:key=value,... ("romm:k=3") or, for a
 *                             #   topology, its short form ("mesh:8x8")
 *                             #   default ecube
 *     romm: {k: 2}            # the section named after a routing plug-in
 *     vcs: 2                  # integer 1..64: VCs per input port
 *     vcs_per_class: 0        # integer 0..64: if > 0, vcs = classes x this
 *     buffer_flits: 8         # integer 1..65535: flits per VC buffer
 *     router_delay: 1         # integer 0..1000: router pipeline cycles
 *     link_latency: 1         # integer 1..1000: cycles per channel
 *     credit_latency: 1       # integer 1..1000: cycles for a credit
 *     message_classes: 1      # integer 1..8
 *     flow_control: wormhole  # wormhole | cut-through
 *     allocator: separable    # separable | islip
 *     nic: ideal              # ideal | model (node programs read the FIFOs)
 *     net_mhz: 0              # number >= 0: network clock in MHz, 0 unknown
 *     watchdog_cycles: 100000 # cycles >= 1 (a time such as 1.5us when
 *                             #   net_mhz > 0)
 *     shuffle_order: false    # true | false (testing only)
 *   workload:
 *     type: synthetic         # synthetic | permutation | messages
 *     pattern: uniform        # a traffic pattern name or alias; default uniform
 *     hotspot: {...}          # the section named after a pattern plug-in
 *     rate: 0.1               # number 0..1: offered flits/node/cycle
 *     packet_flits: 5         # integer 1..65535
 *     warmup: 10000           # cycles >= 0 (or a time, as above)
 *     measure: 30000          # cycles >= 1 (or a time, as above)
 *     drain_factor: 10        # integer 0..1000: drain limit = factor x measure
 *     placement: identity     # identity | random
 *     packets: 32             # permutation: integer 1..1000000 packets per message
 *     bytes: 0                # permutation: message bytes (units allowed); 0 = packets
 *   seed: 1                   # integer >= 0; default 1
 *   seeds: [1, 2, 3]          # or a list of distinct seeds (not both)
 *   sweep:                    # key path -> non-empty list of values
 *     network.router: [ecube, valiant]
 *     workload.rate: [0.1, 0.2, 0.3]
 *   output:                   # not part of the model (not in dumps/hashes)
 *     dir: results/quickstart # default "results/<name>"
 *     per_channel: false      # channels.csv (sets record_channels)
 *     traffic_matrix: false   # matrix csv (sets record_matrix)
 *     plot: true
 *     per_message: false      # messages.csv (one row per delivered message)
 *
 * Value forms: integers are decimal digits (no sign, no fraction); sizes
 * (MPP_PT_BYTES) take units B, KB=1000, KiB=1024, MB, MiB, GB, GiB; cycles
 * take ns, us, ms, s converted with network.net_mhz (an error when it is 0);
 * booleans are true/false; enums are one of the listed words. An empty value
 * (`vcs:`) is an error for a parameter and an empty mapping for a section.
 *
 * Plug-in sections: a key of `network:` (or `workload:`) that is the
 * canonical name of a registered topology or routing plug-in (or traffic
 * pattern) is that plug-in's section and is checked against its schema even
 * when the plug-in is not selected (so a typo never hides); only the
 * selected plug-in's section is used. Any other unknown key is an error that
 * lists the valid keys of its section.
 *
 * Sweeps: each `sweep:` key is a dotted key path under network., node. or
 * workload. (seeds have their own list; output is per experiment), or
 * several joined by '+' (a zipped axis: "network.hypercube.dim+workload.d":
 * [[5, 1], [9, 511]] sets both keys together); each
 * value is a non-empty list. The runs are the cross product of the lists, in
 * the order the axes are written, the last axis varying fastest, and within
 * a point the seeds varying fastest: run = (point x nseeds) + seed index. A
 * list item that is a scalar replaces the key's value as a scalar, a mapping
 * or list replaces it as a whole. Errors in a swept value point at the value
 * inside the sweep list, and an error found while resolving a sweep point
 * names that point (unless it is the first point and the file has the same
 * error without the sweep).
 *
 * Overrides ("key.path=value", the value parsed as YAML) are applied in
 * order to the tree before anything is resolved, with the location
 * "command line: key.path=value". "sweep.KEY=[...]" sets the sweep axis KEY
 * (KEY keeps its dots). An override of a key that is also a sweep axis
 * removes that axis: the command line wins.
 *
 * Dumps (mpp_experiment_config_yaml/json): network (topology, its section,
 * router, its section, then the network keys), workload (type, pattern, its
 * section, then the workload keys), seed — every key with its resolved value,
 * in schema order; plug-in sections only when the plug-in has parameters;
 * plug-ins by canonical name; doubles with mpp_sb_double, integers in
 * decimal. The hash is FNV-1a 64 over the YAML dump.
 *
 * Invariants:
 *   1. nruns == npoints x nseeds, npoints == product of the axis lengths,
 *      and cfg[] holds nruns resolved configurations;
 *   2. every cfg[i] has non-NULL topo, routing and pattern whose schema size
 *      is at most MPP_BLOB_SIZE, and blobs filled from their schemas;
 *   3. seeds[] are pairwise distinct; cfg[p * nseeds + s].seed == seeds[s].
 */
#include "core/config/experiment.h"
#include "topologies/topology.h"
#include "routers/routing.h"
#include "algorithms/patterns.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/cfgtree.h"
#include "algorithms/schedule.h"
#include "core/config/preset.h"

/* ----------------------------------------------------------- the schemas */

static const char *const flow_choices[] = {"wormhole", "cut-through", NULL};
static const char *const alloc_choices[] = {"separable", "islip", NULL};
static const char *const nic_choices[] = {"ideal", "model", NULL};
static const char *const workload_choices[] = {"synthetic", "permutation", "messages", "schedule",
                                               NULL};
static const char *const gen_choices[] = {"random-regular", "random-nonuniform", NULL};
static const char *const paradigm_choices[] = {"sync", "async", "am", "am_put", NULL};
static const char *const shape_choices[] = {"permutation", "gather", "list", NULL};
static const char *const delivery_choices[] = {"poll", "interrupt", NULL};
static const char *const placement_choices[] = {"identity", "random", NULL};

#define NET(f) offsetof(mpp_sim_config, net.f)
#define SYN(f) offsetof(mpp_sim_config, synth.f)

/* `network:` keys (offsets into mpp_sim_config). topology and router are
 * plug-in selectors, handled apart. */
static const mpp_param network_params[] = {
    {"vcs", MPP_PT_U32, NET(vcs), "2", 1, 64, NULL, "virtual channels per input port"},
    {"vcs_per_class", MPP_PT_U32, NET(vcs_per_class), "0", 0, 64, NULL,
     "if > 0: vcs = (message classes x the router's route classes) x this"},
    {"buffer_flits", MPP_PT_U32, NET(buffer_flits), "8", 1, 65535, NULL, "flits per VC buffer"},
    {"router_delay", MPP_PT_U32, NET(router_delay), "1", 0, 1000, NULL,
     "router pipeline cycles from arrival to earliest departure"},
    {"link_latency", MPP_PT_U32, NET(link_latency), "1", 1, 1000, NULL, "cycles per channel"},
    {"credit_latency", MPP_PT_U32, NET(credit_latency), "1", 1, 1000, NULL,
     "cycles for a credit to return"},
    {"message_classes", MPP_PT_U32, NET(message_classes), "1", 1, 8, NULL,
     "message classes (separate virtual networks)"},
    {"flow_control", MPP_PT_ENUM, NET(flow), "wormhole", 0, 0, flow_choices,
     "wormhole, or cut-through (a VC only for a whole packet)"},
    {"allocator", MPP_PT_ENUM, NET(allocator), "separable", 0, 0, alloc_choices,
     "switch allocator: separable round-robin or one-iteration iSLIP"},
    {"nic", MPP_PT_ENUM, NET(nic), "ideal", 0, 0, nic_choices, "network interface model"},
    {"net_mhz", MPP_PT_DOUBLE, NET(net_mhz), "0", 0, 0, NULL,
     "network clock in MHz (0: unknown; needed for times such as 1.5us)"},
    {"watchdog_cycles", MPP_PT_CYCLES, NET(watchdog_cycles), "100000", 1, 0, NULL,
     "cycles without progress before a run stops as deadlocked"},
    {"shuffle_order", MPP_PT_BOOL, NET(shuffle_order), "false", 0, 0, NULL,
     "testing: shuffle the router update order every cycle"},
};

/* `workload:` keys. pattern is a plug-in selector, handled apart; it is
 * dumped after `type` (WORKLOAD_SELECTOR_AT). */
static const mpp_param workload_params[] = {
    {"type", MPP_PT_ENUM, offsetof(mpp_sim_config, workload), "synthetic", 0, 0, workload_choices,
     "workload kind"},
    {"rate", MPP_PT_DOUBLE, SYN(rate), "0.1", 0, 1, NULL, "offered load, flits/node/cycle"},
    {"packet_flits", MPP_PT_U32, SYN(packet_flits), "5", 1, 65535, NULL, "flits per packet"},
    {"warmup", MPP_PT_CYCLES, SYN(warmup), "10000", 0, 0, NULL, "cycles before measurement"},
    {"measure", MPP_PT_CYCLES, SYN(measure), "30000", 1, 0, NULL, "measurement window, cycles"},
    {"drain_factor", MPP_PT_U32, SYN(drain_factor), "10", 0, 1000, NULL,
     "drain limit as a multiple of the measurement window"},
    {"placement", MPP_PT_ENUM, SYN(placement), "identity", 0, 0, placement_choices,
     "logical-to-physical node placement"},
    {"packets", MPP_PT_U32, SYN(packets), "32", 1, 1000000, NULL,
     "permutation: packets per message"},
    {"bytes", MPP_PT_BYTES, SYN(bytes), "0", 0, 1e12, NULL,
     "permutation: message size in bytes (0: use packets x packet_flits); messages: bytes "
     "per message"},
    {"paradigm", MPP_PT_ENUM, SYN(paradigm), "sync", 0, 0, paradigm_choices,
     "messages: messaging paradigm"},
    {"shape", MPP_PT_ENUM, SYN(shape), "permutation", 0, 0, shape_choices,
     "messages: permutation (by pattern), gather (senders -> receiver) or list (sends)"},
    {"senders", MPP_PT_U32, SYN(senders), "1", 0, 1u << 20, NULL,
     "messages, gather: nodes 0..senders-1 send"},
    {"receiver", MPP_PT_U32, SYN(receiver), "0", 0, 1u << 20, NULL,
     "messages, gather: the receiving node"},
    {"sends", MPP_PT_SENDLIST, SYN(sends), "[]", 0, 1u << 20, NULL,
     "messages, list: [[src, dst, bytes], ...]"},
    {"com", MPP_PT_STRING, SYN(com), "\"\"", 0, 0, NULL,
     "schedule: a COM file (Matrix Market, .gz allowed); empty: generate one"},
    {"com_step", MPP_PT_U32, SYN(com_step), "0", 0, 1e9, NULL,
     "schedule: which matrix of a sequence file"},
    {"gen", MPP_PT_ENUM, SYN(gen), "random-regular", 0, 0, gen_choices,
     "schedule: the generator when no file is given"},
    {"d", MPP_PT_U32, SYN(d), "4", 0, 1u << 20, NULL,
     "schedule: messages per processor of a generated matrix"},
    {"units", MPP_PT_U64, SYN(units), "1", 1, 1e12, NULL,
     "schedule: units per message of a random-regular matrix"},
    {"msg_unit", MPP_PT_BYTES, SYN(msg_unit), "0", 0, 1e12, NULL,
     "schedule: bytes per unit (0: the file's, 1 for generated matrices)"},
    {"simulate", MPP_PT_BOOL, SYN(simulate), "true", 0, 0, NULL,
     "schedule: replay the schedule on the machine (false: only schedule it)"},
};

#define NODE(f) offsetof(mpp_sim_config, node.f)

/* `node:` keys: the processor and network interface (nic: model and the
 * messages workload). */
static const mpp_param node_params[] = {
    {"cpu_mhz", MPP_PT_DOUBLE, NODE(cpu_mhz), "0", 0, 1e6, NULL,
     "processor clock in MHz (0: unknown; needed by node programs)"},
    {"interfaces", MPP_PT_U32, NODE(interfaces), "1", 1, 8, NULL,
     "NIC interfaces, each a message class with its own FIFOs"},
    {"send_fifo_packets", MPP_PT_U32, NODE(send_fifo_packets), "8", 1, 1u << 20, NULL,
     "send FIFO depth per interface, packets"},
    {"recv_fifo_packets", MPP_PT_U32, NODE(recv_fifo_packets), "8", 1, 1u << 20, NULL,
     "receive FIFO depth per interface, packets"},
    {"payload_words", MPP_PT_U32, NODE(payload_words), "4", 1, 1024, NULL,
     "data words per packet (plus one header word)"},
    {"word_bits", MPP_PT_U32, NODE(word_bits), "32", 8, 1024, NULL, "bits per word"},
    {"flit_bits", MPP_PT_U32, NODE(flit_bits), "32", 1, 4096, NULL, "bits per flit"},
    {"send_packet_cycles", MPP_PT_U32, NODE(send_packet_cycles), "50", 0, 1e9, NULL,
     "CPU cycles to write a packet into a send FIFO"},
    {"recv_packet_cycles", MPP_PT_U32, NODE(recv_packet_cycles), "50", 0, 1e9, NULL,
     "CPU cycles to read a packet from a receive FIFO"},
    {"send_msg_cycles", MPP_PT_U32, NODE(send_msg_cycles), "0", 0, 1e9, NULL,
     "CPU cycles per message sent (software overhead)"},
    {"recv_msg_cycles", MPP_PT_U32, NODE(recv_msg_cycles), "0", 0, 1e9, NULL,
     "CPU cycles per receive posted (software overhead)"},
    {"poll_cycles", MPP_PT_U32, NODE(poll_cycles), "5", 0, 1e9, NULL,
     "CPU cycles of a poll that finds a packet"},
    {"interrupt_cycles", MPP_PT_U32, NODE(interrupt_cycles), "100", 0, 1e9, NULL,
     "CPU cycles to enter and leave an interrupt handler"},
    {"handler_cycles", MPP_PT_U32, NODE(handler_cycles), "20", 0, 1e9, NULL,
     "CPU cycles of an active-message or completion handler"},
    {"barrier_cycles", MPP_PT_CYCLES, NODE(barrier_cycles), "10", 0, 0, NULL,
     "control network: network cycles from the last entry to the release"},
    {"reduce_cycles", MPP_PT_CYCLES, NODE(reduce_cycles), "20", 0, 0, NULL,
     "control network: network cycles of a reduction"},
    {"delivery", MPP_PT_ENUM, NODE(delivery), "poll", 0, 0, delivery_choices,
     "active messages run their handler when polled, or on interrupt"},
};
#define WORKLOAD_SELECTOR_AT 1

/* Top-level model keys (only seed; `seeds` is a list of the same type). */
static const mpp_param top_params[] = {
    {"seed", MPP_PT_U64, offsetof(mpp_sim_config, seed), "1", 0, 0, NULL, "master random seed"},
};

/* `output:` keys (offsets into mpp_output_config); dir is text, apart. */
static const mpp_param output_params[] = {
    {"per_channel", MPP_PT_BOOL, offsetof(mpp_output_config, per_channel), "false", 0, 0, NULL,
     "write per-channel utilisation"},
    {"traffic_matrix", MPP_PT_BOOL, offsetof(mpp_output_config, traffic_matrix), "false", 0, 0,
     NULL, "write the measured traffic matrix"},
    {"plot", MPP_PT_BOOL, offsetof(mpp_output_config, plot), "true", 0, 0, NULL,
     "plot with gnuplot when it is installed"},
    {"per_message", MPP_PT_BOOL, offsetof(mpp_output_config, per_message), "false", 0, 0, NULL,
     "write one row per delivered message (messages workload)"},
};

static const char *const top_keys[] = {"mppnet", "name",  "description", "machine", "network",
                                       "node",   "workload", "seed", "seeds", "sweep", "output"};

static const char *const default_topology = "mesh";
static const char *const default_router = "ecube";
static const char *const default_pattern = "uniform";
static const char *const default_scheduler = "cgm";

/* More runs than this is surely a mistake in the sweep. */
#define MAX_RUNS 1000000u

/* --------------------------------------------------------- the experiment */

typedef struct axis {
    char *key;    /* dotted key path */
    size_t n;     /* values */
    char **text;  /* [n] values as written */
} axis;

struct mpp_experiment {
    char *name;
    mpp_output_config out;
    size_t naxes;
    axis *axes;          /* [naxes] */
    size_t nseeds;
    uint64_t *seeds;     /* [nseeds] */
    size_t npoints;      /* product of the axis lengths */
    size_t nruns;        /* npoints x nseeds */
    mpp_sim_config *cfg; /* [nruns] */
};

/* ---------------------------------------------------------------- helpers */

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static const char *where(const mpp_cfgnode *n, char *buf, size_t size)
{
    return mpp_cfgtree_where(n, buf, size);
}

/* Copy a composed message (possibly longer than err->msg) into err. */
static int fail_sb(mpp_err *err, int code, mpp_sb *sb)
{
    int rc = mpp_sb_ok(sb) ? mpp_err_set(err, code, "%s", sb->s)
                           : mpp_err_set(err, MPP_ENOMEM, "out of memory");
    mpp_sb_free(sb);
    return rc;
}

static const mpp_param *find_row(const mpp_param *rows, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].key, key))
            return &rows[i];
    return NULL;
}

/* Apply every row's default text to base. Defaults are ours or a plug-in's
 * and must be valid: a failure is a bug (assert). */
static void schema_defaults(const mpp_param *rows, size_t n, void *base)
{
    for (size_t i = 0; i < n; i++) {
        if (!rows[i].def)
            continue;
        mpp_err err;
        mpp_cfgnode *v = mpp_cfgtree_parse_value(rows[i].def, "default", &err);
        if (!v)
            continue; /* out of memory: the field stays zero */
        int rc = mpp_cfgtree_convert(v, &rows[i], rows[i].key, 0, base, &err);
        assert(rc == 0 && "a schema default does not satisfy its own row");
        (void)rc;
        mpp_cfgtree_free(v);
    }
}

static void blob_defaults(const mpp_schema *s, mpp_blob *b)
{
    assert(s->size <= MPP_BLOB_SIZE && "plug-in config struct larger than MPP_BLOB_SIZE");
    memset(b, 0, sizeof *b);
    schema_defaults(s->params, s->nparams, b->b);
}

void mpp_sim_config_defaults(mpp_sim_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    schema_defaults(network_params, MPP_COUNTOF(network_params), cfg);
    schema_defaults(workload_params, MPP_COUNTOF(workload_params), cfg);
    schema_defaults(node_params, MPP_COUNTOF(node_params), cfg);
    schema_defaults(top_params, MPP_COUNTOF(top_params), cfg);
    cfg->net.topo = mpp_topo_find(default_topology);
    if (cfg->net.topo)
        blob_defaults(&cfg->net.topo->schema, &cfg->net.topo_cfg);
    cfg->net.routing = mpp_routing_find(default_router);
    if (cfg->net.routing)
        blob_defaults(&cfg->net.routing->schema, &cfg->net.routing_cfg);
    cfg->synth.pattern = mpp_pattern_find(default_pattern);
    if (cfg->synth.pattern)
        blob_defaults(&cfg->synth.pattern->schema, &cfg->synth.pattern_cfg);
}

/* -------------------------------------------------------------- plug-ins */

/* One plug-in of any family, seen uniformly. */
typedef struct plugin {
    const char *name;
    const mpp_schema *schema;
    int (*parse_short)(const char *args, mpp_sb *out, mpp_err *err);
    bool hidden;     /* not listed in messages (test-only routings) */
    const void *ops;
} plugin;

#define MAX_PLUGINS 128

/* A plug-in family and its selector key in a section ("topology"). */
typedef struct family {
    const char *what;    /* "topology", "routing", "traffic pattern" */
    const char *key;     /* the selector key: "topology", "router", "pattern" */
    const void *(*find)(const char *name);
    bool optional;       /* may have no plug-in chosen (checked where it is used) */
    size_t n;
    plugin p[MAX_PLUGINS];
    const plugin *chosen;
} family;

static const void *find_topo(const char *name) { return mpp_topo_find(name); }
static const void *find_routing(const char *name) { return mpp_routing_find(name); }
static const void *find_pattern(const char *name) { return mpp_pattern_find(name); }
static const void *find_sched(const char *name) { return mpp_sched_find(name); }

static void family_schedulers(family *f)
{
    memset(f, 0, sizeof *f);
    f->what = "scheduler";
    f->key = "scheduler";
    f->find = find_sched;
    f->optional = true;
    for (const mpp_sched_ops *const *o = mpp_sched_all(); *o; o++) {
        assert(f->n < MAX_PLUGINS);
        f->p[f->n++] = (plugin){(*o)->name, &(*o)->schema, NULL, false, *o};
    }
}

static void family_topologies(family *f)
{
    memset(f, 0, sizeof *f);
    f->what = "topology";
    f->key = "topology";
    f->find = find_topo;
    for (const mpp_topo_ops *const *o = mpp_topo_all(); *o; o++) {
        assert(f->n < MAX_PLUGINS);
        f->p[f->n++] = (plugin){(*o)->name, &(*o)->schema, (*o)->parse_short, false, *o};
    }
}

static void family_routings(family *f)
{
    memset(f, 0, sizeof *f);
    f->what = "routing";
    f->key = "router";
    f->find = find_routing;
    for (const mpp_routing_ops *const *o = mpp_routing_all(); *o; o++) {
        assert(f->n < MAX_PLUGINS);
        f->p[f->n++] = (plugin){(*o)->name, &(*o)->schema, NULL, (*o)->test_only, *o};
    }
}

static void family_patterns(family *f)
{
    memset(f, 0, sizeof *f);
    f->what = "traffic pattern";
    f->key = "pattern";
    f->find = find_pattern;
    for (const mpp_pattern_ops *const *o = mpp_pattern_all(); *o; o++) {
        assert(f->n < MAX_PLUGINS);
        f->p[f->n++] = (plugin){(*o)->name, &(*o)->schema, NULL, false, *o};
    }
}

static const plugin *family_section(const family *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->p[i].name, name))
            return &f->p[i];
    return NULL;
}

static const plugin *family_ops(const family *f, const void *ops)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->p[i].ops == ops)
            return &f->p[i];
    return NULL;
}

static void list_names(mpp_sb *sb, const family *f)
{
    bool first = true;
    for (size_t i = 0; i < f->n; i++) {
        if (f->p[i].hidden)
            continue;
        mpp_sb_printf(sb, "%s%s", first ? "" : ", ", f->p[i].name);
        first = false;
    }
}

/* ------------------------------------------------------------- resolving */

/* A section (`network:`, a plug-in's) must be a mapping or empty. */
static int expect_map(const mpp_cfgnode *n, const char *keypath, const char *what, mpp_err *err)
{
    if (!n || mpp_cfgtree_is_null(n) || mpp_cfgtree_kind(n) == MPP_CFG_MAP)
        return 0;
    char w[320];
    const char *t = mpp_cfgtree_text(n);
    return mpp_err_set(err, MPP_EINVAL, "%s: key '%s': expected a mapping of %s, got %s%.60s%s",
                       where(n, w, sizeof w), keypath, what, t ? "'" : "a list",
                       t ? t : "", t ? "'" : "");
}

/* Check a plug-in's section against its schema and fill base (a blob
 * already holding the defaults). A topology written in its short form
 * (`mesh: 8x8`) is expanded with ops->parse_short first. */
static int apply_plugin(const mpp_cfgnode *sec, const plugin *pl, const char *prefix,
                        double net_mhz, void *base, mpp_err *err)
{
    char w[320], kp[256];
    mpp_cfgnode *owned = NULL;
    int rc = 0;
    if (sec && !mpp_cfgtree_is_null(sec) && mpp_cfgtree_kind(sec) == MPP_CFG_SCALAR &&
        pl->parse_short) {
        mpp_sb lines;
        mpp_sb_init(&lines);
        rc = pl->parse_short(mpp_cfgtree_text(sec), &lines, err);
        if (rc) {
            mpp_err_prefix(err, "%s: key '%s'", where(sec, w, sizeof w), prefix);
            mpp_sb_free(&lines);
            return rc;
        }
        owned = mpp_cfgtree_new_map(sec);
        for (char *line = lines.s; owned && mpp_sb_ok(&lines) && *line;) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            char *eq = strchr(line, '=');
            if (eq) {
                *eq = '\0';
                rc = mpp_cfgtree_set(owned, line, 1, mpp_cfgtree_new_scalar(eq + 1, sec), err);
                if (rc)
                    break;
            }
            line = nl ? nl + 1 : line + strlen(line);
        }
        bool ok = owned && mpp_sb_ok(&lines);
        mpp_sb_free(&lines);
        if (!ok) {
            mpp_cfgtree_free(owned);
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        if (rc)
            goto out;
        sec = owned;
    }
    char what[160];
    snprintf(what, sizeof what, "%s parameters", pl->name);
    if ((rc = expect_map(sec, prefix, what, err)))
        goto out;
    size_t n = sec ? mpp_cfgtree_len(sec) : 0;
    for (size_t i = 0; i < n; i++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(sec, i);
        const char *key = mpp_cfgtree_text(k);
        const mpp_param *row = find_row(pl->schema->params, pl->schema->nparams, key);
        if (!row) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            mpp_sb_printf(&sb, "%s: unknown key '%s.%s'", where(k, w, sizeof w), prefix, key);
            if (!pl->schema->nparams) {
                mpp_sb_printf(&sb, ": %s %s has no parameters", prefix, pl->name);
            } else {
                mpp_sb_printf(&sb, "; valid keys of %s: ", prefix);
                for (size_t j = 0; j < pl->schema->nparams; j++)
                    mpp_sb_printf(&sb, "%s%s", j ? ", " : "", pl->schema->params[j].key);
            }
            rc = fail_sb(err, MPP_EINVAL, &sb);
            goto out;
        }
        snprintf(kp, sizeof kp, "%s.%s", prefix, key);
        if ((rc = mpp_cfgtree_convert(mpp_cfgtree_item(sec, i), row, kp, net_mhz, base, err)))
            goto out;
    }
out:
    mpp_cfgtree_free(owned);
    return rc;
}

static int unknown_key(const mpp_cfgnode *k, const char *section, const mpp_param *rows,
                       size_t nrows, family *fams, size_t nfam, mpp_err *err)
{
    char w[320];
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_printf(&sb, "%s: unknown key '%s.%s'; valid keys of %s: ", where(k, w, sizeof w),
                  section, mpp_cfgtree_text(k), section);
    for (size_t f = 0; f < nfam; f++)
        mpp_sb_printf(&sb, "%s, ", fams[f].key);
    for (size_t i = 0; i < nrows; i++)
        mpp_sb_printf(&sb, "%s%s", i ? ", " : "", rows[i].key);
    for (size_t f = 0; f < nfam; f++) {
        mpp_sb_printf(&sb, "; or a %s section: ", fams[f].what);
        list_names(&sb, &fams[f]);
    }
    return fail_sb(err, MPP_EINVAL, &sb);
}

/* Resolve section `name` (node sec, possibly NULL) into cfg: the rows, the
 * plug-in selectors of fams and every plug-in section. clock_row names the
 * row that must be read first (network.net_mhz) or is NULL; times are
 * converted with cfg->net.net_mhz. On return each family's chosen is set. */
static int resolve_section(const mpp_cfgnode *sec, const char *name, const mpp_param *rows,
                           size_t nrows, family *fams, size_t nfam, const char *clock_row,
                           mpp_sim_config *cfg, mpp_err *err)
{
    char w[320], kp[256];
    int rc;
    mpp_sb sb;
    char what[64];
    snprintf(what, sizeof what, "%s keys", name);
    if ((rc = expect_map(sec, name, what, err)))
        return rc;
    size_t n = sec && !mpp_cfgtree_is_null(sec) ? mpp_cfgtree_len(sec) : 0;
    if (clock_row) {
        const mpp_cfgnode *v = mpp_cfgtree_get(sec, clock_row);
        const mpp_param *row = find_row(rows, nrows, clock_row);
        snprintf(kp, sizeof kp, "%s.%s", name, clock_row);
        if (v && (rc = mpp_cfgtree_convert(v, row, kp, 0, cfg, err)))
            return rc;
    }
    double mhz = cfg->net.net_mhz;
    /* Pass 1, in the order written: rows, selectors, every plug-in section. */
    for (size_t i = 0; i < n; i++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(sec, i);
        const mpp_cfgnode *v = mpp_cfgtree_item(sec, i);
        const char *key = mpp_cfgtree_text(k);
        snprintf(kp, sizeof kp, "%s.%s", name, key);
        const mpp_param *row = find_row(rows, nrows, key);
        if (row) {
            if (clock_row && !strcmp(key, clock_row))
                continue;
            if ((rc = mpp_cfgtree_convert(v, row, kp, mhz, cfg, err)))
                return rc;
            continue;
        }
        family *sel = NULL;
        for (size_t f = 0; f < nfam && !sel; f++)
            if (!strcmp(fams[f].key, key))
                sel = &fams[f];
        if (sel) {
            const char *t = mpp_cfgtree_text(v);
            const void *ops = t && !mpp_cfgtree_is_null(v) ? sel->find(t) : NULL;
            const plugin *pl = ops ? family_ops(sel, ops) : NULL;
            if (!pl) {
                mpp_sb_init(&sb);
                mpp_sb_printf(&sb, "%s: key '%s': ", where(v, w, sizeof w), kp);
                if (t && t[0])
                    mpp_sb_printf(&sb, "unknown %s '%.60s'", sel->what, t);
                else
                    mpp_sb_printf(&sb, "expected a %s name", sel->what);
                mpp_sb_add(&sb, "; valid names: ");
                list_names(&sb, sel);
                return fail_sb(err, MPP_EINVAL, &sb);
            }
            sel->chosen = pl;
            continue;
        }
        const plugin *pl = NULL;
        for (size_t f = 0; f < nfam && !pl; f++)
            pl = family_section(&fams[f], key);
        if (!pl)
            return unknown_key(k, name, rows, nrows, fams, nfam, err);
        mpp_blob tmp;
        blob_defaults(pl->schema, &tmp);
        if ((rc = apply_plugin(v, pl, kp, mhz, tmp.b, err)))
            return rc;
    }
    /* Every family has a plug-in (the default is registered). */
    for (size_t f = 0; f < nfam; f++) {
        if (!fams[f].chosen && !fams[f].optional)
            return mpp_err_set(err, MPP_EINVAL, "key '%s.%s': no default %s is registered", name,
                               fams[f].key, fams[f].what);
    }
    return 0;
}

/* Fill blob with the chosen plug-in's defaults and its section in sec. */
static int plugin_config(const mpp_cfgnode *sec, const char *name, const plugin *pl,
                         double mhz, mpp_blob *blob, mpp_err *err)
{
    char kp[256];
    snprintf(kp, sizeof kp, "%s.%s", name, pl->name);
    blob_defaults(pl->schema, blob);
    const mpp_cfgnode *v = mpp_cfgtree_get(sec, pl->name);
    return v ? apply_plugin(v, pl, kp, mhz, blob->b, err) : 0;
}

/* Resolve the model part of a run tree (network, workload) into cfg. The
 * seed and output flags are set by the caller. */
static int resolve_model(const mpp_cfgnode *root, mpp_sim_config *cfg, mpp_err *err)
{
    int rc;
    mpp_sim_config_defaults(cfg);
    family *fams = malloc(4 * sizeof *fams);
    if (!fams)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    family_topologies(&fams[0]);
    family_routings(&fams[1]);
    family_patterns(&fams[2]);
    family_schedulers(&fams[3]);
    fams[3].chosen = family_ops(&fams[3], mpp_sched_find(default_scheduler));
    fams[0].chosen = family_ops(&fams[0], cfg->net.topo);
    fams[1].chosen = family_ops(&fams[1], cfg->net.routing);
    fams[2].chosen = family_ops(&fams[2], cfg->synth.pattern);

    const mpp_cfgnode *net = mpp_cfgtree_get(root, "network");
    const mpp_cfgnode *wl = mpp_cfgtree_get(root, "workload");
    if ((rc = resolve_section(net, "network", network_params, MPP_COUNTOF(network_params), fams,
                              2, "net_mhz", cfg, err)))
        goto out;
    double mhz = cfg->net.net_mhz;
    if ((rc = plugin_config(net, "network", fams[0].chosen, mhz, &cfg->net.topo_cfg, err)) ||
        (rc = plugin_config(net, "network", fams[1].chosen, mhz, &cfg->net.routing_cfg, err)))
        goto out;
    cfg->net.topo = fams[0].chosen->ops;
    cfg->net.routing = fams[1].chosen->ops;
    if ((rc = resolve_section(mpp_cfgtree_get(root, "node"), "node", node_params,
                              MPP_COUNTOF(node_params), NULL, 0, NULL, cfg, err)))
        goto out;
    if ((rc = resolve_section(wl, "workload", workload_params, MPP_COUNTOF(workload_params),
                              &fams[2], 2, NULL, cfg, err)))
        goto out;
    if ((rc = plugin_config(wl, "workload", fams[2].chosen, mhz, &cfg->synth.pattern_cfg, err)))
        goto out;
    cfg->synth.pattern = fams[2].chosen->ops;
    if (fams[3].chosen) {
        if ((rc = plugin_config(wl, "workload", fams[3].chosen, mhz, &cfg->synth.sched_cfg, err)))
            goto out;
        cfg->synth.scheduler = fams[3].chosen->ops;
    }
    if (cfg->workload == MPP_WL_SCHEDULE && !cfg->synth.scheduler) {
        rc = mpp_err_set(err, MPP_EINVAL,
                         "key 'workload.scheduler': a schedule workload needs a scheduler (mppnet "
                         "list schedulers)");
        goto out;
    }
out:
    free(fams);
    return rc;
}

/* --------------------------------------------------------- the top level */

static int check_top_keys(const mpp_cfgnode *root, mpp_err *err)
{
    char w[320];
    for (size_t i = 0; i < mpp_cfgtree_len(root); i++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(root, i);
        const char *key = mpp_cfgtree_text(k);
        bool ok = false;
        for (size_t j = 0; j < MPP_COUNTOF(top_keys) && !ok; j++)
            ok = !strcmp(top_keys[j], key);
        if (!ok) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            mpp_sb_printf(&sb, "%s: unknown key '%s'; valid top-level keys: ",
                          where(k, w, sizeof w), key);
            for (size_t j = 0; j < MPP_COUNTOF(top_keys); j++)
                mpp_sb_printf(&sb, "%s%s", j ? ", " : "", top_keys[j]);
            return fail_sb(err, MPP_EINVAL, &sb);
        }
    }
    return 0;
}

static int check_version(const mpp_cfgnode *root, mpp_err *err)
{
    char w[320];
    const mpp_cfgnode *v = mpp_cfgtree_get(root, "mppnet");
    if (!v)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: missing required key 'mppnet' (the schema version): start the "
                           "file with `mppnet: 1`",
                           mpp_cfgtree_origin(root));
    const char *t = mpp_cfgtree_text(v);
    if (!t || strcmp(t, "1") != 0)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: key 'mppnet': expected the schema version 1, got %s%.40s%s",
                           where(v, w, sizeof w), t ? "'" : "a ",
                           t ? t : (mpp_cfgtree_kind(v) == MPP_CFG_MAP ? "mapping" : "list"),
                           t ? "'" : "");
    return 0;
}

/* A text value (name, description, output.dir): a non-empty scalar. */
static int text_value(const mpp_cfgnode *v, const char *key, bool allow_empty, const char **out,
                      mpp_err *err)
{
    char w[320];
    const char *t = mpp_cfgtree_text(v);
    if (t && mpp_cfgtree_is_null(v))
        t = "";
    if (!t || (!allow_empty && !t[0]))
        return mpp_err_set(err, MPP_EINVAL, "%s: key '%s': expected %stext, got %s",
                           where(v, w, sizeof w), key, allow_empty ? "" : "non-empty ",
                           !t ? (mpp_cfgtree_kind(v) == MPP_CFG_MAP ? "a mapping" : "a list")
                              : "an empty value");
    *out = t;
    return 0;
}

static int resolve_name(mpp_experiment *e, const mpp_cfgnode *root, const char *default_name,
                        mpp_err *err)
{
    const char *name = default_name, *desc;
    int rc;
    const mpp_cfgnode *v = mpp_cfgtree_get(root, "name");
    if (v && (rc = text_value(v, "name", false, &name, err)))
        return rc;
    v = mpp_cfgtree_get(root, "description");
    if (v && (rc = text_value(v, "description", true, &desc, err)))
        return rc;
    e->name = dupstr(name);
    return e->name ? 0 : mpp_err_set(err, MPP_ENOMEM, "out of memory");
}

static int resolve_output(mpp_experiment *e, const mpp_cfgnode *root, mpp_err *err)
{
    char w[320];
    int rc;
    memset(&e->out, 0, sizeof e->out);
    schema_defaults(output_params, MPP_COUNTOF(output_params), &e->out);
    const mpp_cfgnode *sec = mpp_cfgtree_get(root, "output");
    if ((rc = expect_map(sec, "output", "output keys", err)))
        return rc;
    const char *dir = NULL;
    size_t n = sec && !mpp_cfgtree_is_null(sec) ? mpp_cfgtree_len(sec) : 0;
    for (size_t i = 0; i < n; i++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(sec, i);
        const mpp_cfgnode *v = mpp_cfgtree_item(sec, i);
        const char *key = mpp_cfgtree_text(k);
        char kp[256];
        snprintf(kp, sizeof kp, "output.%s", key);
        if (!strcmp(key, "dir")) {
            if ((rc = text_value(v, kp, false, &dir, err)))
                return rc;
            if (strlen(dir) >= sizeof e->out.dir)
                return mpp_err_set(err, MPP_EINVAL, "%s: key 'output.dir': longer than %zu bytes",
                                   where(v, w, sizeof w), sizeof e->out.dir - 1);
            continue;
        }
        const mpp_param *row = find_row(output_params, MPP_COUNTOF(output_params), key);
        if (!row) {
            mpp_sb sb;
            mpp_sb_init(&sb);
            mpp_sb_printf(&sb, "%s: unknown key '%s'; valid keys of output: dir",
                          where(k, w, sizeof w), kp);
            for (size_t j = 0; j < MPP_COUNTOF(output_params); j++)
                mpp_sb_printf(&sb, ", %s", output_params[j].key);
            return fail_sb(err, MPP_EINVAL, &sb);
        }
        if ((rc = mpp_cfgtree_convert(v, row, kp, 0, &e->out, err)))
            return rc;
    }
    if (dir) {
        snprintf(e->out.dir, sizeof e->out.dir, "%s", dir);
    } else {
        int len = snprintf(e->out.dir, sizeof e->out.dir, "results/%s", e->name);
        if (len < 0 || (size_t)len >= sizeof e->out.dir)
            return mpp_err_set(err, MPP_EINVAL,
                               "%s: the name is too long for the default output.dir",
                               mpp_cfgtree_origin(root));
    }
    return 0;
}

static int resolve_seeds(mpp_experiment *e, const mpp_cfgnode *root, mpp_err *err)
{
    char w[320], kp[64];
    int rc;
    const mpp_cfgnode *one = mpp_cfgtree_get(root, "seed");
    const mpp_cfgnode *list = mpp_cfgtree_get(root, "seeds");
    const mpp_param *row = &top_params[0];
    mpp_sim_config tmp;
    if (one && list)
        return mpp_err_set(err, MPP_EINVAL,
                           "%s: key 'seeds': give either 'seed' or 'seeds', not both",
                           where(list, w, sizeof w));
    if (list && mpp_cfgtree_kind(list) == MPP_CFG_SEQ) {
        size_t n = mpp_cfgtree_len(list);
        if (!n)
            return mpp_err_set(err, MPP_EINVAL,
                               "%s: key 'seeds': expected a non-empty list of seeds, got an empty "
                               "list",
                               where(list, w, sizeof w));
        e->seeds = calloc(n, sizeof *e->seeds);
        if (!e->seeds)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) {
            const mpp_cfgnode *item = mpp_cfgtree_item(list, i);
            snprintf(kp, sizeof kp, "seeds[%zu]", i);
            if ((rc = mpp_cfgtree_convert(item, row, kp, 0, &tmp, err)))
                return rc;
            for (size_t j = 0; j < i; j++)
                if (e->seeds[j] == tmp.seed)
                    return mpp_err_set(err, MPP_EINVAL,
                                       "%s: key '%s': seed %" PRIu64 " is already in the list",
                                       where(item, w, sizeof w), kp, tmp.seed);
            e->seeds[i] = tmp.seed;
        }
        e->nseeds = n;
        return 0;
    }
    e->seeds = calloc(1, sizeof *e->seeds);
    if (!e->seeds)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    schema_defaults(top_params, MPP_COUNTOF(top_params), &tmp);
    const mpp_cfgnode *v = one ? one : list;
    if (v && (rc = mpp_cfgtree_convert(v, row, one ? "seed" : "seeds", 0, &tmp, err)))
        return rc;
    e->seeds[0] = tmp.seed;
    e->nseeds = 1;
    return 0;
}

/* Read the sweep axes (key, list of values) from root. */
static int resolve_sweep(mpp_experiment *e, const mpp_cfgnode *root,
                         const mpp_cfgnode ***values, mpp_err *err)
{
    char w[320];
    int rc;
    const mpp_cfgnode *sw = mpp_cfgtree_get(root, "sweep");
    *values = NULL;
    e->npoints = 1;
    if ((rc = expect_map(sw, "sweep", "key paths to lists of values", err)))
        return rc;
    size_t n = sw && !mpp_cfgtree_is_null(sw) ? mpp_cfgtree_len(sw) : 0;
    if (!n)
        return 0;
    e->axes = calloc(n, sizeof *e->axes);
    *values = calloc(n, sizeof **values);
    if (!e->axes || !*values)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (size_t a = 0; a < n; a++) {
        const mpp_cfgnode *k = mpp_cfgtree_key(sw, a);
        const mpp_cfgnode *v = mpp_cfgtree_item(sw, a);
        const char *key = mpp_cfgtree_text(k);
        /* "KEY1+KEY2": a zipped axis, each value a list [v1, v2] */
        size_t nzip = 1;
        for (const char *c = key; *c; c++)
            nzip += *c == '+';
        char part[256];
        for (const char *c = key; *c;) {
            const char *plus = strchr(c, '+');
            size_t len = plus ? (size_t)(plus - c) : strlen(c);
            snprintf(part, sizeof part, "%.*s", (int)len, c);
            if ((strncmp(part, "network.", 8) != 0 || !part[8]) &&
                (strncmp(part, "workload.", 9) != 0 || !part[9]) &&
                (strncmp(part, "node.", 5) != 0 || !part[5]))
                return mpp_err_set(err, MPP_EINVAL,
                                   "%s: key 'sweep.%s': only keys under network., node. and "
                                   "workload. can be swept (seeds go in 'seeds: [...]')",
                                   where(k, w, sizeof w), key);
            c += len + (plus != NULL);
        }
        if (nzip > 1)
            for (size_t i = 0; mpp_cfgtree_kind(v) == MPP_CFG_SEQ && i < mpp_cfgtree_len(v); i++) {
                const mpp_cfgnode *item = mpp_cfgtree_item(v, i);
                if (mpp_cfgtree_kind(item) != MPP_CFG_SEQ || mpp_cfgtree_len(item) != nzip)
                    return mpp_err_set(err, MPP_EINVAL,
                                       "%s: key 'sweep.%s': each value of a zipped axis must be a "
                                       "list of %zu values, one per key",
                                       where(item, w, sizeof w), key, nzip);
            }
        if (mpp_cfgtree_kind(v) != MPP_CFG_SEQ || !mpp_cfgtree_len(v)) {
            const char *t = mpp_cfgtree_text(v);
            const char *kind = mpp_cfgtree_kind(v) == MPP_CFG_MAP ? "a mapping" : "an empty list";
            return mpp_err_set(err, MPP_EINVAL,
                               "%s: key 'sweep.%s': expected a non-empty list of values, got "
                               "%s%.60s%s",
                               where(v, w, sizeof w), key, t ? "'" : kind, t ? t : "",
                               t ? "'" : "");
        }
        axis *ax = &e->axes[a];
        e->naxes = a + 1;
        ax->key = dupstr(key);
        ax->n = mpp_cfgtree_len(v);
        ax->text = calloc(ax->n, sizeof *ax->text);
        if (!ax->key || !ax->text)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        for (size_t i = 0; i < ax->n; i++) {
            const mpp_cfgnode *item = mpp_cfgtree_item(v, i);
            const char *t = mpp_cfgtree_text(item);
            if (t) {
                ax->text[i] = dupstr(t);
            } else {
                mpp_sb sb;
                mpp_sb_init(&sb);
                mpp_cfgtree_emit(item, &sb);
                ax->text[i] = mpp_sb_ok(&sb) ? dupstr(sb.s) : NULL;
                mpp_sb_free(&sb);
            }
            if (!ax->text[i])
                return mpp_err_set(err, MPP_ENOMEM, "out of memory");
        }
        (*values)[a] = v;
        if (e->npoints > MAX_RUNS / ax->n)
            return mpp_err_set(err, MPP_EINVAL, "%s: key 'sweep': more than %u runs",
                               where(v, w, sizeof w), MAX_RUNS);
        e->npoints *= ax->n;
    }
    return 0;
}

/* Index of axis a's value in sweep point p (last axis fastest). */
static size_t axis_index(const mpp_experiment *e, size_t p, size_t a)
{
    for (size_t b = e->naxes; b-- > a + 1;)
        p /= e->axes[b].n;
    return p % e->axes[a].n;
}

/* Append " (in sweep point k=v, ...)" to err's message. */
static void name_point(const mpp_experiment *e, size_t p, mpp_err *err)
{
    if (!err || !e->naxes)
        return;
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_sb_add(&sb, err->msg);
    mpp_sb_add(&sb, " (in sweep point ");
    for (size_t a = 0; a < e->naxes; a++)
        mpp_sb_printf(&sb, "%s%s=%s", a ? ", " : "", e->axes[a].key,
                      e->axes[a].text[axis_index(e, p, a)]);
    mpp_sb_addc(&sb, ')');
    if (mpp_sb_ok(&sb))
        snprintf(err->msg, sizeof err->msg, "%s", sb.s);
    mpp_sb_free(&sb);
}

/* Inline plug-in parameters: a selector written "NAME:ARGS" — a router
 * "romm:k=3", a pattern "hotspot:fraction=0.5", a topology in its short form
 * "mesh:8x8" or as "hypercube:dim=8" — becomes NAME plus the keys of its
 * section, so one sweep axis can vary a plug-in and its parameters
 * together (`network.router: [ecube, valiant, "romm:k=2", "romm:k=4"]`).
 * The new keys carry the selector's location for error messages. */
static int expand_inline(mpp_cfgnode *t, const char *sec, const char *selkey, mpp_err *err)
{
    char path[128], w[320];
    snprintf(path, sizeof path, "%s.%s", sec, selkey);
    const mpp_cfgnode *sel = mpp_cfgtree_lookup(t, path);
    if (!sel || mpp_cfgtree_kind(sel) != MPP_CFG_SCALAR)
        return 0;
    const char *text = mpp_cfgtree_text(sel), *colon = strchr(text, ':');
    if (!colon)
        return 0;
    char name[64];
    size_t nl = (size_t)(colon - text);
    if (nl == 0 || nl >= sizeof name)
        return mpp_err_set(err, MPP_EINVAL, "%s: key '%s': expected NAME:ARGS, got '%s'",
                           where(sel, w, sizeof w), path, text);
    memcpy(name, text, nl);
    name[nl] = '\0';
    mpp_sb args;
    mpp_sb_init(&args);
    const mpp_topo_ops *topo = strcmp(selkey, "topology") == 0 ? mpp_topo_find(name) : NULL;
    if (topo && topo->parse_short && !strchr(colon + 1, '=')) {
        int rc = topo->parse_short(colon + 1, &args, err);
        if (rc) {
            mpp_err_prefix(err, "%s: key '%s'", where(sel, w, sizeof w), path);
            mpp_sb_free(&args);
            return rc;
        }
    } else {
        for (const char *c = colon + 1; *c; c++)
            mpp_sb_addc(&args, *c == ',' ? '\n' : *c);
        mpp_sb_addc(&args, '\n');
    }
    int rc = 0;
    mpp_cfgnode *loc = mpp_cfgtree_copy(sel); /* sel is replaced below */
    char *save = NULL;
    for (char *line = strtok_r(args.s, "\n", &save); line && !rc;
         line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq || eq == line || !eq[1]) {
            rc = mpp_err_set(err, MPP_EINVAL, "%s: key '%s': expected NAME:key=value,..., got '%s'",
                             where(sel, w, sizeof w), path, text);
            break;
        }
        *eq = '\0';
        char kp[256];
        snprintf(kp, sizeof kp, "%s.%s.%s", sec, name, line);
        rc = mpp_cfgtree_set(t, kp, 0, mpp_cfgtree_new_scalar(eq + 1, loc), err);
    }
    if (!rc)
        rc = mpp_cfgtree_set(t, path, 0, mpp_cfgtree_new_scalar(name, loc), err);
    mpp_cfgtree_free(loc);
    mpp_sb_free(&args);
    return rc;
}

/* Resolve sweep point p: a copy of root with the point's values set. */
static int resolve_point(mpp_experiment *e, const mpp_cfgnode *root,
                         const mpp_cfgnode *const *values, size_t p, mpp_err *err)
{
    int rc = 0;
    mpp_cfgnode *t = mpp_cfgtree_copy(root);
    if (!t)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    for (size_t a = 0; a < e->naxes && !rc; a++) {
        const mpp_cfgnode *item = mpp_cfgtree_item(values[a], axis_index(e, p, a));
        const char *key = e->axes[a].key;
        if (!strchr(key, '+')) {
            mpp_cfgnode *v = mpp_cfgtree_copy(item);
            rc = v ? mpp_cfgtree_set(t, key, 0, v, err)
                   : mpp_err_set(err, MPP_ENOMEM, "out of memory");
            continue;
        }
        /* a zipped axis: set every key to its element of the value */
        size_t j = 0;
        for (const char *c = key; *c && !rc; j++) {
            const char *plus = strchr(c, '+');
            size_t len = plus ? (size_t)(plus - c) : strlen(c);
            char part[256];
            snprintf(part, sizeof part, "%.*s", (int)len, c);
            mpp_cfgnode *v = mpp_cfgtree_copy(mpp_cfgtree_item(item, j));
            rc = v ? mpp_cfgtree_set(t, part, 0, v, err)
                   : mpp_err_set(err, MPP_ENOMEM, "out of memory");
            c += len + (plus != NULL);
        }
    }
    if (!rc)
        rc = expand_inline(t, "network", "topology", err);
    if (!rc)
        rc = expand_inline(t, "network", "router", err);
    if (!rc)
        rc = expand_inline(t, "workload", "pattern", err);
    if (!rc)
        rc = expand_inline(t, "workload", "scheduler", err);
    mpp_sim_config c;
    if (!rc)
        rc = resolve_model(t, &c, err);
    mpp_cfgtree_free(t);
    if (rc) {
        /* Name the point unless it is the first and the file has the same
         * error without the sweep (then the sweep has nothing to do with it). */
        mpp_err base;
        mpp_sim_config tmp;
        if (!err || p > 0 || resolve_model(root, &tmp, &base) == 0 ||
            strcmp(base.msg, err->msg) != 0)
            name_point(e, p, err);
        return rc;
    }
    c.record_channels = e->out.per_channel;
    c.record_matrix = e->out.traffic_matrix;
    for (size_t s = 0; s < e->nseeds; s++) {
        e->cfg[p * e->nseeds + s] = c;
        e->cfg[p * e->nseeds + s].seed = e->seeds[s];
    }
    return 0;
}

/* Fill what root does not say from the preset tree pre, key by key, at
 * path (maps merge recursively; everything root says wins). */
static int merge_missing(mpp_cfgnode *root, const mpp_cfgnode *pre, const char *path,
                         mpp_err *err)
{
    for (size_t i = 0; i < mpp_cfgtree_len(pre); i++) {
        const char *key = mpp_cfgtree_text(mpp_cfgtree_key(pre, i));
        const mpp_cfgnode *pv = mpp_cfgtree_item(pre, i);
        char kp[256];
        snprintf(kp, sizeof kp, "%s%s%s", path, path[0] ? "." : "", key);
        const mpp_cfgnode *have = mpp_cfgtree_lookup(root, kp);
        if (!have) {
            mpp_cfgnode *v = mpp_cfgtree_copy(pv);
            int rc = mpp_cfgtree_set(root, kp, 0, v, err);
            if (rc)
                return rc;
        } else if (mpp_cfgtree_kind(have) == MPP_CFG_MAP && mpp_cfgtree_kind(pv) == MPP_CFG_MAP) {
            int rc = merge_missing(root, pv, kp, err);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* `machine: NAME`: the shipped preset NAME (its network: and node:
 * sections) under whatever the file and the command line say. */
static int apply_machine(mpp_cfgnode *root, mpp_err *err)
{
    const mpp_cfgnode *m = mpp_cfgtree_get(root, "machine");
    if (!m)
        return 0;
    char w[320];
    const char *name = mpp_cfgtree_text(m);
    const mpp_preset *p = name ? mpp_preset_find(name) : NULL;
    if (!p) {
        mpp_sb sb;
        mpp_sb_init(&sb);
        mpp_sb_printf(&sb, "%s: key 'machine': unknown machine preset '%.60s'; known presets: ",
                      where(m, w, sizeof w), name ? name : "(not a name)");
        for (size_t i = 0; i < mpp_npresets; i++)
            mpp_sb_printf(&sb, "%s%s", i ? ", " : "", mpp_presets[i].name);
        return fail_sb(err, MPP_EINVAL, &sb);
    }
    mpp_cfgnode *pre = mpp_cfgtree_parse_text(p->text, strlen(p->text), p->file, err);
    if (!pre)
        return err ? err->code : MPP_EINVAL;
    int rc = 0;
    for (size_t i = 0; i < mpp_cfgtree_len(pre) && !rc; i++) {
        const char *key = mpp_cfgtree_text(mpp_cfgtree_key(pre, i));
        const mpp_cfgnode *v = mpp_cfgtree_item(pre, i);
        if (strcmp(key, "network") && strcmp(key, "node"))
            continue; /* mppnet, name, description of the preset file */
        if (!mpp_cfgtree_get(root, key))
            rc = mpp_cfgtree_set(root, key, 0, mpp_cfgtree_copy(v), err);
        else
            rc = merge_missing(root, v, key, err);
    }
    mpp_cfgtree_free(pre);
    return rc;
}

/* Apply the overrides to root, in order. */
static int apply_overrides(mpp_cfgnode *root, size_t n, const char *const *ov, mpp_err *err)
{
    for (size_t i = 0; i < n; i++) {
        char *path;
        mpp_cfgnode *value;
        int rc = mpp_cfgtree_assignment(ov[i], &path, &value, err);
        if (rc)
            return rc;
        bool sweep = !strncmp(path, "sweep.", 6);
        rc = mpp_cfgtree_set(root, path, sweep ? 2 : 0, value, err);
        if (!rc && !sweep && strcmp(path, "sweep") != 0) {
            /* The command line wins over a sweep axis of the same key. */
            size_t len = strlen(path);
            char *sp = malloc(len + 7);
            if (sp) {
                memcpy(sp, "sweep.", 6);
                memcpy(sp + 6, path, len + 1);
                mpp_cfgtree_remove(root, sp, 2);
                free(sp);
            } else {
                rc = mpp_err_set(err, MPP_ENOMEM, "out of memory");
            }
        }
        free(path);
        if (rc)
            return rc;
    }
    return 0;
}

/* Load from a parsed tree (owned; freed here). */
static mpp_experiment *load_tree(mpp_cfgnode *root, const char *default_name, size_t noverrides,
                                 const char *const *overrides, mpp_err *err)
{
    char w[320];
    const mpp_cfgnode **values = NULL;
    mpp_experiment *e = calloc(1, sizeof *e);
    if (!e) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto fail;
    }
    if (!mpp_cfgtree_is_null(root) && mpp_cfgtree_kind(root) != MPP_CFG_MAP) {
        mpp_err_set(err, MPP_EINVAL,
                    "%s: expected a mapping of experiment keys (starting with `mppnet: 1`), "
                    "got %s",
                    where(root, w, sizeof w),
                    mpp_cfgtree_kind(root) == MPP_CFG_SEQ ? "a list" : "a single value");
        goto fail;
    }
    if (apply_overrides(root, noverrides, overrides, err) || apply_machine(root, err))
        goto fail;
    if (mpp_cfgtree_is_null(root)) {
        mpp_err_set(err, MPP_EINVAL,
                    "%s: the experiment is empty: start the file with `mppnet: 1`",
                    mpp_cfgtree_origin(root));
        goto fail;
    }
    if (check_top_keys(root, err) || check_version(root, err) ||
        resolve_name(e, root, default_name, err) || resolve_output(e, root, err) ||
        resolve_seeds(e, root, err) || resolve_sweep(e, root, &values, err))
        goto fail;
    e->nruns = e->npoints * e->nseeds;
    if (e->nseeds > MAX_RUNS / e->npoints) {
        mpp_err_set(err, MPP_EINVAL, "%s: more than %u runs (sweep points x seeds)",
                    mpp_cfgtree_origin(root), MAX_RUNS);
        goto fail;
    }
    e->cfg = calloc(e->nruns, sizeof *e->cfg);
    if (!e->cfg) {
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t p = 0; p < e->npoints; p++)
        if (resolve_point(e, root, values, p, err))
            goto fail;
    free(values);
    mpp_cfgtree_free(root);
    mpp_err_clear(err);
    return e;
fail:
    free(values);
    mpp_cfgtree_free(root);
    mpp_experiment_destroy(e);
    return NULL;
}

/* The file's base name without .yaml / .yml. */
static char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    s = s ? s + 1 : path;
    size_t n = strlen(s);
    if (n > 5 && !strcmp(s + n - 5, ".yaml"))
        n -= 5;
    else if (n > 4 && !strcmp(s + n - 4, ".yml"))
        n -= 4;
    if (!n)
        return dupstr("experiment");
    char *b = malloc(n + 1);
    if (b) {
        memcpy(b, s, n);
        b[n] = '\0';
    }
    return b;
}

mpp_experiment *mpp_experiment_load(const char *path, size_t noverrides,
                                    const char *const *overrides, mpp_err *err)
{
    mpp_cfgnode *root = mpp_cfgtree_parse_file(path, err);
    if (!root)
        return NULL;
    char *name = base_name(path);
    if (!name) {
        mpp_cfgtree_free(root);
        mpp_err_set(err, MPP_ENOMEM, "out of memory");
        return NULL;
    }
    mpp_experiment *e = load_tree(root, name, noverrides, overrides, err);
    free(name);
    return e;
}

mpp_experiment *mpp_experiment_parse(const char *text, const char *origin, size_t noverrides,
                                     const char *const *overrides, mpp_err *err)
{
    mpp_cfgnode *root = mpp_cfgtree_parse_text(text, strlen(text), origin, err);
    if (!root)
        return NULL;
    return load_tree(root, "experiment", noverrides, overrides, err);
}

void mpp_experiment_destroy(mpp_experiment *e)
{
    if (!e)
        return;
    for (size_t a = 0; a < e->naxes; a++) {
        for (size_t i = 0; e->axes[a].text && i < e->axes[a].n; i++)
            free(e->axes[a].text[i]);
        free(e->axes[a].text);
        free(e->axes[a].key);
    }
    free(e->axes);
    free(e->seeds);
    free(e->cfg);
    free(e->name);
    free(e);
}

/* -------------------------------------------------------------- accessors */

const char *mpp_experiment_name(const mpp_experiment *e) { return e->name; }

const mpp_output_config *mpp_experiment_output(const mpp_experiment *e) { return &e->out; }

size_t mpp_experiment_runs(const mpp_experiment *e) { return e->nruns; }

const mpp_sim_config *mpp_experiment_config(const mpp_experiment *e, size_t i)
{
    assert(i < e->nruns);
    return &e->cfg[i];
}

size_t mpp_experiment_axes(const mpp_experiment *e) { return e->naxes; }

const char *mpp_experiment_axis(const mpp_experiment *e, size_t a)
{
    assert(a < e->naxes);
    return e->axes[a].key;
}

const char *mpp_experiment_value(const mpp_experiment *e, size_t i, size_t a)
{
    assert(i < e->nruns && a < e->naxes);
    return e->axes[a].text[axis_index(e, i / e->nseeds, a)];
}

/* ----------------------------------------------------------------- dumps */

/* Writes nested keys as compact JSON or block YAML (two-space indent). */
typedef struct emitter {
    mpp_sb *sb;
    bool json;
    int depth;
    bool first[8];
} emitter;

static void em_key(emitter *em, const char *key)
{
    if (em->json) {
        if (!em->first[em->depth])
            mpp_sb_addc(em->sb, ',');
        em->first[em->depth] = false;
        mpp_sb_json_str(em->sb, key);
        mpp_sb_addc(em->sb, ':');
    } else {
        for (int i = 0; i < em->depth; i++)
            mpp_sb_add(em->sb, "  ");
        mpp_sb_add(em->sb, key);
        mpp_sb_addc(em->sb, ':');
    }
}

static void em_open(emitter *em, const char *key)
{
    em_key(em, key);
    mpp_sb_add(em->sb, em->json ? "{" : "\n");
    em->depth++;
    assert(em->depth < 8);
    em->first[em->depth] = true;
}

static void em_close(emitter *em)
{
    em->depth--;
    if (em->json)
        mpp_sb_addc(em->sb, '}');
}

/* A word (plug-in or enum name): a JSON string or plain YAML. */
static void em_word(emitter *em, const char *key, const char *word)
{
    em_key(em, key);
    if (em->json) {
        mpp_sb_json_str(em->sb, word);
    } else {
        mpp_sb_printf(em->sb, " %s\n", word);
    }
}

static void em_param(emitter *em, const mpp_param *p, const void *base)
{
    const char *src = (const char *)base + p->offset;
    if (p->type == MPP_PT_ENUM) {
        int i;
        memcpy(&i, src, sizeof i);
        em_word(em, p->key, p->choices[i]);
        return;
    }
    em_key(em, p->key);
    if (!em->json)
        mpp_sb_addc(em->sb, ' ');
    switch (p->type) {
    case MPP_PT_U32: {
        uint32_t v;
        memcpy(&v, src, sizeof v);
        mpp_sb_printf(em->sb, "%" PRIu32, v);
        break;
    }
    case MPP_PT_U64:
    case MPP_PT_BYTES:
    case MPP_PT_CYCLES: {
        uint64_t v;
        memcpy(&v, src, sizeof v);
        mpp_sb_printf(em->sb, "%" PRIu64, v);
        break;
    }
    case MPP_PT_DOUBLE: {
        double v;
        memcpy(&v, src, sizeof v);
        mpp_sb_double(em->sb, v);
        break;
    }
    case MPP_PT_BOOL: {
        bool v;
        memcpy(&v, src, sizeof v);
        mpp_sb_add(em->sb, v ? "true" : "false");
        break;
    }
    case MPP_PT_U32LIST: {
        mpp_u32list l;
        memcpy(&l, src, sizeof l);
        mpp_sb_addc(em->sb, '[');
        for (uint32_t i = 0; i < l.n; i++)
            mpp_sb_printf(em->sb, "%s%" PRIu32, i ? (em->json ? "," : ", ") : "", l.v[i]);
        mpp_sb_addc(em->sb, ']');
        break;
    }
    case MPP_PT_STRING:
        if (em->json)
            mpp_sb_json_str(em->sb, (const char *)src);
        else
            mpp_sb_printf(em->sb, "\"%s\"", (const char *)src);
        break;
    case MPP_PT_SENDLIST: {
        const mpp_sendlist *l = (const mpp_sendlist *)src;
        mpp_sb_addc(em->sb, '[');
        for (uint32_t i = 0; i < l->n; i++)
            mpp_sb_printf(em->sb, "%s[%" PRIu32 ",%s%" PRIu32 ",%s%" PRIu64 "]",
                          i ? (em->json ? "," : ", ") : "", l->v[i].src, em->json ? "" : " ",
                          l->v[i].dst, em->json ? "" : " ", l->v[i].bytes);
        mpp_sb_addc(em->sb, ']');
        break;
    }
    case MPP_PT_ENUM:
        break;
    }
    if (!em->json)
        mpp_sb_addc(em->sb, '\n');
}

static void em_rows(emitter *em, const mpp_param *rows, size_t from, size_t to, const void *base)
{
    for (size_t i = from; i < to; i++)
        em_param(em, &rows[i], base);
}

/* A plug-in selector and, when the plug-in has parameters, its section. */
static void em_plugin(emitter *em, const char *key, const char *name, const mpp_schema *s,
                      const mpp_blob *blob)
{
    em_word(em, key, name);
    if (!s->nparams)
        return;
    em_open(em, name);
    em_rows(em, s->params, 0, s->nparams, blob->b);
    em_close(em);
}

static void dump(const mpp_sim_config *c, mpp_sb *sb, bool json)
{
    emitter em = {sb, json, 0, {true}};
    if (json)
        mpp_sb_addc(sb, '{');
    em_open(&em, "network");
    em_plugin(&em, "topology", c->net.topo->name, &c->net.topo->schema, &c->net.topo_cfg);
    em_plugin(&em, "router", c->net.routing->name, &c->net.routing->schema, &c->net.routing_cfg);
    em_rows(&em, network_params, 0, MPP_COUNTOF(network_params), c);
    em_close(&em);
    em_open(&em, "workload");
    em_rows(&em, workload_params, 0, WORKLOAD_SELECTOR_AT, c);
    em_plugin(&em, "pattern", c->synth.pattern->name, &c->synth.pattern->schema,
              &c->synth.pattern_cfg);
    if (c->workload == MPP_WL_SCHEDULE && c->synth.scheduler)
        em_plugin(&em, "scheduler", c->synth.scheduler->name, &c->synth.scheduler->schema,
                  &c->synth.sched_cfg);
    em_rows(&em, workload_params, WORKLOAD_SELECTOR_AT, MPP_COUNTOF(workload_params), c);
    em_close(&em);
    if (c->workload == MPP_WL_MESSAGES || c->workload == MPP_WL_SCHEDULE ||
        c->net.nic == MPP_NIC_MODEL) {
        em_open(&em, "node");
        em_rows(&em, node_params, 0, MPP_COUNTOF(node_params), c);
        em_close(&em);
    }
    em_rows(&em, top_params, 0, MPP_COUNTOF(top_params), c);
    if (json)
        mpp_sb_addc(sb, '}');
}

void mpp_experiment_config_json(const mpp_experiment *e, size_t i, mpp_sb *out)
{
    dump(mpp_experiment_config(e, i), out, true);
}

void mpp_experiment_config_yaml(const mpp_experiment *e, size_t i, mpp_sb *out)
{
    dump(mpp_experiment_config(e, i), out, false);
}

uint64_t mpp_experiment_hash(const mpp_experiment *e, size_t i)
{
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_experiment_config_yaml(e, i, &sb);
    uint64_t h = 14695981039346656037ULL;
    for (size_t k = 0; k < sb.len; k++) {
        h ^= (unsigned char)sb.s[k];
        h *= 1099511628211ULL;
    }
    mpp_sb_free(&sb);
    return h;
}
