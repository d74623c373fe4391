/* test/test_ports.c — the node port model (node.ports, docs/model.md "Node
 * ports"): all-port on a hypercube sends a node's messages on all its links
 * at once (about a third of the one-port makespan for three neighbours)
 * and ejects a packet on the link paired with the dimension it arrived on;
 * one-port on the CM-5 fat tree never has two packets of a node injecting
 * or ejecting at once; auto is today's model (one-port on the mesh and
 * hypercube, all-port on the fat tree) with identical results; ports: all
 * is refused where no node would have a second link, and where the receive
 * FIFO cannot give each link a packet; all-port runs are deterministic. */
#include <stdlib.h>
#include <string.h>

#include "core/network.h"
#include "core/sim.h"
#include "test/testutil.h"

/* A fast processor (100 MHz, network 10 MHz, one CPU cycle per packet
 * written or read) over an ideal NIC: the links are the bottleneck. */
static void fast_node(mpp_sim_config *c, const char *ports)
{
    c->net.nic = MPP_NIC_IDEAL;
    c->net.net_mhz = 10;
    c->node.cpu_mhz = 100;
    c->node.interfaces = 1;
    c->node.send_packet_cycles = 1;
    c->node.recv_packet_cycles = 1;
    c->node.poll_cycles = 1;
    test_set(c, "node.ports", "%s", ports);
}

/* Run programs prog on configuration c; keep the simulation in *out (the
 * caller destroys it). Returns the run's status. */
static int run(mpp_sim_config *c, const mpp_program *prog, mpp_sim **out)
{
    test_use_programs(c, prog);
    mpp_err err;
    *out = NULL;
    mpp_sim *s = mpp_sim_create(c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return -1;
    int rc = mpp_sim_run(s, NULL, NULL, &err);
    CHECKF(rc == 0, "%s", err.msg);
    CHECK(mpp_sim_check(s));
    *out = s;
    return rc;
}

/* Flits carried by the channel from `from` to `to` (channel names as in
 * mpp_sim_channel_get), or -1 when there is no such channel. */
static long long chan_flits(const mpp_sim *s, const char *from, const char *to)
{
    for (size_t i = 0; i < mpp_sim_channel_count(s); i++) {
        mpp_channel_info ci;
        mpp_sim_channel_get(s, i, &ci);
        if ((!from || strcmp(ci.from, from) == 0) && (!to || strcmp(ci.to, to) == 0))
            return (long long)ci.flits;
    }
    return -1;
}

/* (a) node 0 of a 3-cube sends 64 packets to each neighbour (am_put, in
 * the background) and waits; each neighbour receives. */
static uint64_t fanout(const char *ports, uint32_t nic, bool check_links)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_hcube(&c, 3);
    fast_node(&c, ports);
    if (nic != MPP_NIC_IDEAL) {
        c.net.nic = nic;
        c.node.send_fifo_packets = 2;
        c.node.recv_fifo_packets = 6;
    }
    mpp_program prog[8] = {{0}};
    mpp_op send[4], recv[8];
    static const uint32_t nb[3] = {1, 2, 4};
    for (int i = 0; i < 3; i++) {
        send[i] = (mpp_op){.code = MPP_OP_ISEND, .paradigm = MPP_PARADIGM_AM_PUT, .peer = nb[i],
                           .bytes = 64 * 16};
        recv[nb[i]] = (mpp_op){.code = MPP_OP_RECV, .peer = 0};
        prog[nb[i]] = (mpp_program){&recv[nb[i]], 1};
    }
    send[3] = (mpp_op){.code = MPP_OP_WAIT};
    prog[0] = (mpp_program){send, 4};
    mpp_sim *s;
    if (run(&c, prog, &s))
        return 0;
    uint64_t mk = mpp_sim_result_get(s)->makespan;
    CHECK(mpp_sim_message_count(s) == 3);
    CHECK(mpp_sim_all_port(s) == (strcmp(ports, "all") == 0));
    if (check_links) {
        /* every message on its own dimension out of router 0, and on its
         * own injection link (e-cube: the first hop is the only one) */
        static const char *const dims[3] = {"dim0", "dim1", "dim2"};
        for (int d = 0; d < 3; d++) {
            char from[32], to[32], link[32];
            snprintf(from, sizeof from, "r0.%s", dims[d]);
            snprintf(to, sizeof to, "r%u.%s", nb[d], dims[d]);
            snprintf(link, sizeof link, "n0.link%d", d);
            CHECKF(chan_flits(s, from, to) == 64 * 5, "%s -> %s: %lld flits", from, to,
                   chan_flits(s, from, to));
            CHECKF(chan_flits(s, link, NULL) == 64 * 5, "%s: %lld flits", link,
                   chan_flits(s, link, NULL));
        }
    }
    mpp_sim_destroy(s);
    return mk;
}

static void test_fanout(void)
{
    uint64_t one = fanout("one", MPP_NIC_IDEAL, false);
    uint64_t all = fanout("all", MPP_NIC_IDEAL, true);
    uint64_t aut = fanout("auto", MPP_NIC_IDEAL, false);
    CHECKF(one > 960 && all < 0.45 * (double)one && all > 0.25 * (double)one,
           "makespan one-port %llu, all-port %llu", (unsigned long long)one,
           (unsigned long long)all);
    CHECK(aut == one);
    /* nic: model: a send FIFO of 2 packets per link, fed round-robin */
    uint64_t mone = fanout("one", MPP_NIC_MODEL, false);
    uint64_t mall = fanout("all", MPP_NIC_MODEL, false);
    CHECKF(mall < 0.45 * (double)mone, "nic: model: one-port %llu, all-port %llu",
           (unsigned long long)mone, (unsigned long long)mall);
}

/* (b) all-port ejection: nodes 0, 1 and 3 send 16, 32 and 48 packets to
 * node 7; e-cube (highest dimension first) brings them in on dimensions
 * 0, 1 and 2, so node 7's links 0, 1 and 2 carry them. */
static void test_eject_pairing(void)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_hcube(&c, 3);
    fast_node(&c, "all");
    mpp_program prog[8] = {{0}};
    mpp_op s0 = {.code = MPP_OP_SEND, .paradigm = MPP_PARADIGM_AM_PUT, .peer = 7, .bytes = 16 * 16};
    mpp_op s1 = s0, s3 = s0;
    s1.bytes = 32 * 16;
    s3.bytes = 48 * 16;
    mpp_op r7[3] = {{.code = MPP_OP_RECV, .peer = MPP_ANY},
                    {.code = MPP_OP_RECV, .peer = MPP_ANY},
                    {.code = MPP_OP_RECV, .peer = MPP_ANY}};
    prog[0] = (mpp_program){&s0, 1};
    prog[1] = (mpp_program){&s1, 1};
    prog[3] = (mpp_program){&s3, 1};
    prog[7] = (mpp_program){r7, 3};
    mpp_sim *s;
    if (run(&c, prog, &s))
        return;
    CHECK(mpp_sim_message_count(s) == 3);
    for (int j = 0; j < 3; j++) {
        char to[32];
        snprintf(to, sizeof to, "n7.link%d", j);
        CHECKF(chan_flits(s, NULL, to) == (j + 1) * 16 * 5, "%s: %lld flits", to,
               chan_flits(s, NULL, to));
    }
    /* the engine's extra links of node 7 hang off router 7's new ports */
    CHECK(chan_flits(s, "r7.link2", "n7.link2") == 48 * 5);
    const mpp_topo *t = mpp_sim_topology(s);
    CHECK(t->links == 8 * 3 && t->node_link_base[7 + 1] - t->node_link_base[7] == 3);
    CHECK(mpp_topo_check(t));
    mpp_sim_destroy(s);
}

/* --- (c) one-port on the 16-node CM-5 fat tree ------------------------------ */

static void cm5(mpp_sim_config *c, const char *ports)
{
    mpp_config_defaults(c);
    test_set(c, "network.topology", "cm5-fattree");
    test_set(c, "network.cm5-fattree.nodes", "16");
    test_set(c, "network.cm5-fattree.node_links", "2");
    test_set(c, "network.router", "fattree-random");
    test_set(c, "node.ports", "%s", ports);
    c->net.vcs = 4;
    c->net.buffer_flits = 4;
    c->net.link_latency = 2;
    c->workload.ops = NULL;
}

/* Packets of a node injecting (a link with a packet in progress) and
 * ejecting (busy ejection VCs) now; the largest of either over all nodes. */
static uint32_t most_at_once(mpp_sim *s)
{
    const mpp_net *n = mpp_sim_network(s);
    const mpp_topo *t = mpp_sim_topology(s);
    uint32_t most = 0;
    for (uint32_t v = 0; v < t->nodes; v++) {
        uint32_t inj = 0, ej = 0;
        for (uint32_t l = t->node_link_base[v]; l < t->node_link_base[v + 1]; l++) {
            inj += n->link[l].pkt != MPP_NONE;
            for (uint32_t k = 0; k < n->V; k++)
                ej += mpp_net_ovc_busy(n, t->link_port[l], k);
        }
        if (inj > most)
            most = inj;
        if (ej > most)
            most = ej;
    }
    return most;
}

/* All-to-all, 3 packets of 5 flits per pair, stepped cycle by cycle;
 * returns the sum of delivery cycles and the most packets of one node
 * injecting or ejecting at once. */
typedef struct sum_rec {
    uint64_t sum;
    uint32_t n;
} sum_rec;

static void add_rec(void *ud, const mpp_packet_record *r)
{
    sum_rec *a = ud;
    a->sum += r->delivered * 31 + r->injected;
    a->n++;
}

static uint64_t cm5_all_to_all(const char *ports, uint32_t *most)
{
    mpp_sim_config c;
    cm5(&c, ports);
    mpp_err err;
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return 0;
    sum_rec acc = {0, 0};
    mpp_sim_on_packet(s, add_rec, &acc);
    uint32_t total = 0;
    for (int k = 0; k < 3; k++)
        for (uint32_t a = 0; a < 16; a++)
            for (uint32_t b = 0; b < 16; b++)
                if (a != b && !mpp_sim_send(s, a, b, 5, 0, &err))
                    total++;
    *most = 0;
    for (uint64_t cyc = 0; acc.n < total && cyc < 200000; cyc++) {
        if (mpp_sim_step(s, 1, &err)) {
            CHECKF(0, "%s", err.msg);
            break;
        }
        uint32_t m = most_at_once(s);
        if (m > *most)
            *most = m;
        if ((cyc & 255) == 0)
            CHECK(mpp_sim_check(s));
    }
    CHECKF(acc.n == total, "%u of %u delivered", acc.n, total);
    CHECK(mpp_sim_check(s));
    mpp_sim_destroy(s);
    return acc.sum;
}

static void test_one_port_fattree(void)
{
    uint32_t most_one = 0, most_auto = 0;
    uint64_t one = cm5_all_to_all("one", &most_one);
    uint64_t aut = cm5_all_to_all("auto", &most_auto);
    CHECKF(most_one == 1, "one-port: %u packets of a node at once", most_one);
    CHECKF(most_auto >= 2, "auto (all-port): at most %u packets of a node at once", most_auto);
    CHECK(one != aut);

    /* node programs on the CM-5-like machine (nic: model, two interfaces,
     * sync messages): one-port finishes, slower than both links */
    uint64_t mk[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        mpp_sim_config c;
        cm5(&c, i ? "one" : "auto");
        c.net.nic = MPP_NIC_MODEL;
        c.net.net_mhz = 5;
        c.node.cpu_mhz = 33;
        c.node.interfaces = 2;
        c.node.send_fifo_packets = 2;
        c.node.recv_fifo_packets = 8;
        c.node.send_packet_cycles = 5;
        c.node.recv_packet_cycles = 5;
        mpp_program prog[16];
        mpp_op ops[16][2];
        for (uint32_t v = 0; v < 16; v++) {
            ops[v][0] = (mpp_op){.code = MPP_OP_SENDRECV, .paradigm = MPP_PARADIGM_SYNC,
                                 .peer = (v + 5) % 16, .peer2 = (v + 11) % 16, .bytes = 4096};
            ops[v][1] = (mpp_op){.code = MPP_OP_SENDRECV, .paradigm = MPP_PARADIGM_SYNC,
                                 .peer = v ^ 8, .peer2 = v ^ 8, .bytes = 4096};
            prog[v] = (mpp_program){ops[v], 2};
        }
        mpp_sim *s;
        if (run(&c, prog, &s))
            continue;
        CHECK(mpp_sim_message_count(s) == 32);
        CHECK(mpp_sim_all_port(s) == (i == 0));
        mk[i] = mpp_sim_result_get(s)->makespan;
        mpp_sim_destroy(s);
    }
    CHECKF(mk[1] > mk[0], "makespan all-port %llu, one-port %llu", (unsigned long long)mk[0],
           (unsigned long long)mk[1]);
}

/* --- (d) auto is today's model; (f) determinism ------------------------------ */

/* Every node sends 8 packets to (v + 3) mod N and receives from
 * (v - 3) mod N, sync, nic: model. Fills makespan and the message records. */
typedef struct outcome {
    uint64_t makespan;
    size_t nmsg;
    mpp_message_record m[64];
} outcome;

static void shift_run(mpp_sim_config *c, outcome *o)
{
    uint32_t N = 16;
    mpp_program prog[16];
    mpp_op ops[16][2];
    c->net.nic = MPP_NIC_MODEL;
    c->net.net_mhz = 10;
    c->node.cpu_mhz = 20;
    c->node.send_packet_cycles = 10;
    c->node.recv_packet_cycles = 10;
    c->node.recv_fifo_packets = 8;
    for (uint32_t v = 0; v < N; v++) {
        ops[v][0] = (mpp_op){.code = MPP_OP_SENDRECV, .paradigm = MPP_PARADIGM_SYNC,
                             .peer = (v + 3) % N, .peer2 = (v + N - 3) % N, .bytes = 128};
        ops[v][1] = (mpp_op){.code = MPP_OP_SENDRECV, .paradigm = MPP_PARADIGM_ASYNC,
                             .peer = (v + 7) % N, .peer2 = (v + N - 7) % N, .bytes = 300};
        prog[v] = (mpp_program){ops[v], 2};
    }
    memset(o, 0, sizeof *o);
    mpp_sim *s;
    if (run(c, prog, &s))
        return;
    o->makespan = mpp_sim_result_get(s)->makespan;
    o->nmsg = mpp_sim_message_count(s);
    for (size_t i = 0; i < o->nmsg && i < 64; i++)
        mpp_sim_message_get(s, i, &o->m[i]);
    mpp_sim_destroy(s);
}

static bool same(const outcome *a, const outcome *b)
{
    if (a->makespan != b->makespan || a->nmsg != b->nmsg)
        return false;
    for (size_t i = 0; i < a->nmsg && i < 64; i++) {
        const mpp_message_record *x = &a->m[i], *y = &b->m[i];
        if (x->src != y->src || x->dst != y->dst || x->issue != y->issue ||
            x->first_inject != y->first_inject || x->delivered != y->delivered ||
            x->hops != y->hops)
            return false;
    }
    return true;
}

/* Configuration i: 0 hypercube 4, 1 mesh 4x4, 2 cm5 16 nodes; router. */
static void topo_cfg(mpp_sim_config *c, int i, const char *router, const char *ports)
{
    if (i == 2) {
        cm5(c, ports);
        c->node.interfaces = 1;
        return;
    }
    mpp_config_defaults(c);
    if (i == 0)
        test_hcube(c, 4);
    else
        test_mesh(c, 4, 4);
    test_set(c, "network.router", "%s", router);
    test_set(c, "node.ports", "%s", ports);
    c->net.vcs = 4;
}

static void test_auto_and_determinism(void)
{
    outcome *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        CHECK(0);
        return;
    }
    mpp_sim_config c;
    /* auto == one on the direct networks, auto == all on the fat tree */
    static const char *const routers[3] = {"ecube", "ecube", "fattree-random"};
    for (int i = 0; i < 3; i++) {
        topo_cfg(&c, i, routers[i], "auto");
        shift_run(&c, a);
        topo_cfg(&c, i, routers[i], i == 2 ? "all" : "one");
        shift_run(&c, b);
        CHECKF(a->nmsg == 32 && same(a, b), "topology %d: auto differs (makespan %llu vs %llu)",
               i, (unsigned long long)a->makespan, (unsigned long long)b->makespan);
    }
    /* all-port twice, randomized routings included: identical */
    static const char *const rnd[2] = {"valiant", "romm"};
    for (int i = 0; i < 2; i++) {
        topo_cfg(&c, i, rnd[i], "all");
        shift_run(&c, a);
        topo_cfg(&c, i, rnd[i], "all");
        shift_run(&c, b);
        CHECKF(a->nmsg == 32 && same(a, b), "all-port %s run twice differs", rnd[i]);
        topo_cfg(&c, i, rnd[i], "one");
        shift_run(&c, b);
        CHECKF(b->nmsg == 32 && !same(a, b), "all-port %s gives one-port's results", rnd[i]);
    }
    free(a);
    free(b);
}

/* Synthetic traffic (mpp_sim_send) on an all-port mesh: every packet
 * arrives, the checkers hold, and the edge routers' nodes have fewer
 * links than the inner ones. */
static void test_mesh_all_port(void)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_mesh(&c, 3, 4);
    test_set(&c, "node.ports", "all");
    c.workload.ops = NULL;
    mpp_err err;
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    if (!s)
        return;
    const mpp_topo *t = mpp_sim_topology(s);
    CHECK(t->node_link_base[1] - t->node_link_base[0] == 2); /* a corner: E and S */
    CHECK(t->node_link_base[6] - t->node_link_base[5] == 4); /* inside */
    CHECK(mpp_sim_all_port(s));
    for (uint32_t a = 0; a < 12; a++)
        for (uint32_t b = 0; b < 12; b++)
            CHECK(mpp_sim_send(s, a, b, 4, 0, &err) == 0);
    CHECKF(mpp_sim_run_until_idle(s, 100000, &err) == 0, "%s", err.msg);
    mpp_sim_counts ct;
    mpp_sim_counts_get(s, &ct);
    CHECK(ct.packets_delivered == 144 && ct.flits_ejected == 144 * 4);
    CHECK(mpp_sim_check(s));
    mpp_sim_destroy(s);
}

/* --- (e) refusals -------------------------------------------------------------- */

static void refused(mpp_sim_config *c, const char *want1, const char *want2)
{
    mpp_err err = {0};
    test_use_programs(c, NULL);
    mpp_sim *s = mpp_sim_create(c, &err);
    CHECKF(s == NULL && err.code == MPP_EINVAL && strstr(err.msg, want1) && strstr(err.msg, want2),
           "got: %s", s ? "(accepted)" : err.msg);
    mpp_sim_destroy(s);
}

static void test_refusals(void)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_hcube(&c, 1);
    test_set(&c, "node.ports", "all");
    refused(&c, "node.ports: all", "hypercube");
    mpp_config_defaults(&c);
    test_mesh(&c, 1, 2);
    test_set(&c, "node.ports", "all");
    refused(&c, "node.ports: all", "mesh");
    mpp_config_defaults(&c);
    test_mesh(&c, 2, 1);
    test_set(&c, "node.ports", "all");
    refused(&c, "node.ports: all", "no node has more than one link");
    /* a fat tree whose nodes have one link each (four to a router) */
    cm5(&c, "all");
    test_set(&c, "network.cm5-fattree.node_links", "1");
    refused(&c, "node.ports: all", "cm5-fattree");
    /* a receive FIFO too small for a packet per link */
    mpp_config_defaults(&c);
    test_hcube(&c, 3);
    test_set(&c, "node.ports", "all");
    c.net.nic = MPP_NIC_MODEL;
    c.node.recv_fifo_packets = 2;
    refused(&c, "node.recv_fifo_packets", "at least 3");
    /* one and auto are accepted everywhere; all on a 1x3 mesh (its middle
     * node has two neighbours) too */
    static const char *const ok[] = {"one", "auto"};
    for (int i = 0; i < 2; i++) {
        mpp_config_defaults(&c);
        test_hcube(&c, 1);
        test_set(&c, "node.ports", "%s", ok[i]);
        c.workload.ops = NULL;
        mpp_err err;
        mpp_sim *s = mpp_sim_create(&c, &err);
        CHECKF(s != NULL, "%s", err.msg);
        mpp_sim_destroy(s);
    }
    mpp_config_defaults(&c);
    test_mesh(&c, 1, 3);
    test_set(&c, "node.ports", "all");
    c.workload.ops = NULL;
    mpp_err err;
    mpp_sim *s = mpp_sim_create(&c, &err);
    CHECKF(s != NULL, "%s", err.msg);
    mpp_sim_destroy(s);
}

int main(void)
{
    test_fanout();
    test_eject_pairing();
    test_one_port_fattree();
    test_auto_and_determinism();
    test_mesh_all_port();
    test_refusals();
    TEST_DONE();
}
