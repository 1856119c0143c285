/* host.h - CUPTI host-object helpers shared by the offline
 * commands (host.c) and the session (profiler.c).  Private. */
#ifndef GP_PROFILER_HOST_H
#define GP_PROFILER_HOST_H

#include <stdint.h>
#include "loader.h"
#include "profiler.h"

/* Host object for `chip`; `avail` is the device's counter availability
 * image, or NULL offline.  NULL with err. */
CUpti_Profiler_Host_Object *gp_host_open(const gp_cupti_api *api, const char *chip,
                                         const uint8_t *avail, char *err, size_t errlen);
void gp_host_close(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host);

/* Load CUPTI and open an offline host object (no availability image) for
 * a chip CUPTI knows.  0; -1 with err ("unknown chip 'X' (CUPTI knows:
 * ...)", or CUPTI's refusal); GP_PROFILER_NO_CUPTI with the reason. */
int gp_host_open_offline(const char *chip, const gp_cupti_api **api,
                         CUpti_Profiler_Host_Object **host, char *err, size_t errlen);

/* 0 if every name of `list` is a metric of the host's chip, else -1 and
 * "unknown metric(s) for CHIP: a, b (see --list-metrics)". */
int gp_host_check_names(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host,
                        const gp_metric_list *list, const char *chip,
                        char *err, size_t errlen);

/* Build the config image for `list` (malloc'd into *image) and count its
 * passes.  0, or -1 with err. */
int gp_host_config(const gp_cupti_api *api, CUpti_Profiler_Host_Object *host,
                   const gp_metric_list *list, uint8_t **image, size_t *size,
                   int *passes, char *err, size_t errlen);

/* Pointers to the list's names, as CUPTI wants them (const char **). */
void gp_host_name_ptrs(const gp_metric_list *list, const char **ptrs);

#endif
