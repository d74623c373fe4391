/* core/program.c — the program builder (see program.h). Programs grow by
 * doubling; a node's ops stay contiguous so prog[i] can be handed to the
 * engine as it is. */
#include "core/program.h"

#include <stdlib.h>
#include <string.h>

int mpp_progbuild_init(mpp_progbuild *b, uint32_t n, mpp_err *err)
{
    memset(b, 0, sizeof *b);
    b->prog = calloc(n ? n : 1, sizeof *b->prog);
    b->cap = calloc(n ? n : 1, sizeof *b->cap);
    if (!b->prog || !b->cap) {
        mpp_progbuild_free(b);
        return mpp_err_set(err, MPP_ENOMEM, "out of memory building node programs");
    }
    b->n = n;
    return 0;
}

int mpp_progbuild_add(mpp_progbuild *b, uint32_t node, mpp_op op, mpp_err *err)
{
    mpp_program *p = &b->prog[node];
    if (p->len == b->cap[node]) {
        uint32_t cap = b->cap[node] ? b->cap[node] * 2 : 8;
        mpp_op *o = realloc((mpp_op *)p->ops, cap * sizeof *o);
        if (!o)
            return mpp_err_set(err, MPP_ENOMEM, "out of memory building node programs");
        p->ops = o;
        b->cap[node] = cap;
    }
    ((mpp_op *)p->ops)[p->len++] = op;
    return 0;
}

void mpp_progbuild_free(mpp_progbuild *b)
{
    if (b->prog)
        for (uint32_t i = 0; i < b->n; i++)
            free((mpp_op *)b->prog[i].ops);
    free(b->prog);
    free(b->cap);
    memset(b, 0, sizeof *b);
}
