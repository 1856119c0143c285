/* host.c - the CUPTI host API, which needs no GPU: metric name
 * checks, pass counts and --list-metrics for a chip named offline
 * (HostInitialize with a NULL availability image works without a driver,
 * docs/cupti.md section 4). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"
#include "util/util.h"

CUpti_Profiler_Host_Object *gp_host_open(const gp_cupti_api *api, const char *chip,
                                         const uint8_t *avail, char *err, size_t errlen)
{
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params, p);
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = avail;
    CUptiResult r = api->cuptiProfilerHostInitialize(&p);
    if (r != CUPTI_SUCCESS) {
        char why[400];
        gp_cupti_error(api, "cuptiProfilerHostInitialize", r, why, sizeof why);
        snprintf(err, errlen, "chip %s: %s", chip, why);
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

/* "unknown metric(s) for WHERE: a, b (see --list-metrics)" naming the
 * entries of `list` with bad[i] set; -1 if there is any, else 0. */
static int name_bad(const gp_metric_list *list, const unsigned char *bad,
                    const char *where, char *err, size_t errlen)
{
    gp_buf names = {0};
    int nbad = 0;
    for (int i = 0; i < list->count; i++)
        if (bad[i])
            gp_buf_printf(&names, "%s%s", nbad++ ? ", " : "", list->names[i]);
    if (nbad)
        snprintf(err, errlen, "unknown metric%s for %s: %s (see --list-metrics)",
                 nbad > 1 ? "s" : "", where, names.s ? names.s : "(out of memory)");
    gp_buf_free(&names);
    return nbad ? -1 : 0;
}

int gp_host_check_names(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host,
                        const gp_metric_list *list, const char *chip,
                        char *err, size_t errlen)
{
    unsigned char bad[GP_MAX_METRICS];
    for (int i = 0; i < list->count; i++)
        bad[i] = !is_metric(api, host, list->names[i]);
    return name_bad(list, bad, chip, err, errlen);
}

int gp_host_config(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host,
                   const gp_metric_list *list, uint8_t **image, size_t *size,
                   int *passes, char *err, size_t errlen)
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
        gp_cupti_error(api, "cuptiProfilerHostConfigAddMetrics", r, err, errlen);
        return -1;
    }
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, sz);
    sz.pHostObject = host;
    if ((r = api->cuptiProfilerHostGetConfigImageSize(&sz)) != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiProfilerHostGetConfigImageSize", r, err, errlen);
        return -1;
    }
    /* GetNumOfPasses crashes on an empty image (seen offline on 13.0). */
    if (sz.configImageSize == 0 || !(*image = malloc(sz.configImageSize))) {
        snprintf(err, errlen, "CUPTI config image: %s", sz.configImageSize ?
                 "out of memory" : "empty (no metric could be scheduled)");
        return -1;
    }
    *size = sz.configImageSize;
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, img);
    img.pHostObject = host;
    img.configImageSize = *size;
    img.pConfigImage = *image;
    if ((r = api->cuptiProfilerHostGetConfigImage(&img)) != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiProfilerHostGetConfigImage", r, err, errlen);
        goto fail;
    }
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, np);
    np.configImageSize = *size;
    np.pConfigImage = *image;
    if ((r = api->cuptiProfilerHostGetNumOfPasses(&np)) != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiProfilerHostGetNumOfPasses", r, err, errlen);
        goto fail;
    }
    *passes = (int)np.numOfPasses;
    return 0;
fail:
    free(*image);
    *image = NULL;
    return -1;
}

int gp_profiler_chips(const char *const **names, char *err, size_t errlen)
{
    const gp_cupti_api *api = gp_cupti_load(err, errlen);
    if (!api)
        return -1;
    GP_CUPTI_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params, p);
    CUptiResult r = api->cuptiProfilerHostGetSupportedChips(&p);
    if (r != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiProfilerHostGetSupportedChips", r, err, errlen);
        return -1;
    }
    *names = p.ppChipNames;
    return (int)p.numChips;
}

/* 0 if CUPTI knows `chip`; else -1 and "unknown chip 'X' (CUPTI knows:
 * GV100 TU102 ...)". */
static int known_chip(const char *chip, char *err, size_t errlen)
{
    const char *const *names;
    int count = gp_profiler_chips(&names, err, errlen);
    if (count < 0)
        return -1;
    gp_buf all = {0};
    for (int i = 0; i < count; i++) {
        if (strcmp(names[i], chip) == 0) {
            gp_buf_free(&all);
            return 0;
        }
        gp_buf_printf(&all, "%s%s", i ? " " : "", names[i]);
    }
    snprintf(err, errlen, "unknown chip '%s' (CUPTI knows: %s)", chip, all.s ? all.s : "none");
    gp_buf_free(&all);
    return -1;
}

/* Load CUPTI and open an offline host object for a chip it knows; the
 * shared start of the public functions below.  0, -1, or
 * GP_PROFILER_NO_CUPTI. */
int gp_host_open_offline(const char *chip, const gp_cupti_api **api,
                         CUpti_Profiler_Host_Object **host, char *err, size_t errlen)
{
    if (!(*api = gp_cupti_load(err, errlen)))
        return GP_PROFILER_NO_CUPTI;
    if (known_chip(chip, err, errlen) != 0 || !(*host = gp_host_open(*api, chip, NULL, err, errlen)))
        return -1;
    return 0;
}

/* Explicit names no chip CUPTI knows has (chips whose host object cannot
 * be opened, e.g. GV11B on CUPTI 13.0, are passed over). */
static int validate_any_chip(const gp_metric_list *list, char *err, size_t errlen)
{
    unsigned char bad[GP_MAX_METRICS];
    int left = 0;
    for (int i = 0; i < list->count; i++)
        left += bad[i] = !list->from_default[i];
    if (!left)
        return 0;
    const char *const *chips;
    const gp_cupti_api *api = gp_cupti_load(err, errlen);
    int nchips = api ? gp_profiler_chips(&chips, err, errlen) : -1;
    if (nchips < 0)
        return GP_PROFILER_NO_CUPTI;
    for (int c = 0; c < nchips && left; c++) {
        char why[256];
        CUpti_Profiler_Host_Object *host = gp_host_open(api, chips[c], NULL, why, sizeof why);
        for (int i = 0; host && i < list->count; i++)
            if (bad[i] && is_metric(api, host, list->names[i]))
                bad[i] = 0, left--;
        gp_host_close(api, host);
    }
    return name_bad(list, bad, "every chip CUPTI knows", err, errlen);
}

int gp_profiler_validate(const gp_metric_list *list, const char *chip,
                         char *err, size_t errlen)
{
    const gp_cupti_api *api;
    CUpti_Profiler_Host_Object *host;
    if (list->count == 0)
        return 0;
    if (!chip)
        return validate_any_chip(list, err, errlen);
    int rc = gp_host_open_offline(chip, &api, &host, err, errlen);
    if (rc)
        return rc;
    rc = gp_host_check_names(api, host, list, chip, err, errlen);
    gp_host_close(api, host);
    return rc;
}

int gp_profiler_fit(gp_metric_list *list, const char *chip, char *dropped,
                    size_t droppedlen, char *err, size_t errlen)
{
    const gp_cupti_api *api;
    CUpti_Profiler_Host_Object *host;
    unsigned char missing[GP_MAX_METRICS], bad[GP_MAX_METRICS];
    dropped[0] = '\0';
    if (list->count == 0)
        return 0;
    int rc = gp_host_open_offline(chip, &api, &host, err, errlen);
    if (rc)
        return rc;
    for (int i = 0; i < list->count; i++) {
        missing[i] = !is_metric(api, host, list->names[i]);
        bad[i] = missing[i] && !list->from_default[i];
    }
    gp_host_close(api, host);
    if (name_bad(list, bad, chip, err, errlen) != 0)
        return -1;
    size_t len = 0;
    int kept = 0;
    for (int i = 0; i < list->count; i++) {
        if (missing[i]) {
            if (len < droppedlen)
                len += (size_t)snprintf(dropped + len, droppedlen - len, "%s%s",
                                        len ? ", " : "", list->names[i]);
            continue;
        }
        if (kept != i) {
            memcpy(list->names[kept], list->names[i], sizeof list->names[i]);
            list->from_default[kept] = list->from_default[i];
        }
        kept++;
    }
    list->count = kept;
    return 0;
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
    if (gp_host_open_offline(chip, &api, &host, err, errlen))
        return -1;
    int rc = gp_host_check_names(api, host, list, chip, err, errlen);
    if (rc == 0)
        rc = gp_host_config(api, host, list, &image, &size, &passes, err, errlen);
    free(image);
    gp_host_close(api, host);
    return rc ? -1 : passes;
}
