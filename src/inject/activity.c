/* activity.c - durations of every timed launch from the CUPTI Activity
 * API (concurrent kernel records: GPU timestamps, no counters involved),
 * in the same run, unserialized.  Records arrive in buffers, on CUPTI's
 * thread or in a flush; each timed launch's goes to "<part>.times" as one
 * short line (inject.h says the format), which gemmprof joins with the
 * rows when it merges.  A launch is known by its correlation id, kept from
 * its launch callback until its record is written; kernels of CUDA graphs
 * have no launch callback and come with their graph and node ids. */
#include <stdlib.h>
#include <string.h>

#include "state.h"

#define BUFFER_BYTES (4u << 20)

enum { UNPROFILED = 1, PROFILED, GRAPH_LAUNCH };

typedef struct {
    uint32_t corr;              /* 0: empty */
    uint32_t first;             /* the configuration's first launch */
    uint32_t kind;
} wanted_launch;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *times;
static wanted_launch *wanted;           /* open addressing, linear probing */
static size_t wanted_cap, wanted_n;
static int graphs_filtered;             /* --nvtx-include: only graph launches
                                           inside the range are timed */

static size_t slot(uint32_t id, size_t cap)
{
    return (id * 2654435761u) % cap;
}

static wanted_launch *wanted_find(uint32_t id)
{
    if (!wanted_cap)
        return NULL;
    for (size_t h = slot(id, wanted_cap); wanted[h].corr; h = (h + 1) % wanted_cap)
        if (wanted[h].corr == id)
            return &wanted[h];
    return NULL;
}

/* Backward-shift deletion keeps every probe chain unbroken. */
static void wanted_remove(wanted_launch *w)
{
    size_t i = (size_t)(w - wanted), j = i;
    for (;;) {
        wanted[i].corr = 0;
        for (;;) {
            j = (j + 1) % wanted_cap;
            if (!wanted[j].corr) {
                wanted_n--;
                return;
            }
            size_t h = slot(wanted[j].corr, wanted_cap);
            /* move j back to i unless its home lies cyclically in (i, j] */
            if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
                continue;
            wanted[i] = wanted[j];
            i = j;
            break;
        }
    }
}

static void wanted_put(uint32_t id, uint32_t first, uint32_t kind)
{
    if ((wanted_n + 1) * 2 > wanted_cap) {
        size_t cap = wanted_cap ? 2 * wanted_cap : 4096;
        wanted_launch *t = calloc(cap, sizeof *t);
        if (!t) {
            gp_inject_out_of_memory("the list of launches to time");
            return;
        }
        for (size_t i = 0; i < wanted_cap; i++)
            if (wanted[i].corr) {
                size_t h = slot(wanted[i].corr, cap);
                while (t[h].corr)
                    h = (h + 1) % cap;
                t[h] = wanted[i];
            }
        free(wanted);
        wanted = t;
        wanted_cap = cap;
    }
    size_t h = slot(id, wanted_cap);
    while (wanted[h].corr && wanted[h].corr != id)
        h = (h + 1) % wanted_cap;
    if (!wanted[h].corr)
        wanted_n++;
    wanted[h] = (wanted_launch){ id, first, kind };
}

void gp_inject_activity_want(uint32_t correlation_id, uint32_t first_corr, int profiled)
{
    if (correlation_id == 0)
        return;
    pthread_mutex_lock(&lock);
    wanted_put(correlation_id, first_corr ? first_corr : correlation_id,
               profiled ? PROFILED : UNPROFILED);
    pthread_mutex_unlock(&lock);
}

void gp_inject_activity_want_graph(uint32_t correlation_id)
{
    if (correlation_id == 0)
        return;
    pthread_mutex_lock(&lock);
    graphs_filtered = 1;
    wanted_put(correlation_id, correlation_id, GRAPH_LAUNCH);
    pthread_mutex_unlock(&lock);
}

void gp_inject_activity_filter_graphs(void)
{
    pthread_mutex_lock(&lock);
    graphs_filtered = 1;
    pthread_mutex_unlock(&lock);
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    if (!*buffer)                       /* CUPTI drops the records */
        gp_inject_out_of_memory("an Activity API buffer");
    *max_records = 0;
}

/* The times file is opened lazily, beside the part file. */
static FILE *times_file(void)
{
    if (times)
        return times;
    char path[4200];
    if (gp_trace_part_name(path, sizeof path, gp_inj.dir, gp_inj.host, gp_inj.pid,
                           "times") == 0)
        times = gp_inject_fopen(path);
    return times;
}

/* A kernel node of a CUDA graph: timed if its graph launch is (inside the
 * --nvtx-include range, when there is one) and its kernel matches. */
static void graph_record(const CUpti_ActivityKernel10 *k, FILE *f)
{
    wanted_launch *w = graphs_filtered ? wanted_find(k->correlationId) : NULL;
    if ((graphs_filtered && (!w || w->kind != GRAPH_LAUNCH)) || !gp_inject_graph_node(k))
        return;
    fprintf(f, "g %u %llu %llu %u %llu\n", k->correlationId, (unsigned long long)k->start,
            (unsigned long long)k->end, k->graphId, (unsigned long long)k->graphNodeId);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *rec = NULL;
    pthread_mutex_lock(&lock);
    FILE *f = times_file();
    while (f && gp_inj.api->cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (k->graphId != 0) {
            graph_record(k, f);
            continue;
        }
        wanted_launch *w = wanted_find(k->correlationId);
        if (!w || w->kind == GRAPH_LAUNCH)
            continue;
        fprintf(f, "%u %llu %llu %u %d\n", k->correlationId, (unsigned long long)k->start,
                (unsigned long long)k->end, w->first, w->kind == PROFILED);
        /* a profiled launch may have a record per replay pass: kept */
        if (w->kind == UNPROFILED)
            wanted_remove(w);
    }
    if (f)
        fflush(f);
    pthread_mutex_unlock(&lock);
    free(buffer);
}

int gp_inject_activity_start(char *err, size_t errlen)
{
    const gp_cupti_api *api = gp_inj.api;
    CUptiResult r = api->cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r == CUPTI_SUCCESS)
        r = api->cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiActivityEnable(CONCURRENT_KERNEL)", r, err, errlen);
        return -1;
    }
    return 0;
}

void gp_inject_activity_flush(int forced)
{
    gp_inj.api->cuptiActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
}
