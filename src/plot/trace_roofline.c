/* trace_roofline.c - where a traced program's GPU time goes, on the
 * roofline: its top kernels by GPU time (data/hotspots.h, the list the
 * time table shows), each at its DRAM arithmetic intensity and GFLOP/s
 * under the roofs of their precisions, a filled circle whose AREA is
 * proportional to its share of the GPU time, labelled "name 29.2%".  A
 * kernel of the top that counted no FLOPs (a fill, an elementwise copy)
 * has no point on log axes: the chart names it under the title.  Laid out
 * and drawn by roofline.c; trace_roofline.gp sets the markers' sizes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "charts.h"
#include "roofline.h"

#define TOP 10               /* kernels shown, as gemmprof trace prints    */
#define FULL_PT 48.0         /* the marker of a kernel with all the time,
                                pt across: 10% is 15 pt, 1% 4.8 pt       */
#define PS_PER_PT (0.9 / GP_MARKER)   /* style.gp: ps 0.9 is GP_MARKER pt */

/* "Not drawn (no FLOPs counted): fill 1.6%, relu 3.5%" into rl's first
 * note line (roofline.c adds its own after it); the rest in `more`. */
static void no_point_note(gp_roofline *rl, const gp_hotspots *hs, int shown,
                          char *more, size_t len)
{
    char line[sizeof rl->note[0]] = "";
    int listed = 0, left = 0;
    for (int i = 0; i < shown; i++) {
        const gp_hotspot *h = &hs->h[i];
        if (h->gflops > 0 && h->ai_dram > 0)
            continue;
        char name[64], item[96];
        gp_hotspot_name(hs, shown, i, 32, name, sizeof name);
        gp_fmt(item, sizeof item, "%s %.1f%%", name, h->share);
        char with[sizeof line + 100];
        gp_fmt(with, sizeof with, "No FLOPs counted, no point: %s, %s, ...", line, item);
        if (!left && gp_text_width(with, GP_LABEL_FONT) < GP_CHART_W - 40) {
            size_t l = strlen(line);
            gp_fmt(line + l, sizeof line - l, "%s%s", listed++ ? ", " : "", item);
        } else {
            left++;
        }
        size_t l = strlen(more);
        gp_fmt(more + l, len - l, "%s%s", l ? ", " : "", item);
    }
    if (!listed)
        return;
    gp_fmt(rl->note[rl->nnotes++], sizeof rl->note[0], "No FLOPs counted, no point: %s%s",
           line, left ? ", ..." : "");
}

/* The top kernels that have a point become rl's points, in order of GPU
 * time (the largest drawn first, under the smaller). */
static int points(const gp_hotspots *hs, int shown, gp_family *f, gp_roofline *rl)
{
    rl->p = calloc((size_t)f->n + 1, sizeof *rl->p);
    rl->lab = calloc((size_t)f->n + 2, sizeof *rl->lab);
    if (!rl->p || !rl->lab)
        return -1;
    for (int i = 0; i < shown; i++) {
        const gp_hotspot *h = &hs->h[i];
        if (!(h->gflops > 0 && h->ai_dram > 0))
            continue;
        gp_roof_point *p = &rl->p[rl->n++];
        p->k = (gp_key){ h->kernel, h->precision, h->config };
        p->ai = h->ai_dram;
        p->g = h->gflops;
        p->ai2 = NAN;
        p->lt = gp_family_lt(f, h->kernel, h->precision);
        p->share = h->share;
        p->size = FULL_PT * sqrt(h->share / 100);
        char name[48];
        gp_hotspot_name(hs, shown, i, 38, name, sizeof name);
        gp_fmt(p->name, sizeof p->name, "%s %.1f%%", name, h->share);
    }
    return 0;
}

static int draw(const gp_dataset *d, const gp_chart_opts *o, const gp_hotspots *hs,
                gp_strlist *written, char *err, size_t errlen)
{
    int shown = gp_hotspots_shown(hs, TOP);
    gp_family f = { .name = "trace", .title = "top kernels", .whole = 1 };
    f.members = calloc((size_t)shown + 1, sizeof *f.members);
    if (!f.members) {
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < shown; i++)
        if (hs->h[i].gflops > 0 && hs->h[i].ai_dram > 0)
            f.members[f.n++] = (gp_key){ hs->h[i].kernel, hs->h[i].precision, hs->h[i].config };
    gp_roofline rl;
    char more[1024] = "";
    int rc = f.n ? gp_roofline_roofs(d, &f, o, &rl, err, errlen) : 1;
    if (!f.n) {
        memset(&rl, 0, sizeof rl);
        gp_fmt(err, errlen, "trace_roofline: skipped, none of the top %d kernels counted "
               "FLOPs (trace with counters: --metrics default)", shown);
    } else if (rc == 1) {                 /* "roofline: skipped, ..." */
        char why[1024];
        gp_fmt(why, sizeof why, "%s", err);
        gp_fmt(err, errlen, "trace_%s", why);
    }
    if (rc == 0 && points(hs, shown, &f, &rl) < 0) {
        gp_fmt(err, errlen, "out of memory");
        rc = -1;
    }
    if (rc == 0) {
        rl.weighted = 1;
        rl.shape[0] = rl.shape[1] = rl.shape[2] = -1;     /* no GEMM shape */
        no_point_note(&rl, hs, shown, more, sizeof more);
        gp_roofline_place(d, o, &rl);
        char title[512], caption[512];
        gp_buf v = { 0 }, pss = { 0 };
        for (int i = 0; i < rl.n; i++)
            gp_buf_printf(&pss, "%s%.4g", i ? " " : "", rl.p[i].size * PS_PER_PT);
        gp_var_str(&v, "pss", pss.s ? pss.s : "");
        gp_chart_title(o, title, sizeof title, "Where the GPU time goes: the top %d kernels, %s",
                       shown, gp_chart_gpu(d));
        gp_fmt(caption, sizeof caption, "The %d kernels with the most GPU time (of %.4g ms, "
               "%ld launches of %d kernels): marker area proportional to the share of GPU "
               "time, at DRAM intensity and median GFLOP/s (solid roofs: measured).", shown,
               hs->total_ms, hs->launches, hs->n);
        rc = gp_roofline_draw(o, &rl, "trace_roofline.gp", "trace_roofline", title, caption,
                              &v, written, err, errlen);
        gp_buf_free(&v);
        gp_buf_free(&pss);
    }
    if (rc == 0 && (more[0] || rl.overlaps))
        gp_fmt(err, errlen, "trace_roofline: %s%s%s%s", more[0] ? "no FLOPs counted, no "
               "point: " : "", more, more[0] && rl.overlaps ? "; " : "",
               rl.overlaps ? "drawn over another marker: " : "");
    if (rc == 0 && rl.overlaps) {
        size_t l = strlen(err);
        gp_fmt(err + l, errlen - l, "%s", rl.overlap_list);
    }
    gp_roofline_free(&rl);
    free(f.members);
    return rc;
}

int gp_chart_trace_roofline(const gp_dataset *d, const gp_chart_opts *o,
                            gp_strlist *written, char *err, size_t errlen)
{
    if (!gp_chart_applies(GP_CHART_TRACE_ROOFLINE, d)) {
        gp_fmt(err, errlen, "trace_roofline: skipped, no rows of gemmprof trace (with "
               "launches) to rank by GPU time");
        return 1;
    }
    gp_hotspots hs;
    if (gp_hotspots_of(d->rows, d->nrows, d->ceil, &d->meta, &hs) < 0) {
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    int rc = 1;
    if (!(hs.total_ms > 0))
        gp_fmt(err, errlen, "trace_roofline: skipped, the traced launches have no GPU "
               "time (time_ms, time_total_ms NA or 0)");
    else
        rc = draw(d, o, &hs, written, err, errlen);
    if (rc == 0 && err[0] && o->notes)      /* drawn, with something to say */
        gp_strlist_add(o->notes, err);
    gp_hotspots_free(&hs);
    return rc;
}
