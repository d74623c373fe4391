/* core/cli/output.c — result files: CSV and JSON text built in an mpp_sb, then
 * written atomically (see output.h for the file formats).
 *
 * Data: an array of mpp_output_run, one per run of the experiment, indexed
 * by run number; the writers walk it in order and skip runs that did not
 * finish successfully.
 *
 * Invariants:
 *   1. Output is a pure function of (experiment, results): fixed column and
 *      key order (the mpp_result_fields table), doubles through
 *      mpp_sb_double, no locale, no clock. Host wall time appears only in
 *      results.json's "timing" lines.
 *   2. A file is either absent, the old version, or complete: text goes to
 *      DIR/.NAME.tmp, is fsync'd and renamed over DIR/NAME.
 *   3. Nothing here prints or exits; failures come back as MPP_E* + mpp_err.
 */
#include "core/cli/output.h"

#include "core/base/file.h"

#ifndef MPP_VERSION
#define MPP_VERSION "0.1.0"
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>


void mpp_output_run_init(mpp_output_run *r)
{
    memset(r, 0, sizeof *r);
}

void mpp_output_run_free(mpp_output_run *r)
{
    if (!r)
        return;
    free(r->channels);
    free(r->flows);
    free(r->messages);
    free(r->report);
    mpp_output_run_init(r);
}

/* ---- run records ---------------------------------------------------------
 *
 * The packed form (docs/formats.md, "Run records"): this header, then the
 * result, the channel records, the flows, the message records and the
 * report text, as the header's counts say, then a trailer: the CRC-32
 * (zlib's crc32) of every byte before it. Every field is in the writer's
 * byte order and layout: a record is read only by the same build (the
 * magic and result_size tell another version).
 *
 * The records of an output folder are input from disk, which may have been
 * damaged or crafted, so mpp_output_run_unpack trusts nothing before
 * record_check has passed on the raw bytes:
 *   1. the magic, then the size against the header, then the checksum;
 *   2. the header: result_size, a status mppnet gives a run, counts within
 *      32 bits (no size arithmetic can wrap), the size they need equal to
 *      the record's, no arrays in a failed run's record;
 *   3. the result: every bool byte 0 or 1 (read as bytes: loading a _Bool
 *      that holds another value is undefined), every double column finite
 *      or NaN and not negative (each is a rate, a time, a mean, a ratio or
 *      a count in cycles), wall_seconds too;
 *   4. the arrays: channel names NUL-terminated within their 48 bytes and
 *      printable ASCII, utilisations and message hops as in 3, flow and
 *      message ends below the result's node count, flows' flits not 0;
 *   5. the report: no NUL byte.
 * Only then is memory taken and the bytes copied. */

#define RUN_MAGIC "mpprun2"
#define RUN_MAX_COUNT UINT32_MAX  /* channels, flows or messages of one record */
#define RUN_MAX_REPORT (1u << 30) /* bytes of a record's report */

typedef struct packed_hdr {
    char magic[8];            /* RUN_MAGIC, NUL-padded */
    uint32_t result_size;     /* sizeof(mpp_sim_result) of the writer */
    int32_t status;
    uint64_t run;
    uint64_t nchannels, nflows, nmessages, replen;
    uint64_t hash;            /* the run's config hash (records) */
} packed_hdr;

_Static_assert(sizeof(packed_hdr) == 64, "the record header has no padding");
_Static_assert(sizeof(bool) == 1, "a result's bools are checked as single bytes");

/* The CRC-32 of n bytes at p (zlib's crc32 takes at most 2^32 - 1 bytes a
 * call, so longer data goes in pieces). */
static uint32_t record_crc(const unsigned char *p, size_t n)
{
    uLong c = crc32(0L, Z_NULL, 0);
    while (n) {
        uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
        c = crc32(c, p, k);
        p += k;
        n -= k;
    }
    return (uint32_t)c;
}

int mpp_output_run_pack(const mpp_output_run *r, uint64_t run, uint64_t hash, mpp_sb *out)
{
    size_t replen = r->report ? strlen(r->report) : 0;
    size_t start = out->len;
    packed_hdr h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, RUN_MAGIC, sizeof RUN_MAGIC);
    h.result_size = sizeof r->result;
    h.status = r->status;
    h.run = run;
    h.nchannels = r->nchannels;
    h.nflows = r->nflows;
    h.nmessages = r->nmessages;
    h.replen = replen;
    h.hash = hash;
    mpp_sb_addn(out, (const char *)&h, sizeof h);
    mpp_sb_addn(out, (const char *)&r->result, sizeof r->result);
    if (r->nchannels)
        mpp_sb_addn(out, (const char *)r->channels, r->nchannels * sizeof *r->channels);
    if (r->nflows)
        mpp_sb_addn(out, (const char *)r->flows, r->nflows * sizeof *r->flows);
    if (r->nmessages)
        mpp_sb_addn(out, (const char *)r->messages, r->nmessages * sizeof *r->messages);
    if (replen)
        mpp_sb_addn(out, r->report, replen);
    if (!mpp_sb_ok(out))
        return MPP_ENOMEM;
    uint32_t crc = record_crc((const unsigned char *)out->s + start, out->len - start);
    mpp_sb_addn(out, (const char *)&crc, sizeof crc);
    return mpp_sb_ok(out) ? 0 : MPP_ENOMEM;
}

/* True when d may stand in a column that cannot be negative: NaN (no
 * value) or finite and >= 0 (-0.0 included). */
static bool record_real_ok(double d)
{
    return isnan(d) || (isfinite(d) && d >= 0);
}

/* Check a channel name of 48 bytes: NUL-terminated, printable ASCII. */
static int record_name(const char *nm, size_t size, size_t k, const char *which, mpp_err *err)
{
    const char *nul = memchr(nm, '\0', size);
    if (!nul)
        return mpp_err_set(err, MPP_EFORMAT,
                           "channel %zu: its %s name is not NUL-terminated within its %zu bytes",
                           k, which, size);
    for (const char *c = nm; c < nul; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
            return mpp_err_set(err, MPP_EFORMAT,
                               "channel %zu: byte 0x%02x at %zu of its %s name is not printable",
                               k, (unsigned char)*c, (size_t)(c - nm), which);
    return 0;
}

/* Invariants 1 to 5 of the comment above on the len bytes at p; fills *h
 * (the header). Returns 0 or MPP_EFORMAT naming the field at fault. */
static int record_check(const unsigned char *p, size_t len, packed_hdr *h, mpp_err *err)
{
    const size_t rs = sizeof(mpp_sim_result), tail = sizeof(uint32_t);
    if (len < sizeof h->magic || memcmp(p, RUN_MAGIC, sizeof RUN_MAGIC))
        return mpp_err_set(err, MPP_EFORMAT,
                           "not a run record of this mppnet version (%s): no magic \"%s\"",
                           MPP_VERSION, RUN_MAGIC);
    if (len < sizeof *h + rs + tail)
        return mpp_err_set(err, MPP_EFORMAT, "truncated: %zu bytes, a record has at least %zu",
                           len, sizeof *h + rs + tail);
    uint32_t stored, crc = record_crc(p, len - tail);
    memcpy(&stored, p + len - tail, tail);
    if (stored != crc)
        return mpp_err_set(err, MPP_EFORMAT,
                           "checksum mismatch (CRC-32 %08" PRIx32 " stored, %08" PRIx32
                           " computed over its %zu bytes)",
                           stored, crc, len - tail);
    memcpy(h, p, sizeof *h);
    if (h->result_size != rs)
        return mpp_err_set(err, MPP_EFORMAT,
                           "result_size %" PRIu32 ", expected %zu (a record of another build)",
                           h->result_size, rs);
    switch (h->status) {
    case 0: case MPP_EINVAL: case MPP_ENOMEM: case MPP_EIO: case MPP_EFORMAT:
    case MPP_EDEADLOCK: case MPP_ERUN:
        break;
    default:
        return mpp_err_set(err, MPP_EFORMAT, "status %" PRId32 " is not a code mppnet gives a run",
                           h->status);
    }
    const struct {
        const char *name;
        uint64_t n, max, size;
    } part[] = {
        {"nchannels", h->nchannels, RUN_MAX_COUNT, sizeof(mpp_channel_info)},
        {"nflows", h->nflows, RUN_MAX_COUNT, sizeof(mpp_output_flow)},
        {"nmessages", h->nmessages, RUN_MAX_COUNT, sizeof(mpp_message_record)},
        {"replen", h->replen, RUN_MAX_REPORT, 1},
    };
    uint64_t need = sizeof *h + rs + tail, add;
    for (size_t k = 0; k < sizeof part / sizeof *part; k++) {
        if (part[k].n > part[k].max)
            return mpp_err_set(err, MPP_EFORMAT, "%s %" PRIu64 " is above its limit %" PRIu64,
                               part[k].name, part[k].n, part[k].max);
        if (__builtin_mul_overflow(part[k].n, part[k].size, &add) ||
            __builtin_add_overflow(need, add, &need))
            return mpp_err_set(err, MPP_EFORMAT, "%s %" PRIu64 " overflows the record's size",
                               part[k].name, part[k].n);
    }
    if (need != len)
        return mpp_err_set(err, MPP_EFORMAT,
                           "%zu bytes, but its header's counts need %" PRIu64
                           " (truncated or extended)",
                           len, need);
    if (h->status && (h->nchannels || h->nflows || h->nmessages))
        return mpp_err_set(err, MPP_EFORMAT,
                           "a failed run (status %" PRId32 ") with channel, flow or message "
                           "records",
                           h->status);

    /* the result: the bools as bytes first */
    const unsigned char *res = p + sizeof *h;
    for (size_t k = 0; k < mpp_result_nfields; k++) {
        const mpp_result_field *f = &mpp_result_fields[k];
        if (f->type == MPP_F_BOOL && res[f->offset] > 1)
            return mpp_err_set(err, MPP_EFORMAT, "result.%s is byte 0x%02x, not 0 or 1",
                               f->name, res[f->offset]);
    }
    for (size_t k = 0; k < mpp_result_nfields; k++) {
        const mpp_result_field *f = &mpp_result_fields[k];
        double d;
        if (f->type != MPP_F_DOUBLE)
            continue;
        memcpy(&d, res + f->offset, sizeof d);
        if (!record_real_ok(d))
            return mpp_err_set(err, MPP_EFORMAT, "result.%s is %g: negative or infinite", f->name,
                               d);
    }
    double wall;
    uint32_t nodes;
    memcpy(&wall, res + offsetof(mpp_sim_result, wall_seconds), sizeof wall);
    memcpy(&nodes, res + offsetof(mpp_sim_result, nodes), sizeof nodes);
    if (!isfinite(wall) || wall < 0)
        return mpp_err_set(err, MPP_EFORMAT, "result.wall_seconds is %g: negative or not finite",
                           wall);

    /* the arrays */
    const unsigned char *q = res + rs;
    for (uint64_t k = 0; k < h->nchannels; k++, q += sizeof(mpp_channel_info)) {
        mpp_channel_info ci;
        memcpy(&ci, q, sizeof ci);
        int rc = record_name(ci.from, sizeof ci.from, (size_t)k, "from", err);
        if (rc || (rc = record_name(ci.to, sizeof ci.to, (size_t)k, "to", err)))
            return rc;
        if (!record_real_ok(ci.utilisation))
            return mpp_err_set(err, MPP_EFORMAT,
                               "channel %" PRIu64 ": utilisation %g is negative or infinite", k,
                               ci.utilisation);
    }
    for (uint64_t k = 0; k < h->nflows; k++, q += sizeof(mpp_output_flow)) {
        mpp_output_flow fl;
        memcpy(&fl, q, sizeof fl);
        if (fl.src >= nodes || fl.dst >= nodes)
            return mpp_err_set(err, MPP_EFORMAT,
                               "flow %" PRIu64 ": src %" PRIu32 " or dst %" PRIu32
                               " not below result.nodes %" PRIu32,
                               k, fl.src, fl.dst, nodes);
        if (!fl.flits)
            return mpp_err_set(err, MPP_EFORMAT, "flow %" PRIu64 ": 0 flits (only non-zero "
                               "entries are recorded)", k);
    }
    for (uint64_t k = 0; k < h->nmessages; k++, q += sizeof(mpp_message_record)) {
        mpp_message_record m;
        memcpy(&m, q, sizeof m);
        if (m.src >= nodes || m.dst >= nodes)
            return mpp_err_set(err, MPP_EFORMAT,
                               "message %" PRIu64 ": src %" PRIu32 " or dst %" PRIu32
                               " not below result.nodes %" PRIu32,
                               k, m.src, m.dst, nodes);
        if (!record_real_ok(m.hops))
            return mpp_err_set(err, MPP_EFORMAT,
                               "message %" PRIu64 ": hops %g is negative or infinite", k, m.hops);
    }
    const unsigned char *nul = h->replen ? memchr(q, '\0', (size_t)h->replen) : NULL;
    if (nul)
        return mpp_err_set(err, MPP_EFORMAT, "the report holds a NUL byte (at %zu of %" PRIu64 ")",
                           (size_t)(nul - q), h->replen);
    return 0;
}

int mpp_output_run_unpack(const void *buf, size_t len, uint64_t *run, uint64_t *hash,
                          mpp_output_run *r, mpp_err *err)
{
    mpp_output_run_free(r);
    packed_hdr h;
    int rc = record_check(buf, len, &h, err);
    if (rc)
        return rc;
    const char *p = (const char *)buf + sizeof h;
    memcpy(&r->result, p, sizeof r->result);
    p += sizeof r->result;
    r->nchannels = (size_t)h.nchannels;
    r->nflows = (size_t)h.nflows;
    r->nmessages = (size_t)h.nmessages;
    if ((r->nchannels && !(r->channels = malloc(r->nchannels * sizeof *r->channels))) ||
        (r->nflows && !(r->flows = malloc(r->nflows * sizeof *r->flows))) ||
        (r->nmessages && !(r->messages = malloc(r->nmessages * sizeof *r->messages))) ||
        (h.replen && !(r->report = malloc((size_t)h.replen + 1)))) {
        mpp_output_run_free(r);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory reading a run record");
    }
    if (r->nchannels) /* memcpy from or to NULL is undefined even for 0 bytes */
        memcpy(r->channels, p, r->nchannels * sizeof *r->channels);
    p += r->nchannels * sizeof *r->channels;
    if (r->nflows)
        memcpy(r->flows, p, r->nflows * sizeof *r->flows);
    p += r->nflows * sizeof *r->flows;
    if (r->nmessages)
        memcpy(r->messages, p, r->nmessages * sizeof *r->messages);
    p += r->nmessages * sizeof *r->messages;
    if (h.replen) {
        memcpy(r->report, p, (size_t)h.replen);
        r->report[h.replen] = '\0';
    }
    r->status = h.status;
    r->done = true;
    *run = h.run;
    if (hash)
        *hash = h.hash;
    return 0;
}

int mpp_output_run_collect(mpp_output_run *r, const mpp_sim *s, int status, const char *msg,
                           bool channels, bool matrix, bool messages, mpp_err *err)
{
    mpp_output_run_free(r);
    r->done = true;
    r->status = status;
    r->result = *mpp_sim_result_get(s);
    const char *rep = status == MPP_EDEADLOCK ? mpp_sim_report(s) : "";
    if ((msg && *msg) || (rep && *rep)) {
        mpp_sb t;
        mpp_sb_init(&t);
        if (msg && *msg)
            mpp_sb_add(&t, msg);
        if (msg && *msg && rep && *rep && msg[strlen(msg) - 1] != '\n')
            mpp_sb_addc(&t, '\n');
        if (rep && *rep)
            mpp_sb_add(&t, rep);
        r->report = mpp_sb_ok(&t) ? strdup(t.s) : NULL;
        mpp_sb_free(&t);
        if (!r->report)
            goto fail;
    }
    if (status != 0)
        return 0;
    if (channels) {
        size_t n = mpp_sim_channel_count(s);
        if (n) {
            r->channels = calloc(n, sizeof *r->channels);
            if (!r->channels)
                goto fail;
            for (size_t i = 0; i < n; i++)
                mpp_sim_channel_get(s, i, &r->channels[i]);
        }
        r->nchannels = n;
    }
    const uint64_t *m = matrix ? mpp_sim_traffic_matrix(s) : NULL;
    if (m) {
        uint64_t nodes = mpp_sim_topology(s)->nodes;
        size_t nz = 0;
        for (uint64_t i = 0; i < nodes * nodes; i++)
            nz += m[i] != 0;
        if (nz) {
            r->flows = calloc(nz, sizeof *r->flows);
            if (!r->flows)
                goto fail;
        }
        size_t k = 0;
        for (uint64_t i = 0; i < nodes * nodes; i++) {
            if (m[i]) {
                r->flows[k].src = (uint32_t)(i / nodes);
                r->flows[k].dst = (uint32_t)(i % nodes);
                r->flows[k].flits = m[i];
                k++;
            }
        }
        r->nflows = nz;
    }
    if (messages) {
        size_t n = mpp_sim_message_count(s);
        if (n) {
            r->messages = calloc(n, sizeof *r->messages);
            if (!r->messages)
                goto fail;
            for (size_t i = 0; i < n; i++)
                mpp_sim_message_get(s, i, &r->messages[i]);
        }
        r->nmessages = n;
    }
    return 0;
fail:
    mpp_output_run_free(r);
    return mpp_err_set(err, MPP_ENOMEM, "out of memory collecting the results of a run");
}

/* ---- files ------------------------------------------------------------ */

int mpp_output_mkdir_p(const char *dir, mpp_err *err)
{
    char path[4096];
    size_t n = strlen(dir);
    if (n == 0)
        return mpp_err_set(err, MPP_EIO, "empty output directory name");
    if (n >= sizeof path)
        return mpp_err_set(err, MPP_EIO, "%s: path too long", dir);
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        char c = path[i];
        path[i] = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return mpp_err_set(err, MPP_EIO, "cannot create directory %s: %s", path,
                               strerror(errno));
        path[i] = c;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return mpp_err_set(err, MPP_EIO, "%s exists and is not a directory", dir);
    return 0;
}

int mpp_output_write_atomic(const char *dir, const char *name, const char *data, size_t len,
                            mpp_err *err)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof path)
        return mpp_err_set(err, MPP_EIO, "%.200s.../%s: path too long", dir, name);
    return mpp_file_write_atomic(path, data, len, true, err);
}

/* ---- text pieces ------------------------------------------------------ */

void mpp_output_csv_field(mpp_sb *sb, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        mpp_sb_add(sb, s);
        return;
    }
    mpp_sb_addc(sb, '"');
    for (; *s; s++) {
        if (*s == '"')
            mpp_sb_addc(sb, '"');
        mpp_sb_addc(sb, *s);
    }
    mpp_sb_addc(sb, '"');
}

void mpp_output_field(mpp_sb *sb, const mpp_result_field *f, const mpp_sim_result *r, bool json)
{
    const unsigned char *base = (const unsigned char *)r + f->offset;
    switch (f->type) {
    case MPP_F_U64: {
        uint64_t v;
        memcpy(&v, base, sizeof v);
        mpp_sb_printf(sb, "%" PRIu64, v);
        break;
    }
    case MPP_F_U32: {
        uint32_t v;
        memcpy(&v, base, sizeof v);
        mpp_sb_printf(sb, "%" PRIu32, v);
        break;
    }
    case MPP_F_DOUBLE: {
        double v;
        memcpy(&v, base, sizeof v);
        if (json || isfinite(v))
            mpp_sb_double(sb, v);
        break;
    }
    case MPP_F_BOOL: {
        bool v;
        memcpy(&v, base, sizeof v);
        mpp_sb_add(sb, v ? "true" : "false");
        break;
    }
    }
}

void mpp_output_extra(mpp_sb *sb, const mpp_result_column *c, mpp_value v, bool json)
{
    if (c->type == MPP_F_DOUBLE) {
        if (json || isfinite(v.d))
            mpp_sb_double(sb, v.d);
    } else if (c->type == MPP_F_BOOL) {
        mpp_sb_add(sb, v.u ? "true" : "false");
    } else {
        mpp_sb_printf(sb, "%" PRIu64, v.u);
    }
}

void mpp_output_result_json(mpp_sb *sb, const mpp_sim_result *r, const mpp_workload_ops *w)
{
    mpp_sb_addc(sb, '{');
    for (size_t k = 0; k < mpp_result_nfields; k++) {
        if (k)
            mpp_sb_add(sb, ", ");
        mpp_sb_json_str(sb, mpp_result_fields[k].name);
        mpp_sb_add(sb, ": ");
        mpp_output_field(sb, &mpp_result_fields[k], r, true);
    }
    for (uint32_t k = 0; w && k < w->ncolumns; k++) {
        mpp_sb_add(sb, ", ");
        mpp_sb_json_str(sb, w->columns[k].name);
        mpp_sb_add(sb, ": ");
        mpp_output_extra(sb, &w->columns[k], r->extra[k], true);
    }
    mpp_sb_addc(sb, '}');
}

bool mpp_output_column(const mpp_workload_ops *w, const mpp_sim_result *r, const char *name,
                       mpp_value *v, mpp_field_type *type)
{
    for (size_t k = 0; k < mpp_result_nfields; k++) {
        const mpp_result_field *f = &mpp_result_fields[k];
        if (strcmp(f->name, name))
            continue;
        const unsigned char *base = (const unsigned char *)r + f->offset;
        *type = f->type;
        if (f->type == MPP_F_U64) {
            memcpy(&v->u, base, sizeof v->u);
        } else if (f->type == MPP_F_U32) {
            uint32_t x;
            memcpy(&x, base, sizeof x);
            v->u = x;
            *type = MPP_F_U64;
        } else if (f->type == MPP_F_DOUBLE) {
            memcpy(&v->d, base, sizeof v->d);
        } else {
            bool b;
            memcpy(&b, base, sizeof b);
            v->u = b;
        }
        return true;
    }
    for (uint32_t k = 0; w && k < w->ncolumns; k++)
        if (!strcmp(w->columns[k].name, name)) {
            *type = w->columns[k].type;
            *v = r->extra[k];
            return true;
        }
    return false;
}

/* The workloads' own columns of an experiment: for every workload its runs
 * use, in the order of first use, each of its columns. */
typedef struct extra_col {
    const mpp_workload_ops *w;
    uint32_t k;
} extra_col;

static extra_col *extra_columns(const mpp_experiment *e, size_t *n)
{
    size_t nruns = mpp_experiment_runs(e), cap = 0;
    extra_col *c = NULL;
    *n = 0;
    for (size_t i = 0; i < nruns; i++) {
        const mpp_workload_ops *w = mpp_experiment_config(e, i)->workload.ops;
        bool seen = !w || !w->ncolumns;
        for (size_t j = 0; j < *n && !seen; j++)
            seen = c[j].w == w;
        if (seen)
            continue;
        if (*n + w->ncolumns > cap) {
            cap = 2 * cap + w->ncolumns;
            extra_col *g = realloc(c, cap * sizeof *g);
            if (!g)
                break; /* out of memory: the columns that fit */
            c = g;
        }
        for (uint32_t k = 0; k < w->ncolumns; k++)
            c[(*n)++] = (extra_col){w, k};
    }
    return c;
}

/* True when s is a JSON number (RFC 8259 grammar). */
static bool is_json_number(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9')
            s++;
    else
        return false;
    if (*s == '.') {
        s++;
        if (!(*s >= '0' && *s <= '9'))
            return false;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!(*s >= '0' && *s <= '9'))
            return false;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

void mpp_output_json_value(mpp_sb *sb, const char *text)
{
    if (is_json_number(text) || !strcmp(text, "true") || !strcmp(text, "false") ||
        !strcmp(text, "null"))
        mpp_sb_add(sb, text);
    else
        mpp_sb_json_str(sb, text);
}

static bool run_ok(const mpp_output_run *r) { return r->done && r->status == 0; }

/* True when result field k has the name of one of the fixed leading CSV
 * columns (the result's own seed duplicates the run's seed column). */
static bool fixed_column(const char *name)
{
    return !strcmp(name, "run") || !strcmp(name, "seed") || !strcmp(name, "config_hash");
}

/* ---- results.csv / results.json -------------------------------------- */

void mpp_output_results_csv(mpp_sb *sb, const mpp_experiment *e, const mpp_output_run *runs,
                            size_t nruns)
{
    size_t naxes = mpp_experiment_axes(e);
    mpp_sb_add(sb, "run");
    for (size_t a = 0; a < naxes; a++) {
        mpp_sb_addc(sb, ',');
        mpp_output_csv_field(sb, mpp_experiment_axis(e, a));
    }
    mpp_sb_add(sb, ",seed,config_hash");
    for (size_t k = 0; k < mpp_result_nfields; k++) {
        if (fixed_column(mpp_result_fields[k].name))
            continue;
        mpp_sb_addc(sb, ',');
        mpp_output_csv_field(sb, mpp_result_fields[k].name);
    }
    size_t nextra;
    extra_col *extra = extra_columns(e, &nextra);
    for (size_t x = 0; x < nextra; x++) {
        mpp_sb_addc(sb, ',');
        mpp_output_csv_field(sb, extra[x].w->columns[extra[x].k].name);
    }
    mpp_sb_addc(sb, '\n');
    for (size_t i = 0; i < nruns; i++) {
        if (!run_ok(&runs[i]))
            continue;
        mpp_sb_printf(sb, "%zu", i);
        for (size_t a = 0; a < naxes; a++) {
            mpp_sb_addc(sb, ',');
            mpp_output_csv_field(sb, mpp_experiment_value(e, i, a));
        }
        mpp_sb_printf(sb, ",%" PRIu64 ",%016" PRIx64, mpp_experiment_config(e, i)->run.seed,
                      mpp_experiment_hash(e, i));
        for (size_t k = 0; k < mpp_result_nfields; k++) {
            if (fixed_column(mpp_result_fields[k].name))
                continue;
            mpp_sb_addc(sb, ',');
            mpp_output_field(sb, &mpp_result_fields[k], &runs[i].result, false);
        }
        const mpp_workload_ops *w = mpp_experiment_config(e, i)->workload.ops;
        for (size_t x = 0; x < nextra; x++) {
            mpp_sb_addc(sb, ',');
            if (extra[x].w == w)
                mpp_output_extra(sb, &w->columns[extra[x].k], runs[i].result.extra[extra[x].k],
                                 false);
        }
        mpp_sb_addc(sb, '\n');
    }
    free(extra);
}

void mpp_output_results_json(mpp_sb *sb, const char *version, const mpp_experiment *e,
                             const mpp_output_run *runs, size_t nruns)
{
    size_t naxes = mpp_experiment_axes(e);
    mpp_sb_add(sb, "{\n  \"mppnet\": ");
    mpp_sb_json_str(sb, version);
    mpp_sb_add(sb, ",\n  \"experiment\": ");
    mpp_sb_json_str(sb, mpp_experiment_name(e));
    mpp_sb_add(sb, ",\n  \"runs\": [");
    bool first = true;
    for (size_t i = 0; i < nruns; i++) {
        if (!run_ok(&runs[i]))
            continue;
        mpp_sb_add(sb, first ? "\n" : ",\n");
        first = false;
        mpp_sb_printf(sb, "    {\n      \"run\": %zu,\n      \"axes\": {", i);
        for (size_t a = 0; a < naxes; a++) {
            if (a)
                mpp_sb_add(sb, ", ");
            mpp_sb_json_str(sb, mpp_experiment_axis(e, a));
            mpp_sb_add(sb, ": ");
            mpp_output_json_value(sb, mpp_experiment_value(e, i, a));
        }
        mpp_sb_printf(sb, "},\n      \"seed\": %" PRIu64 ",\n",
                      mpp_experiment_config(e, i)->run.seed);
        mpp_sb_printf(sb, "      \"config_hash\": \"%016" PRIx64 "\",\n",
                      mpp_experiment_hash(e, i));
        mpp_sb_add(sb, "      \"config\": ");
        mpp_experiment_config_json(e, i, sb);
        mpp_sb_add(sb, ",\n      \"result\": ");
        mpp_output_result_json(sb, &runs[i].result, mpp_experiment_config(e, i)->workload.ops);
        /* The only host-dependent text: alone on its line, last in the
         * object, so `grep -v wall_seconds` leaves deterministic JSON-ish
         * text to compare. */
        mpp_sb_add(sb, ",\n      \"timing\": {\"wall_seconds\": ");
        mpp_sb_double(sb, runs[i].result.wall_seconds);
        mpp_sb_add(sb, "}\n    }");
    }
    mpp_sb_add(sb, first ? "]\n}\n" : "\n  ]\n}\n");
}

void mpp_output_channels_csv(mpp_sb *sb, const mpp_output_run *runs, size_t nruns)
{
    mpp_sb_add(sb, "run,from,to,flits,utilisation\n");
    for (size_t i = 0; i < nruns; i++) {
        if (!run_ok(&runs[i]))
            continue;
        for (size_t c = 0; c < runs[i].nchannels; c++) {
            const mpp_channel_info *ch = &runs[i].channels[c];
            mpp_sb_printf(sb, "%zu,", i);
            mpp_output_csv_field(sb, ch->from);
            mpp_sb_addc(sb, ',');
            mpp_output_csv_field(sb, ch->to);
            mpp_sb_printf(sb, ",%" PRIu64 ",", ch->flits);
            if (isfinite(ch->utilisation))
                mpp_sb_double(sb, ch->utilisation);
            mpp_sb_addc(sb, '\n');
        }
    }
}

void mpp_output_matrix_csv(mpp_sb *sb, const mpp_output_run *runs, size_t nruns)
{
    mpp_sb_add(sb, "run,src,dst,flits\n");
    for (size_t i = 0; i < nruns; i++) {
        if (!run_ok(&runs[i]))
            continue;
        for (size_t k = 0; k < runs[i].nflows; k++) {
            const mpp_output_flow *f = &runs[i].flows[k];
            mpp_sb_printf(sb, "%zu,%" PRIu32 ",%" PRIu32 ",%" PRIu64 "\n", i, f->src, f->dst,
                          f->flits);
        }
    }
}

/* Append a time in network cycles as microseconds (cycles / net_mhz), or
 * nothing (an empty CSV field) when the clock is unknown. */
static void add_us(mpp_sb *sb, uint64_t cycles, double net_mhz)
{
    if (net_mhz > 0)
        mpp_sb_double(sb, (double)cycles / net_mhz);
}

void mpp_output_messages_csv(mpp_sb *sb, const mpp_experiment *e, const mpp_output_run *runs,
                             size_t nruns)
{
    bool us = false;
    for (size_t i = 0; i < mpp_experiment_runs(e); i++)
        if (mpp_experiment_config(e, i)->net.net_mhz > 0)
            us = true;
    mpp_sb_add(sb, "run,src,dst,bytes,packets,issue,first_inject,delivered,cycles,hops");
    mpp_sb_add(sb, us ? ",issue_us,first_inject_us,delivered_us\n" : "\n");
    for (size_t i = 0; i < nruns; i++) {
        if (!run_ok(&runs[i]))
            continue;
        double mhz = i < mpp_experiment_runs(e) ? mpp_experiment_config(e, i)->net.net_mhz : 0;
        for (size_t k = 0; k < runs[i].nmessages; k++) {
            const mpp_message_record *m = &runs[i].messages[k];
            mpp_sb_printf(sb,
                          "%zu,%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu32 ",%" PRIu64
                          ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
                          i, m->src, m->dst, m->bytes, m->packets, m->issue, m->first_inject,
                          m->delivered, m->delivered - m->issue);
            if (isfinite(m->hops))
                mpp_sb_double(sb, m->hops);
            if (us) {
                mpp_sb_addc(sb, ',');
                add_us(sb, m->issue, mhz);
                mpp_sb_addc(sb, ',');
                add_us(sb, m->first_inject, mhz);
                mpp_sb_addc(sb, ',');
                add_us(sb, m->delivered, mhz);
            }
            mpp_sb_addc(sb, '\n');
        }
    }
}

/* Write sb's text to the entry name of the open folder dirfd (shown as
 * dir); MPP_ENOMEM when building it failed. */
static int write_sb(int dirfd, const char *dir, const char *name, const mpp_sb *sb, bool durable,
                    mpp_err *err)
{
    if (!mpp_sb_ok(sb))
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building %s/%s", dir, name);
    return mpp_file_write_atomic_at(dirfd, dir, name, sb->s, sb->len, durable, err);
}

int mpp_output_write_all(int dirfd, const char *dir, const char *version, const mpp_experiment *e,
                         const mpp_output_run *runs, size_t nruns, bool durable, mpp_err *err)
{
    const mpp_output_config *oc = mpp_experiment_output(e);
    int rc = 0;
    mpp_sb sb;
    mpp_sb_init(&sb);
    mpp_output_results_csv(&sb, e, runs, nruns);
    rc = write_sb(dirfd, dir, "results.csv", &sb, durable, err);
    if (!rc) {
        mpp_sb_reset(&sb);
        mpp_output_results_json(&sb, version, e, runs, nruns);
        rc = write_sb(dirfd, dir, "results.json", &sb, durable, err);
    }
    if (!rc && oc->per_channel) {
        mpp_sb_reset(&sb);
        mpp_output_channels_csv(&sb, runs, nruns);
        rc = write_sb(dirfd, dir, "channels.csv", &sb, durable, err);
    }
    if (!rc && oc->traffic_matrix) {
        mpp_sb_reset(&sb);
        mpp_output_matrix_csv(&sb, runs, nruns);
        rc = write_sb(dirfd, dir, "matrix.csv", &sb, durable, err);
    }
    if (!rc && oc->per_message) {
        mpp_sb_reset(&sb);
        mpp_output_messages_csv(&sb, e, runs, nruns);
        rc = write_sb(dirfd, dir, "messages.csv", &sb, durable, err);
    }
    mpp_sb_free(&sb);
    return rc;
}

/* ---- gnuplot pieces shared with core/cli/plot.c ------------------------------ */

void mpp_output_gp_string(mpp_sb *sb, const char *s)
{
    /* gnuplot expands backquotes and backslash escapes inside double
     * quotes, never inside single quotes, where the only special character
     * is the quote itself, written twice. A line break would end the
     * command: control characters become spaces. */
    mpp_sb_addc(sb, '\'');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'')
            mpp_sb_add(sb, "''");
        else
            mpp_sb_addc(sb, c < 0x20 || c == 0x7f ? ' ' : (char)c);
    }
    mpp_sb_addc(sb, '\'');
}

int mpp_output_gnuplot_at(int dirfd, const char *dir, const char *gp, const char *png,
                          bool quiet, mpp_err *err)
{
    char prog[4096], tmp[300], fin[4400];
    if (!mpp_output_find_program("gnuplot", prog, sizeof prog))
        return mpp_err_set(err, MPP_ERUN,
                           "gnuplot is not in a folder of PATH given as an absolute path");
    mpp_sb prefix, arg;
    mpp_sb_init(&prefix);
    mpp_sb_init(&arg);
    mpp_sb_printf(&prefix, ".%s", png);
    int rc = mpp_sb_ok(&prefix) ? mpp_file_temp_at(dirfd, dir, prefix.s, tmp, sizeof tmp, err)
                                : mpp_err_set(err, MPP_ENOMEM, "out of memory");
    mpp_sb_free(&prefix);
    if (rc)
        return rc;
    mpp_sb_add(&arg, "outfile=");
    mpp_output_gp_string(&arg, tmp);
    snprintf(fin, sizeof fin, "%s%s%s", dir, dir[0] ? "/" : "", png);
    if (!mpp_sb_ok(&arg)) {
        unlinkat(dirfd, tmp, 0);
        mpp_sb_free(&arg);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory");
    }
    char *const argv[] = {"gnuplot", "-e", arg.s, (char *)gp, NULL};
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        rc = mpp_err_set(err, MPP_EIO, "cannot start gnuplot: %s", strerror(errno));
    } else if (pid == 0) {
        /* the absolute path found before the fork: nothing in the output
         * folder is run */
        if (fchdir(dirfd) != 0)
            _exit(127);
        FILE *nul = freopen("/dev/null", "w", stdout);
        if (quiet)
            nul = freopen("/dev/null", "w", stderr);
        (void)nul;
        execv(prog, argv);
        _exit(127);
    } else {
        int st = 0;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        struct stat sst;
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
            fstatat(dirfd, tmp, &sst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sst.st_mode) &&
            sst.st_size > 0 && renameat(dirfd, tmp, dirfd, png) == 0)
            rc = 0;
        else
            rc = mpp_err_set(err, MPP_ERUN, "gnuplot could not draw %s from %s%s%s", fin, dir,
                             dir[0] ? "/" : "", gp);
    }
    if (rc)
        unlinkat(dirfd, tmp, 0);
    mpp_sb_free(&arg);
    return rc;
}

int mpp_output_gnuplot(const char *dir, const char *gp, const char *png, bool quiet, mpp_err *err)
{
    int dfd = mpp_file_open_dir(dir, false, false, err);
    if (dfd < 0)
        return dfd;
    int rc = mpp_output_gnuplot_at(dfd, strcmp(dir, ".") ? dir : "", gp, png, quiet, err);
    close(dfd);
    return rc;
}

void mpp_output_gp_terminal(mpp_sb *sb, int height)
{
    mpp_sb_printf(sb, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
                      "    set terminal pngcairo size 900,%d noenhanced\n"
                      "} else {\n"
                      "    set terminal png size 900,%d noenhanced\n"
                      "}\n", height, height);
}

bool mpp_output_find_program(const char *prog, char *buf, size_t size)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    for (const char *p = path;;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        /* an empty or relative entry names a folder relative to wherever
         * the program runs (the output folder, for gnuplot): skipped */
        if (n && p[0] == '/') {
            int l = snprintf(buf, size, "%.*s/%s", (int)n, p, prog);
            struct stat st;
            if (l > 0 && (size_t)l < size && stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
                access(buf, X_OK) == 0)
                return true;
        }
        if (!colon)
            return false;
        p = colon + 1;
    }
}

bool mpp_output_on_path(const char *prog)
{
    char buf[4096];
    return mpp_output_find_program(prog, buf, sizeof buf);
}
