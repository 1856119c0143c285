/* plot_util.h - what the chart code needs around gnuplot: a growing string,
 * files and folders, quoting for gnuplot and LaTeX, running a script. */
#ifndef GP_PLOT_UTIL_H
#define GP_PLOT_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* snprintf that says nothing about truncation: messages and paths here are
 * cut to their buffers on purpose. */
void gp_fmt(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

typedef struct { char *s; size_t len, cap; } gp_buf;
void gp_buf_printf(gp_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void gp_buf_free(gp_buf *b);

/* gnuplot `-e` assignments: name='text' (quotes doubled) and name=number
 * (NaN for NAN). */
void gp_var_str(gp_buf *b, const char *name, const char *value);
void gp_var_num(gp_buf *b, const char *name, double value);

/* Text shown in a chart: unchanged for pdf/png/svg (noenhanced), LaTeX
 * specials escaped for cairolatex.  Spaces become '_' first when `word`
 * is set (names passed to gnuplot as word lists). */
void gp_chart_text(const char *format, const char *in, int word,
                   char *out, size_t outlen);

/* The same for text inside a CSV file gnuplot reads: gnuplot takes one
 * level of backslashes off strings in data, and ',' would split the field
 * (it becomes ';'). */
void gp_data_text(const char *format, const char *in, char *out, size_t outlen);

/* Run argv[0] (a path) with its output going to `logfile`, in `cwd` (NULL:
 * here).  0 exit status 0; 1 it failed (its last output line in err); -1
 * it could not be run. */
int gp_spawn(char *const argv[], const char *cwd, const char *logfile,
             char *err, size_t errlen);

/* Run `gnuplot -e VARS SCRIPT` in directory `cwd`; gnuplot's stderr goes to
 * `errfile`.  0 ok (warnings, if any, printed as gemmprof warnings naming
 * `what`), -1 with the last gnuplot error line in err. */
int gp_gnuplot_run(const char *gnuplot, const char *script, const char *vars,
                   const char *cwd, const char *errfile, const char *what,
                   char *err, size_t errlen);

/* Files and folders.  Each returns 0, or -1 with "PATH: reason" in err. */
int gp_mkdir_p(const char *path, char *err, size_t errlen);
int gp_rm_rf(const char *path);                  /* best effort */
int gp_copy_file(const char *from, const char *to, char *err, size_t errlen);
int gp_move_file(const char *from, const char *to, char *err, size_t errlen);
/* "dir/base" into out; -1 if it does not fit. */
int gp_path_join(char *out, size_t len, const char *dir, const char *base);
/* The last path component without its extension ("a/b/run.csv" -> "run"). */
void gp_path_stem(const char *path, char *out, size_t len);

/* fopen for writing intermediates: "DIR/NAME", NULL with err. */
FILE *gp_open_in(const char *dir, const char *name, char *path, size_t plen,
                 char *err, size_t errlen);

#endif
