/* labels.c - label placement: greedy, most crowded point first, each label
 * taking the cheapest candidate spot that is clear of everything placed so
 * far.  Candidates run from beside the point outwards (further spots get a
 * leader line), so a tight cluster spreads its names into a column beside
 * it; a cluster where even that fails is numbered instead.  Sizes come
 * from frame.h's font metrics, the same the chart is drawn with. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"

#define PAD 1.5              /* clearance between a label and anything  */
#define MAX_LEADER 60.0      /* longest leader line                     */

int gp_seg_hits_box(gp_seg s, gp_box b, double pad)
{
    /* Liang-Barsky: clip the segment to the box grown by pad. */
    double t0 = 0, t1 = 1, dx = s.x1 - s.x0, dy = s.y1 - s.y0;
    double p[4] = { -dx, dx, -dy, dy };
    double q[4] = { s.x0 - (b.x0 - pad), (b.x1 + pad) - s.x0,
                    s.y0 - (b.y0 - pad), (b.y1 + pad) - s.y0 };
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return 0;
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0 && t > t0)
            t0 = t;
        else if (p[i] > 0 && t < t1)
            t1 = t;
        if (t0 > t1)
            return 0;
    }
    return 1;
}

/* Do two segments cross?  (A leader that crosses a roof would read as a
 * label of the roof.) */
static int segs_cross(gp_seg a, gp_seg b)
{
    double d1 = (b.x1 - b.x0) * (a.y0 - b.y0) - (b.y1 - b.y0) * (a.x0 - b.x0);
    double d2 = (b.x1 - b.x0) * (a.y1 - b.y0) - (b.y1 - b.y0) * (a.x1 - b.x0);
    double d3 = (a.x1 - a.x0) * (b.y0 - a.y0) - (a.y1 - a.y0) * (b.x0 - a.x0);
    double d4 = (a.x1 - a.x0) * (b.y1 - a.y0) - (a.y1 - a.y0) * (b.x1 - a.x0);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}

static gp_box marker_box(const gp_label *l)
{
    double h = l->marker / 2;
    return (gp_box){ l->px - h, l->py - h, l->px + h, l->py + h };
}

typedef struct {
    gp_label *l;
    int n;
    const gp_label_space *s;
    int *done;               /* placed, in placement order              */
    int ndone;
    gp_seg *leaders;         /* of the labels placed so far             */
    int nleaders;
} state;

/* Nearest point of the box to (x, y): where a leader line ends. */
static void nearest(gp_box b, double x, double y, double *lx, double *ly)
{
    *lx = fmin(fmax(x, b.x0), b.x1);
    *ly = fmin(fmax(y, b.y0), b.y1);
}

/* Clear of the plot's edge, the lines, markers, labels and leaders placed
 * so far?  `lead` is the candidate's own leader (NULL: none): it may not
 * cross a roof, another leader, a label or another point's marker (it
 * would point at the wrong one). */
static int clear(const state *st, int self, gp_box b, const gp_seg *lead)
{
    const gp_label_space *s = st->s;
    if (b.x0 < s->area.x0 + PAD || b.x1 > s->area.x1 - PAD ||
        b.y0 < s->area.y0 + PAD || b.y1 > s->area.y1 - PAD)
        return 0;
    for (int i = 0; i < s->nseg; i++)        /* (a number may reach across) */
        if (gp_seg_hits_box(s->seg[i], b, PAD) ||
            (lead && !st->l[self].number && segs_cross(*lead, s->seg[i])))
            return 0;
    for (int i = 0; i < st->n; i++) {
        gp_box m = marker_box(&st->l[i]);
        if (gp_box_overlap(b, m, PAD))
            return 0;
        /* (a marker on top of its own point's cannot be helped; a number's
         * leader may cross its cluster: the number says whose it is) */
        if (lead && i != self && !st->l[self].number && gp_seg_hits_box(*lead, m, 0.5) &&
            !gp_box_overlap(m, marker_box(&st->l[self]), 0))
            return 0;
    }
    for (int j = 0; j < st->ndone; j++) {
        const gp_label *o = &st->l[st->done[j]];
        if (gp_box_overlap(b, o->box, PAD) || (lead && gp_seg_hits_box(*lead, o->box, 0.5)))
            return 0;
    }
    for (int j = 0; j < st->nleaders; j++)
        if (gp_seg_hits_box(st->leaders[j], b, PAD) ||
            (lead && segs_cross(*lead, st->leaders[j])))
            return 0;
    return 1;
}

static gp_box box_at(double x, char just, double cy, double tw, double font)
{
    gp_box b = { x, cy - GP_TEXT_DOWN * font, x + tw, cy + GP_TEXT_UP * font };
    if (just == 'R') {
        b.x0 = x - tw;
        b.x1 = x;
    }
    return b;
}

/* Distance from the box to the point (0 inside). */
static double box_dist(gp_box b, double x, double y)
{
    double nx, ny;
    nearest(b, x, y, &nx, &ny);
    return hypot(nx - x, ny - y);
}

/* Without a leader a label reads as the name of the marker nearest it: is
 * that its own, by a clear margin?  (A marker on its own point's cannot be
 * told apart by any label; the chart notes those, see overlap.) */
static int owns(const state *st, int self, gp_box b)
{
    const gp_label *l = &st->l[self];
    double own = box_dist(b, l->px, l->py);
    for (int j = 0; j < st->n; j++) {
        const gp_label *o = &st->l[j];
        if (j != self && hypot(o->px - l->px, o->py - l->py) > 0.5 &&
            box_dist(b, o->px, o->py) < own + GP_LABEL_MARGIN)
            return 0;
    }
    return 1;
}

/* Try one spot; keep it if it is clear and cheaper than the best so far. */
static void consider(const state *st, int i, gp_box b, char just, double cost,
                     gp_label *best, double *best_cost)
{
    const gp_label *l = &st->l[i];
    if (cost >= *best_cost || (l->below && b.y1 > l->py - l->marker / 2))
        return;
    double lx, ly;
    nearest(b, l->px, l->py, &lx, &ly);
    double reach = hypot(lx - l->px, ly - l->py);
    int leader = reach > l->marker / 2 + 3;
    if (reach > (l->number ? 1.5 : 1) * MAX_LEADER)   /* too far to read as its label */
        return;
    gp_seg lead = { l->px, l->py, lx, ly };
    if (!leader && !owns(st, i, b))
        return;
    if (leader)
        cost += 4;
    if (cost >= *best_cost || !clear(st, i, b, leader ? &lead : NULL))
        return;
    *best_cost = cost;
    best->box = b;
    best->just = just;
    best->leader = leader;
    best->lx = lx;
    best->ly = ly;
}

/* The cheapest clear spot for label i: beside the point at growing
 * distances and heights, or centred above or below it.  0 if none. */
static int place_one(state *st, int i)
{
    gp_label *l = &st->l[i];
    if (!l->text[0]) {                  /* a marker only: nothing to place */
        l->shown = "";
        l->box = (gp_box){ l->px, l->py, l->px, l->py };
        l->leader = 0;
        return l->placed = 1;
    }
    const double f = st->s->font, th = (GP_TEXT_UP + GP_TEXT_DOWN) * f;
    const double g = l->marker / 2 + 2, tw = gp_text_width(l->shown, f);
    gp_label best = *l;
    double best_cost = INFINITY;
    for (int dxk = 0; dxk < 14; dxk++)
        for (int dyk = 0; dyk < 33; dyk++) {
            double dx = dxk * 0.8 * f, dy = ((dyk + 1) / 2) * 0.5 * th * (dyk % 2 ? 1 : -1);
            double cost = dx + fabs(dy);
            consider(st, i, box_at(l->px + g + dx, 'L', l->py + dy, tw, f), 'L', cost,
                     &best, &best_cost);
            consider(st, i, box_at(l->px - g - dx, 'R', l->py + dy, tw, f), 'R', cost + 2,
                     &best, &best_cost);
        }
    for (int k = 0; k < 12; k++)
        for (int up = 0; up < 2; up++) {
            double cy = l->py + (up ? 1 : -1) * (g + (up ? GP_TEXT_DOWN : GP_TEXT_UP) * f +
                                                 k * 0.5 * th);
            consider(st, i, box_at(l->px - tw / 2, 'L', cy, tw, f), 'L',
                     fabs(cy - l->py) + 1, &best, &best_cost);
        }
    if (isinf(best_cost))
        return 0;
    *l = best;
    l->placed = 1;
    st->done[st->ndone++] = i;
    if (l->leader)
        st->leaders[st->nleaders++] = (gp_seg){ l->px, l->py, l->lx, l->ly };
    return 1;
}

/* How many other points lie within r of point i. */
static int crowd(const gp_label *l, int n, int i, double r)
{
    int c = 0;
    for (int j = 0; j < n; j++)
        c += j != i && hypot(l[j].px - l[i].px, l[j].py - l[i].py) < r;
    return c;
}

/* The order labels take their spots in.  Pass 0: the most crowded first
 * (ties in the given order); pass 1: the same, ties reversed; pass 2: top
 * to bottom; pass 3: left to right.  The ridge's label always first: it
 * has the fewest places to go. */
static double order_key(const gp_label *l, int n, int i, int pass, double font)
{
    if (l[i].below)
        return -1e9;
    switch (pass) {
    case 0: return -crowd(l, n, i, 4 * font) * (double)n - (n - i);
    case 1: return -crowd(l, n, i, 4 * font) * (double)n - i;
    case 2: return -l[i].py;
    default: return l[i].px;
    }
}

/* One pass over every label; returns how many found no clear spot. */
static int place_pass(gp_label *l, int n, const gp_label_space *s, int pass)
{
    int order[n > 0 ? n : 1], done[n > 0 ? n : 1];
    double key[n > 0 ? n : 1];
    gp_seg leaders[n > 0 ? n : 1];
    state st = { l, n, s, done, 0, leaders, 0 };
    for (int i = 0; i < n; i++) {
        order[i] = i;
        key[i] = order_key(l, n, i, pass, s->font);
        l[i].placed = 0;
    }
    for (int i = 1; i < n; i++)                    /* insertion sort, stable */
        for (int j = i; j > 0 && key[order[j]] < key[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int failed = 0;
    for (int k = 0; k < n; k++)
        failed += !place_one(&st, order[k]);
    return failed;
}

/* The first order that places every label; else the last try.  Returns
 * how many found no spot. */
static int place_all(gp_label *l, int n, const gp_label_space *s)
{
    int failed = 0;
    for (int pass = 0; pass < 4; pass++)
        if ((failed = place_pass(l, n, s, pass)) == 0)
            return 0;
    return failed;
}

/* Points within r of each other, transitively: the cluster of point i. */
static void mark_cluster(const gp_label *l, int n, int i, double r, int *mark)
{
    mark[i] = 1;
    for (int j = 0; j < n; j++)
        if (!mark[j] && hypot(l[j].px - l[i].px, l[j].py - l[i].py) < r)
            mark_cluster(l, n, j, r, mark);
}

static int number_marked(gp_label *l, int n, const int *mark)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        l[i].number = 0;
        l[i].shown = l[i].text;
    }
    for (int i = 0; i < n; i++)
        if (mark[i] && !l[i].below && l[i].text[0]) {
            l[i].number = ++k;
            snprintf(l[i].num, sizeof l[i].num, "%d", k);
            l[i].shown = l[i].num;
        }
    return k;
}

int gp_labels_layout(gp_label *l, int n, const gp_label_space *s)
{
    int mark[n > 0 ? n : 1];
    memset(mark, 0, sizeof mark);
    number_marked(l, n, mark);
    if (place_all(l, n, s) == 0)
        return 0;
    /* Names that found no room become numbers, */
    for (int i = 0; i < n; i++)
        mark[i] = !l[i].placed;
    int k = number_marked(l, n, mark);
    if (place_all(l, n, s) == 0)
        return k;
    for (int i = 0; i < n; i++)              /* then their whole clusters */
        if (!l[i].placed || l[i].number)
            mark_cluster(l, n, i, 3 * s->font, mark);
    k = number_marked(l, n, mark);
    if (place_all(l, n, s) == 0)
        return k;
    for (int i = 0; i < n; i++)
        mark[i] = 1;
    k = number_marked(l, n, mark);
    /* Where even a number finds no room, nothing is written at the point:
     * the legend still pairs its number and name with its own marker. */
    if (place_all(l, n, s) > 0)
        for (int i = 0; i < n; i++)
            if (!l[i].placed) {
                l[i].shown = "";
                l[i].box = (gp_box){ l[i].px, l[i].py, l[i].px, l[i].py };
                l[i].leader = 0;
            }
    return k;
}
