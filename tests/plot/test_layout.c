/* test_layout.c - the roofline's layout on the committed H200 data
 * (reports/data/h200/), computed by the code the chart is drawn with:
 * for every family, and for --family all, no label overlaps another
 * label, a marker, a roof or the legend, every label is inside the plot
 * area and nearer its own point than any other (or joined to it by a
 * leader), markers drawn over each other are named under the title;
 * every point lies under a roof drawn, or the chart says why.
 * The geometry checks here are the test's own, not labels.c's.  CPU only;
 * no gnuplot needed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot/plot.h"
#include "plot/roofline.h"

#define H200 "reports/data/h200"
#define H100 "reports/data/h100"
#define TENSOR "tests/fixtures/ceilings-h200-tensor.csv"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The run files of the folder, in the order a shell glob gives them,
 * with these ceilings. */
static int load_dir(gp_dataset *d, const char *folder, const char *ceilings)
{
    DIR *dir = opendir(folder);
    if (!dir)
        return -1;
    char *paths[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && n < 64) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".csv") == 0 &&
            strcmp(e->d_name, "ceilings.csv") != 0 &&     /* given as `ceilings` */
            strncmp(e->d_name, "tuning-", 7) != 0) {       /* not run files */
            paths[n] = malloc(strlen(folder) + len + 2);
            sprintf(paths[n++], "%s/%s", folder, e->d_name);
        }
    }
    closedir(dir);
    qsort(paths, (size_t)n, sizeof *paths, by_name);
    char err[1024];
    int rc = gp_dataset_load(d, paths, n, ceilings, err, sizeof err);
    if (rc != 0)
        print_error("%s\n", err);
    for (int i = 0; i < n; i++)
        free(paths[i]);
    return rc;
}

static int apart(gp_box a, gp_box b)
{
    return a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0;
}

static int inside(gp_box in, gp_box out)
{
    return in.x0 >= out.x0 && in.x1 <= out.x1 && in.y0 >= out.y0 && in.y1 <= out.y1;
}

/* The segment clear of the box, sampled every 0.1 pt. */
static int seg_clear(gp_seg s, gp_box b)
{
    double len = hypot(s.x1 - s.x0, s.y1 - s.y0), step = len > 0.1 ? 0.1 / len : 1;
    for (double t = 0; t <= 1 + 1e-12; t += step) {
        double x = s.x0 + t * (s.x1 - s.x0), y = s.y0 + t * (s.y1 - s.y0);
        if (x > b.x0 && x < b.x1 && y > b.y0 && y < b.y1)
            return 0;
    }
    return 1;
}

/* Distance from the box to (x, y), 0 inside: the test's own. */
static double dist_to(gp_box b, double x, double y)
{
    double dx = fmax(fmax(b.x0 - x, x - b.x1), 0), dy = fmax(fmax(b.y0 - y, y - b.y1), 0);
    return hypot(dx, dy);
}

/* A label with no leader line is nearer its own point than any other
 * point (else a reader takes it for the other's name: issue 28's
 * smem_padded beside smem's marker). */
static void check_own(const gp_roofline *rl, const char *family, const gp_label *l)
{
    if (l->leader || !l->shown[0])
        return;
    double own = dist_to(l->box, l->px, l->py);
    for (int j = 0; j < rl->n; j++) {
        const gp_label *o = &rl->lab[j];
        if (o != l && hypot(o->px - l->px, o->py - l->py) > 0.5 &&
            dist_to(l->box, o->px, o->py) <= own)
            fail_msg("%s: label %s is as near %s's marker as its own, with no leader",
                     family, l->shown, o->text);
    }
}

/* Every two markers that touch (centres less than a marker apart) are
 * named in the notes under the title ("b over a"), but for those counted
 * in an "and N more" where the lines run out; all of them in the list the
 * report's notes get. */
static void check_overlaps(const gp_roofline *rl, const char *family)
{
    int pairs = 0, named = 0;
    char notes[GP_ROOF_NOTES * 200] = "";
    for (int i = rl->nabove; i < rl->nnotes; i++)
        snprintf(notes + strlen(notes), sizeof notes - strlen(notes), "%s ", rl->note[i]);
    for (int j = 0; j < rl->n; j++)
        for (int i = 0; i < j; i++) {
            if (hypot(rl->lab[i].px - rl->lab[j].px, rl->lab[i].py - rl->lab[j].py) >=
                GP_MARKER)
                continue;
            char pair[128];
            snprintf(pair, sizeof pair, "%s over %s", rl->p[j].name, rl->p[i].name);
            pairs++;
            named += strstr(notes, pair) != NULL;
            if (!strstr(rl->overlap_list, pair))
                fail_msg("%s: %s not in the overlap list", family, pair);
        }
    assert_int_equal(rl->overlaps, pairs);
    if (named < pairs) {
        char more[64];
        snprintf(more, sizeof more, "and %d more", pairs - named);
        if (!strstr(notes, more))
            fail_msg("%s: %d overlapping markers, %d named in \"%s\"", family, pairs, named,
                     notes);
    }
}

/* Everything the issue asks of one roofline's layout.  `crowded`: a point
 * may go unlabelled if it is numbered in the legend (--family all). */
static void check_layout(const gp_roofline *rl, const char *family, int crowded)
{
    const gp_box plot = rl->fr.plot;
    /* the legend lies outside the plot area, under it */
    assert_true(rl->key.y1 <= plot.y0);
    assert_true(rl->fr.h > plot.y1 && rl->fr.w >= plot.x1);
    int numbers = 0;
    for (int i = 0; i <= rl->n; i++) {
        const gp_label *l = &rl->lab[i];
        if (!l->placed && crowded && l->number > 0 && !l->shown[0]) {
            numbers++;                     /* not drawn; in the legend */
            continue;
        }
        if (!l->placed)
            fail_msg("%s: label %s found no clear spot", family, l->text);
        if (!inside(l->box, plot))
            fail_msg("%s: label %s outside the plot area", family, l->shown);
        if (!apart(l->box, rl->key))
            fail_msg("%s: label %s on the legend", family, l->shown);
        numbers += l->number > 0;
        for (int s = 0; s < rl->nseg; s++)
            if (!seg_clear(rl->seg[s].p, l->box))
                fail_msg("%s: label %s crosses the roof %s", family, l->shown,
                         rl->roofs.r[rl->seg[s].roof].what);
        for (int j = 0; j <= rl->n; j++) {
            const gp_label *o = &rl->lab[j];
            gp_box m = { o->px - o->marker / 2, o->py - o->marker / 2,
                         o->px + o->marker / 2, o->py + o->marker / 2 };
            if (!apart(l->box, m))
                fail_msg("%s: label %s covers the marker of %s", family, l->shown, o->text);
            if (j < i && !apart(l->box, o->box))
                fail_msg("%s: labels %s and %s overlap", family, l->shown, o->shown);
        }
        /* the label is at its point, or a leader joins them */
        double dx = fmax(fmax(l->box.x0 - l->px, l->px - l->box.x1), 0);
        double dy = fmax(fmax(l->box.y0 - l->py, l->py - l->box.y1), 0);
        assert_true(l->leader || hypot(dx, dy) <= l->marker / 2 + 3 + 1e-9);
        check_own(rl, family, l);
    }
    check_overlaps(rl, family);
    /* numbered points are listed in the legend */
    assert_int_equal(numbers, rl->numbered);
    assert_int_equal(rl->nkey, rl->nseg + 1 + rl->hier + rl->numbered);
    /* the axes in engineering units: no exponents in a tick label */
    assert_true(rl->fr.y1 / rl->fr.y0 > 1 && rl->fr.x1 / rl->fr.x0 > 1);
    assert_true(strcmp(rl->unit, "TFLOP/s") == 0 || strcmp(rl->unit, "GFLOP/s") == 0);
}

/* Is every point under the highest compute roof and the theoretical DRAM
 * slope at its intensity? */
static int all_under(const gp_roofline *rl)
{
    double peak = 0, bw = 0;
    for (int i = 0; i < rl->roofs.n; i++) {
        const gp_roof *r = &rl->roofs.r[i];
        if (r->compute)
            peak = fmax(peak, r->value);
        else if (strcmp(r->ceiling, "dram_bw") == 0)
            bw = fmax(bw, r->value);
    }
    for (int i = 0; i < rl->n; i++)
        if (rl->p[i].g * rl->scale > fmin(peak, bw * rl->p[i].ai) * 1.001)
            return 0;
    return 1;
}

static int load_h200(gp_dataset *d, const char *ceilings)
{
    return load_dir(d, H200, ceilings);
}

static void layout_all(const char *ceilings, int tensor_rows)
{
    if (access(H200 "/ladder-4096.csv", R_OK) != 0)
        skip();                                  /* run from the repository root */
    gp_dataset d;
    assert_int_equal(load_h200(&d, ceilings), 0);
    gp_families fs, all;
    assert_int_equal(gp_families_of(&d, &fs), 0);
    assert_int_equal(gp_family_all(&d, &all), 0);
    const char *want[] = { "fp32-ladder", "fp32-top", "tf32", "fp64" };
    assert_int_equal(fs.n, 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(fs.f[i].name, want[i]);
    for (int i = 0; i <= fs.n; i++) {
        const gp_family *f = i < fs.n ? &fs.f[i] : &all.f[0];
        gp_chart_opts o = { 0 };
        gp_roofline rl;
        char msg[512];
        assert_int_equal(gp_roofline_layout(&d, f, &o, &rl, msg, sizeof msg), 0);
        check_layout(&rl, f->name, f->whole);
        if (i < fs.n)                            /* a family fits: at most ~10 rungs */
            assert_true(rl.n <= 14);
        /* Tensor-core kernels need a tensor roof: from the file's rows, or
         * from wherever gp_family_roofs finds one (an architecture table). */
        int tensor = strcmp(f->name, "tf32") == 0 || strcmp(f->name, "fp64") == 0 ||
                     f->whole, roofed = 0;
        for (int r = 0; r < rl.roofs.n; r++)
            roofed |= strstr(rl.roofs.r[r].ceiling, "_tensor") != NULL;
        if (tensor_rows)
            assert_true(!tensor || roofed);
        if (roofed || !tensor) {
            /* every point under a roof, and nothing to explain */
            assert_true(all_under(&rl));
            assert_int_equal(rl.nabove, 0);
        } else {
            /* points above every roof drawn, and the chart says why */
            assert_false(all_under(&rl));
            assert_int_equal(rl.nabove, 2);
            assert_non_null(strstr(rl.note[1], "_tensor row"));
        }
        gp_roofline_free(&rl);
    }
    gp_families_free(&fs);
    gp_families_free(&all);
    gp_dataset_free(&d);
}

/* The committed ceilings have no tensor-core rows yet: unless a tensor
 * roof comes from elsewhere, TF32 and FP64 points lie above the FMA roofs,
 * and the note says so. */
static void h200_committed_ceilings(void **state)
{
    (void)state;
    layout_all(H200 "/ceilings.csv", 0);
}

/* The H100 reference data: the same layout rules, family by family and
 * all together. */
static void h100_committed_ceilings(void **state)
{
    (void)state;
    if (access(H100 "/ladder-4096.csv", R_OK) != 0)
        skip();
    gp_dataset d;
    assert_int_equal(load_dir(&d, H100, H100 "/ceilings.csv"), 0);
    gp_families fs, all;
    assert_int_equal(gp_families_of(&d, &fs), 0);
    assert_int_equal(gp_family_all(&d, &all), 0);
    assert_true(fs.n >= 1);
    for (int i = 0; i <= fs.n; i++) {
        const gp_family *f = i < fs.n ? &fs.f[i] : &all.f[0];
        gp_chart_opts o = { 0 };
        gp_roofline rl;
        char msg[512];
        assert_int_equal(gp_roofline_layout(&d, f, &o, &rl, msg, sizeof msg), 0);
        check_layout(&rl, f->name, f->whole);
        gp_roofline_free(&rl);
    }
    gp_families_free(&fs);
    gp_families_free(&all);
    gp_dataset_free(&d);
}

/* With the tf32_tensor and fp64_tensor rows: every point under a roof. */
static void h200_with_tensor_roofs(void **state)
{
    (void)state;
    layout_all(TENSOR, 1);
}

/* The roofs of each family: FP32 FMA for FP32; TF32 adds its tensor roof,
 * FP64 its FMA and tensor roofs; DRAM and L2 for all, measured and
 * theoretical where the file has them. */
static void roofs_of_each_family(void **state)
{
    (void)state;
    if (access(TENSOR, R_OK) != 0)
        skip();
    gp_dataset d;
    assert_int_equal(load_h200(&d, TENSOR), 0);
    gp_families fs;
    assert_int_equal(gp_families_of(&d, &fs), 0);
    static const struct { const char *family, *roofs; } want[] = {
        { "fp32-ladder", "fp32_fma:1 fp32_fma:0 dram_bw:1 dram_bw:0 l2_bw:1 " },
        { "fp32-top", "fp32_fma:1 fp32_fma:0 dram_bw:1 dram_bw:0 l2_bw:1 " },
        { "tf32", "fp32_fma:1 fp32_fma:0 tf32_tensor:0 dram_bw:1 dram_bw:0 l2_bw:1 " },
        { "fp64", "fp64_fma:1 fp64_fma:0 fp64_tensor:0 dram_bw:1 dram_bw:0 l2_bw:1 " },
    };
    for (int i = 0; i < fs.n; i++) {
        gp_roofs r;
        gp_family_roofs(&d, &fs.f[i], 0, &r);
        char got[512] = "";
        for (int j = 0; j < r.n; j++)
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s:%d ", r.r[j].ceiling,
                     r.r[j].measured);
        assert_string_equal(fs.f[i].name, want[i].family);
        assert_string_equal(got, want[i].roofs);
        assert_string_equal(r.missing, "");
    }
    gp_families_free(&fs);
    gp_dataset_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h200_committed_ceilings),
        cmocka_unit_test(h200_with_tensor_roofs),
        cmocka_unit_test(h100_committed_ceilings),
        cmocka_unit_test(roofs_of_each_family),
    };
    return cmocka_run_group_tests_name("plot_layout", tests, NULL, NULL);
}
