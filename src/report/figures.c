/* figures.c - the report's charts: each one the data supports, drawn three
 * times from the same layout: figures/NAME.pdf to paste, latex/NAME.tex
 * (cairolatex) to \import, and a page of report.pdf with the chart on the
 * paper and its caption under it. */
#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "parts.h"

/* One chart three ways: 0 drawn, 1 left out (r->notes says why), -1 error. */
static int one_chart(report *r, gp_chart c, gp_chart_opts *o, char *err, size_t errlen)
{
    char fig[PATH_MAX], tex[PATH_MAX], pages[PATH_MAX], data[PATH_MAX], msg[1024];
    gp_path_join(fig, sizeof fig, r->tmp, "figures");
    gp_path_join(data, sizeof data, r->tmp, "chart-data");
    gp_path_join(tex, sizeof tex, r->tmp, "latex");
    gp_path_join(pages, sizeof pages, r->work, "pages");
    gp_strlist w = { 0 };
    *o = (gp_chart_opts){ .format = "pdf", .outdir = fig, .workdir = r->work,
                          .datadir = data, .plotsdir = r->plots, .gnuplot = r->gnuplot,
                          .families = r->fams, .notes = &r->notes };
    memcpy(o->size, r->a->size, sizeof o->size);
    int rc = gp_chart_render(c, r->d, o, &w, msg, sizeof msg);
    for (int i = 0; rc == 0 && i < w.n; i++) {
        char p[PATH_MAX];
        gp_path_join(p, sizeof p, fig, w.v[i]);
        gp_strlist_add(&r->figures, p);
    }
    gp_strlist_free(&w);
    o->notes = NULL;                         /* said once */
    o->datadir = NULL;                       /* kept once (LaTeX escapes in the rest) */
    if (rc == 0) {
        o->format = "cairolatex";
        o->outdir = tex;
        rc = gp_chart_render(c, r->d, o, &w, msg, sizeof msg);
        for (int i = 0; rc == 0 && i < w.n; i++)
            if (strstr(w.v[i], ".tex"))
                gp_strlist_add(&r->texfigs, w.v[i]);
        gp_strlist_free(&w);
    }
    if (rc == 0) {
        o->format = "pdf";
        o->outdir = pages;
        o->page_w = r->paper_w;
        o->page_h = r->paper_h;
        o->captions = &r->captions;
        rc = gp_chart_render(c, r->d, o, &w, msg, sizeof msg);
        for (int i = 0; rc == 0 && i < w.n; i++) {
            char p[PATH_MAX];
            gp_path_join(p, sizeof p, pages, w.v[i]);
            gp_strlist_add(&r->pages, p);
        }
        gp_strlist_free(&w);
    }
    if (rc < 0)
        gp_fmt(err, errlen, "%s", msg);
    if (rc == 1)
        gp_strlist_add(&r->notes, msg);
    return rc;
}

int gp_report_figures(report *r, char *err, size_t errlen)
{
    for (int c = 0; c < GP_NCHARTS; c++) {
        gp_chart_opts o;
        if (!gp_chart_applies((gp_chart)c, r->d))
            continue;                       /* another kind of run's chart */
        if (one_chart(r, (gp_chart)c, &o, err, errlen) < 0)
            return -1;
    }
    return 0;
}
