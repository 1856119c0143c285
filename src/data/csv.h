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

/* Reader (csv_read.c): any subset of the known columns, in any order
 * (unknown columns are ignored, missing ones read as NA).  Fails with one
 * line "FILE:LINE:COLUMN: what" for anything it cannot vouch for: no file,
 * an empty one, no header or one without kernel, m, n, k; another schema;
 * a number that is not finite or out of its column's range (NaN, 1e400,
 * a size <= 0, a negative time, a percentage over 100); text in a number
 * column; a row with the wrong number of fields, or cut off at the end;
 * two rows with one identity (kernel, precision, config, shape, rank,
 * grid, pid, correlation id).  Empty or NA numbers are missing values. */
typedef struct {
    gp_meta meta;
    gp_row *rows;
    int *line;               /* the file's line of each row */
    int nrows;
    int has_column[128];     /* indexed like gp_columns */
} gp_run_file;
int gp_csv_read(const char *path, gp_run_file *out, char *err, size_t errlen);
/* The same, but a last line cut off mid-row is dropped, and said so in
 * err, with the call returning 0: for files whose writer may be killed
 * with its application (trace's part files).  Callers print err if set. */
int gp_csv_read_salvage(const char *path, gp_run_file *out, char *err, size_t errlen);
void gp_run_file_free(gp_run_file *f);

#endif
