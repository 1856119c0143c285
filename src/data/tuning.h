/* tuning.h - what a tile-config sweep found: the best config per shape, the
 * sizes where the best config changes (crossovers), and the tuning table
 * (a CSV file with '#' metadata) that the `mixed` kernels dispatch on:
 *     family,precision,min_size,max_size,config,gflops
 *
 * Size key: round(sqrt(m*n)), the side of a square C with as many
 * elements.  The tile config is chosen mostly by how many blocks the grid
 * has (m*n / (BM*BN) against the SM count) and K only stretches each
 * block's loop, so an M,N >> K shape is keyed like the square of its C;
 * for square shapes the key is N.  max(m,n) would key a 32 x 8192 C like an
 * 8192 square; m*n*k would key 4096 x 4096 x 32 like a 512 cube, with 16x
 * too few tiles.  Ranges are inclusive and cover 1..GP_TUNING_MAX_SIZE.
 * Pure functions: no GPU. */
#ifndef GP_TUNING_H
#define GP_TUNING_H

#include <stddef.h>
#include <stdio.h>
#include "meta.h"
#include "row.h"

#define GP_TUNING_SCHEMA "gemmprof-tuning/1"
#define GP_TUNING_MAX_SIZE (1L << 20)
#define GP_TUNING_MAX 256

long gp_tuning_key(long m, long n);

/* Best verified config at one shape. */
typedef struct {
    long m, n, k, key;
    char config[64];
    double gflops;
} gp_sweep_best;

/* The best verified row (highest gflops) of each distinct shape among
 * `rows` of kernel `family`, sorted by (key, k, m).  Shapes with no verified
 * row are left out.  Returns the count (<= max). */
int gp_sweep_bests(const gp_row *rows, int n, const char *family,
                   gp_sweep_best *out, int max);
/* Indices i >= 1 of `b` where b[i].config differs from b[i-1].config, in
 * order: each a crossover between shapes i-1 and i.  Returns the count. */
int gp_sweep_crossovers(const gp_sweep_best *b, int n, int *idx, int max);

typedef struct {
    char family[32], precision[8];
    long min_size, max_size;
    char config[64];
    double gflops;      /* its mean GFLOP/s over the sizes measured in range */
} gp_tuning_entry;

typedef struct {
    gp_meta meta;
    int n;
    gp_tuning_entry e[GP_TUNING_MAX];
} gp_tuning;

/* Build the table from the rows of one family: per size key, the config
 * with the highest mean of gflops/best-at-that-shape over the shapes with
 * that key (shapes of one key differ in k); neighbouring keys with the
 * same config merge; the boundary between two measured keys a < b is
 * floor(sqrt(a*b)) (sizes are swept on a log scale).  The meta is left
 * for the caller.  Returns the number of entries (0: nothing verified). */
int gp_tuning_build(const gp_row *rows, int n, const char *family,
                    const char *precision, gp_tuning *t);

/* Write / read the file.  0, or -1 with a one-line message. */
int gp_tuning_write(const char *path, const gp_tuning *t, char *err, size_t errlen);
int gp_tuning_read(const char *path, gp_tuning *t, char *err, size_t errlen);

/* The entry of `family` whose range holds `key`; NULL if none. */
const gp_tuning_entry *gp_tuning_lookup(const gp_tuning *t, const char *family,
                                        long key);

/* The cache file of this GPU and family, next to the ceilings
 * (gp_ceilings_cache_path): <cache>/tuning-<gpu slug>-<family>.csv.
 * 0, or -1 with err. */
int gp_tuning_cache_path(const char *gpu_name, const char *family, char *path,
                         size_t pathlen, char *err, size_t errlen);

#endif
