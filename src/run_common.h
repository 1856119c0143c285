/* run_common.h - what the commands that write run files share (run_cmd.c,
 * sweep_cmd.c): where the file goes and the metadata every one carries. */
#ifndef GP_RUN_COMMON_H
#define GP_RUN_COMMON_H

#include <stddef.h>
#include "gpu.h"
#include "meta.h"

/* --out FILE | DIR (an existing directory or one ending in '/'); NULL:
 * results/.  A directory gets a new run-<UTC time>.csv.  0, or -1 with a
 * one-line message. */
int gp_run_out_path(const char *out, char *path, size_t n, char *err, size_t errlen);

/* Host and GPU facts, seed, reps, warm-up, L2 flush and timing method. */
void gp_run_meta_base(gp_meta *m, const gp_gpu *g, int argc, char **argv,
                      unsigned long long seed, int reps, int warmup, int no_flush);

#endif
