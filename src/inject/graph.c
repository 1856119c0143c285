/* graph.c - kernels launched from CUDA graphs (cuGraphLaunch: the
 * application's own graphs, torch.compile's "reduce-overhead", CUDA-graph
 * inference servers).  No launch callback sees them, so nothing can
 * replay them for counters (the Range Profiler's kernel replay works on
 * the launches it is called for; docs/cupti.md section 6); but each
 * node's Activity record carries its kernel, launch shape and graph and
 * node ids.  Each node gets a row the first time it runs (its counters NA,
 * status saying why), and every run of it a line in the times file. */
#include <stdlib.h>
#include <string.h>

#include "state.h"

typedef struct {
    uint32_t graph;
    uint64_t node;
    int used, traced;
} graph_node;

static graph_node *nodes;               /* open addressing; the caller's lock */
static size_t nodes_cap, nodes_n;

static graph_node *find(graph_node *v, size_t cap, uint32_t graph, uint64_t node)
{
    size_t h = (size_t)((node * 0x9E3779B97F4A7C15ull) ^ graph) % cap;
    while (v[h].used && (v[h].graph != graph || v[h].node != node))
        h = (h + 1) % cap;
    return &v[h];
}

static int grow(void)
{
    size_t cap = nodes_cap ? 2 * nodes_cap : 256;
    graph_node *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < nodes_cap; i++)
        if (nodes[i].used)
            *find(t, cap, nodes[i].graph, nodes[i].node) = nodes[i];
    free(nodes);
    nodes = t;
    nodes_cap = cap;
    return 0;
}

/* The node's row: what the record says of the kernel and its launch. */
static void write_row(const CUpti_ActivityKernel10 *k, const char *name)
{
    gp_trace_launch l;
    memset(&l, 0, sizeof l);
    l.name = name;
    l.grid[0] = (unsigned)k->gridX, l.grid[1] = (unsigned)k->gridY, l.grid[2] = (unsigned)k->gridZ;
    l.block[0] = (unsigned)k->blockX, l.block[1] = (unsigned)k->blockY;
    l.block[2] = (unsigned)k->blockZ;
    l.cluster[0] = k->clusterX, l.cluster[1] = k->clusterY, l.cluster[2] = k->clusterZ;
    l.pid = gp_inj.pid;
    l.rank = gp_inj.rank;
    l.ranks = gp_inj.ranks;
    l.correlation_id = k->correlationId;
    l.regs = k->registersPerThread;
    l.local_bytes = (int)k->localMemoryPerThread;
    l.static_smem = k->staticSharedMemory;
    l.dyn_smem = k->dynamicSharedMemory;
    l.active_blocks = -1;               /* no CUfunction to ask the driver */
    gp_row r;
    gp_trace_launch_row(&l, &r);
    r.graph_id = k->graphId;
    r.graph_node_id = (long)k->graphNodeId;
    r.profiled = 0;
    snprintf(r.status, sizeof r.status, "%s", GP_TRACE_GRAPH_STATUS);
    gp_row_derive(&r);
    pthread_mutex_lock(&gp_inj.lock);
    gp_inject_part_row(&r);
    pthread_mutex_unlock(&gp_inj.lock);
}

int gp_inject_graph_node(const CUpti_ActivityKernel10 *k)
{
    if ((nodes_n + 1) * 2 > nodes_cap && grow() != 0) {
        gp_inject_out_of_memory("the list of CUDA graph nodes");
        return 0;
    }
    graph_node *g = find(nodes, nodes_cap, k->graphId, k->graphNodeId);
    if (g->used)
        return g->traced;
    char *name = gp_inject_demangle(k->name);
    *g = (graph_node){ k->graphId, k->graphNodeId, 1, 0 };
    nodes_n++;
    if (!name) {
        gp_inject_out_of_memory("a graph kernel's name");
        return 0;
    }
    g->traced = gp_trace_filter_matches(&gp_inj.filter, name);
    if (g->traced)
        write_row(k, name);
    free(name);
    return g->traced;
}
