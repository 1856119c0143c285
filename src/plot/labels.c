/* labels.c - greedy label placement: each label, in turn, takes the
 * candidate spot around its point that overlaps least with what is
 * already there.  Sizes are estimates (average glyph width), which is all
 * a handful of kernel names needs. */
#include <math.h>
#include <string.h>

#include "labels.h"

typedef struct { double x0, y0, x1, y1; } box;

static double overlap(box a, box b)
{
    double w = fmin(a.x1, b.x1) - fmax(a.x0, b.x0);
    double h = fmin(a.y1, b.y1) - fmax(a.y0, b.y0);
    return w > 0 && h > 0 ? w * h : 0;
}

/* Area of `b` outside the plot. */
static double outside(box b, double w, double h)
{
    box in = { 0, 0, w, h };
    return (b.x1 - b.x0) * (b.y1 - b.y0) - overlap(b, in);
}

static box label_box(double ax, double ay, char just, double tw, double th)
{
    box b = { ax, ay - th / 2, ax + tw, ay + th / 2 };
    if (just == 'R') {
        b.x0 = ax - tw;
        b.x1 = ax;
    }
    return b;
}

void gp_labels_place(gp_label *l, int n, const double range[4],
                     double w, double h, double fontpt)
{
    double lx0 = log(range[0]), lxs = w / (log(range[1]) - lx0);
    double ly0 = log(range[2]), lys = h / (log(range[3]) - ly0);
    double px[n > 0 ? n : 1], py[n > 0 ? n : 1];
    box placed[n > 0 ? n : 1];
    for (int i = 0; i < n; i++) {
        px[i] = (log(l[i].x) - lx0) * lxs;
        py[i] = (log(l[i].y) - ly0) * lys;
    }
    const double g = 0.7 * fontpt, th = 1.2 * fontpt, dot = 0.9 * fontpt;
    const struct { double dx, dy; char just; } cand[] = {
        { g, 0, 'L' },        { -g, 0, 'R' },
        { 0.5 * g, th, 'L' }, { 0.5 * g, -th, 'L' },
        { -0.5 * g, th, 'R' }, { -0.5 * g, -th, 'R' },
        { g, 2 * th, 'L' },   { g, -2 * th, 'L' },
        { -g, 2 * th, 'R' },  { -g, -2 * th, 'R' },
    };
    for (int i = 0; i < n; i++) {
        double tw = 0.55 * fontpt * (double)strlen(l[i].text);
        double best = INFINITY;
        int pick = 0;
        for (int c = 0; c < (int)(sizeof cand / sizeof cand[0]); c++) {
            if (l[i].below && cand[c].dy >= 0)
                continue;
            box b = label_box(px[i] + cand[c].dx, py[i] + cand[c].dy,
                              cand[c].just, tw, th);
            double cost = 20 * outside(b, w, h);
            for (int j = 0; j < i; j++)
                cost += 4 * overlap(b, placed[j]);
            for (int j = 0; j < n; j++) {
                box p = { px[j] - dot / 2, py[j] - dot / 2, px[j] + dot / 2, py[j] + dot / 2 };
                cost += 4 * overlap(b, p);
            }
            cost += c * 0.5;                  /* prefer the plain spots */
            if (cost < best) {
                best = cost;
                pick = c;
            }
        }
        double ax = px[i] + cand[pick].dx, ay = py[i] + cand[pick].dy;
        placed[i] = label_box(ax, ay, cand[pick].just, tw, th);
        l[i].just = cand[pick].just;
        l[i].moved = cand[pick].dy != 0;
        l[i].lx = exp(lx0 + ax / lxs);
        l[i].ly = exp(ly0 + ay / lys);
    }
}
