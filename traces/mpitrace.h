/* traces/mpitrace.h — MPI traces (mpp_mpitrace_*): what the ranks of an MPI
 * program called, in call order, time-independent (operations, sizes,
 * peers, compute amounts; no host timestamps are needed to replay), read
 * from a capture folder (traces/capture/, `mppnet capture`), a SimGrid
 * time-independent trace (`smpirun -trace-ti`) or an OTF2 archive, and
 * replayed re-timed by the `mpi` workload (algorithms/wl_mpi.c).
 *
 * The capture format, version 1 (docs/formats.md, "MPI traces"). A capture
 * folder holds
 *     capture.mpt           the meta file (text):
 *         mpptrace 1
 *         ranks N
 *         host_ops_per_s X   (the host's measured speed, > 0: a timed loop of
 *                             dependent integer additions at MPI_Init)
 *         library TEXT       (optional, the MPI library's version string)
 *     rank-R.mpt.gz         one per rank R = 0 .. N-1 (gzip, or plain text
 *                           as rank-R.mpt), in call order:
 *         mpptrace 1 rank R ranks N
 *         CPU CALL FIELDS...         one line per call
 *         end CPU                    the last line (a file without it is
 *                                    truncated: the program did not reach
 *                                    MPI_Finalize, or the file was cut)
 * CPU is the thread's CPU time in nanoseconds since the previous call
 * returned (since MPI_Init returned for the first), an unsigned integer.
 * Ranks, peers and roots are WORLD ranks (the capture translates); COMM is
 * the rank's own communicator id (0: MPI_COMM_WORLD, 1: MPI_COMM_SELF, then
 * 2, 3, ... in creation order; a communicator is the list of its members'
 * world ranks, given when it is created); BYTES are count x the datatype's
 * size; REQ are the rank's request ids (unsigned, assigned by the capture,
 * unique among the rank's live requests). Blank lines and lines that begin
 * with '#' are comments. The calls and their fields:
 *
 *   send|ssend|bsend|rsend DST TAG COMM BYTES
 *   isend|issend|irsend DST TAG COMM BYTES REQ
 *   recv SRC TAG COMM BYTES           SRC, TAG, BYTES as matched (the status),
 *                                     so a wildcard receive replays as it matched
 *   irecv SRC TAG COMM REQ            SRC, TAG as posted (-1: MPI_ANY_SOURCE /
 *                                     MPI_ANY_TAG); the match comes with the
 *                                     completion
 *   sendrecv DST STAG SBYTES SRC RTAG RBYTES COMM     (RECV side as matched)
 *   sendrecv_replace DST STAG SRC RTAG BYTES COMM     (as matched)
 *   wait|waitall|waitany|waitsome|test|testall|testany|testsome K C1 .. CK
 *                                     the K requests this call completed (K may
 *                                     be 0: a test that completed nothing), each
 *                                     C either REQ (a send, or a cancelled receive) or REQ/SRC/TAG/BYTES
 *                                     (a receive, as matched)
 *   probe|iprobe FLAG SRC TAG COMM BYTES   FLAG 1 when a message was found
 *                                     (probe: always 1), then its status
 *   request_free REQ
 *   barrier COMM
 *   bcast|reduce ROOT COMM BYTES
 *   allreduce|scan|exscan COMM BYTES
 *   gather|scatter ROOT COMM BYTES    BYTES: one member's block
 *   allgather|alltoall COMM BYTES     BYTES: one member's block
 *   gatherv ROOT COMM SBYTES K B1..BK   SBYTES: this rank's block; at the
 *                                     root K = the communicator's size and Bi
 *                                     the block of member i, elsewhere K = 0
 *   scatterv ROOT COMM RBYTES K B1..BK  the same, the root's blocks to send
 *   allgatherv COMM K B1..BK          every member's block (K = size)
 *   alltoallv COMM K S1..SK R1..RK    what this rank sends to and receives
 *                                     from member i (K = size)
 *   reduce_scatter COMM K B1..BK      the block of each member (K = size)
 *   reduce_scatter_block COMM BYTES   one member's block
 *   comm_dup|comm_split|comm_create PARENT NEW K M1..MK
 *                                     the new communicator's id and members
 *                                     (world ranks, in rank order); NEW = -1
 *                                     and K = 0 when this rank is in none
 *                                     (MPI_COMM_NULL)
 *   comm_free COMM
 *   unsupported NAME                  a call the replay cannot model (one-
 *                                     sided, MPI-IO, persistent requests,
 *                                     intercommunicators, ...): recorded by
 *                                     its MPI name, refused by the replay
 *
 * The in-memory trace below is what every reader makes (the capture
 * format's own reader here, the importers in mpi_simgrid.c and mpi_otf2.c)
 * through the builder, and what the replay reads. Reading is bounded:
 * counts are checked against what the file can hold before memory is
 * taken, every number against its range, every id against what exists;
 * errors are MPP_EFORMAT "FILE:LINE: what was expected" (MPP_EIO when a
 * file cannot be read). */
#ifndef MPP_TRACES_MPITRACE_H
#define MPP_TRACES_MPITRACE_H

#include <stdint.h>

#include "core/base/err.h"

#define MPP_MPITRACE_VERSION 1
/* The most ranks a trace may have, and the longest rank file line. */
#define MPP_MPITRACE_MAX_RANKS (1u << 20)
#define MPP_MPITRACE_MAX_LINE (1u << 20)
/* The largest BYTES of one call (2^40), TAG (2^31 - 1). */
#define MPP_MPITRACE_MAX_BYTES (UINT64_C(1) << 40)

/* The calls (the order is the format's; mpp_mpi_call_names has the names). */
typedef enum mpp_mpi_call {
    MPP_MPI_SEND = 0, MPP_MPI_SSEND, MPP_MPI_BSEND, MPP_MPI_RSEND,
    MPP_MPI_ISEND, MPP_MPI_ISSEND, MPP_MPI_IRSEND,
    MPP_MPI_RECV, MPP_MPI_IRECV,
    MPP_MPI_SENDRECV, MPP_MPI_SENDRECV_REPLACE,
    MPP_MPI_WAIT, MPP_MPI_WAITALL, MPP_MPI_WAITANY, MPP_MPI_WAITSOME,
    MPP_MPI_TEST, MPP_MPI_TESTALL, MPP_MPI_TESTANY, MPP_MPI_TESTSOME,
    MPP_MPI_PROBE, MPP_MPI_IPROBE, MPP_MPI_REQUEST_FREE,
    MPP_MPI_BARRIER, MPP_MPI_BCAST, MPP_MPI_REDUCE, MPP_MPI_ALLREDUCE,
    MPP_MPI_GATHER, MPP_MPI_GATHERV, MPP_MPI_SCATTER, MPP_MPI_SCATTERV,
    MPP_MPI_ALLGATHER, MPP_MPI_ALLGATHERV, MPP_MPI_ALLTOALL, MPP_MPI_ALLTOALLV,
    MPP_MPI_REDUCE_SCATTER, MPP_MPI_REDUCE_SCATTER_BLOCK, MPP_MPI_SCAN, MPP_MPI_EXSCAN,
    MPP_MPI_COMM_DUP, MPP_MPI_COMM_SPLIT, MPP_MPI_COMM_CREATE, MPP_MPI_COMM_FREE,
    MPP_MPI_UNSUPPORTED,
    MPP_MPI_NCALLS
} mpp_mpi_call;

/* "send", "ssend", ... (the format's names), indexed by mpp_mpi_call. */
extern const char *const mpp_mpi_call_names[MPP_MPI_NCALLS];

#define MPP_MPI_ANY 0xffffffffu /* a posted MPI_ANY_SOURCE / MPI_ANY_TAG */
#define MPP_MPI_NONE 0xffffffffu

/* One call of one rank. Which fields mean something depends on the call
 * (the grammar above); the rest are 0. */
typedef struct mpp_mpi_event {
    uint8_t call;       /* mpp_mpi_call */
    uint8_t flag;       /* iprobe: found */
    uint32_t comm;      /* index into the trace's communicators (global, see below) */
    uint32_t peer;      /* world rank: DST, SRC (as matched), ROOT; MPP_MPI_NONE */
    uint32_t peer2;     /* sendrecv(_replace): SRC; irecv: SRC as posted (MPP_MPI_ANY);
                           comm_*: the parent communicator (global index) */
    uint32_t tag, tag2; /* TAG (sends; receives as matched), sendrecv's RTAG;
                           irecv: tag2 = TAG as posted (MPP_MPI_ANY). An irecv
                           never completed (freed, or live at the end) has
                           peer and tag MPP_MPI_NONE and bytes 0. A comm_*
                           event's comm is the new communicator, MPP_MPI_NONE
                           when this rank is in none. */
    uint64_t bytes, bytes2; /* BYTES; sendrecv's RBYTES */
    uint32_t req;       /* isend/irecv/request_free: the request's index in the rank's
                           request table (see below) */
    uint32_t first, n;  /* completions: reqs[first .. first+n); vectors:
                           counts[first .. first+n) (alltoallv: 2K: sends then
                           receives); comm_*: nothing (comm is the new one) */
    uint32_t name;      /* unsupported: offset into the trace's names */
    uint64_t cpu_ns;    /* CPU time before the call */
} mpp_mpi_event;

/* A request of a rank: made by its isend/irecv, completed by a wait/test. */
typedef struct mpp_mpi_request {
    uint32_t event;     /* the isend or irecv that made it */
    uint32_t done;      /* the event that completed it, or MPP_MPI_NONE (freed or never) */
} mpp_mpi_request;

typedef struct mpp_mpi_rank {
    mpp_mpi_event *ev;  /* [nev] */
    uint32_t nev;
    mpp_mpi_request *req; /* [nreq]: request table (ids renumbered 0 .. nreq-1) */
    uint32_t nreq;
    uint32_t *reqs;     /* completion lists (indices into req) */
    uint64_t *counts;   /* vectors of the v-collectives */
    uint64_t end_cpu_ns;/* CPU time after the last call */
} mpp_mpi_rank;

/* A communicator: its members' world ranks in rank order. Index 0 is
 * MPI_COMM_WORLD (all ranks); the SELF communicators and every created one
 * follow. Communicators are GLOBAL: the reader identifies a rank's new
 * communicator with the others' by (member list, how many communicators
 * with that member list the rank created before), so that the replay
 * matches messages and collectives across ranks. */
typedef struct mpp_mpi_comm {
    uint32_t size;
    uint32_t first;     /* members: trace->members[first .. first+size) */
} mpp_mpi_comm;

typedef enum mpp_mpitrace_source {
    MPP_MPITRACE_CAPTURE = 0, MPP_MPITRACE_SIMGRID = 1, MPP_MPITRACE_OTF2 = 2
} mpp_mpitrace_source;

typedef struct mpp_mpitrace {
    uint32_t nranks;
    mpp_mpi_rank *rank;   /* [nranks] */
    mpp_mpi_comm *comm;   /* [ncomms] */
    uint32_t ncomms;
    uint32_t *members;    /* [nmembers] */
    uint64_t nmembers;
    char *names;          /* NUL-separated names of unsupported calls */
    uint64_t names_len;
    double host_ops_per_s;/* the capture's measured host speed (0: unknown) */
    double flops_per_ns;  /* SimGrid: compute amounts are flops (cpu_ns holds
                             them as given; 0 for the other sources) */
    int source;           /* mpp_mpitrace_source */
    char library[128];    /* the MPI library ("" when unknown) */
} mpp_mpitrace;

/* Read the trace at path: a capture folder (it holds capture.mpt), a
 * capture meta file, a SimGrid time-independent trace (its main file, or
 * a single rank's file) or an OTF2 archive (its anchor file *.otf2, or the
 * folder that holds exactly one) — told apart by their contents, not by
 * their names. On success *out owns everything (mpp_mpitrace_free). Fails
 * with MPP_EFORMAT "FILE:LINE: what was expected" for a malformed, truncated
 * or inconsistent trace (a completion of an unknown request, a peer or
 * root outside the communicator, a communicator id never created, a rank
 * file missing, an OTF2 archive built without OTF2 support: "OTF2 support
 * was not built in"), MPP_EIO when a file cannot be read, MPP_ENOMEM. */
int mpp_mpitrace_load(const char *path, mpp_mpitrace **out, mpp_err *err);

/* Read one capture rank file (path) into an empty trace of nranks ranks,
 * as rank r. For the fuzz harness and the capture folder reader. */
int mpp_mpitrace_read_rank(mpp_mpitrace *t, uint32_t r, const char *path, mpp_err *err);

void mpp_mpitrace_free(mpp_mpitrace *t);

/* The first event the replay cannot run (an unsupported call): 0 and
 * *rank, *index set, or -1 when there is none. */
int mpp_mpitrace_find_unsupported(const mpp_mpitrace *t, uint32_t *rank, uint32_t *index);

/* ------------------------------------------------------------------------
 * The builder: what the readers and importers call. Events are added rank
 * by rank in call order with the file's own communicator ids and request
 * ids; mpp_mpitb_finish resolves them (global communicators, request
 * table, completions linked to their requests, an irecv given the source,
 * tag and size it matched) and checks them, naming the file and line the
 * caller gave with each event. */
typedef struct mpp_mpitb mpp_mpitb;

/* A new builder for nranks ranks (1 .. MPP_MPITRACE_MAX_RANKS). */
mpp_mpitb *mpp_mpitb_new(uint32_t nranks, int source, mpp_err *err);
/* Where the next events come from (for error messages; copied). */
void mpp_mpitb_where(mpp_mpitb *b, const char *file, uint64_t line);
/* Append an event to rank r with the file's ids: ev.comm is the rank's
 * communicator id (0 world, 1 self, 2.. created), ev.req its request id,
 * completions and vectors given as arrays (vals: for completions the
 * request ids, the receive statuses in st[0..n) (st[i].peer MPP_MPI_NONE
 * for a send's request); for vectors the counts). */
/* The fields as in mpp_mpi_event, with these differences: ANY is
 * MPP_MPI_ANY; an irecv gives SRC and TAG as posted; a comm_* event gives
 * ev.comm = PARENT (the file's id) and is followed by mpp_mpitb_comm for
 * the new one; a completion's ev.req is unused, vals are its request ids
 * and st may be NULL (all sends); an unsupported event follows
 * mpp_mpitb_unsupported. Context-free errors (a world rank >= nranks, a
 * tag or BYTES out of range, a call after `end`) are reported here, with
 * the FILE:LINE of mpp_mpitb_where; the rest by mpp_mpitb_finish. On an
 * error the caller still frees b (mpp_mpitb_free). */
typedef struct mpp_mpitb_status {
    uint32_t peer, tag;
    uint64_t bytes;
} mpp_mpitb_status;
int mpp_mpitb_add(mpp_mpitb *b, uint32_t r, const mpp_mpi_event *ev, const uint64_t *vals,
                  const mpp_mpitb_status *st, uint32_t n);
/* A communicator created by rank r's last comm_* event: new id and members
 * (world ranks; n = 0 with id MPP_MPI_NONE: not a member). */
int mpp_mpitb_comm(mpp_mpitb *b, uint32_t r, uint32_t id, const uint32_t *members, uint32_t n);
/* An unsupported call's name for rank r's next event. */
int mpp_mpitb_unsupported(mpp_mpitb *b, uint32_t r, const char *name);
/* Rank r's trace ended (its `end` line) with cpu_ns after its last call. */
int mpp_mpitb_end(mpp_mpitb *b, uint32_t r, uint64_t cpu_ns);
/* Resolve and check; on success *out is the trace and b is freed. On
 * failure b is freed too. */
int mpp_mpitb_finish(mpp_mpitb *b, mpp_mpitrace **out);
void mpp_mpitb_free(mpp_mpitb *b);

/* ------------------------------------------------------------------------
 * The importers (traces/mpi_simgrid.c, traces/mpi_otf2.c), called by
 * mpp_mpitrace_load after it has told the formats apart; docs/formats.md,
 * "Importing SimGrid and OTF2 traces", gives what maps to what. */

/* Import a SimGrid time-independent trace: path is its main file (the rank
 * files' paths, one a line, relative to its folder) or a file of actions.
 * flops_per_ns is 1.0: cpu_ns holds flops. MPP_EFORMAT "FILE:LINE: what
 * was expected" for a malformed trace, a derived datatype, a receive that
 * no send can match; MPP_EIO, MPP_ENOMEM. *out owned by the caller. */
int mpp_mpitrace_load_simgrid(const char *path, mpp_mpitrace **out, mpp_err *err);
/* 1 when path's first line is a SimGrid action, or the path of a file
 * whose first line is one; 0 otherwise (never an error). */
int mpp_mpitrace_sniff_simgrid(const char *path);

/* Import an OTF2 archive's MPI events: path is the anchor file (*.otf2).
 * MPP_EFORMAT "PATH: OTF2's error" for a damaged archive, or "PATH: an
 * OTF2 archive, but OTF2 support was not built in (...)" without OTF2. */
int mpp_mpitrace_load_otf2(const char *path, mpp_mpitrace **out, mpp_err *err);
/* 1 when path is an OTF2 anchor file (its first bytes), 0 otherwise. */
int mpp_mpitrace_sniff_otf2(const char *path);
/* The one OTF2 anchor file (*.otf2 with OTF2's header) in folder dir: 1
 * with *anchor (malloc'd path, the caller frees), 0 when there is none,
 * MPP_EFORMAT "DIR: N OTF2 anchor files (...): name one" when there are
 * several, MPP_EIO when dir cannot be read. */
int mpp_mpitrace_find_otf2(const char *dir, char **anchor, mpp_err *err);

#endif
