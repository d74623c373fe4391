/* algorithms/apps.h — the irregular applications of Bae and Ranka (1994)
 * (SPEC section 7, docs/apps.md): the Wolff cluster algorithm on a 2D
 * Ising lattice and Lee's maze routing, their sequential cores, and the
 * column-stripe partition their parallel runs cut the lattice with.
 *
 * The sequential cores define what every parallel run must compute: for a
 * seed, the Wolff clusters (a bond's activation is a function of (seed,
 * sweep, bond), so a cluster is the connected component of its seed site
 * in the active bonds, whatever order it is grown in), and the Lee
 * instances (grid, source, destination) and their path lengths. They count
 * the operations the node processor's compute model charges (sites
 * visited, random numbers, queue operations, bond and cell tests). */
#ifndef MPP_ALGORITHMS_APPS_H
#define MPP_ALGORITHMS_APPS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"

/* Operations of one expansion (a Wolff cluster, a Lee wavefront). */
typedef struct mpp_app_counts {
    uint64_t sites;      /* sites (cells) taken off the wavefront and expanded */
    uint64_t tests;      /* neighbour sites (cells) tested: 4 a site (Lee: fewer on the
                            border) */
    uint64_t randoms;    /* random numbers drawn (Wolff: one per bond tested, to a
                            neighbour of equal spin outside the cluster) */
    uint64_t queue_ops;  /* wavefront pushes and pops */
    uint64_t cycles;     /* expansion cycles (wavefront generations) */
} mpp_app_counts;

/* c += k (c may be NULL). */
static inline void mpp_app_counts_add(mpp_app_counts *c, const mpp_app_counts *k)
{
    if (!c)
        return;
    c->sites += k->sites;
    c->tests += k->tests;
    c->randoms += k->randoms;
    c->queue_ops += k->queue_ops;
    c->cycles += k->cycles;
}

/* The compute model of the node processor: CPU cycles per operation (the
 * node keys app_site_cycles, app_test_cycles, app_random_cycles,
 * app_queue_cycles; docs/apps.md). */
typedef struct mpp_app_costs {
    uint32_t site, test, random, queue;
} mpp_app_costs;

/* The cycles the operations c cost. */
static inline uint64_t mpp_app_work_cycles(const mpp_app_counts *c, const mpp_app_costs *k)
{
    return c->sites * k->site + c->tests * k->test + c->randoms * k->random +
           c->queue_ops * k->queue;
}

/* The largest lattice side: N x N sites are indexed by 32-bit integers. */
#define MPP_APP_MAX_N 16384u

/* ------------------------------------------------------------------------
 * Wolff: N x N Ising lattice wrapped in both directions, spins +1 / -1,
 * bond probability p = 1 - exp(-2 beta) between equal spins. Site
 * s = y N + x; bond 2 s is s -- its right neighbour, 2 s + 1 s -- the one
 * below. */
typedef struct mpp_wolff {
    uint32_t N;
    uint64_t seed;
    double beta, p;
    uint64_t threshold;  /* a bond is active when its key's 53 bits < threshold */
    int8_t *spin;        /* [N N] */
    uint8_t *in;         /* [N N] scratch: in the cluster being grown */
    uint32_t *list;      /* [N N] scratch: the cluster's sites, wave after wave */
} mpp_wolff;

/* The critical inverse temperature ln(1 + sqrt 2) / 2. */
#define MPP_WOLFF_BETA_C 0.44068679350977147

/* A lattice of N x N spins, all up (a cold start: at beta_c its first
 * clusters span much of the lattice, so a hundred sweeps thermalise it; from
 * random spins the clusters stay a few sites for hundreds of sweeps),
 * 2 <= N <= MPP_APP_MAX_N, beta >= 0. MPP_EINVAL on a bad argument,
 * MPP_ENOMEM. */
int mpp_wolff_init(mpp_wolff *w, uint32_t N, double beta, uint64_t seed, mpp_err *err);
void mpp_wolff_free(mpp_wolff *w);
/* Is bond b open in sweep t (given equal spins)? A function of (seed, t, b)
 * only. */
bool mpp_wolff_bond(const mpp_wolff *w, uint64_t t, uint64_t b);
/* The four neighbours of site s on an N x N wrapped lattice (left, right,
 * up, down) and the bonds to them. */
void mpp_wolff_neighbours(uint32_t N, uint32_t s, uint32_t nb[4], uint64_t bond[4]);
/* h with the lattice's spins added (mpp_app_hash_add: 1 up, 0 down). */
uint64_t mpp_wolff_hash(uint64_t h, const mpp_wolff *w);
/* The site sweep t grows its cluster from. */
uint32_t mpp_wolff_start(const mpp_wolff *w, uint64_t t);
/* Sweep t: grow the cluster from mpp_wolff_start by the ants-in-the-
 * labyrinth wavefront (each expansion cycle visits the wavefront's sites
 * and tests the bonds to their equal-spin neighbours outside the cluster),
 * then flip it. Returns its size; adds its operations to c (may be NULL). */
uint32_t mpp_wolff_sweep(mpp_wolff *w, uint64_t t, mpp_app_counts *c);
/* The cluster of sweep t without growing it in waves: the connected
 * component of the start site in the open bonds, by depth-first search
 * (a check of mpp_wolff_sweep: the same sites). Marks them in mark[N N]
 * (1 inside, 0 outside) and returns the size. Does not flip. */
uint32_t mpp_wolff_component(const mpp_wolff *w, uint64_t t, uint8_t *mark, uint32_t *stack);

/* ------------------------------------------------------------------------
 * Lee: an N x N grid (no wrap-around) with blocked cells, a source and a
 * destination (cells y N + x). */
typedef struct mpp_lee {
    uint32_t N;
    uint8_t *blocked;    /* [N N] */
    uint64_t nblocked;
    uint32_t src, dst;
    uint32_t M;          /* Manhattan distance from src to dst */
    uint32_t nets;       /* nets routed to pre-block the grid */
    uint32_t reached;    /* cells labelled by the last expansion */
    uint32_t *label;     /* [N N] scratch: wavefront labels, 0 = not reached */
    uint32_t *queue;     /* [N N] scratch */
} mpp_lee;

/* The most blocked fraction a Lee grid may have. */
#define MPP_LEE_MAX_FRACTION 0.9

/* Instance `instance` of seed: the grid pre-blocked to round(fraction N^2)
 * cells by routing random nets (two random open cells) with Lee's
 * algorithm and blocking each found path, cell by cell from the net's
 * source, until the count is reached; a path cell whose blocking would
 * split the open cells around it stays open, so the open cells remain one
 * region (every net can be routed, every instance has a path). Then the
 * source and the destination: pair 0 of mpp_lee_pair.
 * 4 <= N <= MPP_APP_MAX_N, 0 <= fraction <= MPP_LEE_MAX_FRACTION (the
 * nets reach about 0.67 to 0.77 at most). MPP_EINVAL on a bad argument,
 * when no more nets can be blocked (LEE_NET_TRIES in a row) or no source
 * and destination pair is found; MPP_ENOMEM. */
int mpp_lee_generate(mpp_lee *g, uint32_t N, double fraction, uint64_t seed, uint64_t instance,
                     mpp_err *err);
void mpp_lee_free(mpp_lee *g);
/* Draw pair j of instance `instance` of seed on g's grid: a source and a
 * destination, random open cells at Manhattan distance ceil(0.4 N) ..
 * floor(0.6 N), from the stream (seed, instance, j) (pair 0 is the one
 * mpp_lee_generate draws). MPP_EINVAL when none is found. */
int mpp_lee_pair(mpp_lee *g, uint64_t seed, uint64_t instance, uint32_t j, mpp_err *err);
/* The most pairs routed on one Lee grid by mpp_lee_sequential. */
#define MPP_LEE_MAX_PAIRS 1000000u
/* The wavefront expansion from a to b over open cells (breadth first, one
 * expansion cycle per wavefront): labels cells with their distance + 1 in
 * g->label (cleared first). Returns the distance from a to b, or -1 when b
 * cannot be reached; adds its operations to c (may be NULL). */
int64_t mpp_lee_expand(mpp_lee *g, uint32_t a, uint32_t b, mpp_app_counts *c);
/* The neighbours of cell s on an N x N grid without wrap-around that
 * exist, in the order left, right, up, down, into nb; returns their
 * count (2 to 4). */
int mpp_lee_neighbours(uint32_t N, uint32_t s, uint32_t nb[4]);
/* After an expansion that reached b: the path from b back to a along
 * decreasing labels (at each cell the first neighbour in the order left,
 * right, up, down one label lower), written to path[0 .. len] (path[0] = b,
 * path[len] = a); returns len. */
uint32_t mpp_lee_path(const mpp_lee *g, uint32_t a, uint32_t b, uint32_t *path);

/* ------------------------------------------------------------------------
 * Sequential (one-processor) runs: what the applications compute and the
 * operations they count, summed over the measured sweeps or instances. */
/* What a run computed, as a hash: FNV-1a over 64-bit values
 * (mpp_app_hash_add, from MPP_APP_HASH0): Wolff the lattice's spins after
 * the last sweep (1 up, 0 down, site by site: mpp_wolff_hash), Lee every
 * expansion's distance in order. A parallel run that computes the same
 * gives the same hash. */
#define MPP_APP_HASH0 1469598103934665603ull
static inline uint64_t mpp_app_hash_add(uint64_t h, uint64_t x)
{
    for (int i = 0; i < 8; i++) {
        h ^= (x >> (8 * i)) & 0xff;
        h *= 1099511628211ull;
    }
    return h;
}

typedef struct mpp_app_seq {
    uint64_t hash;          /* what it computed (above) */
    uint32_t runs;          /* measured sweeps (Wolff) or instances (Lee) */
    uint64_t size;          /* Wolff: cluster sites; Lee: path lengths (summed) */
    uint64_t manhattan;     /* Lee: the sources' Manhattan distances M (summed) */
    mpp_app_counts counts;  /* the operations (of Lee's wavefront expansions) */
} mpp_app_seq;

/* Wolff on an N x N lattice: sweeps 0 .. therm - 1 thermalise it, sweeps
 * therm .. therm + sweeps - 1 are measured. MPP_EINVAL, MPP_ENOMEM. */
int mpp_wolff_sequential(uint32_t N, double beta, uint64_t seed, uint32_t therm, uint32_t sweeps,
                         mpp_app_seq *out, mpp_err *err);
/* Lee: instances 0 .. instances - 1 of seed (mpp_lee_generate), each
 * grid routed from pairs 0 .. pairs - 1 (mpp_lee_pair; 1 .. MPP_LEE_MAX_PAIRS)
 * of sources and destinations, each an expansion (runs = instances x
 * pairs). MPP_EINVAL, MPP_ENOMEM. */
int mpp_lee_sequential(uint32_t N, double fraction, uint64_t seed, uint32_t instances,
                       uint32_t pairs, mpp_app_seq *out, mpp_err *err);
/* One expansion of mpp_lee_sequential: g's source to its destination,
 * added to out (g's labels are left as the expansion wrote them; out
 * starts zeroed with hash MPP_APP_HASH0). MPP_EINVAL when there is no
 * path. */
int mpp_lee_sequential_add(mpp_lee *g, mpp_app_seq *out, mpp_err *err);

/* ------------------------------------------------------------------------
 * Sizes before runs (docs/apps.md, "Sizes"): what a run takes, from its
 * parameters alone, so that a command can refuse it before allocating. */
/* Bytes of one Wolff lattice of side N (spins, cluster marks, the site
 * list: 6 bytes a site). */
uint64_t mpp_wolff_bytes(uint32_t N);
/* Bytes of one Lee instance of side N while it is generated (the grid,
 * labels and queue, and the padded copy, its labels and the path buffer
 * of the nets: about 18 bytes a cell). */
uint64_t mpp_lee_bytes(uint32_t N);
/* The work of a sequential Wolff run in site visits: every sweep, taken
 * as a cluster of the whole lattice (an upper bound: N^2 a sweep). */
double mpp_wolff_work(uint32_t N, uint32_t therm, uint32_t sweeps);
/* The work of a sequential Lee run in cell visits: per instance, the nets
 * that pre-block it (about 1.5 f N nets of a wavefront over half the grid:
 * 0.75 f N^3) and its R expansions (N^2 each). */
double mpp_lee_work(uint32_t N, double fraction, uint32_t instances, uint32_t pairs);
/* Cell or site visits a second on the machine of docs/apps.md ("Sizes"),
 * to say how long a refused run would take. */
#define MPP_APP_VISITS_PER_S 1.2e8

/* ------------------------------------------------------------------------
 * Column stripes: columns cut into stripes of w columns (the last may be
 * narrower), stripe k on processor k mod P. Legal when 1 <= w <= N and
 * there are at least P stripes (ceil(N / w) >= P); else MPP_EINVAL saying
 * which. */
int mpp_stripes_check(uint32_t N, uint32_t w, uint32_t P, mpp_err *err);
static inline uint32_t mpp_stripe_owner(uint32_t x, uint32_t w, uint32_t P)
{
    return (x / w) % P;
}

#endif
