/* core/workload.h — the ops table of the workload plug-in family
 * (mpp_workload_ops): what a run does on the machine.
 *
 * The engine defines the table and calls a workload only through it; the
 * workloads live in algorithms/ and traces/ and are registered in
 * algorithms/workloads.c. A workload owns
 *   - its configuration: `schema` describes its own struct (the keys of the
 *     experiment's workload: section besides `type`), filled by the
 *     configuration layer into mpp_sim_config.workload.cfg;
 *   - its setup: turning that struct into what the engine accepts, through
 *     the services of core/sim.h — open-loop injection sources
 *     (mpp_sim_open_loop), packets (mpp_sim_send), node programs
 *     (mpp_sim_programs) and the handler callbacks of execution-driven
 *     protocols (mpp_sim_handlers);
 *   - its results: the standard columns only it can fill (finish) and its
 *     own extra columns (`columns`), and what the summary table shows.
 * The engine never asks which workload it runs.
 *
 * Life of a workload in one run:
 *
 *   mpp_sim_create: topology, network ---> setup(s, cfg, &priv)
 *   mpp_sim_run:    cycles ... on_packet(priv, rec) per delivered packet
 *                   ---> finish(priv, s, result) ---> (results written)
 *   mpp_sim_destroy ---> destroy(priv)
 */
#ifndef MPP_CORE_WORKLOAD_H
#define MPP_CORE_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/base/param.h"
#include "core/base/strbuf.h"
#include "core/results.h"

typedef struct mpp_sim mpp_sim;
typedef struct mpp_workload_ops mpp_workload_ops;

/* Flags a workload declares (checked once at setup). */
enum {
    /* It runs node programs: the network gets one message class per NIC
     * interface (node.interfaces), and nic: model is allowed. */
    MPP_WL_NODES = 1u << 0
};

/* A workload plug-in (STYLE rule 5). setup is required; every other hook
 * may be NULL. */
struct mpp_workload_ops {
    const char *name;
    const char *help;
    mpp_schema schema;                /* its keys; struct of at most MPP_WORKLOAD_BLOB bytes */
    unsigned flags;                   /* MPP_WL_* */
    /* Install sources, packets or programs into s (cfg: its struct). May
     * keep state in *priv, handed back to the other hooks. Fails with
     * MPP_EINVAL (a value this machine cannot run, with the reason),
     * MPP_EIO / MPP_EFORMAT (an input file) or MPP_ENOMEM. */
    int (*setup)(mpp_sim *s, const void *cfg, void **priv, mpp_err *err);
    /* A packet was delivered (its tail ejected; with node programs, it is
     * then in the receive FIFO). Hot when set: keep it cheap. */
    void (*on_packet)(void *priv, const mpp_packet_record *rec);
    /* The run ended: fill the standard columns that belong to this
     * workload and r->extra[0 .. ncolumns-1]. */
    void (*finish)(void *priv, const mpp_sim *s, mpp_sim_result *r);
    void (*destroy)(void *priv);
    /* True when this configuration (cfg: its struct) depends on the node
     * section although the workload runs no node programs (a permutation
     * cutting bytes into packets): the node section is then part of the
     * resolved configuration and its hash. NULL: only MPP_WL_NODES says. */
    bool (*uses_node)(const void *cfg);
    /* The bytes its setup and run take beyond the engine's per-node state
     * (a lattice, a grid), for configuration cfg on `nodes` nodes: pure
     * arithmetic, called before anything is built (mpp_sim_size_of).
     * NULL: nothing that large. */
    uint64_t (*bytes)(const void *cfg, uint64_t nodes);
    /* The run stopped in a deadlock: append what the workload's own
     * processes wait for (a line each, at most max_lines) to the engine's
     * report (mpp_sim_report), after the processors'. NULL: nothing. */
    void (*report)(const void *priv, mpp_sb *sb, uint32_t max_lines);
    const mpp_result_column *columns; /* its extra columns (at most MPP_RESULT_EXTRA) */
    uint32_t ncolumns;
    const mpp_summary_col *summary;   /* the summary table's columns */
    uint32_t nsummary;
};

#endif
