/* key.h - what a chart or table row stands for: a series (kernel,
 * precision, config) and which rows count (part of plot.h, the folder's
 * interface, which includes this).  Shared by select.c and family.c,
 * which include this rather than each other.
 *
 * A fact is one series at one shape: (kernel, precision, config, shape);
 * every table and chart shows one number for it (select.c computes it).
 * Each config is its own series, except the configs of a size-dispatched
 * kernel (kernels/mixed.h): "policy:tile" and "policy:file:tile" choose
 * their tile per size, so all tiles of one policy form one series,
 * "policy[:file]:*", a curve over sizes with one tile at each size. */
#ifndef GP_PLOT_KEY_H
#define GP_PLOT_KEY_H

#include <stddef.h>
#include "data/data.h"

/* One series.  Pointers into the dataset's rows: config is a config of
 * the series (for a size-dispatched kernel, the tile of one size). */
typedef struct {
    const char *kernel, *precision, *config;
} gp_key;

/* Does row r belong to series k?  by_config: only rows of exactly k's
 * config (a size-dispatched kernel's tiles apart); else rows of k's
 * series. */
int gp_key_match(const gp_key *k, const gp_row *r, int by_config);
/* Same series: same kernel, precision and series config. */
int gp_key_same_series(const gp_key *a, const gp_key *b);
/* The series config as tables and legends show it: "128x128x8/8x8", or a
 * size-dispatched kernel's "tuned:tuning-x.csv:*". */
void gp_series_config(const char *config, char *out, size_t len);
/* A config as a legend or a narrow table reads it: a size-dispatched
 * kernel's "tuned:tuning-x.csv:64x64x8/8x4" -> "64x64x8/8x4 (tuned)". */
void gp_config_short(const char *config, char *out, size_t len);
/* Series i of k[0..n): "blocktile_2d[64x64x16/8x4]" with_config (where a
 * kernel has several series in view), else the kernel's label; a word in
 * <> where another kernel of k has that label ("reduce_kernel<ArgMax>",
 * gp_kernel_tell_apart). */
void gp_series_name(const gp_key *k, int n, int i, int with_config, char *out, size_t len);

/* A kernel name short enough for a label or a legend: a demangled C++
 * name loses its return type and arguments, anything still longer than
 * `max` characters is cut with "...". */
void gp_short_name(const char *kernel, char *out, size_t len, int max);
/* Series i of k[0..n) by a name short enough for a chart's legend or
 * label: the kernel's short name (gp_short_name, `max` with the word that
 * tells it from another kernel of its label), a size-dispatched kernel's
 * policy only ("mixed[tuned]"), another config cut at 20 characters. */
void gp_series_label(const gp_key *k, int n, int i, int with_config, int max, char *out,
                     size_t len);
/* Has k[i]'s kernel (and precision) another series among k[0..n)?  Then
 * names show the config (gp_series_name). */
int gp_key_kernel_twice(const gp_key *k, int n, int i);

/* Rows that measured something correct: status ok (or empty) and not
 * failed verification.  A wrong kernel's speed is not plotted. */
int gp_row_usable(const gp_row *r);
int gp_row_is_cublas(const gp_row *r);
int gp_name_is_cublas(const char *kernel);         /* "cublas", "cublas_fp64" */

#endif
