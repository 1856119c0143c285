/* host.c - the CUPTI host API, which needs no GPU: metric name
 * checks, pass counts and --list-metrics for a chip named offline
 * (HostInitialize with a NULL availability image works without a driver,
 * notes/cupti.md section 4). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"

CUpti_Profiler_Host_Object *gp_host_open(const gp_cupti_api *api, const char *chip,
                                         const uint8_t *avail, char *err, size_t n)
{
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params, p);
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = avail;
    CUptiResult r = api->cuptiProfilerHostInitialize(&p);
    if (r != CUPTI_SUCCESS) {
        char why[400];
        gp_cupti_error(api, "cuptiProfilerHostInitialize", r, why, sizeof why);
        snprintf(err, n, "chip %s: %s", chip, why);
        return NULL;
    }
    return p.pHostObject;
}

void gp_host_close(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host)
{
    if (!host)
        return;
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, p);
    p.pHostObject = host;
    api->cuptiProfilerHostDeinitialize(&p);
}

void gp_host_name_ptrs(const gp_metric_list *list, const char **ptrs)
{
    for (int i = 0; i < list->count; i++)
        ptrs[i] = list->names[i];
}

static int is_metric(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host,
                     const char *name)
{
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, p);
    p.pHostObject = host;
    p.pMetricName = name;
    return api->cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
}

int gp_host_check_names(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host,
                        const gp_metric_list *list, const char *chip,
                        char *err, size_t n)
{
    int bad = 0;
    size_t len = 0;
    for (int i = 0; i < list->count; i++) {
        if (is_metric(api, host, list->names[i]))
            continue;
        if (len < n)
            len += (size_t)snprintf(err + len, n - len, "%s%s",
                                    bad ? ", " : "", list->names[i]);
        bad++;
    }
    if (!bad)
        return 0;
    /* Names first, then the prefix: the list length is only known now. */
    char *names = strdup(err);
    snprintf(err, n, "unknown metric%s for %s: %s (see --list-metrics)",
             bad > 1 ? "s" : "", chip, names ? names : "?");
    free(names);
    return -1;
}

int gp_host_config(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host,
                   const gp_metric_list *list, uint8_t **image, size_t *size,
                   int *passes, char *err, size_t n)
{
    const char *names[GP_MAX_METRICS];
    CUptiResult r;
    gp_host_name_ptrs(list, names);
    *image = NULL;

    GP_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, add);
    add.pHostObject = host;
    add.ppMetricNames = names;
    add.numMetrics = (size_t)list->count;
    if ((r = api->cuptiProfilerHostConfigAddMetrics(&add)) != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiProfilerHostConfigAddMetrics", r, err, n);
        return -1;
    }
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, sz);
    sz.pHostObject = host;
    if ((r = api->cuptiProfilerHostGetConfigImageSize(&sz)) != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiProfilerHostGetConfigImageSize", r, err, n);
        return -1;
    }
    /* GetNumOfPasses crashes on an empty image (seen offline on 13.0). */
    if (sz.configImageSize == 0 || !(*image = malloc(sz.configImageSize))) {
        snprintf(err, n, "CUPTI config image: %s", sz.configImageSize ?
                 "out of memory" : "empty (no metric could be scheduled)");
        return -1;
    }
    *size = sz.configImageSize;
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, img);
    img.pHostObject = host;
    img.configImageSize = *size;
    img.pConfigImage = *image;
    if ((r = api->cuptiProfilerHostGetConfigImage(&img)) != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiProfilerHostGetConfigImage", r, err, n);
        goto fail;
    }
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, np);
    np.configImageSize = *size;
    np.pConfigImage = *image;
    if ((r = api->cuptiProfilerHostGetNumOfPasses(&np)) != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiProfilerHostGetNumOfPasses", r, err, n);
        goto fail;
    }
    *passes = (int)np.numOfPasses;
    return 0;
fail:
    free(*image);
    *image = NULL;
    return -1;
}

/* Load CUPTI and open an offline host object; the shared start of the
 * public functions below.  Returns 0, -1, or GP_PROFILER_NO_CUPTI. */
static int open_offline(const char *chip, const gp_cupti_api **api,
                        CUpti_Profiler_Host_Object **host, char *err, size_t n)
{
    if (!(*api = gp_cupti_load(err, n)))
        return GP_PROFILER_NO_CUPTI;
    if (!(*host = gp_host_open(*api, chip, NULL, err, n)))
        return -1;
    return 0;
}

int gp_profiler_validate(const gp_metric_list *list, const char *chip,
                         char *err, size_t errlen)
{
    const gp_cupti_api *api;
    CUpti_Profiler_Host_Object *host;
    if (list->count == 0)
        return 0;
    chip = chip ? chip : GP_DEFAULT_CHIP;
    int rc = open_offline(chip, &api, &host, err, errlen);
    if (rc)
        return rc;
    rc = gp_host_check_names(api, host, list, chip, err, errlen);
    gp_host_close(api, host);
    return rc;
}

int gp_profiler_count_passes(const gp_metric_list *list, const char *chip,
                             char *err, size_t errlen)
{
    const gp_cupti_api *api;
    CUpti_Profiler_Host_Object *host;
    uint8_t *image = NULL;
    size_t size = 0;
    int passes = 0;
    if (list->count == 0)
        return 0;
    chip = chip ? chip : GP_DEFAULT_CHIP;
    if (open_offline(chip, &api, &host, err, errlen))
        return -1;
    int rc = gp_host_check_names(api, host, list, chip, err, errlen);
    if (rc == 0)
        rc = gp_host_config(api, host, list, &image, &size, &passes, err, errlen);
    free(image);
    gp_host_close(api, host);
    return rc ? -1 : passes;
}
