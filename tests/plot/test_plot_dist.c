/* test_plot_dist.c - the charts of `gemmprof dist` runs (plot_dist.c) drawn
 * from the synthetic fixtures in tests/fixtures/dist: the scaling chart
 * (speed-up over GPUs with the ideal line, efficiency in its own panel,
 * a column per transport; its layout also on the committed h200x2 data) and the time breakdown
 * (stacked bars per rank), checked with pdfinfo (pages) and pdftotext (axis
 * titles, series, labels); the numbers they are drawn from; a malformed file
 * refused with one line naming it; data that is not from `gemmprof dist`
 * skipped with a note.  CPU only; needs gnuplot and poppler-utils (skipped
 * without).  Run from the repository root (make test does). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot/plot.h"
#include "plot/charts.h"
#include "plot/dist.h"
#include "util/util.h"

#define FX "tests/fixtures/dist/"

typedef struct {
    char dir[PATH_MAX], work[PATH_MAX], plots[PATH_MAX], gnuplot[PATH_MAX];
    gp_chart_opts o;
} env;

static int tool(const char *name)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
    return system(cmd) == 0;
}

static int setup(void **state)
{
    env *e = calloc(1, sizeof *e);
    char err[256];
    snprintf(e->dir, sizeof e->dir, "/tmp/gp-plot-dist-XXXXXX");
    if (!e || !mkdtemp(e->dir))
        return -1;
    gp_fmt(e->work, sizeof e->work, "%s/work", e->dir);
    gp_mkdir_p(e->work, err, sizeof err);
    if (!realpath("plots", e->plots))
        e->plots[0] = '\0';
    if (gp_find_gnuplot(e->gnuplot, sizeof e->gnuplot, err, sizeof err) < 0)
        e->gnuplot[0] = '\0';
    e->o = (gp_chart_opts){ .format = "pdf", .outdir = e->dir, .workdir = e->work,
                            .plotsdir = e->plots, .gnuplot = e->gnuplot };
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    env *e = *state;
    gp_rm_rf(e->dir);
    free(e);
    return 0;
}

static void need_tools(const env *e)
{
    if (!e->gnuplot[0] || !tool("pdfinfo") || !tool("pdftotext"))
        skip();
    if (!e->plots[0]) {
        print_error("plots/ not found: run from the repository root\n");
        fail();
    }
}

static void load(gp_dataset *d, const char *const *files, int n)
{
    char *paths[16], err[1024];
    for (int i = 0; i < n; i++)
        paths[i] = (char *)files[i];
    if (gp_dataset_load(d, paths, n, NULL, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
}

/* The text of a PDF (both layouts, rotated labels whole only in -raw),
 * and its page count. */
static char *pdf_text(const char *pdf, int *pages)
{
    char cmd[PATH_MAX + 128];
    static char text[1 << 16];
    size_t n = 0;
    snprintf(cmd, sizeof cmd, "pdfinfo '%s' | awk '/^Pages:/ {print $2}'", pdf);
    FILE *p = popen(cmd, "r");
    *pages = 0;
    if (p) {
        if (fscanf(p, "%d", pages) != 1)
            *pages = 0;
        pclose(p);
    }
    snprintf(cmd, sizeof cmd, "pdftotext '%s' -; pdftotext -raw '%s' -", pdf, pdf);
    if ((p = popen(cmd, "r"))) {
        n = fread(text, 1, sizeof text - 1, p);
        pclose(p);
    }
    text[n] = '\0';
    return text;
}

static void assert_pdf_has(const char *pdf, const char *const *words, int n)
{
    int pages;
    const char *text = pdf_text(pdf, &pages);
    assert_int_equal(pages, 1);
    for (int i = 0; i < n; i++)
        if (!strstr(text, words[i])) {
            print_error("no '%s' in the text of %s\n", words[i], pdf);
            fail();
        }
}

static const char *const scaling_files[] = {
    FX "cublas-1.csv", FX "cublas-2-1x2-nccl.csv", FX "cublas-2-2x1-nccl.csv",
    FX "cublas-2-1x2-staged.csv", FX "cublas-4-2x2-nccl.csv",
    FX "warptiling-1.csv", FX "warptiling-2-1x2-nccl.csv",
};
#define NSCALING (int)(sizeof scaling_files / sizeof scaling_files[0])

static void scaling_chart_drawn_with_ideal_and_efficiency(void **state)
{
    env *e = *state;
    need_tools(e);
    gp_dataset d;
    gp_strlist w = { 0 };
    char msg[1024], pdf[PATH_MAX + 256];
    load(&d, scaling_files, NSCALING);
    assert_int_equal(gp_chart_dist_scaling(&d, &e->o, &w, msg, sizeof msg), 0);
    assert_int_equal(w.n, 1);
    assert_string_equal(w.v[0], "dist_scaling.pdf");
    gp_fmt(pdf, sizeof pdf, "%s/%s", e->dir, w.v[0]);
    const char *words[] = { "GPUs (one MPI rank each)", "Speed-up over 1 GPU", "Efficiency (%)",
                            "cublas, nccl", "cublas, staged", "warptiling, nccl",
                            "ideal (speed-up = GPUs)", "transport: nccl", "transport: staged",
                            "1x2", "2x1", "2x2", "8192x8192x8192 fp32",
                            "Synthetic GPU (fixture)" };
    assert_pdf_has(pdf, words, (int)(sizeof words / sizeof words[0]));
    gp_strlist_free(&w);
    gp_dataset_free(&d);
}

/* The numbers behind the chart: every grid at 2 ranks a point, the best
 * (1x2) on the series' line; speed-up and efficiency from the kernel's
 * 1-rank run, which the staged series shares. */
static void scaling_data_every_grid_and_efficiency(void **state)
{
    env *e = *state;
    need_tools(e);
    gp_dataset d;
    gp_strlist w = { 0 };
    char msg[1024], path[PATH_MAX], line[256];
    load(&d, scaling_files, 5);                     /* cublas only */
    assert_int_equal(gp_chart_dist_scaling(&d, &e->o, &w, msg, sizeof msg), 0);
    gp_fmt(path, sizeof path, "%s/dist_scaling.csv", e->work);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int block = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')                      /* points, not the lines' blocks */
            block = strstr(line, "cublas fp32 nccl:") ? 1 :
                    strstr(line, "cublas fp32 staged:") ? 2 : 0;
        double x, sp, eff, g;
        long ranks;
        int best;
        char grid[32] = "";
        if (sscanf(line, "%lf,%lf,%lf,%ld,%31[^,],%d,%lf", &x, &sp, &eff, &ranks, grid, &best,
                   &g) != 7)
            continue;
        if (block == 1 && ranks == 2 && strcmp(grid, "1x2") == 0) {
            assert_true(g > 94378 && g < 94379);      /* 94378.68 */
            assert_true(best);
            assert_true(sp > 1.8326 && sp < 1.8327);  /* 94378.68 / 51499.37 */
            assert_true(eff > 91.6 && eff < 91.7);
            found++;
        }
        if (block == 1 && ranks == 2 && strcmp(grid, "2x1") == 0) {
            assert_true(g > 89756 && g < 89757);      /* 89756.05: drawn, off the line */
            assert_false(best);
            found++;
        }
        if (block == 2 && ranks == 1) {       /* staged has no 1-rank run of its own */
            assert_true(g > 51499 && g < 51500);
            assert_true(sp > 0.9999 && sp < 1.0001);
            assert_true(eff > 99.99 && eff < 100.01);
            found++;
        }
    }
    fclose(f);
    assert_int_equal(found, 3);
    gp_strlist_free(&w);
    gp_dataset_free(&d);
}

/* The layout, on the fixtures and on the committed two-GPU data: one
 * column per transport, each series in its transport's column; every
 * point at more than one rank tagged with its grid, the tag nearer its
 * own marker than any other or joined to it by a leader, never a bare
 * number; no two markers of a panel on top of each other. */
static void check_scaling_layout(const gp_dist_scaling *sc)
{
    for (int s = 0; s < sc->nk; s++)
        assert_string_equal(sc->comm[sc->k[s].col], sc->k[s].r->comm);
    for (int q = 0; q < sc->np; q++) {
        const gp_dist_point *p = &sc->p[q];
        const gp_label *l = &sc->lab[q];
        assert_true(fabs(p->eff - 100 * p->speedup / (double)p->ranks) < 1e-9);
        if (p->ranks == 1)
            continue;
        assert_string_equal(l->shown, p->grid);
        assert_int_equal(l->number, 0);
        for (int z = 0; z < sc->np; z++) {
            const gp_label *o = &sc->lab[z];
            if (z == q || sc->k[sc->p[z].s].col != sc->k[p->s].col)
                continue;
            assert_true(hypot(o->px - l->px, o->py - l->py) >= GP_MARKER);
            double dx = fmax(fmax(l->box.x0 - o->px, o->px - l->box.x1), 0);
            double dy = fmax(fmax(l->box.y0 - o->py, o->py - l->box.y1), 0);
            double ox = fmax(fmax(l->box.x0 - l->px, l->px - l->box.x1), 0);
            double oy = fmax(fmax(l->box.y0 - l->py, l->py - l->box.y1), 0);
            if (!l->leader && hypot(dx, dy) <= hypot(ox, oy))
                fail_msg("tag %s of point %d is as near point %d", l->shown, q, z);
        }
    }
}

static void scaling_layout_tags_and_columns(void **state)
{
    (void)state;
    static const char *const sets[][12] = {
        { FX "cublas-1.csv", FX "cublas-2-1x2-nccl.csv", FX "cublas-2-2x1-nccl.csv",
          FX "cublas-2-1x2-staged.csv", FX "cublas-4-2x2-nccl.csv", FX "warptiling-1.csv",
          FX "warptiling-2-1x2-nccl.csv" },
        { "reports/data/h200x2/dist-cublas-8192-1rank.csv",
          "reports/data/h200x2/dist-cublas-8192-1x2-nccl.csv",
          "reports/data/h200x2/dist-cublas-8192-1x2-staged.csv",
          "reports/data/h200x2/dist-cublas-8192-2x1-nccl.csv",
          "reports/data/h200x2/dist-cublas-8192-2x1-staged.csv",
          "reports/data/h200x2/dist-wide_tile-8192-1rank.csv",
          "reports/data/h200x2/dist-wide_tile-8192-1x2-nccl.csv",
          "reports/data/h200x2/dist-wide_tile-8192-1x2-staged.csv",
          "reports/data/h200x2/dist-wide_tile-8192-2x1-nccl.csv",
          "reports/data/h200x2/dist-wide_tile-8192-2x1-staged.csv" },
    };
    static const int ncols[] = { 2, 2 }, nseries[] = { 3, 4 };
    for (int i = 0; i < 2; i++) {
        int n = 0;
        while (n < 12 && sets[i][n])
            n++;
        if (access(sets[i][n - 1], R_OK) != 0)
            skip();                               /* run from the repository root */
        gp_dataset d;
        load(&d, sets[i], n);
        gp_dist_scaling *sc = malloc(sizeof *sc);
        assert_int_equal(gp_dist_scaling_layout(&d, (long[3]){ 8192, 8192, 8192 }, sc), 0);
        assert_int_equal(sc->ncols, ncols[i]);
        assert_int_equal(sc->nk, nseries[i]);
        check_scaling_layout(sc);
        free(sc);
        gp_dataset_free(&d);
    }
}

/* No 1-rank run: the speed-up counts from the best run at the smallest
 * rank count (that transport's, not a median mixing transports), which
 * stands at exactly that many GPUs, and a note says so. */
static void scaling_without_a_one_rank_run(void **state)
{
    (void)state;
    const char *files[] = { FX "cublas-2-1x2-nccl.csv", FX "cublas-4-2x2-nccl.csv",
                            FX "cublas-2-1x2-staged.csv" };
    gp_dataset d;
    load(&d, files, 3);
    gp_dist_scaling *sc = malloc(sizeof *sc);
    assert_int_equal(gp_dist_scaling_layout(&d, (long[3]){ 8192, 8192, 8192 }, sc), 0);
    assert_int_equal(sc->nnotes, 1);
    assert_non_null(strstr(sc->note[0], "No 1-rank run of cublas"));
    int found = 0;
    for (int q = 0; q < sc->np; q++)
        if (sc->p[q].ranks == 2 && strcmp(sc->k[sc->p[q].s].r->comm, "nccl") == 0) {
            assert_true(fabs(sc->p[q].speedup - 2.0) < 1e-9);
            assert_true(fabs(sc->p[q].eff - 100.0) < 1e-9);
            found++;
        } else if (sc->p[q].ranks == 2) {
            assert_true(sc->p[q].speedup < 2.0);     /* staged: slower */
        }
    assert_int_equal(found, 1);
    check_scaling_layout(sc);
    free(sc);
    gp_dataset_free(&d);
}

static void time_chart_one_per_shape_with_stacked_parts(void **state)
{
    env *e = *state;
    need_tools(e);
    const char *files[] = { FX "cublas-2-1x2-nccl.csv", FX "cublas-2-1x2-staged.csv",
                            FX "skinny-1.csv", FX "skinny-2-1x2-nccl.csv" };
    gp_dataset d;
    gp_strlist w = { 0 };
    char msg[1024], pdf[PATH_MAX + 256];
    load(&d, files, 4);
    assert_int_equal(gp_chart_dist_time(&d, &e->o, &w, msg, sizeof msg), 0);
    assert_int_equal(w.n, 2);
    assert_string_equal(w.v[0], "dist_time-8192x8192x8192.pdf");
    assert_string_equal(w.v[1], "dist_time-16384x16384x128.pdf");
    gp_fmt(pdf, sizeof pdf, "%s/%s", e->dir, w.v[0]);
    const char *words[] = { "Time per repetition", "compute (local GEMMs)",
                            "comm (exposed panel broadcasts)", "transfer (host-device copies)",
                            "wall time of the multiply", "r0", "r1", "1x2 nccl", "1x2 staged" };
    assert_pdf_has(pdf, words, (int)(sizeof words / sizeof words[0]));
    gp_strlist_free(&w);
    gp_dataset_free(&d);
}

static void one_rank_count_only_is_skipped_with_a_note(void **state)
{
    env *e = *state;
    need_tools(e);
    const char *files[] = { FX "cublas-2-1x2-nccl.csv", FX "cublas-2-2x1-nccl.csv" };
    gp_dataset d;
    gp_strlist w = { 0 };
    char msg[1024];
    load(&d, files, 2);
    assert_int_equal(gp_chart_dist_scaling(&d, &e->o, &w, msg, sizeof msg), 1);
    assert_int_equal(w.n, 0);
    assert_non_null(strstr(msg, "dist_scaling: skipped"));
    assert_non_null(strstr(msg, "one rank count"));
    gp_strlist_free(&w);
    gp_dataset_free(&d);
}

static void single_gpu_run_file_is_not_dist_data(void **state)
{
    env *e = *state;
    need_tools(e);
    const char *files[] = { "tests/fixtures/run-fixture.csv" };
    gp_dataset d;
    gp_strlist w = { 0 };
    char msg[1024];
    load(&d, files, 1);
    assert_int_equal(gp_chart_dist_scaling(&d, &e->o, &w, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "dist_scaling: skipped, no verified summary rows"));
    assert_int_equal(gp_chart_dist_time(&d, &e->o, &w, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "dist_time: skipped"));
    assert_int_equal(w.n, 0);
    gp_dataset_free(&d);
}

static void malformed_file_refused_in_one_line(void **state)
{
    (void)state;
    gp_dataset d;
    char *paths[] = { FX "cublas-2-1x2-nccl.csv", FX "malformed.csv" };
    char err[1024];
    assert_int_equal(gp_dataset_load(&d, paths, 2, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "malformed.csv"));
    assert_null(strchr(err, '\n'));
    gp_dataset_free(&d);
}

static void size_option_picks_one_shape(void **state)
{
    env *e = *state;
    need_tools(e);
    const char *files[] = { FX "cublas-1.csv", FX "cublas-2-1x2-nccl.csv",
                            FX "skinny-1.csv", FX "skinny-2-1x2-nccl.csv" };
    gp_dataset d;
    gp_strlist w = { 0 };
    char msg[1024];
    load(&d, files, 4);
    gp_chart_opts o = e->o;
    o.size[0] = 16384, o.size[1] = 16384, o.size[2] = 128;
    assert_int_equal(gp_chart_dist_scaling(&d, &o, &w, msg, sizeof msg), 0);
    assert_int_equal(w.n, 1);
    assert_string_equal(w.v[0], "dist_scaling.pdf");
    o.size[0] = o.size[1] = o.size[2] = 4096;
    assert_int_equal(gp_chart_dist_time(&d, &o, &w, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "at that --size"));
    gp_strlist_free(&w);
    gp_dataset_free(&d);
}

/* A rank count is data: one of 2^28 (a loop for ever) or 1e63 (no int
 * holds it) makes the rows no dist rows the charts use, skipped at once
 * (both found by fuzzing, tests/fuzz/regressions/dist/). */
static void absurd_rank_counts_are_not_dist_rows(void **state)
{
    env *e = *state;
    /* "inf" never gets this far: the reader refuses it (test_csv.c) */
    static const char *const counts[] = { "268435456", "1e63", "2.5" };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        char path[PATH_MAX + 32], cmd[2 * PATH_MAX + 256], msg[1024];
        gp_fmt(path, sizeof path, "%s/ranks-%zu.csv", e->work, i);
        gp_fmt(cmd, sizeof cmd, "awk -F, -v OFS=, -v r=%s '/^#/ { print; next } "
               "!h { for (i = 1; i <= NF; i++) if ($i == \"ranks\") c = i; h = 1; print; next } "
               "{ $c = r; print }' " FX "cublas-2-1x2-nccl.csv >%s", counts[i], path);
        assert_int_equal(system(cmd), 0);
        const char *files[] = { path };
        gp_dataset d;
        gp_strlist w = { 0 };
        load(&d, files, 1);
        assert_int_equal(gp_chart_dist_time(&d, &e->o, &w, msg, sizeof msg), 1);
        assert_non_null(strstr(msg, "dist_time: skipped"));
        assert_int_equal(gp_chart_dist_scaling(&d, &e->o, &w, msg, sizeof msg), 1);
        assert_int_equal(w.n, 0);
        gp_dataset_free(&d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scaling_chart_drawn_with_ideal_and_efficiency),
        cmocka_unit_test(scaling_data_every_grid_and_efficiency),
        cmocka_unit_test(scaling_layout_tags_and_columns),
        cmocka_unit_test(scaling_without_a_one_rank_run),
        cmocka_unit_test(time_chart_one_per_shape_with_stacked_parts),
        cmocka_unit_test(one_rank_count_only_is_skipped_with_a_note),
        cmocka_unit_test(single_gpu_run_file_is_not_dist_data),
        cmocka_unit_test(malformed_file_refused_in_one_line),
        cmocka_unit_test(size_option_picks_one_shape),
        cmocka_unit_test(absurd_rank_counts_are_not_dist_rows),
    };
    return cmocka_run_group_tests_name("plot_dist", tests, setup, teardown);
}
