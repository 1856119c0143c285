/* roofline.c - the roofline: one size, every kernel a point at (DRAM
 * arithmetic intensity, timed GFLOP/s), the ceilings file's measured and
 * theoretical ceilings, the ridge point; --hierarchical adds L2 points and
 * the L2 and shared-memory bandwidth ceilings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "plot.h"
#include "labels.h"
#include "select.h"

/* A point needs both coordinates, on log axes: a traced kernel that
 * counted no FLOPs (a fill, a copy) has none. */
static double need_point(const gp_row *r)
{
    return r->gflops > 0 && r->ai_dram > 0 ? r->ai_dram : NAN;
}

static double ceil_val(const gp_dataset *d, const char *name, int theoretical)
{
    const gp_ceiling *c = gp_ceilings_find(d->ceil, name);
    if (!c)
        return NAN;
    return theoretical ? c->theoretical : c->measured;
}

typedef struct {
    gp_buf pkm_v, pkm_n, pkt_v, pkt_n;
    double ridge_x, ridge_y, top;
} compute_ceilings;

/* Tensor-core precisions have no probe: their kernels are drawn under the
 * FP32 FMA roof (so they may sit above it), as TF32 rungs always were. */
static int under_fp32_roof(const char *precision)
{
    static const char *const names[] = { "fp32", "tf32", "bf16", "fp16", "fp8" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(precision, names[i]) == 0)
            return 1;
    return 0;
}

/* Compute ceilings for the precisions drawn.  -1 if none is known. */
static int pick_compute(const gp_dataset *d, const gp_key *k, int nk,
                        compute_ceilings *cc, double bw)
{
    static const char *const prec[2][3] = {
        { "fp32", "fp32_fma", "FP32" }, { "fp64", "fp64_fma", "FP64" },
    };
    int any = 0;
    cc->ridge_x = cc->ridge_y = cc->top = NAN;
    for (int p = 0; p < 2; p++) {
        int used = 0;
        for (int i = 0; i < nk; i++)
            used |= p == 0 ? under_fp32_roof(k[i].precision)
                           : strcmp(k[i].precision, prec[p][0]) == 0;
        double m = ceil_val(d, prec[p][1], 0), t = ceil_val(d, prec[p][1], 1);
        if (!used || (isnan(m) && isnan(t)))
            continue;
        if (!isnan(m)) {
            gp_buf_printf(&cc->pkm_v, "%.6g ", m);
            gp_buf_printf(&cc->pkm_n, "%s ", prec[p][2]);
        }
        if (!isnan(t)) {
            gp_buf_printf(&cc->pkt_v, "%.6g ", t);
            gp_buf_printf(&cc->pkt_n, "%s ", prec[p][2]);
        }
        double peak = isnan(m) ? t : m;
        if (!any) {
            cc->ridge_y = peak;
            cc->ridge_x = peak / bw;
        }
        cc->top = isnan(cc->top) ? fmax(m, t) : fmax(cc->top, fmax(m, t));
        any = 1;
    }
    return any ? 0 : -1;
}

static void free_compute(compute_ceilings *cc)
{
    gp_buf_free(&cc->pkm_v);
    gp_buf_free(&cc->pkm_n);
    gp_buf_free(&cc->pkt_v);
    gp_buf_free(&cc->pkt_n);
}

typedef struct { double ai, g, ai2; } point;

static double decade_below(double v) { return pow(10, floor(log10(v))); }
static double decade_above(double v) { return pow(10, ceil(log10(v))); }

/* Axes that hold every point, the ridge and the highest ceiling, with
 * room for labels. */
static void ranges(const point *p, int n, int hier, const compute_ceilings *cc,
                   double r[4])
{
    double x0 = cc->ridge_x, x1 = cc->ridge_x, y0 = cc->ridge_y, y1 = cc->top;
    for (int i = 0; i < n; i++) {
        x0 = fmin(x0, p[i].ai);
        x1 = fmax(x1, p[i].ai);
        if (hier && !isnan(p[i].ai2))
            x0 = fmin(x0, p[i].ai2);
        y0 = fmin(y0, p[i].g);
        y1 = fmax(y1, p[i].g);
    }
    r[0] = decade_below(x0 / 2);
    r[1] = decade_above(x1 * 4);
    r[2] = decade_below(y0 / 2);
    r[3] = decade_above(y1 * 1.3);
}

/* Kernel labels and the ridge's label, placed together so they keep clear
 * of each other; the ridge goes first, beside its marker. */
typedef struct {
    gp_label ridge;
    char ridge_text[64];
    int moved;               /* kernel labels away from their point's level */
} placed;

static int write_points(const gp_chart_opts *o, const gp_key *k, const point *p,
                        int n, const double r[4], const compute_ceilings *cc,
                        placed *pl, char *path, size_t plen, char *msg, size_t msglen)
{
    FILE *f = gp_open_in(o->workdir, "roofline-points.csv", path, plen, msg, msglen);
    if (!f)
        return -1;
    gp_label lab[n + 1];
    char names[n + 1][48];              /* traced names are long: labels */
    gp_fmt(pl->ridge_text, sizeof pl->ridge_text, "ridge %.3g FLOP/B", cc->ridge_x);
    lab[0] = (gp_label){ .x = cc->ridge_x, .y = cc->ridge_y, .text = pl->ridge_text,
                         .below = 1 };        /* the compute roof runs level */
    for (int i = 0; i < n; i++) {
        gp_kernel_label(k[i].kernel, names[i], sizeof names[i]);
        lab[i + 1] = (gp_label){ .x = p[i].ai, .y = p[i].g, .text = names[i] };
    }
    /* The plot area of roofline.gp's 8.5 x 5.2 in page, legend outside. */
    gp_labels_place(lab, n + 1, r, 350, 300, 9);
    pl->ridge = lab[0];
    pl->moved = 0;
    fprintf(f, "# label,ai_dram,gflops,ai_l2,lx,ly,just,moved\n");
    for (int i = 0; i < n; i++) {
        const gp_label *l = &lab[i + 1];
        char text[256];
        gp_data_text(o->format, names[i], text, sizeof text);
        fprintf(f, "%s,%.6g,%.6g,", text, p[i].ai, p[i].g);
        fprintf(f, isnan(p[i].ai2) ? "NA," : "%.6g,", p[i].ai2);
        fprintf(f, "%.6g,%.6g,%c,%d\n", l->lx, l->ly, l->just, l->moved);
        pl->moved += l->moved;
    }
    if (fclose(f) != 0) {
        gp_fmt(msg, msglen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

static void precisions(const gp_key *k, int n, char *out, size_t len)
{
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        if (!strstr(out, k[i].precision))
            gp_fmt(out + strlen(out), len - strlen(out), "%s%s",
                     out[0] ? ", " : "", k[i].precision);
}

static int draw(const gp_dataset *d, const gp_chart_opts *o, const gp_key *k,
                const point *p, int n, const long shape[3], gp_strlist *written,
                char *msg, size_t msglen)
{
    double bw_m = ceil_val(d, "dram_bw", 0), bw_t = ceil_val(d, "dram_bw", 1);
    compute_ceilings cc = { 0 };
    if (pick_compute(d, k, n, &cc, isnan(bw_m) ? bw_t : bw_m) < 0) {
        gp_fmt(msg, msglen, "roofline: skipped, %s has no fp32_fma/fp64_fma "
                 "ceiling for these kernels", d->ceil_path);
        free_compute(&cc);
        return 1;
    }
    int hier = 0;
    for (int i = 0; o->hierarchical && i < n; i++)
        hier |= !isnan(p[i].ai2);
    if (o->hierarchical && !hier)
        gp_warn("roofline: no ai_l2 values, L2 points left out");
    double r[4], l2 = NAN, smem = NAN;
    if (o->hierarchical) {
        l2 = ceil_val(d, "l2_bw", 0);
        smem = ceil_val(d, "smem_bw", 0);
    }
    ranges(p, n, hier, &cc, r);
    char pts[4096], title[512], sz[64], prec[64];
    int rc = -1;
    placed pl;
    if (write_points(o, k, p, n, r, &cc, &pl, pts, sizeof pts, msg, msglen) == 0) {
        gp_shape_str(shape, sz, sizeof sz);
        precisions(k, n, prec, sizeof prec);
        gp_chart_title(o, title, sizeof title, "Roofline: %s, %s, size %s%s",
                       gp_chart_gpu(d), prec, sz, hier ? " (DRAM and L2)" : "");
        gp_buf v = { 0 };
        gp_var_str(&v, "pts", pts);
        gp_var_num(&v, "bw_m", bw_m);
        gp_var_num(&v, "bw_t", bw_t);
        gp_var_num(&v, "l2_m", l2);
        gp_var_num(&v, "smem_m", smem);
        gp_var_str(&v, "pkm_v", cc.pkm_v.s ? cc.pkm_v.s : "");
        gp_var_str(&v, "pkm_n", cc.pkm_n.s ? cc.pkm_n.s : "");
        gp_var_str(&v, "pkt_v", cc.pkt_v.s ? cc.pkt_v.s : "");
        gp_var_str(&v, "pkt_n", cc.pkt_n.s ? cc.pkt_n.s : "");
        gp_var_num(&v, "ridge_x", cc.ridge_x);
        gp_var_num(&v, "ridge_y", cc.ridge_y);
        gp_var_num(&v, "hier", hier);
        gp_var_num(&v, "nmoved", pl.moved);
        gp_var_num(&v, "ridge_lx", pl.ridge.lx);
        gp_var_num(&v, "ridge_ly", pl.ridge.ly);
        gp_var_str(&v, "ridge_just", pl.ridge.just == 'L' ? "left" : "right");
        gp_var_num(&v, "xmin", r[0]);
        gp_var_num(&v, "xmax", r[1]);
        gp_var_num(&v, "ymin", r[2]);
        gp_var_num(&v, "ymax", r[3]);
        gp_var_str(&v, "ttl", title);
        rc = gp_chart_draw(o, "roofline.gp", "roofline", &v, written, msg, msglen);
        gp_buf_free(&v);
    }
    free_compute(&cc);
    return rc;
}

int gp_chart_roofline(const gp_dataset *d, const gp_chart_opts *o,
                      gp_strlist *written, char *msg, size_t msglen)
{
    if (!d->ceil) {
        gp_fmt(msg, msglen, "roofline: skipped, no ceilings file (run gemmprof "
                 "probe, then pass --ceilings FILE)");
        return 1;
    }
    double bw_m = ceil_val(d, "dram_bw", 0), bw_t = ceil_val(d, "dram_bw", 1);
    if (isnan(bw_m) && isnan(bw_t)) {
        gp_fmt(msg, msglen, "roofline: skipped, %s has no dram_bw ceiling", d->ceil_path);
        return 1;
    }
    gp_where w = { .d = d, .need = need_point };
    long shape[3];
    if (gp_shape_choose(&w, o->size, shape) < 0) {
        char sz[64] = "";
        if (o->size[0])
            gp_shape_str(o->size, sz, sizeof sz);
        gp_fmt(msg, msglen, "roofline: skipped, no ai_dram values%s%s (run with counters)",
                 sz[0] ? " at size " : "", sz);
        return 1;
    }
    w.shape = shape;
    gp_key *k;
    int n = gp_keys(&w, &k);
    point *p = malloc((size_t)(n + 1) * sizeof *p);
    for (int i = 0; p && i < n; i++) {
        p[i].ai = gp_median(&w, &k[i], gp_get_ai_dram);
        p[i].g = gp_median(&w, &k[i], gp_get_gflops);
        p[i].ai2 = gp_median(&w, &k[i], gp_get_ai_l2);
    }
    int rc = p ? draw(d, o, k, p, n, shape, written, msg, msglen) : -1;
    if (!p)
        gp_fmt(msg, msglen, "out of memory");
    free(p);
    free(k);
    return rc;
}
