/* plot.h - charts from data files, drawn by the gnuplot scripts in plots/.
 * gemmprof chooses (rows, families, sizes, medians, the roofs, crossovers,
 * the geometry in points, label positions) and writes small CSV files; the
 * scripts only draw them.  Used by `gemmprof plot`, `gemmprof report` and
 * `gemmprof --roofline`. */
#ifndef GP_PLOT_H
#define GP_PLOT_H

#include <stddef.h>
#include <stdio.h>
#include "data/data.h"
#include "util/util.h"

/* For the run command's --roofline: draw DATA's rooflines (one per family)
 * against CEILINGS into OUTDIR (created if missing) as FORMAT (pdf, png,
 * svg, cairolatex).  Returns 0 with the paths written in `written`
 * (newline-separated),
 * 1 if the chart could not be drawn from this data (why in `err`, e.g. no
 * counters), -1 on an error (one line in `err`). */
int gp_plot_roofline(const char *data_csv, const char *ceilings_csv,
                     const char *outdir, const char *format,
                     char *written, size_t wlen, char *err, size_t errlen);

/* ---- shared by plot.c, report.c and the chart files ---- */

int gp_cmd_plot(int argc, char **argv);    /* gemmprof plot DATA.csv ... */

/* The charts, in the order they are drawn: charts.def, the one list. */
#define GP_CHART(id, ...) GP_CHART_##id,
typedef enum {
#include "charts.def"
    GP_NCHARTS
} gp_chart;
#undef GP_CHART

/* Series and which rows count (key.h). */
#include "key.h"

/* The families charts are split into (family.h). */
typedef struct gp_families_s gp_families;
typedef struct gp_family_s gp_family;

/* Data files read together (rowset.h). */
#include "rowset.h"

/* Read run files (and, among `paths`, a ceilings file recognised by its
 * header).  `ceilings` may be NULL.  Checks what every chart needs: rows
 * exist and something was measured in each file.  -1 with one line in err
 * naming the file and the problem. */
int gp_dataset_load(gp_dataset *d, char *const *paths, int npaths,
                    const char *ceilings, char *err, size_t errlen);
void gp_dataset_free(gp_dataset *d);
/* The same, then the families --family / --kernel ask for (either may be
 * NULL; gp_families_pick): 1 chosen into *fams, 0 neither given, -1 with
 * err and nothing left to free. */
int gp_dataset_open(gp_dataset *d, char *const *paths, int npaths, const char *ceilings,
                    const char *family, const char *kernels, gp_families *fams,
                    char *err, size_t errlen);


typedef struct {
    const char *format;      /* pdf, png, svg, cairolatex                 */
    const char *outdir;      /* charts go here (gnuplot runs in it)       */
    const char *workdir;     /* intermediate files                        */
    const char *datadir;     /* if set: the chart data files go here, not
                                to workdir (the report keeps them)       */
    const char *plotsdir;    /* the .gp scripts                           */
    const char *gnuplot;     /* the executable                            */
    int hierarchical;        /* roofline: L2/smem points and ceilings     */
    long size[3];            /* m,n,k for one-size charts; 0: choose      */
    const gp_families *families;  /* one chart per family; NULL: the
                                     data's own families (family.h)     */
    gp_strlist *notes;       /* what a chart left out or warns about      */
    double page_w, page_h;   /* > 0: draw on a report page this size (pt),
                                with the caption under the chart         */
    gp_strlist *captions;    /* if set: one caption per chart drawn       */
} gp_chart_opts;

/* The table of charts (charts.c, from charts.def, which says what each
 * field is).  A chart draws from the dataset: 0 drawn, file names
 * (relative to outdir) appended to `written`; 1 nothing to draw from this
 * data, reason in err ("roofline: skipped, ..."); -1 failed, one line in
 * err. */
typedef int (*gp_chart_fn)(const gp_dataset *d, const gp_chart_opts *o,
                           gp_strlist *written, char *err, size_t errlen);
typedef enum { GP_DATA_ANY, GP_DATA_DIST, GP_DATA_TRACE } gp_chart_data;
typedef struct {
    const char *name;
    gp_chart_fn draw;
    const char *script;
    gp_chart_data data;
    const char *alias;
    const char *what;
} gp_chart_def;
extern const gp_chart_def gp_charts[GP_NCHARTS];

/* The chart --charts NAME names (its name or alias), or -1. */
int gp_chart_find(const char *name);
/* Does the data hold runs of the kind chart c draws (GP_DATA_TRACE: rows
 * of gemmprof trace)?  A chart of another kind's runs is left out
 * without a note unless it was asked for by name. */
int gp_chart_applies(gp_chart c, const gp_dataset *d);
/* "roofline, gflops_vs_n, ..., dist_time" (separated by `sep`). */
void gp_chart_names(char *out, size_t len, const char *sep);

int gp_chart_render(gp_chart c, const gp_dataset *d, const gp_chart_opts *o,
                    gp_strlist *written, char *err, size_t errlen);

/* Where things are: the gnuplot executable on PATH, and the plots/ folder
 * ($GEMMPROF_PLOTS, <exe>/../plots, <exe>/../share/gemmprof/plots). */
int gp_find_gnuplot(char *path, size_t len, char *err, size_t errlen);
int gp_find_plots_dir(char *dir, size_t len, char *err, size_t errlen);

/* "pdf" -> "pdf"; "cairolatex" -> "tex"; NULL if the format is unknown. */
const char *gp_format_ext(const char *format);

/* Parse "N" or "M,N,K" (for --size).  -1 if malformed. */
int gp_parse_plot_size(const char *s, long size[3]);
/* The same as the --size option of plot and report, with its one wording
 * of the mistake.  0, or -1 with err. */
int gp_plot_size_option(const char *arg, long size[3], char *err, size_t errlen);

/* ---- drawing (draw.c, gnuplot.c): what every chart and the report share */

/* Render `script` (a file in o->plotsdir) with `vars` (term and out are
 * added here) to STEM.<ext> in o->outdir; appends what it wrote to
 * `written`, and `caption` (what the chart shows, one sentence) to
 * o->captions.  0, or -1 with err. */
int gp_chart_draw(const gp_chart_opts *o, const char *script, const char *stem,
                  const char *caption, gp_buf *vars, gp_strlist *written,
                  char *err, size_t errlen);

/* Draw one chart per family (o->families, or the data's own): `one`
 * draws family f.  0 if any was drawn (families skipped, and what a drawn
 * one says in err, go to o->notes), 1 if none (why in err), -1 error. */
typedef int (*gp_family_chart)(const gp_dataset *d, const gp_chart_opts *o,
                               const gp_family *f, gp_strlist *written,
                               char *err, size_t errlen);
int gp_chart_each_family(const gp_dataset *d, const gp_chart_opts *o, gp_family_chart one,
                         gp_strlist *written, char *err, size_t errlen);

/* chart_data.c: a chart's data file NAME (named for the chart and its
 * family, so that none overwrites another) in o->datadir or o->workdir,
 * opened for writing.  Its first lines say what it holds, for readers
 * other than gnuplot (tests/report/consistency.py): "# chart: NAME",
 * "# axis: LABEL" or "# shape: S", "# columns: A,B,...".  NULL with err. */
FILE *gp_chart_data_open(const gp_chart_opts *o, const char *name, const char *where,
                         const char *columns, char *path, size_t plen,
                         char *err, size_t errlen);
/* "# series: KERNEL|PRECISION|CONFIG": the series of the rows that follow;
 * its config as tables show it (gp_series_config), or with by_config as
 * in the run file (a size-dispatched kernel's tile). */
void gp_chart_data_series(FILE *f, const gp_key *k, int by_config);

/* A title or label as the chart's format needs it (see gp_chart_text). */
void gp_chart_title(const gp_chart_opts *o, char *out, size_t len,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "NVIDIA H200" from the data's metadata, or "unknown GPU". */
const char *gp_chart_gpu(const gp_dataset *d);

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

/* Run `gnuplot -e VARS SCRIPT` in directory `cwd`; gnuplot's stderr goes to
 * `errfile`.  0 ok; -1 if gnuplot failed or warned (a chart drawn from data
 * it could not use), with one line "WHAT: not drawn, gnuplot ...: MSG" in
 * err. */
int gp_gnuplot_run(const char *gnuplot, const char *script, const char *vars,
                   const char *cwd, const char *errfile, const char *what,
                   char *err, size_t errlen);

/* ---- choosing rows and numbers (select.c), also the report's tables */
#include "select.h"
/* ---- the families charts are split into (family.c) */
#include "family.h"

#endif
