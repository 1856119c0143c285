/* tables.h - the report's tables (private to report/), each written four
 * ways: Markdown, LaTeX (booktabs, \input-able), tbl for the typeset
 * report (groff), and fixed-width text for the report without groff. */
#ifndef GP_REPORT_TABLES_H
#define GP_REPORT_TABLES_H

#include <stdio.h>
#include "plot/plot.h"

#define GP_TABLE_MAXCOL 16

typedef struct {
    char caption[320];
    int ncol;
    char head[GP_TABLE_MAXCOL][32];         /* (copies: a table moves)  */
    char align[GP_TABLE_MAXCOL];            /* 'l' or 'r'               */
    int nrow;
    char (*cell)[GP_TABLE_MAXCOL][64];
    long shape[3];                          /* the size a table is at   */
} gp_table;

/* Summary columns, for choosing some of them (gp_table_roff). */
enum { GP_COL_KERNEL, GP_COL_PREC, GP_COL_CONFIG, GP_COL_TIME, GP_COL_GFLOPS,
       GP_COL_PCT, GP_COL_SPEEDUP, GP_COL_VERIFIED, GP_COL_AI, GP_COL_DRAM,
       GP_COL_REGS, GP_COL_SPILL, GP_COL_OCC_TH, GP_COL_OCC_ACH, GP_NSUMMARY };

/* One row per kernel of family f (NULL: every kernel) at one size (the
 * largest most kernels have, or `size`): time, GFLOP/s, % of cuBLAS,
 * speedup, verification, counters, static facts.  Kernels that failed,
 * errored or were skipped are listed with their status ("skipped" for a
 * row whose status is "skipped: why").  -1 if no row has a size to report,
 * 1 if the family has no row at that size. */
int gp_table_summary(const gp_dataset *d, const long size[3], const gp_family *f,
                     gp_table *t);
/* GFLOP/s per series of f (rows: kernel, precision, config) and size (at
 * most `maxcols` columns, spread over the sweep); 1 if there is one size.
 * Configs only gemmprof sweep measured are left to gp_table_sweep. */
int gp_table_by_size(const gp_dataset *d, const gp_family *f, int maxcols, gp_table *t);
/* The same for every config of one kernel (`kernel`'s kernel and
 * precision), the sweep's included: one row per config.  1 if one size. */
int gp_table_sweep(const gp_dataset *d, const gp_key *kernel, int maxcols, gp_table *t);
/* A summary cut to fit a page: kernel, GFLOP/s, % of cuBLAS, speedup,
 * verified, FLOP/B, DRAM MB, registers, spills, occupancy (short
 * headings).  0 or -1. */
int gp_table_brief(const gp_table *summary, gp_table *out);
/* A by-size table without its precision and config columns (the kernel
 * column names the config where a kernel has two series).  0 or -1. */
int gp_table_by_size_brief(const gp_table *by_size, gp_table *out);
/* At the summary's size, per series: its config and GFLOP/s, how many
 * configs of its kernel were measured there, and the fastest of them
 * (computed from the data, sweep rows included).  0 or -1. */
int gp_table_configs(const gp_dataset *d, const gp_table *summary, gp_table *out);
/* For a page: its kernel, precision and config columns; and the rows of
 * kernels measured in several configs (1 if none), without precision. */
int gp_table_configs_brief(const gp_table *configs, gp_table *out);
int gp_table_fastest(const gp_table *configs, gp_table *out);
/* Configs of size-dispatched kernels as "64x64x8/8x4 (tuned)", for a
 * page (gp_config_short); and a copy of a table.  0 or -1. */
void gp_table_short_configs(gp_table *t);
int gp_table_copy(const gp_table *in, gp_table *out);
/* Rows measured with --energy at one size (`size`, or the largest most
 * have): burst and sustained time, sustained % of cuBLAS, watts, joules
 * per launch and as % of cuBLAS's, GFLOP per joule.  0, 1 if no row has
 * energy, -1 out of memory. */
int gp_table_energy(const gp_dataset *d, const long size[3], gp_table *t);
/* Where a trace's GPU time goes (data/hotspots.h): its top `top` kernels
 * by total GPU time, then "other (N kernels)": rank, kernel, precision
 * and config (not `brief`), share %, launches, median ms, GFLOP/s,
 * FLOP/B DRAM and the roof that bounds it.  1 if no row is a trace's
 * (none has launches), -1 out of memory. */
int gp_table_hotspots(const gp_dataset *d, int top, int brief, gp_table *t);
/* For the table builders: room for `nrow` rows; a number, or "n/a". */
int gp_table_alloc(gp_table *t, int nrow);
void gp_table_cell_num(char *c, const char *fmt, double v);
/* Rows skipped at the table's size, "kernel: why", one line each. */
void gp_table_skipped(const gp_dataset *d, const gp_table *t, gp_strlist *out);
void gp_table_free(gp_table *t);

void gp_table_markdown(FILE *f, const gp_table *t);
void gp_table_latex(FILE *f, const gp_table *t, const char *label);
void gp_table_text(FILE *f, const gp_table *t);
/* tbl input (groff -t), ruled like booktabs: a rule above and below the
 * headings and at the end. */
void gp_table_roff(FILE *f, const gp_table *t);

#endif
