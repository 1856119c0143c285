/* activity.c - durations of the profiled launches from the CUPTI
 * Activity API (concurrent kernel records: GPU timestamps, no counters
 * involved), in the same run.  Records arrive in buffers, on CUPTI's
 * thread or in a flush; those of profiled launches (by correlation id) go
 * to "<part>.times", which gemmprof joins with the rows when it merges. */
#include <stdlib.h>
#include <string.h>

#include "state.h"

#define BUFFER_BYTES (4u << 20)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *times;
static uint32_t *wanted;                /* open addressing; 0 is empty */
static size_t wanted_cap, wanted_n;

static int wanted_has(uint32_t id)
{
    if (!wanted_cap)
        return 0;
    for (size_t h = id % wanted_cap; wanted[h]; h = (h + 1) % wanted_cap)
        if (wanted[h] == id)
            return 1;
    return 0;
}

static void wanted_put(uint32_t id)
{
    if ((wanted_n + 1) * 2 > wanted_cap) {
        size_t cap = wanted_cap ? 2 * wanted_cap : 1024;
        uint32_t *t = calloc(cap, sizeof *t);
        if (!t) {
            gp_inject_out_of_memory("the list of profiled launches to time");
            return;
        }
        for (size_t i = 0; i < wanted_cap; i++)
            if (wanted[i]) {
                size_t h = wanted[i] % cap;
                while (t[h])
                    h = (h + 1) % cap;
                t[h] = wanted[i];
            }
        free(wanted);
        wanted = t;
        wanted_cap = cap;
    }
    size_t h = id % wanted_cap;
    while (wanted[h] && wanted[h] != id)
        h = (h + 1) % wanted_cap;
    if (!wanted[h]) {
        wanted[h] = id;
        wanted_n++;
    }
}

void gp_inject_activity_want(uint32_t correlation_id)
{
    if (correlation_id == 0)
        return;
    pthread_mutex_lock(&lock);
    wanted_put(correlation_id);
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

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *rec = NULL;
    pthread_mutex_lock(&lock);
    FILE *f = NULL;
    while (gp_inj.api->cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (!wanted_has(k->correlationId) || (!f && !(f = times_file())))
            continue;
        fprintf(f, "%u %llu %llu\n", k->correlationId, (unsigned long long)k->start,
                (unsigned long long)k->end);
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
