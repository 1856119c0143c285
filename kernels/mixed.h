/* mixed.h - the size-dispatched kernels `mixed` (FP32, configs of
 * blocktile_2d) and `dgemm_mixed` (FP64, dgemm_blocktile_2d): each launch
 * runs the tile config that the tuning table of this GPU names for the
 * shape's size key (tuning.h: round(sqrt(m*n))).
 *
 * The table is loaded once per process, on the first launch: the file in
 * $GEMMPROF_TUNING when set (rows of other families are ignored), else
 * gp_tuning_cache_path(<this GPU's name>, family), which `gemmprof sweep`
 * writes.  No file, no entry for the size, or an entry naming a config
 * this build does not have: the built-in default table.  The row's config
 * says which was used: "tuned:<file name>:<config>" ("tuned:<config>" when
 * that does not fit the column) or "default:<config>". */
#ifndef GP_MIXED_H
#define GP_MIXED_H

#include <stddef.h>
#include "sweep_table.h"
#include "../src/data/tuning.h"

/* Pure choice: the config for an m x n C from `tuned` (NULL: none; its
 * file `tuned_path` goes into the label), else the default table.  NULL if
 * neither has a config of `family` compiled in. */
const gp_sweep_config *gp_mixed_select(const char *family, long m, long n,
                                       const gp_tuning *tuned,
                                       const char *tuned_path,
                                       char *label, size_t labellen);

/* gp_mixed_select with the table of this GPU, loaded on first use. */
const gp_sweep_config *gp_mixed_pick(gp_precision p, long m, long n,
                                     char *label, size_t labellen);
/* Forget the loaded tables (tests; a later pick loads again). */
void gp_mixed_reset(void);

#endif
