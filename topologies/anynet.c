/* topologies/anynet.c — a network read from an edge list in BookSim's
 * anynet format (`anynet`, src/networks/anynet.cpp; docs/formats.md).
 *
 * The file. One line per router or node and what it connects to:
 *     router 0 node 0 node 1 node 2 router 1
 * a head ("router ID" or "node ID") followed by any number of bodies
 * ("router ID" or "node ID"), words separated by spaces or tabs. A body may
 * be followed by a link weight, which must be 1 (BookSim's per-link
 * latency: mppnet's channels all take network.link_latency). A router-router
 * body links both ways; a node belongs to exactly one router; blank lines
 * are skipped. Router ids must be 0 .. R-1 and node ids 0 .. N-1, every
 * one used, every router reachable from every other.
 *
 * Reading. The file is opened by core/base/file.c's bounded reader (a
 * regular file, at most AN_MAX_BYTES). Pass 1 (an_scan without a net to
 * fill) checks every word and finds R and N, each bounded before anything
 * is sized by it; only then are the node table and the adjacency bitmap
 * allocated and pass 2 fills them, checking what needs them (a node named
 * with two routers). Every error is FILE:LINE:COLUMN: what was expected.
 * size() reads the file as setup does (the counts need its links).
 *
 * Numbering (BookSim's). Router ids and node ids are the file's. Router r's
 * local ports: its nodes in ascending node id ("n<ID>"), then its
 * neighbour routers in ascending router id ("r<ID>").
 *
 * Data (priv): the routers' hop distances dist[a * R + b] (uint16_t) by
 * breadth-first search, for distance(). dims[0] = R.
 *
 * Invariants (test/test_bsnets.c):
 *   1. the wiring is symmetric and every port is connected;
 *   2. the router graph is connected (setup refuses a file where it is not);
 *   3. distance(a, b) = BFS hops between the routers of a and b. */
#include "topologies/topology.h"

#include "core/base/file.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AN_MAX_ROUTERS 1024u
#define AN_MAX_NODES 65536u
#define AN_MAX_BYTES (16u << 20)

typedef struct an_cfg {
    char file[MPP_STR_MAX];
} an_cfg;

static const mpp_param an_params[] = {
    {"file", MPP_PT_STRING, offsetof(an_cfg, file), "", 0, 0, NULL,
     "the edge-list file (BookSim's anynet network_file; docs/formats.md)"},
};

/* What a file describes. Pass 1 fills routers and nodes; pass 2 the rest. */
typedef struct an_net {
    uint32_t routers, nodes;
    uint64_t links;          /* distinct router-router pairs */
    uint32_t *node_router;   /* [nodes]: the node's router, UINT32_MAX before */
    uint8_t *adj;            /* [routers * routers] bits: a link between a and b */
    uint8_t *used;           /* [routers] bytes: the router was named */
} an_net;

static void an_free(an_net *net)
{
    free(net->node_router);
    free(net->adj);
    free(net->used);
    memset(net, 0, sizeof *net);
}

static bool an_adj(const an_net *net, uint32_t a, uint32_t b)
{
    size_t i = (size_t)a * net->routers + b;
    return net->adj[i >> 3] >> (i & 7) & 1;
}

static void an_link(an_net *net, uint32_t a, uint32_t b)
{
    if (an_adj(net, a, b))
        return;
    size_t i = (size_t)a * net->routers + b, j = (size_t)b * net->routers + a;
    net->adj[i >> 3] |= (uint8_t)(1u << (i & 7));
    net->adj[j >> 3] |= (uint8_t)(1u << (j & 7));
    net->links++;
}

/* One word: [s, s + len) at column col. */
typedef struct an_word {
    const char *s;
    size_t len;
    uint32_t col;
} an_word;

/* The error at path:line:w's column. Returns MPP_EFORMAT. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int an_fail(mpp_err *err, const char *path, uint32_t line, uint32_t col, const char *fmt,
                   ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mpp_err_set(err, MPP_EFORMAT, "%.160s:%u:%u: %s", path, line, col, msg);
}

static bool an_is(const an_word *w, const char *kw)
{
    return w->len == strlen(kw) && memcmp(w->s, kw, w->len) == 0;
}

/* The word as a decimal number below `limit` into *v; false when it is not
 * one (or is too large). */
static bool an_number(const an_word *w, uint32_t limit, uint32_t *v)
{
    uint64_t x = 0;
    if (w->len == 0 || w->len > 10)
        return false;
    for (size_t i = 0; i < w->len; i++) {
        if (w->s[i] < '0' || w->s[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(w->s[i] - '0');
    }
    if (x >= limit)
        return false;
    *v = (uint32_t)x;
    return true;
}

/* "'WORD'" of at most 40 bytes, for messages. */
static const char *an_quote(const an_word *w, char *buf, size_t size)
{
    int n = w->len > 40 ? 40 : (int)w->len;
    snprintf(buf, size, "'%.*s%s'", n, w->s, w->len > 40 ? "..." : "");
    return buf;
}

/* Scan the text: pass 1 when net->adj is NULL (check words, find the
 * counts), pass 2 otherwise (fill the links and the nodes' routers).
 * Returns 0 or MPP_EFORMAT with path:line:column. */
static int an_scan(const char *path, const char *text, size_t len, an_net *net, mpp_err *err)
{
    enum { HEAD_TYPE, HEAD_ID, BODY_TYPE, BODY_ID, AFTER_BODY } state;
    bool fill = net->adj != NULL;
    uint32_t line = 0;
    char q[64];
    for (size_t at = 0; at < len;) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        size_t stop = end > at && text[end - 1] == '\r' ? end - 1 : end;
        state = HEAD_TYPE;
        bool head_router = false, body_router = false;
        uint32_t head = 0, body = 0;
        an_word w = {0};
        for (size_t i = at; i < stop;) {
            if (text[i] == ' ' || text[i] == '\t') {
                i++;
                continue;
            }
            w.s = text + i;
            w.col = (uint32_t)(i - at + 1);
            while (i < stop && text[i] != ' ' && text[i] != '\t')
                i++;
            w.len = (size_t)(text + i - w.s);
            for (size_t j = 0; j < w.len; j++)
                if ((unsigned char)w.s[j] < 0x20 || (unsigned char)w.s[j] == 0x7f)
                    return an_fail(err, path, line, w.col + (uint32_t)j,
                                   "a control character (byte 0x%02x) in a word",
                                   (unsigned char)w.s[j]);
            uint32_t v = 0;
            if (state == AFTER_BODY) {
                if (!an_is(&w, "router") && !an_is(&w, "node")) {
                    if (!an_number(&w, 1u << 30, &v))
                        return an_fail(err, path, line, w.col,
                                       "expected 'router', 'node' or a link weight, got %s",
                                       an_quote(&w, q, sizeof q));
                    if (v != 1)
                        return an_fail(err, path, line, w.col,
                                       "link weight %u: every channel takes network.link_latency "
                                       "cycles (per-link latencies are not supported; a weight "
                                       "of 1 is accepted)",
                                       v);
                    state = BODY_TYPE;
                    continue;
                }
                state = BODY_TYPE; /* the next body */
            }
            switch (state) {
            case AFTER_BODY: /* handled above */
            case BODY_TYPE:
            case HEAD_TYPE:
                if (an_is(&w, "router"))
                    *(state == HEAD_TYPE ? &head_router : &body_router) = true;
                else if (an_is(&w, "node"))
                    *(state == HEAD_TYPE ? &head_router : &body_router) = false;
                else
                    return an_fail(err, path, line, w.col, "expected 'router' or 'node', got %s",
                                   an_quote(&w, q, sizeof q));
                state = state == HEAD_TYPE ? HEAD_ID : BODY_ID;
                break;
            case HEAD_ID:
            case BODY_ID: {
                bool router = state == HEAD_ID ? head_router : body_router;
                uint32_t limit = router ? AN_MAX_ROUTERS : AN_MAX_NODES;
                if (!an_number(&w, limit, &v))
                    return an_fail(err, path, line, w.col,
                                   "expected a %s id (a whole number from 0 to %u), got %s",
                                   router ? "router" : "node", limit - 1,
                                   an_quote(&w, q, sizeof q));
                if (router && v >= net->routers && !fill)
                    net->routers = v + 1;
                if (!router && v >= net->nodes && !fill)
                    net->nodes = v + 1;
                if (router && fill)
                    net->used[v] = 1;
                if (state == HEAD_ID) {
                    head = v;
                    state = BODY_TYPE;
                    break;
                }
                body = v;
                state = AFTER_BODY;
                if (!head_router && !body_router)
                    return an_fail(err, path, line, w.col,
                                   "node %u: a node connects to a router, not to node %u", head,
                                   body);
                if (head_router && body_router && head == body)
                    return an_fail(err, path, line, w.col,
                                   "router %u: a link from a router to itself", head);
                if (!fill)
                    break;
                if (head_router && body_router) {
                    an_link(net, head, body);
                    break;
                }
                uint32_t node = head_router ? body : head, r = head_router ? head : body;
                if (net->node_router[node] != UINT32_MAX && net->node_router[node] != r)
                    return an_fail(err, path, line, w.col,
                                   "node %u is already attached to router %u; a node has one "
                                   "router",
                                   node, net->node_router[node]);
                net->node_router[node] = r;
                break;
            }
            }
        }
        if (state == HEAD_ID || state == BODY_ID)
            return an_fail(err, path, line, (uint32_t)(stop - at + 1),
                           "the line ends where a %s id was expected",
                           (state == HEAD_ID ? head_router : body_router) ? "router" : "node");
        if (state == BODY_TYPE && !head_router)
            return an_fail(err, path, line, (uint32_t)(stop - at + 1),
                           "node %u: expected the router it connects to", head);
        at = end + 1;
    }
    return 0;
}

/* Whether every router reaches router 0 over the links of net (a search
 * over the adjacency bitmap). 0, or MPP_EFORMAT naming one it cannot. */
static int an_connected(const char *path, const an_net *net, mpp_err *err)
{
    uint32_t R = net->routers, head = 0, tail = 0;
    uint32_t *queue = malloc(R * sizeof *queue);
    uint8_t *seen = calloc(R, 1);
    int rc = 0;
    if (!queue || !seen) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory reading %.160s", path);
        goto done;
    }
    seen[0] = 1;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t a = queue[head++];
        for (uint32_t b = 0; b < R; b++)
            if (!seen[b] && an_adj(net, a, b)) {
                seen[b] = 1;
                queue[tail++] = b;
            }
    }
    for (uint32_t b = 0; b < R && !rc; b++)
        if (!seen[b])
            rc = mpp_err_set(err, MPP_EFORMAT,
                             "%.160s: router 0 cannot reach router %u: the routers must form one "
                             "connected network",
                             path, b);
done:
    free(queue);
    free(seen);
    return rc;
}

/* Read and check the file of cfg into net (the caller frees it with
 * an_free). Returns 0, or MPP_EINVAL / MPP_EIO / MPP_EFORMAT / MPP_ENOMEM
 * with net empty. */
static int an_read(const an_cfg *cfg, an_net *net, mpp_err *err)
{
    memset(net, 0, sizeof *net);
    if (!cfg->file[0])
        return mpp_err_set(err, MPP_EINVAL,
                           "topology anynet needs its edge-list file: network.anynet.file "
                           "(docs/formats.md, \"anynet\")");
    char *text = NULL;
    size_t len = 0;
    int rc = mpp_file_read(cfg->file, AN_MAX_BYTES, &text, &len, err);
    if (rc)
        return rc;
    const char *path = cfg->file;
    if ((rc = an_scan(path, text, len, net, err)))
        goto fail;
    if (net->routers == 0 || net->nodes == 0) {
        rc = mpp_err_set(err, MPP_EFORMAT, "%.160s: %s", path,
                         net->routers ? "no node: a network needs at least one node"
                                      : "no router: a network needs at least one router");
        goto fail;
    }
    size_t bits = (size_t)net->routers * net->routers;
    net->adj = calloc((bits + 7) / 8, 1);
    net->used = calloc(net->routers, 1);
    net->node_router = malloc(net->nodes * sizeof *net->node_router);
    if (!net->adj || !net->used || !net->node_router) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory reading %.160s", path);
        goto fail;
    }
    memset(net->node_router, 0xff, net->nodes * sizeof *net->node_router);
    if ((rc = an_scan(path, text, len, net, err)))
        goto fail;
    for (uint32_t r = 0; r < net->routers; r++)
        if (!net->used[r]) {
            rc = mpp_err_set(err, MPP_EFORMAT,
                             "%.160s: router %u is never named: router ids must be 0 to %u, each "
                             "used (BookSim numbers them so)",
                             path, r, net->routers - 1);
            goto fail;
        }
    for (uint32_t n = 0; n < net->nodes; n++)
        if (net->node_router[n] == UINT32_MAX) {
            rc = mpp_err_set(err, MPP_EFORMAT,
                             "%.160s: node %u is attached to no router: node ids must be 0 to "
                             "%u, each attached to one router",
                             path, n, net->nodes - 1);
            goto fail;
        }
    if ((rc = an_connected(path, net, err)))
        goto fail;
    free(text);
    return 0;
fail:
    free(text);
    an_free(net);
    return rc;
}

static int an_size(const void *cfgp, mpp_topo_size *out, mpp_err *err)
{
    an_net net;
    int rc = an_read(cfgp, &net, err);
    if (rc)
        return rc;
    out->routers = net.routers;
    out->nodes = out->links = net.nodes;
    out->ports = net.nodes + 2 * net.links;
    out->priv_bytes = (uint64_t)net.routers * net.routers * sizeof(uint16_t);
    an_free(&net);
    return 0;
}

static int an_setup(mpp_topo *t, const void *cfgp, mpp_err *err)
{
    const an_cfg *cfg = cfgp;
    an_net net;
    int rc = an_read(cfg, &net, err);
    if (rc)
        return rc;
    uint32_t R = net.routers, N = net.nodes;
    uint32_t *radix = calloc(R, sizeof *radix), *next = malloc(R * sizeof *next);
    uint32_t *d32 = malloc(2 * (size_t)R * sizeof *d32);
    uint16_t *dist = malloc((size_t)R * R * sizeof *dist);
    if (!radix || !next || !d32 || !dist) {
        rc = mpp_err_set(err, MPP_ENOMEM, "out of memory building the anynet network");
        goto done;
    }
    for (uint32_t n = 0; n < N; n++)
        radix[net.node_router[n]]++;
    for (uint32_t a = 0; a < R; a++)
        for (uint32_t b = 0; b < R; b++)
            radix[a] += an_adj(&net, a, b);
    if ((rc = mpp_topo_alloc(t, R, radix, N, NULL, err)))
        goto done;
    t->kind = MPP_TOPO_ANYNET;
    t->dims[0] = R;
    t->priv = dist;
    dist = NULL;
    memset(next, 0, R * sizeof *next);
    /* nodes first, in ascending id; then each router's neighbours in
     * ascending id (pairs (a, b), a < b, taken in order) */
    for (uint32_t n = 0; n < N; n++) {
        uint32_t r = net.node_router[n];
        mpp_topo_attach(t, n, 0, r, next[r]++);
    }
    for (uint32_t a = 0; a < R; a++)
        for (uint32_t b = a + 1; b < R; b++)
            if (an_adj(&net, a, b)) {
                mpp_topo_connect(t, a, next[a], b, next[b]);
                next[a]++;
                next[b]++;
            }
    uint16_t *dt = t->priv;
    for (uint32_t a = 0; a < R; a++) {
        mpp_topo_router_bfs(t, a, d32, d32 + R); /* connected: an_read checked */
        for (uint32_t b = 0; b < R; b++)
            dt[(size_t)a * R + b] = (uint16_t)d32[b];
    }
done:
    free(radix);
    free(next);
    free(d32);
    free(dist);
    an_free(&net);
    return rc;
}

static uint32_t an_distance(const mpp_topo *t, uint32_t a, uint32_t b)
{
    const uint16_t *dist = t->priv;
    return dist[(size_t)t->node_router[a] * t->routers + t->node_router[b]];
}

static void an_destroy(mpp_topo *t)
{
    free(t->priv);
    t->priv = NULL;
}

static void an_port_name(const mpp_topo *t, uint32_t r, uint32_t p, char *buf, int len)
{
    uint32_t peer = t->port_peer[t->port_base[r] + p];
    if (peer == MPP_TOPO_NONE)
        snprintf(buf, (size_t)len, "?");
    else if (peer & MPP_TOPO_NODE)
        snprintf(buf, (size_t)len, "n%u", t->link_node[peer & ~MPP_TOPO_NODE]);
    else
        snprintf(buf, (size_t)len, "r%u", t->port_router[peer]);
}

const mpp_topo_ops mpp_topo_anynet = {
    .name = "anynet",
    .help = "a network read from an edge-list file in BookSim's anynet format (key file); "
            "ports n<node> then r<router>",
    .schema = {an_params, MPP_COUNTOF(an_params), sizeof(an_cfg)},
    .setup = an_setup,
    .size = an_size,
    .distance = an_distance,
    .port_name = an_port_name,
    .destroy = an_destroy,
};
