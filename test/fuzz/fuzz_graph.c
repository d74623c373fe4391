/* test/fuzz/fuzz_graph.c — libFuzzer harness of the METIS graph reader (the
 * graph behind `com gen mesh`): any input is read or refused with a
 * FILE:LINE message; a graph that reads holds the invariants of
 * mpp_partition_graph_check, and the ghost-exchange COM of a two-way
 * partition of it is a valid matrix. Inputs that start like a gmsh mesh
 * belong to fuzz_mesh. */
#include "test/fuzz/fuzz_util.h"

#include "traces/partition.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 11 && memcmp(data, "$MeshFormat", 11) == 0)
        return 0;
    mpp_partition_graph g;
    mpp_err err;
    if (mpp_partition_read_graph(fuzz_file(data, size, NULL), &g, &err)) {
        if (!err.msg[0])
            abort(); /* a failure must say why */
        return 0;
    }
    if (!mpp_partition_graph_check(&g))
        abort();
    uint32_t *part = malloc(((size_t)g.n + 1) * sizeof *part);
    if (!part)
        abort();
    for (uint32_t v = 0; v < g.n; v++)
        part[v] = v % 2;
    mpp_com com;
    if (mpp_partition_com(&g, 2, part, &com, &err) == 0) {
        if (!mpp_com_check(&com))
            abort();
        mpp_com_free(&com);
    } else if (!err.msg[0]) {
        abort();
    }
    free(part);
    mpp_partition_graph_free(&g);
    return 0;
}
