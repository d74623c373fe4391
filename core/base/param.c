/* core/base/param.c — values of schema rows from text, and schema defaults
 * (see param.h). The forms accepted are the documented ones
 * (docs/config.md, "Value forms"); core/config/cfgtree.c uses the same
 * functions for YAML scalars, so a default and a value in a file are read
 * by one parser. */
#include "core/base/param.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "core/base/units.h"

const mpp_param *mpp_schema_find(const mpp_schema *s, const char *key)
{
    for (size_t i = 0; i < s->nparams; i++)
        if (!strcmp(s->params[i].key, key))
            return &s->params[i];
    return NULL;
}

bool mpp_param_has_upper(const mpp_param *p)
{
    return p->max >= p->min && !(p->min == 0 && p->max == 0);
}

void mpp_param_int_bounds(const mpp_param *p, uint64_t *lo, uint64_t *hi)
{
    uint64_t tmax = p->type == MPP_PT_U32 || p->type == MPP_PT_U32LIST ? UINT32_MAX : UINT64_MAX;
    *lo = p->min > 0 ? (uint64_t)ceil(p->min) : 0;
    *hi = tmax;
    if (mpp_param_has_upper(p) && p->max < (double)tmax)
        *hi = p->max < 0 ? 0 : (uint64_t)floor(p->max);
}

/* An integer-typed value of row p (U32, U64, BYTES, CYCLES, list items). */
static int int_value(const mpp_param *p, const char *text, double net_mhz, uint64_t *out)
{
    mpp_units_kind kind = p->type == MPP_PT_BYTES    ? MPP_UNITS_BYTES
                          : p->type == MPP_PT_CYCLES ? MPP_UNITS_TIME
                                                     : MPP_UNITS_PLAIN;
    uint64_t v, lo, hi;
    int rc = mpp_units_int(text, kind, net_mhz, &v);
    if (rc)
        return rc;
    mpp_param_int_bounds(p, &lo, &hi);
    if (v < lo || v > hi)
        return MPP_UNITS_BAD;
    *out = v;
    return MPP_UNITS_OK;
}

/* One item of a list of row p's type (integers, or true / false for a
 * bool list) into *out. */
static int list_item(const mpp_param *p, const char *text, uint32_t *out)
{
    if (p->type == MPP_PT_BOOLLIST) {
        if (strcmp(text, "true") && strcmp(text, "false"))
            return MPP_UNITS_BAD;
        *out = text[0] == 't';
        return MPP_UNITS_OK;
    }
    mpp_param item = *p;
    item.type = MPP_PT_U32;
    uint64_t v = 0;
    int rc = int_value(&item, text, 0, &v);
    *out = (uint32_t)v;
    return rc;
}

/* "[a, b, c]" (a flow list of row p's items) into l; "[]" is empty. */
static int list_value(const mpp_param *p, const char *text, mpp_u32list *l)
{
    memset(l, 0, sizeof *l);
    size_t n = strlen(text);
    if (n < 2 || text[0] != '[' || text[n - 1] != ']')
        return MPP_UNITS_BAD;
    const char *c = text + 1, *end = text + n - 1;
    while (c < end && *c == ' ')
        c++;
    while (c < end) {
        char buf[32];
        size_t k = 0;
        while (c < end && *c != ',' && *c != ' ' && k + 1 < sizeof buf)
            buf[k++] = *c++;
        buf[k] = '\0';
        if (l->n == MPP_U32LIST_MAX || list_item(p, buf, &l->v[l->n]))
            return MPP_UNITS_BAD;
        l->n++;
        while (c < end && (*c == ' ' || *c == ','))
            c++;
    }
    return MPP_UNITS_OK;
}

int mpp_param_set_text(const mpp_param *p, const char *text, double net_mhz, void *base)
{
    char *dst = (char *)base + p->offset;
    uint64_t v;
    int rc;
    switch (p->type) {
    case MPP_PT_U32: {
        if ((rc = int_value(p, text, net_mhz, &v)))
            return rc;
        uint32_t w = (uint32_t)v;
        memcpy(dst, &w, sizeof w);
        return MPP_UNITS_OK;
    }
    case MPP_PT_U64:
    case MPP_PT_BYTES:
    case MPP_PT_CYCLES:
        if ((rc = int_value(p, text, net_mhz, &v)))
            return rc;
        memcpy(dst, &v, sizeof v);
        return MPP_UNITS_OK;
    case MPP_PT_DOUBLE: {
        double d;
        if (!mpp_units_double(text, &d) || d < p->min || (mpp_param_has_upper(p) && d > p->max))
            return MPP_UNITS_BAD;
        memcpy(dst, &d, sizeof d);
        return MPP_UNITS_OK;
    }
    case MPP_PT_BOOL: {
        if (strcmp(text, "true") != 0 && strcmp(text, "false") != 0)
            return MPP_UNITS_BAD;
        bool b = text[0] == 't';
        memcpy(dst, &b, sizeof b);
        return MPP_UNITS_OK;
    }
    case MPP_PT_ENUM:
        for (int i = 0; p->choices && p->choices[i]; i++)
            if (!strcmp(p->choices[i], text)) {
                memcpy(dst, &i, sizeof i);
                return MPP_UNITS_OK;
            }
        return MPP_UNITS_BAD;
    case MPP_PT_U32LIST:
    case MPP_PT_BOOLLIST: {
        /* a flow list, or one value (a list of one) */
        mpp_u32list l;
        if (text[0] == '[') {
            if ((rc = list_value(p, text, &l)))
                return rc;
        } else {
            memset(&l, 0, sizeof l);
            if ((rc = list_item(p, text, &l.v[0])))
                return rc;
            l.n = 1;
        }
        memcpy(dst, &l, sizeof l);
        return MPP_UNITS_OK;
    }
    case MPP_PT_SENDLIST: {
        /* only the empty list has a text form; lists come from YAML */
        if (strcmp(text, "[]") != 0)
            return MPP_UNITS_BAD;
        memset(dst, 0, sizeof(mpp_sendlist));
        return MPP_UNITS_OK;
    }
    case MPP_PT_STRING: {
        size_t n = strlen(text);
        if (n >= 2 && text[0] == '"' && text[n - 1] == '"') {
            text++;
            n -= 2;
        }
        if (n >= MPP_STR_MAX)
            return MPP_UNITS_BAD;
        memset(dst, 0, MPP_STR_MAX);
        memcpy(dst, text, n);
        return MPP_UNITS_OK;
    }
    case MPP_PT_NAMEMAP: {
        /* the stored form, or an empty mapping */
        if (!strcmp(text, "{}"))
            text = "";
        if (!mpp_namemap_valid(text))
            return MPP_UNITS_BAD;
        memset(dst, 0, MPP_STR_MAX);
        memcpy(dst, text, strlen(text));
        return MPP_UNITS_OK;
    }
    case MPP_PT_PLUGIN:
        break;
    }
    return MPP_UNITS_BAD;
}

/* A name of a name map: its length (1..MPP_NAMEMAP_NAME_MAX) when s starts
 * with one (ended by '=', ',' or the end), else 0. */
static size_t namemap_name(const char *s)
{
    size_t n = 0;
    while (s[n] && s[n] != '=' && s[n] != ',') {
        char c = s[n];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '+' || c == '-'))
            return 0;
        if (++n > MPP_NAMEMAP_NAME_MAX)
            return 0;
    }
    return n;
}

bool mpp_namemap_valid(const char *text)
{
    if (strlen(text) >= MPP_STR_MAX)
        return false;
    for (const char *p = text; *p;) {
        size_t k = namemap_name(p);
        if (!k || p[k] != '=')
            return false;
        size_t v = namemap_name(p + k + 1);
        if (!v)
            return false;
        /* the same key earlier? */
        for (const char *q = text; q < p;) {
            size_t kq = namemap_name(q);
            if (kq == k && !memcmp(q, p, k))
                return false;
            q = strchr(q, ',') + 1;
        }
        p += k + 1 + v;
        if (*p == ',' && !*++p)
            return false;
    }
    return true;
}

int mpp_namemap_next(const char **pos, char *key, char *val)
{
    const char *p = *pos;
    if (!*p)
        return 0;
    size_t k = namemap_name(p);
    memcpy(key, p, k);
    key[k] = '\0';
    p += k + 1;
    size_t v = namemap_name(p);
    memcpy(val, p, v);
    val[v] = '\0';
    p += v;
    *pos = *p == ',' ? p + 1 : p;
    return 1;
}

void mpp_schema_defaults(const mpp_schema *s, void *base)
{
    memset(base, 0, s->size);
    for (size_t i = 0; i < s->nparams; i++) {
        const mpp_param *p = &s->params[i];
        if (!p->def || p->type == MPP_PT_PLUGIN)
            continue;
        int rc = mpp_param_set_text(p, p->def, 0, base);
        assert(rc == MPP_UNITS_OK && "a schema default does not satisfy its own row");
        (void)rc;
    }
}
