/* list.c - --list-metrics: the chip's base metrics from the CUPTI
 * host API (no GPU needed), sorted, with type, unit and description, and
 * the suffixes that turn a base metric into a collectable name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"

static const char *const type_names[CUPTI_METRIC_TYPE__COUNT] = {
    "counter", "ratio", "throughput"
};

typedef struct { const char *name; int type; } entry;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

/* "# counter suffixes: .avg .max ..." from the first metric of the type
 * (CUPTI lists the same rollups for every metric of a type). */
static void print_suffixes(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host,
                           int type, const char *example, FILE *out)
{
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetSubMetrics_Params, p);
    p.pHostObject = host;
    p.metricType = (CUpti_MetricType)type;
    p.pMetricName = example;
    if (api->cuptiProfilerHostGetSubMetrics(&p) != CUPTI_SUCCESS)
        return;
    fprintf(out, "# %s suffixes (e.g. %s%s):", type_names[type], example,
            p.numOfSubmetrics ? p.ppSubMetrics[0] : "");
    for (size_t i = 0; i < p.numOfSubmetrics; i++)
        fprintf(out, " %s", p.ppSubMetrics[i]);
    fputc('\n', out);
}

static void print_entry(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host,
                        const entry *e, FILE *out)
{
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, p);
    p.pHostObject = host;
    p.pMetricName = e->name;
    int ok = api->cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
    fprintf(out, "%s\t%s\t%s\t%s\n", e->name, type_names[e->type],
            ok && p.pDimUnit ? p.pDimUnit : "",
            ok && p.pDescription ? p.pDescription : "");
}

int gp_profiler_list_metrics(const char *chip, FILE *out, char *err, size_t errlen)
{
    const gp_cupti_api *api;
    CUpti_Profiler_Host_Object *host;
    int open = gp_host_open_offline(chip, &api, &host, err, errlen);
    if (open)
        return open;

    entry *all = NULL;
    size_t count = 0;
    int rc = 0;
    fprintf(out, "# gemmprof --list-metrics: base metrics of %s, "
            "name<TAB>type<TAB>unit<TAB>description\n", chip);
    for (int t = 0; t < CUPTI_METRIC_TYPE__COUNT && rc == 0; t++) {
        GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params, p);
        p.pHostObject = host;
        p.metricType = (CUpti_MetricType)t;
        CUptiResult r = api->cuptiProfilerHostGetBaseMetrics(&p);
        if (r != CUPTI_SUCCESS) {
            gp_cupti_error(api, "cuptiProfilerHostGetBaseMetrics", r, err, errlen);
            rc = -1;
            break;
        }
        entry *grown = realloc(all, (count + p.numMetrics + 1) * sizeof *all);
        if (!grown) {
            snprintf(err, errlen, "out of memory listing metrics");
            rc = -1;
            break;
        }
        all = grown;
        for (size_t i = 0; i < p.numMetrics; i++)
            all[count + i] = (entry){ p.ppMetricNames[i], t };
        if (p.numMetrics)
            print_suffixes(api, host, t, p.ppMetricNames[0], out);
        count += p.numMetrics;
    }
    if (rc == 0) {
        qsort(all, count, sizeof *all, by_name);
        for (size_t i = 0; i < count; i++)
            print_entry(api, host, &all[i], out);
        if (fflush(out) != 0 || ferror(out)) {
            snprintf(err, errlen, "writing the metric list failed");
            rc = -1;
        }
    }
    free(all);
    gp_host_close(api, host);
    return rc;
}
