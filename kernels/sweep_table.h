/* sweep_table.h - the compiled tile configurations of the templated
 * register-blocked kernels (kernels/sweep.def), by family.  `gemmprof sweep`
 * runs them; the `mixed` kernels dispatch to them by size. */
#ifndef GP_SWEEP_TABLE_H
#define GP_SWEEP_TABLE_H

#include <stddef.h>
#include "../src/gemmprof.h"

typedef struct {
    const char *family;      /* "blocktile_2d" (fp32), "dgemm_blocktile_2d" */
    gp_precision precision;
    const char *name;        /* "BMxBNxBK/TMxTN", as the launcher reports it */
    int bm, bn, bk, tm, tn;
    int threads;             /* bm*bn/(tm*tn)                              */
    gp_launch_fn launch;
} gp_sweep_config;

extern const gp_sweep_config gp_sweep_configs[];
extern const int gp_sweep_config_count;

/* The config `name` of `family`; NULL if there is none. */
const gp_sweep_config *gp_sweep_find(const char *family, const char *name);
/* Precision of a family; -1 (and nothing else) if no config has it. */
int gp_sweep_family_precision(const char *family);
/* "A,B,C" or "all" -> configs of `family` (table order for all, given
 * order otherwise, duplicates dropped).  Count, or -1 with a one-line
 * message naming the bad name and listing the valid ones (or families). */
int gp_sweep_select(const char *family, const char *spec,
                    const gp_sweep_config **out, int max, char *err, size_t errlen);

#endif
