/* test_table.c - the table printed while a run goes on: its columns are
 * sized to the longest kernel name of the run, so they stay aligned after
 * a long name (dgemm_blocktile_2d, a plugin's) and stay narrow without
 * one.  CPU only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/table.h"

static gp_row row(const char *kernel, const char *prec, long n)
{
    gp_row r;
    gp_row_init(&r);
    snprintf(r.kernel, sizeof r.kernel, "%s", kernel);
    snprintf(r.precision, sizeof r.precision, "%s", prec);
    r.m = r.n = r.k = n;
    r.time_ms = 1.5;
    r.gflops = 1234.5;
    r.verified = 1;
    return r;
}

/* Print the header and rows; return the printed lines (static). */
static int print(const gp_kernel *const *k, int nk, const gp_row *rows, int n,
                 char lines[][256])
{
    FILE *f = tmpfile();
    assert_non_null(f);
    gp_gpu g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "Test GPU");
    int w = gp_table_name_width(k, nk);
    gp_table_header(f, &g, w);
    for (int i = 0; i < n; i++)
        gp_table_row(f, &rows[i], w);
    rewind(f);
    int m = 0;
    while (m < 16 && fgets(lines[m], 256, f))
        m++;
    fclose(f);
    return m;
}

/* Where column `col` (0-based, space-separated fields) starts in `line`. */
static int column_at(const char *line, int col)
{
    int i = 0, c = 0;
    while (line[i] == ' ')
        i++;
    while (c < col && line[i]) {
        while (line[i] && line[i] != ' ')
            i++;
        while (line[i] == ' ')
            i++;
        c++;
    }
    return i;
}

static void columns_line_up_after_long_names(void **state)
{
    (void)state;
    const gp_kernel a = { "naive", GP_FP32, "", NULL };
    const gp_kernel b = { "dgemm_blocktile_2d", GP_FP64, "", NULL };
    const gp_kernel c = { "my_plugin_kernel_with_a_long_name", GP_FP32, "", NULL };
    const gp_kernel *k[] = { &a, &b, &c };
    gp_row rows[] = { row("naive", "fp32", 4096), row("dgemm_blocktile_2d", "fp64", 4096),
                      row("my_plugin_kernel_with_a_long_name", "fp32", 4096) };
    char lines[16][256];
    assert_int_equal(print(k, 3, rows, 3, lines), 5);       /* GPU line, header, 3 rows */
    assert_int_equal(gp_table_name_width(k, 3), (int)strlen(c.name));
    int prec = column_at(lines[1], 1);
    assert_int_equal(prec, (int)strlen(c.name) + 1);
    for (int i = 2; i < 5; i++) {
        assert_int_equal(column_at(lines[i], 1), prec);       /* "fp32" under "prec" */
        /* GFLOP/s right-aligned under its heading: same end column */
        const char *h = strstr(lines[1], "GFLOP/s");
        const char *v = strstr(lines[i], "1234.5");
        assert_non_null(v);
        assert_int_equal((int)(v - lines[i]) + 6, (int)(h - lines[1]) + 7);
    }
}

static void narrow_without_long_names(void **state)
{
    (void)state;
    const gp_kernel a = { "naive", GP_FP32, "", NULL };
    const gp_kernel *k[] = { &a };
    gp_row rows[] = { row("naive", "fp32", 256) };
    char lines[16][256];
    assert_int_equal(print(k, 1, rows, 1, lines), 3);
    assert_int_equal(gp_table_name_width(k, 1), 6);          /* "kernel" */
    assert_int_equal(column_at(lines[1], 1), 7);
    assert_int_equal(column_at(lines[2], 1), 7);
}

/* A row measured with --energy says what its window measured; one without
 * says nothing about energy. */
static void energy_only_where_measured(void **state)
{
    (void)state;
    const gp_kernel a = { "naive", GP_FP32, "", NULL };
    const gp_kernel *k[] = { &a };
    gp_row rows[] = { row("naive", "fp32", 256), row("naive", "fp32", 512) };
    rows[1].sustained_ms = 2.25;
    rows[1].power_w = 612.4;
    rows[1].energy_j = 1.3779;
    char lines[16][256];
    assert_int_equal(print(k, 1, rows, 2, lines), 4);
    assert_null(strstr(lines[2], "sustained"));
    assert_non_null(strstr(lines[3], "  sustained 2.2500 ms, 612 W, 1.378 J\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(columns_line_up_after_long_names),
        cmocka_unit_test(narrow_without_long_names),
        cmocka_unit_test(energy_only_where_measured),
    };
    return cmocka_run_group_tests_name("run_table", tests, NULL, NULL);
}
