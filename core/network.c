/* core/network.c — channels, credits, the virtual-channel router and node
 * injection links: the hot loop of the engine.
 *
 * Model. Channels carry one flit per cycle with latency link_lat; a credit
 * returns credit_lat cycles after its flit left the downstream buffer. A
 * router is input-queued with V VCs of B flits per input port. A flit that
 * crosses a link at cycle c may leave the next router at c + link_lat +
 * delay at the earliest (router_delay cycles of pipeline, folded into the
 * channel: see send_flit), so a head crossing H inter-router links takes
 * (H + 1) x delay + (H + 2) x link_lat cycles from injection to ejection and
 * the tail L - 1 more. The downstream buffer slot is reserved (by the
 * credit) from the moment the flit is sent.
 *
 * Per cycle (two-phase clock, so the visiting order cannot matter):
 *   mpp_net_deliver   credits and flits due this cycle land (written by
 *                     earlier cycles only: latencies are >= 1)
 *   mpp_net_routers   each active router, for each input VC whose front flit
 *                     is ready:
 *
 *       idle --route()--> routed --va()--> active --sa() win--> flit sent
 *         ^                                   |
 *         +------------- tail sent -----------+
 *
 *                     route: the routing plug-in, once per packet per router;
 *                     va: a free output VC in the range of (message class,
 *                     route class), round-robin; cut-through also needs
 *                     credits for the whole packet;
 *                     sa: separable input-first round-robin, or iSLIP with
 *                     one iteration; a winner needs a credit. The age
 *                     allocator does va and sa oldest packet first.
 *   mpp_net_inject    node links start packets and send flits (sim.c).
 * All sends write timing-wheel slots of later cycles.
 *
 * Invariants (mpp_net_check):
 *   1. for every non-sink output VC: credits + downstream occupancy + flits
 *      in flight to it + credits in flight back == B;
 *   2. an output VC is busy iff exactly one input VC (or node link) holds
 *      its allocation;
 *   3. flits_injected == flits_ejected + flits in buffers and channels;
 *   4. a router is in the active list iff it buffers flits;
 *   5. one-port ejection (ej_one): at most one ejection VC of a node is
 *      busy, and ej_busy says whether one is.
 *
 * Node ports (docs/model.md): all-port on a direct network redirects, in
 * route_and_allocate, a packet routed to its node's ejection port to the
 * node link paired with the port it arrived on (topo->pair_link; one
 * predictable branch per routed head); one-port on a multi-link topology
 * lets one packet of a node at a time hold an ejection VC (ej_busy).
 */
#include "core/network.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/strbuf.h"

static void set_cursors(mpp_net *n);

static void *xcalloc(size_t n, size_t sz, bool *ok)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p)
        *ok = false;
    return p;
}

static uint32_t pow2_above(uint32_t x)
{
    uint32_t w = 1;
    while (w <= x)
        w <<= 1;
    return w;
}

int mpp_net_init(mpp_net *n, const mpp_topo *t, const mpp_net_config *nc, uint64_t seed,
                 uint32_t fifo_packets, uint32_t packet_flits, bool check_only, mpp_err *err)
{
    memset(n, 0, sizeof *n);
    n->topo = t;
    n->routing = nc->routing;
    n->routing_cfg = nc->routing_cfg.b;
    n->V = nc->vcs;
    n->B = nc->buffer_flits;
    n->delay = nc->router_delay;
    n->link_lat = nc->link_latency;
    n->credit_lat = nc->credit_latency;
    n->flow = nc->flow;
    n->allocator = nc->allocator;
    n->message_classes = nc->message_classes;
    n->P = t->ports;
    n->L = t->links;
    n->NE = t->ports + t->links;
    n->shuffle = nc->shuffle_order;
    mpp_rng_init(&n->shuffle_rng, seed, MPP_RNG_SHUFFLE, 0);

    if (n->message_classes < 1)
        return mpp_err_set(err, MPP_EINVAL, "network: message_classes must be at least 1");
    if (t->max_radix > 64)
        return mpp_err_set(err, MPP_EINVAL, "network: router radix %u is above the limit of 64",
                           t->max_radix);
    if (!n->routing->supports(t, n->routing_cfg, err))
        return MPP_EINVAL;
    n->route_classes = n->routing->route_classes(t, n->routing_cfg);
    uint32_t classes = n->route_classes * n->message_classes;
    if (nc->vcs_per_class)
        n->V = classes * nc->vcs_per_class;
    if (n->V < 1 || n->B < 1 || n->link_lat < 1 || n->credit_lat < 1)
        return mpp_err_set(err, MPP_EINVAL,
                           "network: vcs, buffer_flits, link_latency and credit_latency must all "
                           "be at least 1");
    if (n->V > 64)
        return mpp_err_set(err, MPP_EINVAL, "network: %u VCs per port is above the limit of 64%s",
                           n->V, nc->vcs_per_class ? " (vcs_per_class x classes)" : "");
    if (n->V < classes || n->V % classes)
        return mpp_err_set(err, MPP_EINVAL,
                           "network: router '%s' needs vcs to be a multiple of %u "
                           "(%u message class%s x %u route class%s); vcs is %u "
                           "(or set vcs_per_class)",
                           n->routing->name, classes, n->message_classes,
                           n->message_classes == 1 ? "" : "es", n->route_classes,
                           n->route_classes == 1 ? "" : "es", n->V);
    n->vcs_per_class = n->V / classes;
    if (n->routing->setup) {
        int rc = n->routing->setup(t, n->routing_cfg, &n->routing_priv, err);
        if (rc)
            return rc;
    }

    bool ok = true;
    uint32_t P = n->P, NE = n->NE, V = n->V, B = n->B, R = t->routers;
    n->nic_model = mpp_nic_bounded(nc->nic);
    n->pair = t->pair_link;
    uint32_t fifo_flits = 0;
    if (n->nic_model) {
        if (fifo_packets < 1 || packet_flits < 1)
            return mpp_err_set(err, MPP_EINVAL,
                               "network: nic: model and dma need a receive FIFO of at least one packet");
        /* each of a node's links reserves in its own share of the FIFO (at
         * least one packet), so links never contend for the same space */
        uint32_t maxl = 1;
        for (uint32_t v = 0; v < t->nodes; v++)
            if (t->node_link_base[v + 1] - t->node_link_base[v] > maxl)
                maxl = t->node_link_base[v + 1] - t->node_link_base[v];
        uint64_t per = fifo_packets / maxl;
        if (t->pair_link && per < 1)
            return mpp_err_set(err, MPP_EINVAL,
                               "node.recv_fifo_packets is %u, but with ports: all a node has up "
                               "to %u links, each with its own share of the receive FIFO of at "
                               "least one packet: recv_fifo_packets must be at least %u",
                               fifo_packets, maxl, maxl);
        fifo_flits = (uint32_t)((per ? per : 1) * packet_flits);
        n->fifo_flits = fifo_flits;
    }
    if (check_only)
        return 0; /* mpp_sim_validate: the checks, no arrays */
    n->dst = xcalloc(NE, sizeof *n->dst, &ok);
    n->src = xcalloc(NE, sizeof *n->src, &ok);
    n->sink = xcalloc(NE, sizeof *n->sink, &ok);
    n->sink_node = xcalloc(NE, sizeof *n->sink_node, &ok);
    if (n->nic_model)
        n->ej_credits = xcalloc((size_t)t->links * n->message_classes, sizeof *n->ej_credits, &ok);
    n->buf = xcalloc((size_t)P * V * B, sizeof *n->buf, &ok);
    n->ihead = xcalloc((size_t)P * V, sizeof *n->ihead, &ok);
    n->icount = xcalloc((size_t)P * V, sizeof *n->icount, &ok);
    n->iout = xcalloc((size_t)P * V, sizeof *n->iout, &ok);
    n->iovc = xcalloc((size_t)P * V, sizeof *n->iovc, &ok);
    n->ilo = xcalloc((size_t)P * V, sizeof *n->ilo, &ok);
    n->ihi = xcalloc((size_t)P * V, sizeof *n->ihi, &ok);
    n->credits = xcalloc((size_t)NE * V, sizeof *n->credits, &ok);
    n->obusy = xcalloc((size_t)NE * V, sizeof *n->obusy, &ok);
    n->va_ptr = xcalloc(NE, sizeof *n->va_ptr, &ok);
    n->rflits = xcalloc(R, sizeof *n->rflits, &ok);
    n->pmask = xcalloc(P, sizeof *n->pmask, &ok);
    n->in_local = xcalloc(P, sizeof *n->in_local, &ok);
    n->chan_flits = xcalloc(NE, sizeof *n->chan_flits, &ok);
    n->rmask = xcalloc(R, sizeof *n->rmask, &ok);
    n->rrot = xcalloc(R, sizeof *n->rrot, &ok);
    n->active = xcalloc(R, sizeof *n->active, &ok);
    n->active_pos = xcalloc(R, sizeof *n->active_pos, &ok);
    n->sa_in_ptr = xcalloc(P, sizeof *n->sa_in_ptr, &ok);
    n->sa_out_ptr = xcalloc(P, sizeof *n->sa_out_ptr, &ok);
    n->acc_ptr = xcalloc(P, sizeof *n->acc_ptr, &ok);
    n->rrng = xcalloc(R, sizeof *n->rrng, &ok);
    uint32_t mr = t->max_radix ? t->max_radix : 1;
    n->s_req_vc = xcalloc(mr, sizeof *n->s_req_vc, &ok);
    n->s_out_mask = xcalloc(mr, sizeof *n->s_out_mask, &ok);
    n->s_grant = xcalloc(mr, sizeof *n->s_grant, &ok);
    n->s_elig = xcalloc(mr, sizeof *n->s_elig, &ok);
    if (n->allocator == MPP_ALLOC_AGE) {
        n->s_age_iv = xcalloc((size_t)mr * n->V, sizeof *n->s_age_iv, &ok);
        n->s_age_key = xcalloc((size_t)mr * n->V, sizeof *n->s_age_key, &ok);
    }
    n->lpkt = xcalloc(n->L, sizeof *n->lpkt, &ok);
    n->lsent = xcalloc(n->L, sizeof *n->lsent, &ok);
    n->lvc = xcalloc(n->L, sizeof *n->lvc, &ok);
    n->lq = xcalloc(n->L, sizeof *n->lq, &ok);
    n->lnext = xcalloc(n->L, sizeof *n->lnext, &ok);

    /* Every live packet has a flit in a buffer or on a channel, or is the
     * packet a node link is starting: this bounds the pool exactly. */
    uint64_t cap = (uint64_t)P * V * B + (uint64_t)NE * (n->link_lat + n->delay) + n->L + 1 +
                   (uint64_t)t->links * n->message_classes * fifo_flits;
    if (cap >= (1u << 30))
        return mpp_err_set(err, MPP_EINVAL, "network too large for 30-bit packet handles");
    n->pool_cap = (uint32_t)cap;
    n->pkt = xcalloc(cap, sizeof *n->pkt, &ok);

    uint32_t far = n->link_lat + n->delay;
    n->W = pow2_above(far > n->credit_lat ? far : n->credit_lat);
    n->fcap = NE;
    n->ccap = NE;
    n->fw = xcalloc((size_t)n->W * n->fcap, sizeof *n->fw, &ok);
    n->fn = xcalloc(n->W, sizeof *n->fn, &ok);
    n->cw = xcalloc((size_t)n->W * n->ccap, sizeof *n->cw, &ok);
    n->cn = xcalloc(n->W, sizeof *n->cn, &ok);
    if (!ok) {
        mpp_net_free(n);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building the network");
    }

    for (uint32_t e = 0; e < NE; e++)
        n->dst[e] = n->src[e] = MPP_NONE;
    for (uint32_t g = 0; g < P; g++)
        n->in_local[g] = (uint8_t)(g - t->port_base[t->port_router[g]]);
    for (uint32_t g = 0; g < P; g++) {
        uint32_t peer = t->port_peer[g];
        if (peer == MPP_TOPO_NONE)
            continue;
        uint32_t in = (peer & MPP_TOPO_NODE) ? P + (peer & ~MPP_TOPO_NODE) : peer;
        n->dst[g] = in;
        n->src[in] = g;
        if (peer & MPP_TOPO_NODE) {
            /* the node swallows a flit per cycle: no per-VC credits (nic:
             * ideal), or the receive-FIFO credits of its class (nic: model) */
            n->sink[g] = 1;
            n->sink_node[g] = t->link_node[peer & ~MPP_TOPO_NODE];
            n->dst[P + (peer & ~MPP_TOPO_NODE)] = g;
            n->src[g] = P + (peer & ~MPP_TOPO_NODE);
        }
    }
    for (size_t i = 0; i < (size_t)NE * V; i++)
        n->credits[i] = B;
    if (n->nic_model)
        for (size_t i = 0; i < (size_t)t->links * n->message_classes; i++)
            n->ej_credits[i] = fifo_flits;
    for (size_t i = 0; i < (size_t)P * V; i++)
        n->iout[i] = n->iovc[i] = MPP_NONE;
    for (uint32_t r = 0; r < R; r++) {
        n->active_pos[r] = MPP_NONE;
        mpp_rng_init(&n->rrng[r], seed, MPP_RNG_ROUTER, r);
    }
    for (uint32_t l = 0; l < n->L; l++)
        n->lpkt[l] = MPP_NONE;
    for (uint32_t i = 0; i + 1 < n->pool_cap; i++)
        n->pkt[i].next_free = i + 1;
    n->pkt[n->pool_cap - 1].next_free = MPP_NONE;
    n->free_head = 0;
    set_cursors(n);
    return 0;
}

void mpp_net_free(mpp_net *n)
{
    if (n->routing && n->routing->destroy && n->routing_priv)
        n->routing->destroy(n->routing_priv);
    void *ptrs[] = {n->dst, n->src, n->sink, n->buf, n->ihead, n->icount, n->iout,
                    n->iovc, n->ilo, n->ihi, n->credits, n->obusy, n->va_ptr, n->rflits,
                    n->active, n->active_pos, n->sa_in_ptr, n->sa_out_ptr, n->acc_ptr, n->rrng,
                    n->s_req_vc, n->s_out_mask, n->s_grant, n->s_elig, n->s_age_iv, n->s_age_key, n->pmask, n->in_local, n->rmask, n->rrot, n->lpkt,
                    n->lsent, n->lvc, n->lq, n->lnext, n->sink_node, n->ej_credits, n->pkt, n->fw, n->fn, n->cw, n->cn, n->chan_flits,
                    n->ej_busy};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
        free(ptrs[i]);
    memset(n, 0, sizeof *n);
}

int mpp_net_one_port(mpp_net *n, mpp_err *err)
{
    n->ej_busy = calloc(n->topo->nodes ? n->topo->nodes : 1, sizeof *n->ej_busy);
    if (!n->ej_busy)
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building the network");
    n->ej_one = true;
    return 0;
}

/* --- small helpers --------------------------------------------------------- */

static inline void activate(mpp_net *n, uint32_t r)
{
    if (n->active_pos[r] == MPP_NONE) {
        n->active_pos[r] = n->nactive;
        n->active[n->nactive++] = r;
    }
}

/* Send a flit on output endpoint out. A flit bound for a router lands in its
 * input buffer router_delay cycles after it crossed the link: the router
 * pipeline is folded into the channel, so every buffered flit is ready to
 * leave and routers do no work for flits still in their pipeline. Credit
 * timing is unchanged (the sender counted the slot when it sent). */
static inline void send_flit(mpp_net *n, uint32_t out, uint32_t vc, uint32_t flit)
{
    uint32_t in = n->dst[out];
    mpp_flit_ev *ev = in < n->P ? &n->ev_router[(*n->ev_router_n)++]
                                : &n->ev_node[(*n->ev_node_n)++];
    ev->in = in;
    ev->flit = flit;
    ev->vc = vc;
    n->flit_hops++;
    n->last_progress = n->cycle;
    if (n->count_channels)
        n->chan_flits[out]++;
}

static inline void send_credit(mpp_net *n, uint32_t out, uint32_t vc)
{
    mpp_credit_ev *ev = &n->ev_credit[(*n->ev_credit_n)++];
    ev->out = out;
    ev->vc = vc;
}

/* Point the send cursors at the wheel slots that the sends of this cycle
 * write: flits to routers land after link_lat + delay, flits to nodes after
 * link_lat, credits after credit_lat. */
static void set_cursors(mpp_net *n)
{
    uint32_t m = n->W - 1;
    uint32_t sr = (uint32_t)((n->cycle + n->link_lat + n->delay) & m);
    uint32_t sn = (uint32_t)((n->cycle + n->link_lat) & m);
    uint32_t sc = (uint32_t)((n->cycle + n->credit_lat) & m);
    n->ev_router = &n->fw[(size_t)sr * n->fcap];
    n->ev_router_n = &n->fn[sr];
    n->ev_node = &n->fw[(size_t)sn * n->fcap];
    n->ev_node_n = &n->fn[sn];
    n->ev_credit = &n->cw[(size_t)sc * n->ccap];
    n->ev_credit_n = &n->cn[sc];
}

/* --- phase 1: deliveries --------------------------------------------------- */

void mpp_net_deliver(mpp_net *n)
{
    uint32_t slot = (uint32_t)(n->cycle & (n->W - 1));
    uint32_t V = n->V, B = n->B;
    mpp_credit_ev *cev = &n->cw[(size_t)slot * n->ccap];
    for (uint32_t i = 0, k = n->cn[slot]; i < k; i++)
        n->credits[(size_t)cev[i].out * V + cev[i].vc]++;
    n->cn[slot] = 0;

    mpp_flit_ev *fev = &n->fw[(size_t)slot * n->fcap];
    for (uint32_t i = 0, k = n->fn[slot]; i < k; i++) {
        uint32_t in = fev[i].in;
        if (in < n->P) {
            uint32_t vc = fev[i].vc;
            size_t iv = (size_t)in * V + vc;
            uint32_t pos = n->ihead[iv] + n->icount[iv];
            if (pos >= B)
                pos -= B;
            n->buf[iv * B + pos] = fev[i].flit;
            uint32_t c = ++n->icount[iv];
            if (c > n->peak_vc)
                n->peak_vc = c;
            uint32_t r = n->topo->port_router[in];
            n->pmask[in] |= 1ULL << vc;
            n->rmask[r] |= 1ULL << n->in_local[in];
            n->rflits[r]++;
            activate(n, r);
        } else {
            n->flits_ejected++;
            n->on_eject(n->eject_ud, n->topo->link_node[in - n->P], fev[i].flit, n->cycle);
        }
    }
    n->fn[slot] = 0;
    set_cursors(n);
}

/* --- phase 2: routers ------------------------------------------------------ */

/* Route computation (once per packet per router) and VC allocation for input
 * VC iv of router r at local input port ip. Returns true when the VC holds
 * an output VC afterwards. */
static bool route_and_allocate(mpp_net *n, uint32_t r, uint32_t ip, size_t iv, uint32_t flit)
{
    uint32_t V = n->V;
    mpp_packet *p = &n->pkt[flit >> 2];
    if (n->iout[iv] == MPP_NONE) {
        mpp_route_out ro;
        n->routing->route(n->topo, n->routing_cfg, n->routing_priv, r, ip, &p->route,
                          &n->rrng[r], &ro);
        uint32_t g = n->topo->port_base[r] + ro.port;
        if (__builtin_expect(n->pair != NULL, 0)) {
            /* all-port: eject on the link paired with the arrival port
             * (a packet from the local node keeps link 0) */
            uint32_t l = n->pair[n->topo->port_base[r] + ip];
            if (n->sink[g] && l != MPP_TOPO_NONE)
                g = n->topo->link_port[l];
        }
        n->iout[iv] = g;
        uint32_t cls = (uint32_t)p->mclass * n->route_classes + ro.route_class;
        n->ilo[iv] = (uint16_t)(cls * n->vcs_per_class);
        n->ihi[iv] = (uint16_t)(n->ilo[iv] + n->vcs_per_class);
        p->route.route_class = (uint8_t)ro.route_class;
    }
    uint32_t out = n->iout[iv];
    uint32_t lo = n->ilo[iv], hi = n->ihi[iv], span = hi - lo;
    uint32_t start = n->va_ptr[out];
    bool ct = n->flow == MPP_FLOW_CUT_THROUGH && !n->sink[out];
    bool one = n->ej_one && n->sink[out];
    if (one) {
        /* one-port ejection: one packet of the node at a time, and (nic:
         * model) only one its FIFO share can take, so that the packet
         * holding the node's ejection never waits for the FIFO */
        if (n->ej_busy[n->sink_node[out]])
            return false;
        if (n->nic_model && n->ej_credits[(size_t)(n->dst[out] - n->P) * n->message_classes +
                                          p->mclass] < p->flits)
            return false;
    }
    if (start >= span)
        start = 0;
    for (uint32_t k = 0, j = start; k < span; k++) {
        uint32_t v = lo + j;
        if (++j == span)
            j = 0;
        size_t ov = (size_t)out * V + v;
        if (n->obusy[ov])
            continue;
        if (ct && n->credits[ov] < p->flits)
            continue;
        n->obusy[ov] = 1;
        n->iovc[iv] = v;
        n->va_ptr[out] = j;
        if (one)
            n->ej_busy[n->sink_node[out]] = 1;
        return true;
    }
    return false;
}

/* Move the front flit of input VC v of global input port g (router r) to
 * its allocated output VC. */
static inline void traverse(mpp_net *n, uint32_t r, uint32_t g, uint32_t v)
{
    uint32_t V = n->V, B = n->B;
    size_t iv = (size_t)g * V + v;
    uint32_t h = n->ihead[iv];
    uint32_t flit = n->buf[iv * B + h];
    n->ihead[iv] = (uint16_t)(h + 1 == B ? 0 : h + 1);
    if (--n->icount[iv] == 0) {
        n->pmask[g] &= ~(1ULL << v);
        if (!n->pmask[g])
            n->rmask[r] &= ~(1ULL << n->in_local[g]);
    }
    n->rflits[r]--;
    send_credit(n, n->src[g], v);
    uint32_t out = n->iout[iv], ovc = n->iovc[iv];
    size_t ov = (size_t)out * V + ovc;
    if (!n->sink[out])
        n->credits[ov]--;
    else if (n->nic_model && (flit & MPP_FLIT_HEAD)) {
        mpp_packet *p = &n->pkt[flit >> 2];
        p->eject_link = n->dst[out] - n->P;
        n->ej_credits[(size_t)p->eject_link * n->message_classes + p->mclass] -= p->flits;
    }
    if ((flit & MPP_FLIT_HEAD) && n->dst[out] < n->P)
        n->pkt[flit >> 2].hops++;
    send_flit(n, out, ovc, flit);
    if (flit & MPP_FLIT_TAIL) {
        n->obusy[ov] = 0;
        n->iout[iv] = MPP_NONE;
        n->iovc[iv] = MPP_NONE;
        if (n->ej_one && n->sink[out])
            n->ej_busy[n->sink_node[out]] = 0;
    }
}

/* Input VC iv can send its front flit this cycle (allocated, credit). */
static inline bool eligible(mpp_net *n, uint32_t r, uint32_t ip, size_t iv)
{
    if (!n->icount[iv])
        return false;
    if (n->iovc[iv] == MPP_NONE) {
        uint32_t flit = n->buf[iv * n->B + n->ihead[iv]];
        if (!route_and_allocate(n, r, ip, iv, flit))
            return false;
    }
    uint32_t out = n->iout[iv];
    if (n->sink[out]) {
        if (!n->nic_model)
            return true;
        /* a packet enters the receive FIFO only when the FIFO has room for
         * all of it (reserved by its head): partial packets of several
         * links or VCs can then never fill the FIFO between them */
        uint32_t flit = n->buf[iv * n->B + n->ihead[iv]];
        if (!(flit & MPP_FLIT_HEAD))
            return true;
        const mpp_packet *p = &n->pkt[flit >> 2];
        return n->ej_credits[(size_t)(n->dst[out] - n->P) * n->message_classes + p->mclass] >=
               p->flits;
    }
    return n->credits[(size_t)out * n->V + n->iovc[iv]] > 0;
}

static inline uint32_t rr_pick(uint64_t mask, uint32_t start, uint32_t width)
{
    /* first set bit at or after start, wrapping */
    uint64_t hi = start < 64 ? mask & (~0ULL << start) : 0;
    if (hi)
        return (uint32_t)__builtin_ctzll(hi);
    (void)width;
    return (uint32_t)__builtin_ctzll(mask);
}

/* Eligible VCs of every non-empty input port of router r, visiting the
 * ports from a rotating start (the visiting order decides VC-allocation
 * conflicts between inputs, so no input has a fixed priority). Fills
 * s_elig[i] and returns the mask of inputs with an eligible VC. */
static uint64_t collect(mpp_net *n, uint32_t r, uint32_t base, uint32_t np)
{
    uint32_t V = n->V;
    uint64_t pm = n->rmask[r], any = 0;
    uint32_t rot = n->rrot[r];
    n->rrot[r] = (uint8_t)(rot + 1 >= np ? 0 : rot + 1);
    uint64_t order[2] = {pm & (~0ULL << rot), pm & ((1ULL << rot) - 1)};
    for (int h = 0; h < 2; h++)
        for (uint64_t m = order[h]; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(m), g = base + i;
            uint64_t e = 0;
            for (uint64_t vm = n->pmask[g]; vm; vm &= vm - 1) {
                uint32_t v = (uint32_t)__builtin_ctzll(vm);
                if (eligible(n, r, i, (size_t)g * V + v))
                    e |= 1ULL << v;
            }
            n->s_elig[i] = e;
            if (e)
                any |= 1ULL << i;
        }
    return any;
}

/* The injection cycle of the packet at the front of input VC iv. */
static inline uint64_t front_age(const mpp_net *n, size_t iv)
{
    return n->pkt[n->buf[iv * n->B + n->ihead[iv]] >> 2].injected;
}

/* collect() for the age allocator: the waiting input VCs of router r are
 * routed and allocated output VCs oldest packet first (ties: the rotating
 * input order, then the VC number), so a VC that frees goes to the packet
 * that has waited longest, whatever input it is on. */
static uint64_t collect_age(mpp_net *n, uint32_t r, uint32_t base, uint32_t np)
{
    uint32_t V = n->V, k = 0;
    uint32_t *ivs = n->s_age_iv;
    uint64_t *key = n->s_age_key;
    uint64_t pm = n->rmask[r], any = 0;
    uint32_t rot = n->rrot[r];
    n->rrot[r] = (uint8_t)(rot + 1 >= np ? 0 : rot + 1);
    uint64_t order[2] = {pm & (~0ULL << rot), pm & ((1ULL << rot) - 1)};
    for (int h = 0; h < 2; h++)
        for (uint64_t m = order[h]; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(m), g = base + i;
            n->s_elig[i] = 0;
            for (uint64_t vm = n->pmask[g]; vm; vm &= vm - 1) {
                uint32_t v = (uint32_t)__builtin_ctzll(vm);
                uint64_t a = front_age(n, (size_t)g * V + v);
                uint32_t j = k++; /* insertion sort, stable */
                while (j > 0 && key[j - 1] > a) {
                    key[j] = key[j - 1];
                    ivs[j] = ivs[j - 1];
                    j--;
                }
                key[j] = a;
                ivs[j] = i * V + v;
            }
        }
    for (uint32_t q = 0; q < k; q++) {
        uint32_t i = ivs[q] / V, v = ivs[q] % V;
        if (eligible(n, r, i, (size_t)(base + i) * V + v)) {
            n->s_elig[i] |= 1ULL << v;
            any |= 1ULL << i;
        }
    }
    return any;
}

/* Separable allocation, oldest packet first: each input offers its oldest
 * eligible VC, each output takes the oldest offer (ties round-robin). */
static void router_age(mpp_net *n, uint32_t r)
{
    const mpp_topo *t = n->topo;
    uint32_t base = t->port_base[r], np = t->port_base[r + 1] - base, V = n->V;
    uint64_t *omask = n->s_out_mask, *age = n->s_grant;
    uint32_t *reqv = n->s_req_vc;
    uint64_t ins = collect_age(n, r, base, np), outs = 0;
    for (uint64_t m = ins; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m), g = base + i;
        uint32_t v = rr_pick(n->s_elig[i], n->sa_in_ptr[g], V);
        uint64_t best = front_age(n, (size_t)g * V + v);
        for (uint64_t e = n->s_elig[i]; e; e &= e - 1) {
            uint32_t w = (uint32_t)__builtin_ctzll(e);
            uint64_t a = front_age(n, (size_t)g * V + w);
            if (a < best) {
                best = a;
                v = w;
            }
        }
        reqv[i] = v;
        age[i] = best;
        uint32_t o = n->iout[(size_t)g * V + v] - base;
        if (!(outs & (1ULL << o)))
            omask[o] = 0;
        outs |= 1ULL << o;
        omask[o] |= 1ULL << i;
    }
    for (uint64_t m = outs; m; m &= m - 1) {
        uint32_t o = (uint32_t)__builtin_ctzll(m), g = base + o;
        uint32_t i = rr_pick(omask[o], n->sa_out_ptr[g], np);
        for (uint64_t c = omask[o]; c; c &= c - 1) {
            uint32_t j = (uint32_t)__builtin_ctzll(c);
            if (age[j] < age[i])
                i = j;
        }
        n->sa_out_ptr[g] = i + 1 >= np ? 0 : i + 1;
        uint32_t gi = base + i;
        n->sa_in_ptr[gi] = reqv[i] + 1 >= V ? 0 : reqv[i] + 1;
        traverse(n, r, gi, reqv[i]);
    }
}

static void router_separable(mpp_net *n, uint32_t r)
{
    const mpp_topo *t = n->topo;
    uint32_t base = t->port_base[r], np = t->port_base[r + 1] - base, V = n->V;
    uint64_t *omask = n->s_out_mask;
    uint32_t *reqv = n->s_req_vc;
    uint64_t ins = collect(n, r, base, np), outs = 0;
    /* input stage: each input picks one eligible VC round-robin */
    for (uint64_t m = ins; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m), g = base + i;
        uint32_t v = rr_pick(n->s_elig[i], n->sa_in_ptr[g], V);
        reqv[i] = v;
        uint32_t o = n->iout[(size_t)g * V + v] - base;
        if (!(outs & (1ULL << o)))
            omask[o] = 0;
        outs |= 1ULL << o;
        omask[o] |= 1ULL << i;
    }
    /* output stage: each output grants one requesting input round-robin */
    for (uint64_t m = outs; m; m &= m - 1) {
        uint32_t o = (uint32_t)__builtin_ctzll(m), g = base + o;
        uint32_t i = rr_pick(omask[o], n->sa_out_ptr[g], np);
        n->sa_out_ptr[g] = i + 1 >= np ? 0 : i + 1;
        uint32_t gi = base + i;
        n->sa_in_ptr[gi] = reqv[i] + 1 >= V ? 0 : reqv[i] + 1;
        traverse(n, r, gi, reqv[i]);
    }
}

static void router_islip(mpp_net *n, uint32_t r)
{
    const mpp_topo *t = n->topo;
    uint32_t base = t->port_base[r], np = t->port_base[r + 1] - base, V = n->V;
    uint64_t *omask = n->s_out_mask, *grant = n->s_grant;
    uint64_t ins = collect(n, r, base, np), outs = 0;
    /* request: each input asks every output one of its eligible VCs wants */
    for (uint64_t m = ins; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m), g = base + i;
        grant[i] = 0;
        for (uint64_t vm = n->s_elig[i]; vm; vm &= vm - 1) {
            uint32_t v = (uint32_t)__builtin_ctzll(vm);
            uint32_t o = n->iout[(size_t)g * V + v] - base;
            if (!(outs & (1ULL << o)))
                omask[o] = 0;
            outs |= 1ULL << o;
            omask[o] |= 1ULL << i;
        }
    }
    /* grant: each output picks one requesting input from its pointer */
    for (uint64_t m = outs; m; m &= m - 1) {
        uint32_t o = (uint32_t)__builtin_ctzll(m);
        uint32_t i = rr_pick(omask[o], n->sa_out_ptr[base + o], np);
        grant[i] |= 1ULL << o;
    }
    /* accept: each input picks one granting output from its pointer; the
     * pointers move only on acceptance (iSLIP). The VC sent is the next
     * eligible VC of that input bound for that output, round-robin. */
    for (uint64_t m = ins; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        if (!grant[i])
            continue;
        uint32_t g = base + i;
        uint32_t o = rr_pick(grant[i], n->acc_ptr[g], np);
        n->acc_ptr[g] = o + 1 >= np ? 0 : o + 1;
        n->sa_out_ptr[base + o] = i + 1 >= np ? 0 : i + 1;
        uint64_t vm = 0;
        for (uint64_t e = n->s_elig[i]; e; e &= e - 1) {
            uint32_t v = (uint32_t)__builtin_ctzll(e);
            if (n->iout[(size_t)g * V + v] == base + o)
                vm |= 1ULL << v;
        }
        uint32_t v = rr_pick(vm, n->sa_in_ptr[g], V);
        n->sa_in_ptr[g] = v + 1 >= V ? 0 : v + 1;
        traverse(n, r, g, v);
    }
}

void mpp_net_routers(mpp_net *n)
{
    if (n->shuffle)
        mpp_rng_shuffle(&n->shuffle_rng, n->active, n->nactive);
    /* Routers that empty leave the list after the pass; the list is only
     * appended to by mpp_net_deliver, never during this pass. */
    uint32_t na = n->nactive;
    for (uint32_t k = 0; k < na; k++) {
        uint32_t r = n->active[k];
        if (n->allocator == MPP_ALLOC_ISLIP)
            router_islip(n, r);
        else if (n->allocator == MPP_ALLOC_AGE)
            router_age(n, r);
        else
            router_separable(n, r);
    }
    uint32_t w = 0;
    for (uint32_t k = 0; k < na; k++) {
        uint32_t r = n->active[k];
        if (n->rflits[r]) {
            n->active_pos[r] = w;
            n->active[w++] = r;
        } else {
            n->active_pos[r] = MPP_NONE;
        }
    }
    n->nactive = w;
}

/* --- node injection -------------------------------------------------------- */

/* The pool is sized (mpp_net_init) for every packet in the network; with
 * nic: ideal a node program may leave delivered packets unread in its
 * receive rings beyond that, so the pool doubles when it runs out (rare,
 * amortised: never per flit). False when out of memory or at the 30-bit
 * handle limit (n->oom). */
static bool grow_pool(mpp_net *n)
{
    uint64_t cap = (uint64_t)n->pool_cap * 2;
    if (cap > (1u << 30))
        cap = 1u << 30;
    mpp_packet *np = cap > n->pool_cap ? realloc(n->pkt, cap * sizeof *np) : NULL;
    if (!np) {
        n->oom = true;
        return false;
    }
    memset(np + n->pool_cap, 0, (cap - n->pool_cap) * sizeof *np);
    for (uint64_t i = n->pool_cap; i + 1 < cap; i++)
        np[i].next_free = (uint32_t)i + 1;
    np[cap - 1].next_free = MPP_NONE;
    n->free_head = n->pool_cap;
    n->pkt = np;
    n->pool_cap = (uint32_t)cap;
    return true;
}

bool mpp_net_inject(mpp_net *n, uint32_t l, mpp_srcq *qs, uint32_t nq, mpp_rng *rng)
{
    uint32_t out = n->P + l, V = n->V;
    mpp_srcq *q = NULL;
    if (n->lpkt[l] == MPP_NONE) {
        bool waiting = false;
        for (uint32_t k = 0; k < nq; k++) {
            uint32_t j = (n->lq[l] + k) % nq;
            if (!qs[j].count)
                continue;
            waiting = true;
            if (mpp_srcq_front(&qs[j])->created < n->cycle) {
                q = &qs[j];
                n->lq[l] = (j + 1) % nq;
                break;
            }
        }
        if (!q)
            return waiting; /* nothing, or only packets injectable later */
        mpp_src_entry *e = mpp_srcq_front(q);
        uint32_t per_m = n->route_classes * n->vcs_per_class;
        uint32_t lo = e->mclass * per_m, span = per_m;
        bool ct = n->flow == MPP_FLOW_CUT_THROUGH;
        uint32_t start = n->va_ptr[out], v = MPP_NONE;
        for (uint32_t k = 0; k < span; k++) {
            uint32_t c = lo + (start + k) % span;
            size_t ov = (size_t)out * V + c;
            if (n->obusy[ov] || (ct && n->credits[ov] < e->flits))
                continue;
            v = c;
            n->va_ptr[out] = (start + k + 1) % span;
            break;
        }
        if (v == MPP_NONE)
            return true;
        if (n->free_head == MPP_NONE && !grow_pool(n))
            return true; /* out of memory: n->oom stops the run */
        uint32_t h = n->free_head;
        n->free_head = n->pkt[h].next_free;
        n->pool_used++;
        mpp_packet *p = &n->pkt[h];
        uint32_t node = n->topo->link_node[l];
        p->src = node;
        p->dst = e->dst;
        p->flits = e->flits;
        p->hops = 0;
        p->created = e->created;
        p->injected = MPP_NONE;
        p->tag = e->tag;
        p->mclass = e->mclass;
        p->measured = e->measured;
        p->pace = e->pace;
        memset(&p->route, 0, sizeof p->route);
        p->route.src = node;
        p->route.dst = e->dst;
        p->route.nphases = 1;
        p->route.target[0] = e->dst;
        if (n->routing->init_packet)
            n->routing->init_packet(n->topo, n->routing_cfg, n->routing_priv, &p->route, rng);
        mpp_srcq_pop(q);
        n->lpkt[l] = h;
        n->lsent[l] = 0;
        n->lvc[l] = v;
        n->obusy[(size_t)out * V + v] = 1;
    }
    uint32_t h = n->lpkt[l], v = n->lvc[l];
    size_t ov = (size_t)out * V + v;
    if (!n->credits[ov])
        return true;
    mpp_packet *p = &n->pkt[h];
    uint32_t s = n->lsent[l];
    /* a paced packet: a flit no earlier than pace after the one before; a
     * flit held up (no credit) delays the ones after it, it does not make
     * up for the wait later (the feeder stalls with the network) */
    uint64_t now = n->cycle << 8;
    if (p->pace) {
        if (s && now < n->lnext[l])
            return true;
        n->lnext[l] = (s && now < n->lnext[l] + 256 ? n->lnext[l] : now) + p->pace;
    }
    n->lsent[l]++;
    uint32_t flit = h << 2;
    if (s == 0) {
        flit |= MPP_FLIT_HEAD;
        p->injected = n->cycle;
    }
    if (s + 1 == p->flits)
        flit |= MPP_FLIT_TAIL;
    n->credits[ov]--;
    n->flits_injected++;
    send_flit(n, out, v, flit);
    if (flit & MPP_FLIT_TAIL) {
        n->obusy[ov] = 0;
        n->lpkt[l] = MPP_NONE;
        for (uint32_t k = 0; k < nq; k++)
            if (qs[k].count)
                return true;
        return false;
    }
    return true;
}

void mpp_net_fifo_release(mpp_net *n, uint32_t h)
{
    const mpp_packet *p = &n->pkt[h];
    n->ej_credits[(size_t)p->eject_link * n->message_classes + p->mclass] += p->flits;
}

void mpp_net_pkt_free(mpp_net *n, uint32_t h)
{
    n->pkt[h].next_free = n->free_head;
    n->free_head = h;
    n->pool_used--;
}

/* --- accounting, checks, reports ------------------------------------------ */

bool mpp_net_idle(const mpp_net *n)
{
    if (n->nactive || mpp_net_flits_in_flight(n) || !mpp_net_settled(n))
        return false;
    for (uint32_t l = 0; l < n->L; l++)
        if (n->lpkt[l] != MPP_NONE)
            return false;
    return true;
}

void mpp_net_routers_blocked(mpp_net *n, uint64_t k)
{
    for (uint32_t a = 0; a < n->nactive; a++) {
        uint32_t r = n->active[a];
        uint32_t np = n->topo->port_base[r + 1] - n->topo->port_base[r];
        n->rrot[r] = (uint8_t)((n->rrot[r] + k % np) % np);
    }
}

void mpp_net_inject_blocked(mpp_net *n, uint32_t l, const mpp_srcq *qs, uint32_t nq, uint64_t k)
{
    if (n->lpkt[l] != MPP_NONE || k == 0)
        return; /* a packet in progress waits for credits: nothing moves */
    /* each call picks the first non-empty queue from lq on and sets lq past
     * it: k calls walk k steps along the non-empty queues */
    uint32_t ne = 0, at = 0;
    for (uint32_t j = 0; j < nq; j++)
        ne += qs[j].count != 0;
    if (!ne)
        return;
    /* the rank (among the non-empty queues, in index order) of the first pick */
    uint32_t first = n->lq[l] % nq;
    while (!qs[first].count)
        first = (first + 1) % nq;
    for (uint32_t j = 0; j < first; j++)
        at += qs[j].count != 0;
    uint32_t rank = (uint32_t)((at + (k - 1) % ne) % ne);
    for (uint32_t j = 0; j < nq; j++)
        if (qs[j].count && rank-- == 0) {
            n->lq[l] = (j + 1) % nq;
            return;
        }
}

bool mpp_net_settled(const mpp_net *n)
{
    for (uint32_t s = 0; s < n->W; s++)
        if (n->cn[s] || n->fn[s])
            return false;
    return true;
}

uint64_t mpp_net_flits_in_flight(const mpp_net *n)
{
    return n->flits_injected - n->flits_ejected;
}

bool mpp_net_check(const mpp_net *n)
{
    uint32_t V = n->V, B = n->B;
    size_t nov = (size_t)n->NE * V;
    int64_t *acc = calloc(nov, sizeof *acc);
    if (!acc)
        return false;
    bool ok = true;
    /* credits held + credits in flight */
    for (size_t i = 0; i < nov; i++)
        acc[i] = n->credits[i];
    for (uint32_t s = 0; s < n->W; s++)
        for (uint32_t k = 0; k < n->cn[s]; k++) {
            const mpp_credit_ev *e = &n->cw[(size_t)s * n->ccap + k];
            acc[(size_t)e->out * V + e->vc]++;
        }
    /* flits in flight toward an input VC count against its feeder */
    uint64_t inflight = 0, buffered = 0;
    for (uint32_t s = 0; s < n->W; s++)
        for (uint32_t k = 0; k < n->fn[s]; k++) {
            const mpp_flit_ev *e = &n->fw[(size_t)s * n->fcap + k];
            inflight++;
            uint32_t o = n->src[e->in];
            if (e->in < n->P)
                acc[(size_t)o * V + e->vc]++;
        }
    for (uint32_t g = 0; g < n->P; g++)
        for (uint32_t v = 0; v < V; v++) {
            size_t iv = (size_t)g * V + v;
            buffered += n->icount[iv];
            if (n->icount[iv] > B)
                ok = false;
            if (n->src[g] != MPP_NONE)
                acc[(size_t)n->src[g] * V + v] += n->icount[iv];
        }
    for (uint32_t o = 0; o < n->NE; o++) {
        if (n->dst[o] == MPP_NONE || n->sink[o])
            continue;
        for (uint32_t v = 0; v < V; v++)
            if (acc[(size_t)o * V + v] != (int64_t)B)
                ok = false;
    }
    free(acc);
    /* ownership: each busy output VC has exactly one holder */
    uint32_t *hold = calloc(nov, sizeof *hold);
    if (!hold)
        return false;
    for (size_t iv = 0; iv < (size_t)n->P * V; iv++)
        if (n->iovc[iv] != MPP_NONE)
            hold[(size_t)n->iout[iv] * V + n->iovc[iv]]++;
    for (uint32_t l = 0; l < n->L; l++)
        if (n->lpkt[l] != MPP_NONE)
            hold[(size_t)(n->P + l) * V + n->lvc[l]]++;
    for (size_t i = 0; i < nov; i++)
        if (hold[i] != (n->obusy[i] ? 1u : 0u))
            ok = false;
    free(hold);
    if (n->ej_one) {
        /* one-port: a node's busy ejection VCs number ej_busy (0 or 1) */
        uint32_t *ej = calloc(n->topo->nodes ? n->topo->nodes : 1, sizeof *ej);
        if (!ej)
            return false;
        for (uint32_t o = 0; o < n->P; o++)
            if (n->sink[o])
                for (uint32_t v = 0; v < V; v++)
                    ej[n->sink_node[o]] += n->obusy[(size_t)o * V + v];
        for (uint32_t v = 0; v < n->topo->nodes; v++)
            if (ej[v] != n->ej_busy[v] || ej[v] > 1)
                ok = false;
        free(ej);
    }
    if (n->flits_injected != n->flits_ejected + inflight + buffered)
        ok = false;
    for (uint32_t r = 0; r < n->topo->routers; r++)
        if ((n->rflits[r] > 0) != (n->active_pos[r] != MPP_NONE))
            ok = false;
    return ok;
}

static void port_label(const mpp_net *n, uint32_t g, char *buf, int len)
{
    const mpp_topo *t = n->topo;
    uint32_t r = t->port_router[g];
    char pn[24];
    mpp_topo_port_name(t, r, g - t->port_base[r], pn, (int)sizeof pn);
    snprintf(buf, (size_t)len, "router %u port %s", r, pn);
}

void mpp_net_report(const mpp_net *n, mpp_sb *sb, uint32_t max_lines)
{
    uint32_t V = n->V, B = n->B, lines = 0, held = 0;
    for (uint32_t g = 0; g < n->P; g++)
        for (uint32_t v = 0; v < V; v++) {
            size_t iv = (size_t)g * V + v;
            if (!n->icount[iv])
                continue;
            held++;
            if (lines >= max_lines)
                continue;
            lines++;
            char here[64], there[64];
            port_label(n, g, here, sizeof here);
            uint32_t flit = n->buf[iv * B + n->ihead[iv]];
            const mpp_packet *p = &n->pkt[flit >> 2];
            mpp_sb_printf(sb, "  %s in-VC %u holds %u flit%s; front: %s of packet %u->%u", here, v,
                          n->icount[iv], n->icount[iv] == 1 ? "" : "s",
                          (flit & MPP_FLIT_HEAD) ? "head" : "body/tail", p->src, p->dst);
            if (n->iout[iv] == MPP_NONE) {
                mpp_sb_add(sb, ", not yet routed\n");
            } else if (n->iovc[iv] == MPP_NONE) {
                port_label(n, n->iout[iv], there, sizeof there);
                mpp_sb_printf(sb, ", waits for a free VC %u..%u at %s (all held by other packets)\n",
                              n->ilo[iv], n->ihi[iv] - 1, there);
            } else {
                port_label(n, n->iout[iv], there, sizeof there);
                mpp_sb_printf(sb, ", waits for a credit on %s VC %u (downstream buffer full)\n",
                              there, n->iovc[iv]);
            }
        }
    if (held > lines)
        mpp_sb_printf(sb, "  ... and %u more VCs holding flits\n", held - lines);
    mpp_sb_printf(sb, "  %u VCs hold flits; %llu flits in the network\n", held,
                  (unsigned long long)mpp_net_flits_in_flight(n));
}

/* --- source queues --------------------------------------------------------- */

bool mpp_srcq_push(mpp_srcq *q, const mpp_src_entry *e)
{
    if (q->count == q->cap) {
        if (q->cap >= (1u << 31))
            return false; /* the capacity would wrap */
        uint32_t cap = q->cap ? q->cap * 2 : 16;
        mpp_src_entry *ne = malloc((size_t)cap * sizeof *ne);
        if (!ne)
            return false;
        for (uint32_t i = 0; i < q->count; i++)
            ne[i] = q->e[(q->head + i) & (q->cap - 1)];
        free(q->e);
        q->e = ne;
        q->head = 0;
        q->cap = cap;
    }
    q->e[(q->head + q->count) & (q->cap - 1)] = *e;
    q->count++;
    return true;
}

void mpp_srcq_free(mpp_srcq *q)
{
    free(q->e);
    memset(q, 0, sizeof *q);
}
