/* frame.c - chart geometry in points, text widths, engineering ticks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "frame.h"

static double axis(double v, int lg)
{
    return lg ? log10(v) : v;
}

double gp_frame_px(const gp_frame *f, double x)
{
    double a = axis(f->x0, f->xlog), b = axis(f->x1, f->xlog);
    return f->plot.x0 + (axis(x, f->xlog) - a) / (b - a) * (f->plot.x1 - f->plot.x0);
}

double gp_frame_py(const gp_frame *f, double y)
{
    double a = axis(f->y0, f->ylog), b = axis(f->y1, f->ylog);
    return f->plot.y0 + (axis(y, f->ylog) - a) / (b - a) * (f->plot.y1 - f->plot.y0);
}

static double unaxis(double v, int lg)
{
    return lg ? pow(10, v) : v;
}

double gp_frame_x(const gp_frame *f, double px)
{
    double a = axis(f->x0, f->xlog), b = axis(f->x1, f->xlog);
    return unaxis(a + (px - f->plot.x0) / (f->plot.x1 - f->plot.x0) * (b - a), f->xlog);
}

double gp_frame_y(const gp_frame *f, double py)
{
    double a = axis(f->y0, f->ylog), b = axis(f->y1, f->ylog);
    return unaxis(a + (py - f->plot.y0) / (f->plot.y1 - f->plot.y0) * (b - a), f->ylog);
}

/* Advance widths of DejaVu Sans (2.37, units per em 2048) for ASCII 32-126,
 * read from the font's hmtx table; other bytes count as 'M' (wide). */
static const short dejavu[95] = {
    651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716,
    1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767,
    1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690,
    799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186,
    569, 1995, 1298, 1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075,
    1303, 690, 1303, 1716,
};

double gp_text_width(const char *s, double font)
{
    double units = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p & 0xC0) == 0x80)            /* UTF-8 continuation byte */
            continue;
        units += *p >= 32 && *p < 127 ? dejavu[*p - 32] : 1767;
    }
    return units / 2048 * font;
}

void gp_fit_text(char *s, double font, double maxw)
{
    char *open;
    while (gp_text_width(s, font) > maxw && (open = strstr(s, " ("))) {
        char *close = strchr(open, ')');
        if (!close)
            break;
        memmove(open, close + 1, strlen(close + 1) + 1);
    }
    if (gp_text_width(s, font) <= maxw)
        return;
    /* the longest prefix of whole characters that fits with "..." */
    double room = maxw - gp_text_width("...", font), w = 0;
    size_t n = 0;
    while (s[n]) {
        size_t next = n + 1;
        while (((unsigned char)s[next] & 0xC0) == 0x80)
            next++;
        char c[8] = "";
        memcpy(c, s + n, next - n < 7 ? next - n : 7);
        if (w + gp_text_width(c, font) > room)
            break;
        w += gp_text_width(c, font);
        n = next;
    }
    strcpy(s + n, "...");
}

int gp_box_overlap(gp_box a, gp_box b, double pad)
{
    return a.x0 < b.x1 + pad && b.x0 < a.x1 + pad && a.y0 < b.y1 + pad && b.y0 < a.y1 + pad;
}

/* Where the chart sits on its canvas: the chart itself, or a report page
 * with the chart centred near its top (the caption goes under it). */
static void canvas(const gp_chart_opts *o, const gp_frame *f, double *cw, double *ch,
                   double *ox, double *oy)
{
    *cw = f->w, *ch = f->h, *ox = 0, *oy = 0;
    if (o->page_w > 0) {
        *cw = o->page_w;
        *ch = o->page_h;
        *ox = (*cw - f->w) / 2;
        *oy = *ch - 60 - f->h;
    }
}

void gp_frame_box_vars(gp_buf *v, const gp_chart_opts *o, const gp_frame *f,
                       const char *prefix, gp_box b)
{
    double cw, ch, ox, oy;
    char name[64];
    canvas(o, f, &cw, &ch, &ox, &oy);
    const double at[4] = { (ox + b.x0) / cw, (ox + b.x1) / cw, (oy + b.y0) / ch,
                           (oy + b.y1) / ch };
    const char *side[4] = { "l", "r", "b", "t" };
    for (int i = 0; i < 4; i++) {
        gp_fmt(name, sizeof name, "%s%sm", prefix, side[i]);
        gp_var_num(v, name, at[i]);
    }
}

int gp_wrap_text(const char *s, double font, double maxw, char lines[][256], int max)
{
    int n = 0;
    while (*s && n < max) {
        while (*s == ' ')
            s++;
        size_t end = 0, fit = 0;              /* fit: the last word break that fits */
        char line[256];
        while (s[end] && end < sizeof line - 1) {
            size_t next = end + 1 + strcspn(s + end + 1, " ");
            if (next >= sizeof line)
                break;
            memcpy(line, s, next);
            line[next] = '\0';
            if (fit && gp_text_width(line, font) > maxw)
                break;
            fit = end = next;
        }
        if (!fit)                             /* one word wider than the line */
            fit = strcspn(s, " ");
        if (fit >= sizeof lines[0])
            fit = sizeof lines[0] - 1;
        memcpy(lines[n], s, fit);
        lines[n++][fit] = '\0';
        s += fit;
    }
    return n;
}

void gp_frame_vars(gp_buf *v, const gp_chart_opts *o, const gp_frame *f,
                   const char *caption)
{
    double cw, ch, ox, oy;
    canvas(o, f, &cw, &ch, &ox, &oy);
    gp_var_num(v, "cw", cw / 72);
    gp_var_num(v, "ch", ch / 72);
    gp_frame_box_vars(v, o, f, "", f->plot);  /* lm, rm, bm, tm */
    gp_var_num(v, "kx", (ox + f->kx) / cw);
    gp_var_num(v, "ky", (oy + f->ky) / ch);
    gp_var_num(v, "kcols", f->kcols);
    gp_var_num(v, "krows", f->krows);
    /* The chart's own top and left edge, for titles placed in points. */
    gp_var_num(v, "ctop", (oy + f->h) / ch);
    gp_var_num(v, "cleft", ox / cw);
    gp_var_num(v, "cmid", (ox + f->w / 2) / cw);
    gp_var_num(v, "ptx", 1 / cw);
    gp_var_num(v, "pty", 1 / ch);
    if (o->page_w > 0 && caption) {
        /* wrapped to the chart's width, never cut: the page has room */
        char numbered[1024], text[600], name[16], lines[GP_CAPTION_LINES][256];
        gp_fmt(numbered, sizeof numbered, "Figure %d. %s",
               o->captions ? o->captions->n + 1 : 1, caption);
        int n = gp_wrap_text(numbered, 9, f->w, lines, GP_CAPTION_LINES);
        for (int i = 0; i < n; i++) {
            gp_chart_text(o->format, lines[i], 0, text, sizeof text);
            gp_fmt(name, sizeof name, "cap%d", i + 1);
            gp_var_str(v, name, text);
        }
        gp_var_num(v, "ncap", n);
        gp_var_num(v, "capx", (ox) / cw);
        gp_var_num(v, "capy", (oy - 16) / ch);
    }
}

void gp_frame_stack(gp_frame *f, double left, double right, double plot_h,
                    double below, int nkey, int kcols, int notes)
{
    int rows = kcols > 0 ? (nkey + kcols - 1) / kcols : nkey;
    f->krows = rows > 0 ? rows : 1;
    double key_h = rows > 0 ? rows * GP_KEY_ROW + 6 : 0;
    f->w = GP_CHART_W;
    f->plot = (gp_box){ left, key_h + below, GP_CHART_W - right, key_h + below + plot_h };
    f->kx = 10;
    f->ky = key_h;
    f->kcols = kcols;
    f->h = f->plot.y1 + 24 + GP_NOTE_ROW * notes;
}

void gp_word(gp_buf *list, const char *format, const char *text)
{
    char t[512];
    gp_chart_text(format, text, 0, t, sizeof t);
    for (char *c = t; *c; c++)
        if (*c == '"')
            *c = '\'';
    gp_buf_printf(list, "%s\"%s\"", list->len ? " " : "", t);
}

int gp_key_cols(double widest)
{
    int c = (int)((GP_CHART_W - 20) / (widest + 40));   /* + the sample, a gap */
    return c < 1 ? 1 : c > 4 ? 4 : c;
}

static const double steps[3] = { 1, 2, 5 };

void gp_log_range(double lo, double hi, double *a, double *b)
{
    double e = floor(log10(lo));
    *a = pow(10, e);
    for (int i = 2; i >= 0; i--)
        if (steps[i] * pow(10, e) <= lo * (1 + 1e-9)) {
            *a = steps[i] * pow(10, e);
            break;
        }
    e = floor(log10(hi));
    *b = pow(10, e + 1);
    for (int i = 0; i < 3; i++)
        if (steps[i] * pow(10, e) >= hi * (1 - 1e-9)) {
            *b = steps[i] * pow(10, e);
            break;
        }
    /* a hair wider, so that gnuplot keeps the tics at the ends */
    *a *= 1 - 1e-6;
    *b *= 1 + 1e-6;
}

/* "0.1", "20", "1000": no exponents, no trailing zeros. */
static void plain(double v, char *out, size_t len)
{
    if (v >= 1)
        gp_fmt(out, len, "%.0f", v);
    else
        gp_fmt(out, len, "%.*f", (int)ceil(-log10(v) - 1e-9), v);
}

/* The ticks of [lo, hi]: decades (fine: 1-2-5 steps), as a tic list;
 * how many. */
static int tic_list(gp_buf *t, double lo, double hi, int fine)
{
    int n = 0;
    gp_buf_printf(t, "(");
    /* a range no data file of real measurements has (0, denormals, past
     * 1e30; fuzzed files do) gets no tics rather than an endless list */
    if (!(lo >= 1e-30 && hi <= 1e30 && lo <= hi)) {
        gp_buf_printf(t, ")");
        return 0;
    }
    for (double e = floor(log10(lo)) - 1; e <= ceil(log10(hi)); e++)
        for (int i = 0; i < (fine ? 3 : 1); i++) {
            double x = steps[i] * pow(10, e);
            if (x < lo * (1 - 1e-9) || x > hi * (1 + 1e-9))
                continue;
            char s[32];
            plain(x, s, sizeof s);
            gp_buf_printf(t, "%s'%s' %.10g", n++ ? ", " : "", s, x);
        }
    gp_buf_printf(t, ")");
    return n;
}

void gp_log_tics(gp_buf *v, const char *name, double lo, double hi, int most)
{
    gp_buf t = { 0 };
    int n = tic_list(&t, lo, hi, 0);
    if (n < 2 || log10(hi / lo) < 2 - 1e-9) {   /* 1-2-5 if they fit */
        gp_buf fine = { 0 };
        if (tic_list(&fine, lo, hi, 1) <= most || n == 0) {
            gp_buf_free(&t);
            t = fine;
        } else {
            gp_buf_free(&fine);
        }
    }
    gp_var_str(v, name, t.s);
    gp_buf_free(&t);
}

double gp_flops_unit(double max_gflops, const char **unit)
{
    int tera = max_gflops >= 2000;
    *unit = tera ? "TFLOP/s" : "GFLOP/s";
    return tera ? 1000 : 1;
}
