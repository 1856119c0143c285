/* diff.h - `gemmprof diff BASE.csv NEW.csv`: what changed between two runs,
 * the worst first, and the probable cause of each regression in one line.
 *
 * Rows pair up on (kernel, precision, m, n, k, config).  A pair regressed
 * when NEW is slower than BASE by more than the threshold (GFLOP/s, or
 * time where GFLOP/s is NA), or when NEW stopped verifying or now errors
 * whatever its speed.  Run metadata (GPU, clocks, driver, CUDA, cuBLAS,
 * build) is compared first, so a different GPU is never read as a
 * regression of the kernel. */
#ifndef GP_DIFF_H
#define GP_DIFF_H

#include <stddef.h>
#include <stdio.h>
#include "data/data.h"

#define GP_DIFF_THRESHOLD_DEFAULT 5.0   /* percent slower */

typedef enum { GP_DIFF_TEXT, GP_DIFF_MD, GP_DIFF_JSON } gp_diff_format;

typedef enum {
    GP_DIFF_BROKEN,      /* stopped verifying, or now errors: a regression  */
    GP_DIFF_SLOWER,      /* slower beyond the threshold: a regression       */
    GP_DIFF_SPILLS,      /* within the threshold, but it now spills (compile
                          * time) or now touches local memory (counters): a
                          * regression waiting for a bigger problem size or
                          * another GPU to show in the speed               */
    GP_DIFF_UNMEASURED,  /* no speed on one side, nothing broke             */
    GP_DIFF_SKIPPED,     /* one side was not run: its GPU or build lacks what
                          * the kernel needs ("skipped: needs ..."); says
                          * nothing about the kernel, so never a regression */
    GP_DIFF_SAME,        /* within the threshold                            */
    GP_DIFF_FASTER       /* faster beyond the threshold                     */
} gp_diff_verdict;

typedef struct {
    const gp_row *base, *cur;
    gp_diff_verdict verdict;
    int regressed;              /* BROKEN or SLOWER                         */
    double change_pct;          /* speed of cur vs base in %, NAN unknown   */
    int facts_changed;          /* how many clauses `cause` holds           */
    /* The facts that changed, most explanatory first: spills and local
     * traffic, occupancy and its limiter, DRAM bytes, bank conflicts,
     * verification, SM clock.  "" when nothing recorded changed. */
    char cause[512];
} gp_diff_row;

/* Compare one pair of rows (any two rows: the specimen test compares two
 * kernels of one run this way). */
void gp_diff_rows(const gp_row *base, const gp_row *cur, double threshold_pct,
                  gp_diff_row *out);

/* A metadata key whose value differs between the runs. */
typedef struct {
    char key[48];
    char message[1200];         /* "different GPU: A -> B: not a like-..."  */
    const char *base, *cur;     /* into gp_diff's files; NULL if absent     */
    int warning;                /* 1: the runs are not like-for-like        */
} gp_diff_meta;

typedef struct {
    double threshold_pct;
    /* Pair BASE's kernel pair_base with NEW's kernel pair_new (a renamed
     * kernel, or two variants in one file); both NULL for none. */
    const char *pair_base, *pair_new;
    /* 1: rows only in BASE are listed but do not fail (--allow-missing).
     * By default they fail: a run that lost kernels must not pass a gate. */
    int allow_missing;
} gp_diff_opts;

typedef struct {
    const char *base_path, *cur_path;
    gp_diff_opts opts;
    gp_run_file base, cur;
    gp_diff_meta meta[GP_META_MAX + 1];
    int nmeta;
    gp_diff_row *rows;          /* paired rows, most severe first           */
    int nrows;
    const gp_row **only_base, **only_cur;   /* rows without a partner      */
    int nonly_base, nonly_cur;
    int nregressed, nfaster;
} gp_diff;

/* 1 if the comparison fails the gate: a pair regressed, or BASE has rows
 * NEW lacks (unless allow_missing).  The printers and the exit code agree
 * through this. */
int gp_diff_failed(const gp_diff *d);

/* Read both files, compare metadata, pair and order the rows.  0, or -1
 * with a one-line message naming the file and the problem (unreadable or
 * malformed file, different schemas, no rows, no common rows).  Free
 * with gp_diff_free in both cases. */
int gp_diff_load(const char *base, const char *cur, const gp_diff_opts *o,
                 gp_diff *d, char *err, size_t errlen);
void gp_diff_free(gp_diff *d);

/* --baseline: is FILE a run file with rows?  Checked before the run, so a
 * typo costs no GPU time.  0, or -1 with a one-line message. */
int gp_diff_check_file(const char *path, char *err, size_t errlen);

/* Compare two metadata tables (called by gp_diff_load; warnings first). */
void gp_diff_compare_meta(gp_diff *d);

/* Print in a format.  0, or -1 on an output error. */
int gp_diff_print_text(FILE *f, const gp_diff *d);
int gp_diff_print_md(FILE *f, const gp_diff *d);
int gp_diff_print_json(FILE *f, const gp_diff *d);
int gp_diff_print(FILE *f, const gp_diff *d, gp_diff_format fmt);

/* Whole command: load, print to `out`, errors to stderr.  The exit code:
 * 0 nothing regressed, 1 something did or rows are missing
 * (gp_diff_failed), 2 bad input. */
int gp_diff_files(const char *base, const char *cur, const gp_diff_opts *o,
                  gp_diff_format fmt, FILE *out);

/* Shared by the printers. */
const char *gp_diff_verdict_name(gp_diff_verdict v);   /* "regressed", ... */
/* "1.2 GB", "512 B", "0" (decimal units); "NA" for NAN. */
const char *gp_diff_fmt_bytes(double b, char *buf, size_t n);
/* Local-memory traffic of a row in bytes (loads + stores), NAN if NA. */
double gp_diff_local_bytes(const gp_row *r);
/* DRAM traffic of a row in bytes (read + write), NAN if NA. */
double gp_diff_dram_bytes(const gp_row *r);

int gp_cmd_diff(int argc, char **argv);    /* gemmprof diff BASE.csv NEW.csv */

#endif
