/* csv.h - run files: CSV with '#' metadata lines, a header row, NA for
 * missing numbers.  gnuplot (with `set datafile missing "NA"`) and pandas
 * (`comment="#"`) read them as they are. */
#ifndef GP_CSV_H
#define GP_CSV_H

#include <stdio.h>
#include "meta.h"
#include "row.h"

/* Writer: rows are flushed as they come, so a run that dies half-way keeps
 * every row already measured. */
typedef struct gp_csv_writer gp_csv_writer;
gp_csv_writer *gp_csv_open(const char *path, const gp_meta *meta,
                           char *err, size_t errlen);
int gp_csv_write_row(gp_csv_writer *w, const gp_row *r);
int gp_csv_close(gp_csv_writer *w);              /* 0, or -1 on I/O error */

/* Write metadata + header + rows to an open stream (used by the writer and
 * by tests). */
void gp_csv_write_meta(FILE *f, const gp_meta *meta);
void gp_csv_write_header(FILE *f);
void gp_csv_write_row_to(FILE *f, const gp_row *r);

/* Reader: any subset of the known columns, in any order (unknown columns are
 * ignored, missing ones read as NA).  Fails with a one-line message naming
 * the file and the problem: not found, empty, no header, a required column
 * missing (kernel, m, n, k), a malformed number on line N. */
typedef struct {
    gp_meta meta;
    gp_row *rows;
    int nrows;
    int has_column[128];     /* indexed like gp_columns */
} gp_run_file;
int gp_csv_read(const char *path, gp_run_file *out, char *err, size_t errlen);
void gp_run_file_free(gp_run_file *f);

#endif
