/* core/deadlock.h — the static deadlock check (mpp_deadlock_*): the
 * channel dependency graph of a topology, a routing and its VCs, built
 * from the routing plug-in's relation hook (core/route.h), and a cycle of
 * it or the proof that there is none. What `mppnet check --deadlock`
 * reports; core/deadlock.c says how.
 *
 * The check models the VCs the configuration has, even too few for the
 * routing's route classes (which mpp_net_init refuses): the classes then
 * share VCs as a machine with only those VCs would have to, and a cycle
 * found explains the refusal. Message class 0 is checked (message classes
 * own disjoint VC ranges, so each has the same graph). All-port nodes
 * (node.ports: all on a direct network) are not modelled: the check uses
 * the topology's own links. Setup only, never hot. */
#ifndef MPP_CORE_DEADLOCK_H
#define MPP_CORE_DEADLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/route.h"
#include "core/sections.h"
#include "core/topo.h"

/* The largest visited-state bitmap the check allocates: a configuration
 * that would need more is refused (MPP_EINVAL). */
#define MPP_DEADLOCK_MAX_BYTES (1ull << 30)

/* One vertex of a cycle: an output channel (router-router link) and the
 * VC group a packet holds on it. */
typedef struct mpp_deadlock_chan {
    uint32_t router, port;            /* the channel leaves router `router` by local port `port` */
    uint32_t next_router, next_port;  /* ... and arrives there */
    char port_name[16], next_name[16];/* mpp_topo_port_name of both ends */
    uint32_t class_lo, class_hi;      /* route classes of the group (several when folded) */
    uint32_t vc_lo, vc_hi;            /* its VCs of message class 0, inclusive */
} mpp_deadlock_chan;

/* What a check found. Filled by mpp_deadlock_check; cycle is owned (free
 * with mpp_deadlock_result_free). */
typedef struct mpp_deadlock_result {
    /* the VC model */
    uint32_t nodes;
    uint32_t route_classes;     /* RC: the routing's route_classes on this topology */
    uint32_t message_classes;   /* M */
    uint32_t vcs;               /* VCs per port, V */
    uint32_t vcs_per_mclass;    /* V / M, at least 1 */
    uint32_t groups;            /* VC groups per channel: RC, or V / M when folded */
    bool folded;                /* V / M < RC: route class c is in group c * (V / M) / RC */
    char refusal[320];          /* why mpp_net_init refuses these VCs; "" when it accepts them */
    uint32_t escape_classes;    /* an adaptive routing's escape classes 0 .. E - 1: the
                                   relation (and so the graph) is its escape sub-network;
                                   0: the whole routing */
    /* the graph */
    uint64_t states;            /* relation states explored */
    uint64_t channels;          /* channels with a dependency */
    uint64_t vertices;          /* (channel, VC group) pairs with a dependency */
    uint64_t edges;             /* distinct dependencies */
    /* the cycle: cycle[i] is held by a packet that waits for cycle[i + 1],
     * the last for the first; ncycle 0: the graph is acyclic */
    uint32_t ncycle;
    mpp_deadlock_chan *cycle;
} mpp_deadlock_result;

/* Check routing `ops` (configuration cfg, setup's priv or NULL) on topology
 * t with `vcs` VCs per port shared by `message_classes` message classes
 * (the engine's layout: route class c of message class m owns VCs
 * [(m * RC + c) * vpc, + vpc)). Explores every relation state reachable
 * from every node injecting towards every node, builds the channel
 * dependency graph and looks for a cycle, the shortest it can cheaply find
 * through the channels of the first one found.
 * Returns 0 with *res filled (a cycle or none), or:
 *   MPP_EINVAL  the routing has no relation hook, vcs or message_classes is
 *               0, or the state space would need more than
 *               MPP_DEADLOCK_MAX_BYTES;
 *   MPP_ERUN    the relation broke its contract (core/route.h): a hop out
 *               of a port that does not exist or is unconnected, a class
 *               out of range, an ejection into another node than the one
 *               the packet is bound for, no hop at all; the message names
 *               the router, port and state (a bug of the plug-in);
 *   MPP_ENOMEM.
 * On failure *res holds no cycle. Does not call supports or setup. */
int mpp_deadlock_check(const mpp_topo *t, const mpp_routing_ops *ops, const void *cfg,
                       void *priv, uint32_t vcs, uint32_t message_classes,
                       mpp_deadlock_result *res, mpp_err *err);

/* The same for the network of configuration c: builds its topology (never
 * its network), asks the routing whether it supports it (MPP_EINVAL with
 * the routing's reason when not), runs setup and the check with the
 * configured VCs (network.vcs, or vcs_per_class x classes) and message
 * classes (node.interfaces for a workload of node programs, as
 * mpp_sim_create), and frees it all. Errors as mpp_deadlock_check, or the
 * topology's or setup's. */
int mpp_deadlock_check_config(const mpp_sim_config *c, mpp_deadlock_result *res, mpp_err *err);

/* True when configurations a and b have the same static check: the same
 * topology and routing with the same parameters, VCs and message classes
 * (so a sweep over anything else is checked once). */
bool mpp_deadlock_same(const mpp_sim_config *a, const mpp_sim_config *b);

/* Free what res owns; res may be NULL or already freed. */
void mpp_deadlock_result_free(mpp_deadlock_result *res);

#endif
