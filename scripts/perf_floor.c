/* scripts/perf_floor.c — a lean prototype for docs/performance.md ("Fifth
 * pass"), not part of mppnet: the vs-booksim workload (a) (8x8 mesh, XY,
 * 2 VCs x 8 flits, router delay 4 folded into the link, credit latency 1,
 * iSLIP-1, 5-flit packets, uniform traffic, geometric arrivals) simulated
 * by specialised code with nothing general: every constant compiled in,
 * every VC of an occupied router tested each cycle (no masks kept on
 * events), flits written straight into the downstream buffer with their
 * landing cycle (no timing wheel), credits applied at once with a "visible
 * from" stamp. It asks whether a simpler design is faster than the
 * engine's; it is not exact against mppnet (VA order and injection differ
 * in detail), its answers are only close.
 *
 *   cc -O3 -march=x86-64-v3 -I. -o perf_floor scripts/perf_floor.c -lm
 *   ./perf_floor 0.3      # rate; prints latency, accepted, ns per flit-hop */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/rng.h"

#define K 8
#define NR (K * K)
#define NP 5
#define NV 2
#define NB 8
#define LAND 5 /* link 1 + router delay 4 */
#define PF 5
#define NONE 0xffu

typedef struct {
    uint32_t buf[NB];
    uint32_t land[NB];
    uint8_t head, cnt, out, ovc;
} ivc_t;

typedef struct {
    uint8_t credits, busy;
    uint32_t cvis; /* the cycle from which the last returned credit counts */
} ovc_t;

typedef struct {
    ivc_t in[NP][NV];
    ovc_t ov[NP][NV];
    uint8_t sa_out[NP], acc[NP], sa_in[NP], va_ptr[NP];
    uint32_t nfl; /* flits in its buffers, landed or not */
} router_t;

typedef struct {
    uint32_t dst;
    uint32_t created, injected;
} pkt_t;

static router_t R[NR];
static mpp_rng rng;
static inline uint64_t rnext(void) { return mpp_rng_next(&rng); }
static inline double runif(void) { return (double)(rnext() >> 11) * 0x1.0p-53; }

static pkt_t *pk;
static uint32_t npk, cappk;
/* per node: queue of packet ids, link state */
typedef struct {
    uint32_t q[4096];
    uint32_t qh, qn;
    uint32_t next_at;
    uint32_t cur, sent, vc;
} node_t;
static node_t nd[NR];

static uint64_t flit_hops, lat_sum, lat_n, ej_flits;
static uint32_t wstart = 10000, wend = 40000;

static inline uint32_t route(uint32_t r, uint32_t d)
{
    uint32_t rx = r % K, ry = r / K, dx = d % K, dy = d / K;
    if (dx != rx)
        return dx > rx ? 0 : 1;
    if (dy != ry)
        return dy > ry ? 2 : 3;
    return 4;
}
static const int32_t step[4] = {1, -1, K, -K};
static const uint8_t opp[4] = {1, 0, 3, 2};

static uint32_t geo(double rate)
{
    double u = runif();
    return 1 + (uint32_t)floor(log(1.0 - u) / log(1.0 - rate));
}

int main(int argc, char **argv)
{
    double rate = argc > 1 ? atof(argv[1]) : 0.3;
    double prate = rate / PF;
    mpp_rng_init(&rng, 1, MPP_RNG_TRAFFIC, 0);
    cappk = 1 << 20;
    pk = malloc(cappk * sizeof *pk);
    for (uint32_t r = 0; r < NR; r++) {
        for (int p = 0; p < NP; p++)
            for (int v = 0; v < NV; v++) {
                R[r].in[p][v].out = NONE;
                R[r].in[p][v].ovc = NONE;
                R[r].ov[p][v].credits = NB;
            }
        nd[r].next_at = geo(prate);
        nd[r].cur = UINT32_MAX;
    }
    /* the node links' output VCs (credits of the router's local input) */
    static ovc_t lk[NR][NV];
    for (uint32_t r = 0; r < NR; r++)
        for (int v = 0; v < NV; v++)
            lk[r][v].credits = NB;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint32_t now;
    uint32_t T = wend;
    for (now = 0; now < T + 60; now++) {
        /* routers */
        for (uint32_t r = 0; r < NR; r++) {
            router_t *rt = &R[r];
            if (!rt->nfl)
                continue;
            uint8_t req[NP];   /* per input: output mask */
            uint8_t rvc[NP][NP]; /* per input, output: VC mask */
            uint8_t omask[NP];
            memset(omask, 0, sizeof omask);
            uint8_t ins = 0;
            uint32_t lm = 0;
            for (int p = 0; p < NP; p++) {
                req[p] = 0;
                for (int v = 0; v < NV; v++) {
                    ivc_t *c = &rt->in[p][v];
                    lm |= (uint32_t)((c->cnt != 0) & (c->land[c->head] <= now)) << (p * NV + v);
                }
            }
            for (; lm; lm &= lm - 1) {
                { /* the landed VCs, ascending */
                    int p = __builtin_ctz(lm) / NV, v = __builtin_ctz(lm) % NV;
                    ivc_t *c = &rt->in[p][v];
                    if (c->ovc == NONE) {
                        uint32_t f = c->buf[c->head];
                        if (c->out == NONE)
                            c->out = (uint8_t)route(r, pk[f >> 2].dst);
                        ovc_t *ov = rt->ov[c->out];
                        uint32_t s = rt->va_ptr[c->out];
                        for (int k = 0; k < NV; k++) {
                            uint32_t w = (s + k) % NV;
                            if (!ov[w].busy) {
                                ov[w].busy = 1;
                                c->ovc = (uint8_t)w;
                                rt->va_ptr[c->out] = (uint8_t)((w + 1) % NV);
                                break;
                            }
                        }
                        if (c->ovc == NONE)
                            continue;
                    }
                    ovc_t *o = &rt->ov[c->out][c->ovc];
                    if (c->out != 4 && o->credits - (o->cvis > now) <= 0)
                        continue;
                    if (!(req[p] & (1u << c->out)))
                        rvc[p][c->out] = 0;
                    req[p] |= (uint8_t)(1u << c->out);
                    rvc[p][c->out] |= (uint8_t)(1u << v);
                    omask[c->out] |= (uint8_t)(1u << p);
                    ins |= (uint8_t)(1u << p);
                }
            }
            if (!ins)
                continue;
            /* grant */
            uint8_t grant[NP] = {0};
            for (int o = 0; o < NP; o++) {
                if (!omask[o])
                    continue;
                uint32_t s = rt->sa_out[o];
                for (int k = 0; k < NP; k++) {
                    uint32_t i = (s + k) % NP;
                    if (omask[o] & (1u << i)) {
                        grant[i] |= (uint8_t)(1u << o);
                        break;
                    }
                }
            }
            /* accept and traverse */
            for (int i = 0; i < NP; i++) {
                if (!grant[i])
                    continue;
                uint32_t s = rt->acc[i], o = 0;
                for (int k = 0; k < NP; k++) {
                    o = (s + k) % NP;
                    if (grant[i] & (1u << o))
                        break;
                }
                rt->acc[i] = (uint8_t)((o + 1) % NP);
                rt->sa_out[o] = (uint8_t)((i + 1) % NP);
                uint32_t vm = rvc[i][o], v = rt->sa_in[i] % NV;
                if (!(vm & (1u << v)))
                    v ^= 1;
                rt->sa_in[i] = (uint8_t)((v + 1) % NV);
                ivc_t *c = &rt->in[i][v];
                uint32_t f = c->buf[c->head];
                c->head = (uint8_t)((c->head + 1) % NB);
                c->cnt--;
                rt->nfl--;
                /* credit upstream, visible next cycle */
                ovc_t *up = i == 4 ? &lk[r][v] : &R[r + step[i]].ov[opp[i]][v];
                up->credits++;
                up->cvis = now + 1;
                uint32_t ov = c->ovc;
                flit_hops++;
                if (o == 4) {
                    if (now + 1 >= wstart && now + 1 < wend)
                        ej_flits++;
                    if ((f & 1) && pk[f >> 2].created >= wstart && pk[f >> 2].created < wend) {
                        lat_sum += now + 1 - pk[f >> 2].created;
                        lat_n++;
                    }
                } else {
                    rt->ov[o][ov].credits--;
                    router_t *dn = &R[r + step[o]];
                    ivc_t *d = &dn->in[opp[o]][ov];
                    uint32_t pos = (d->head + d->cnt) % NB;
                    d->buf[pos] = f;
                    d->land[pos] = now + LAND;
                    d->cnt++;
                    dn->nfl++;
                }
                if (f & 1) {
                    rt->ov[o][ov].busy = 0;
                    c->out = NONE;
                    c->ovc = NONE;
                }
            }
        }
        /* nodes */
        for (uint32_t n = 0; n < NR; n++) {
            node_t *x = &nd[n];
            while (now < T && x->next_at <= now) {
                uint32_t d = (uint32_t)((rnext() >> 32) * NR >> 32);
                if (npk == cappk) {
                    fprintf(stderr, "pool\n");
                    return 1;
                }
                pk[npk] = (pkt_t){.dst = d, .created = now};
                x->q[(x->qh + x->qn++) % 4096] = npk++;
                x->next_at += geo(prate);
            }
            if (x->cur == UINT32_MAX) {
                if (!x->qn || pk[x->q[x->qh]].created >= now)
                    continue;
                int v = -1;
                for (int k = 0; k < NV; k++)
                    if (!lk[n][k].busy) {
                        v = k;
                        break;
                    }
                if (v < 0)
                    continue;
                lk[n][v].busy = 1;
                x->cur = x->q[x->qh];
                x->qh = (x->qh + 1) % 4096;
                x->qn--;
                x->sent = 0;
                x->vc = (uint32_t)v;
            }
            ovc_t *o = &lk[n][x->vc];
            if (o->credits - (o->cvis > now) <= 0)
                continue;
            o->credits--;
            uint32_t f = x->cur << 2 | (x->sent == 0) << 1 | (x->sent + 1 == PF);
            x->sent++;
            ivc_t *d = &R[n].in[4][x->vc];
            uint32_t pos = (d->head + d->cnt) % NB;
            d->buf[pos] = f;
            d->land[pos] = now + LAND;
            d->cnt++;
            R[n].nfl++;
            flit_hops++;
            if (f & 1) {
                o->busy = 0;
                x->cur = UINT32_MAX;
            }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("rate %.3f cycles %u flit_hops %llu latency %.2f accepted %.4f  %.3f s  %.1f ns/flit-hop  %.0f c/s\n",
           rate, now, (unsigned long long)flit_hops, (double)lat_sum / (double)lat_n,
           (double)ej_flits / (double)(wend - wstart) / NR, s, 1e9 * s / (double)flit_hops,
           (double)now / s);
    return 0;
}
