/* test_held.c - rows held for their --energy window (held.c): every row is
 * written in the order it was held, each timed row gets its window just
 * before it is written, and a row whose timing failed gets none. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/run.h"

static const gp_kernel ka = { "ka", GP_FP32, "x", NULL };
static const gp_kernel kb = { "kb", GP_TF32, "x", NULL };

typedef struct {
    char log[512];      /* "w:NAME " for a window, "r:NAME " for a write */
} calls;

static void window(void *ctx, gp_held *h, int i)
{
    calls *c = ctx;
    snprintf(c->log + strlen(c->log), sizeof c->log - strlen(c->log), "w:%s ",
             h->kernels[i]->name);
    h->rows[i].energy_j = 2.0 * i;
}

static void write_row(void *ctx, const gp_row *r)
{
    calls *c = ctx;
    snprintf(c->log + strlen(c->log), sizeof c->log - strlen(c->log), "r:%s%s ",
             r->kernel, isnan(r->energy_j) ? "" : "+e");
}

static void hold(gp_held *h, const gp_kernel *k, double time_ms)
{
    gp_row r;
    gp_row_identify(&r, k, 64, 64, 64, 1.0, 0.0);
    r.time_ms = time_ms;
    assert_int_equal(gp_held_add(h, k, &r), 0);
}

static void windows_come_after_all_timing_and_rows_keep_their_order(void **state)
{
    (void)state;
    gp_held h = {0};
    hold(&h, &ka, 1.0);
    hold(&h, &kb, NAN);        /* timing failed: no window */
    hold(&h, &kb, 0.25);
    assert_int_equal(h.n, 3);
    calls c = {""};
    gp_held_flush(&h, window, write_row, &c);
    assert_string_equal(c.log, "w:ka r:ka+e r:kb w:kb r:kb+e ");
    assert_int_equal(h.n, 0);
    /* empty again: a second flush writes nothing */
    c.log[0] = '\0';
    gp_held_flush(&h, window, write_row, &c);
    assert_string_equal(c.log, "");
    gp_held_free(&h);
}

/* Without a bench (it could not be made again after a reset) the held rows
 * still go, without windows. */
static void no_window_still_writes_every_row(void **state)
{
    (void)state;
    gp_held h = {0};
    for (int i = 0; i < 40; ++i)           /* past the first allocation */
        hold(&h, i % 2 ? &kb : &ka, 1.0 + i);
    assert_int_equal(h.n, 40);
    assert_true(h.rows[39].time_ms == 40.0);
    assert_string_equal(h.kernels[39]->name, "kb");
    calls c = {""};
    gp_held_flush(&h, NULL, write_row, &c);
    assert_int_equal((int)strlen(c.log), 20 * strlen("r:ka ") + 20 * strlen("r:kb "));
    assert_null(strstr(c.log, "w:"));
    assert_null(strstr(c.log, "+e"));
    gp_held_free(&h);
    assert_null(h.rows);
    assert_int_equal(h.n + h.cap, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(windows_come_after_all_timing_and_rows_keep_their_order),
        cmocka_unit_test(no_window_still_writes_every_row),
    };
    return cmocka_run_group_tests_name("held", tests, NULL, NULL);
}
