/* parts.h - one report being built, shared by the files that make its
 * parts (private to report/): report.c (the command, the folder),
 * figures.c (every chart, three ways), writeup.c (tables, README, the
 * example write-up), front.c (the first pages). */
#ifndef GP_REPORT_PARTS_H
#define GP_REPORT_PARTS_H

#include <limits.h>
#include "plot/plot.h"
#include "front.h"

typedef struct {
    const char *ceilings, *name, *out, *paper, *family, *kernels;
    long size[3];
    int help, version;
} report_args;

typedef struct {
    const report_args *a;
    const gp_dataset *d;
    const gp_families *fams;     /* --family / --kernel; NULL: the data's  */
    double paper_w, paper_h;     /* pt                                     */
    char tmp[PATH_MAX], work[PATH_MAX];
    char gnuplot[PATH_MAX], plots[PATH_MAX], pdfunite[PATH_MAX], groff[PATH_MAX];
    gp_strlist figures;          /* figures/NAME.pdf, in chart order       */
    gp_strlist pages;            /* the same on a page with its caption    */
    gp_strlist captions;         /* of those pages                         */
    gp_strlist texfigs;          /* latex/NAME.tex                         */
    gp_strlist notes;            /* what was left out                      */
    gp_report_table *tables;
    int ntables;
} report;

/* figures.c: every chart the data supports, as PDF (figures/), cairolatex
 * (latex/) and a report page (captioned).  0, or -1 with err. */
int gp_report_figures(report *r, char *err, size_t errlen);

/* writeup.c: the tables (per family, by size) into r->tables and tables/
 * as Markdown and LaTeX; README.md; writeup-example.tex.  0, or -1. */
int gp_report_tables(report *r, char *err, size_t errlen);
void gp_report_tables_free(report *r);
int gp_report_readme(report *r, char *err, size_t errlen);
int gp_report_example_tex(report *r, char *err, size_t errlen);

#endif
