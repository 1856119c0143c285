/* front.h - the report's first pages (private to report/): where the data
 * came from, the tables, the list of figures, what was left out.  Typeset
 * with groff (ms macros, tbl) when groff's PDF device is installed;
 * otherwise drawn as pages of fixed-width text by gnuplot, as before. */
#ifndef GP_REPORT_FRONT_H
#define GP_REPORT_FRONT_H

#include "tables.h"

/* The report's tables as report.pdf shows them: a family's summary (the
 * columns that fit a page), GFLOP/s by size, the tile configurations,
 * energy where the rows were measured with --energy, and where a trace's
 * GPU time goes. */
enum { GP_RT_FAMILY, GP_RT_BY_SIZE, GP_RT_CONFIGS, GP_RT_ENERGY, GP_RT_HOTSPOTS };

typedef struct {
    gp_table t;
    int kind;
    char stem[96];           /* its files in tables/: STEM.md, STEM.tex   */
    gp_strlist skipped;      /* "kernel: why" for rows skipped at its size */
} gp_report_table;

typedef struct {
    const gp_dataset *d;
    const char *name;        /* the report's                               */
    const char *paper;       /* "a4" or "letter"                           */
    double paper_w, paper_h; /* pt                                         */
    const gp_report_table *tables;
    int ntables;
    const gp_strlist *captions;   /* of the figures, in order              */
    const gp_strlist *notes;      /* charts left out, and why              */
    const char *workdir;
    const char *gnuplot, *plots;  /* for the text pages                    */
} gp_front;

/* groff with its PDF device (gropdf), or NULL. */
const char *gp_front_groff(char *path, size_t len);
/* Typeset the front pages into `pdf` with groff.  0, or -1 with err. */
int gp_front_typeset(const gp_front *fr, const char *groff, const char *pdf,
                     char *err, size_t errlen);
/* The same as pages of fixed-width text, one PDF each, appended to
 * `pages`.  0, or -1 with err. */
int gp_front_text(const gp_front *fr, gp_strlist *pages, char *err, size_t errlen);

#endif
