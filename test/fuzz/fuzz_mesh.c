/* test/fuzz/fuzz_mesh.c — libFuzzer harness of the gmsh mesh reader
 * (ASCII 2.2 and 4.1): the input follows a `$MeshFormat` line (prepended
 * when missing, so every execution reaches the mesh parser); it is read or
 * refused with a FILE:LINE message, and a mesh that reads is a graph that
 * holds the invariants of mpp_partition_graph_check; read again with its
 * elements (mpp_partition_read_mesh), it reads too, holds the invariants of
 * mpp_partition_mesh_check and has the graph's vertices. */
#include "test/fuzz/fuzz_util.h"

#include "traces/partition.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char head[] = "$MeshFormat\n";
    const size_t hn = sizeof head - 1;
    int has = size >= hn - 1 && memcmp(data, head, hn - 1) == 0;
    uint8_t *buf = malloc(size + hn);
    if (!buf)
        abort();
    size_t n = 0;
    if (!has) {
        memcpy(buf, head, hn);
        n = hn;
    }
    if (size)
        memcpy(buf + n, data, size);
    n += size;
    mpp_partition_graph g;
    mpp_err err;
    const char *path = fuzz_file(buf, n, NULL);
    free(buf);
    mpp_partition_mesh m;
    int rg = mpp_partition_read_graph(path, &g, &err);
    if (rg && !err.msg[0])
        abort(); /* a failure must say why */
    int rm = mpp_partition_read_mesh(path, &m, &err);
    if (rm && !err.msg[0])
        abort();
    if (!rg != !rm)
        abort(); /* the same parser: both read or neither */
    if (rg)
        return 0;
    if (!mpp_partition_graph_check(&g) || !mpp_partition_mesh_check(&m) || m.nverts != g.n)
        abort();
    mpp_partition_graph_free(&g);
    mpp_partition_mesh_free(&m);
    return 0;
}
