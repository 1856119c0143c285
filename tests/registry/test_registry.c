/* test_registry.c - the kernel table: built-ins, selection, references,
 * plugins, --list.  Tests that add plugins come last (the table is global). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"

#define MAXSEL 512
static const gp_kernel *sel[MAXSEL];
static char err[2048];

static int select_spec(const char *spec)
{
    strcpy(err, "(untouched)");
    return gp_registry_select(spec, sel, MAXSEL, err, sizeof err);
}

static void bad_select(const char *spec, const char *want)
{
    int n = select_spec(spec);
    if (n != -1 || !strstr(err, want))
        fail_msg("'%s': got %d, message '%s', wanted -1 and '%s'", spec, n, err, want);
}

static int fake_launch(const gemm_args *a, cudaStream_t s, gp_launch_info *i)
{
    (void)a; (void)s; (void)i;
    return 0;
}

static void builtins_have_unique_names_and_ideas(void **state)
{
    (void)state;
    assert_true(gp_builtin_kernel_count > 0);
    assert_int_equal(gp_registry_count(), gp_builtin_kernel_count);
    for (int i = 0; i < gp_builtin_kernel_count; i++) {
        const gp_kernel *k = &gp_builtin_kernels[i];
        assert_non_null(k->name);
        assert_true(k->name[0] != '\0');
        if (strspn(k->name, "abcdefghijklmnopqrstuvwxyz0123456789_-.") != strlen(k->name))
            fail_msg("kernel name '%s' is not a plain CLI name", k->name);
        if (!k->idea || !k->idea[0])
            fail_msg("kernel '%s' has no idea line", k->name);
        assert_null(strchr(k->idea, '\n'));
        assert_non_null(k->launch);
        assert_true(k->precision == GP_FP32 || k->precision == GP_FP64 ||
                    k->precision == GP_TF32);
        for (int j = i + 1; j < gp_builtin_kernel_count; j++)
            assert_string_not_equal(k->name, gp_builtin_kernels[j].name);
        /* the table starts as the ladder, in ladder order */
        assert_string_equal(gp_registry_get(i)->name, k->name);
        assert_ptr_equal(gp_registry_find(k->name), gp_registry_get(i));
    }
    assert_null(gp_registry_get(-1));
    assert_null(gp_registry_get(gp_registry_count()));
    assert_null(gp_registry_find("no_such_kernel"));
}

static void select_all_in_table_order(void **state)
{
    (void)state;
    int n = select_spec("all");
    assert_int_equal(n, gp_registry_count());
    for (int i = 0; i < n; i++)
        assert_ptr_equal(sel[i], gp_registry_get(i));
}

static void select_list_keeps_order_and_drops_duplicates(void **state)
{
    (void)state;
    assert_int_equal(select_spec("cublas,naive"), 2);
    assert_string_equal(sel[0]->name, "cublas");
    assert_string_equal(sel[1]->name, "naive");
    assert_int_equal(select_spec("naive,naive,cublas,naive"), 2);
    assert_string_equal(sel[1]->name, "cublas");
    assert_int_equal(select_spec("cublas,all"), gp_registry_count());
    assert_string_equal(sel[0]->name, "cublas");
    assert_int_equal(select_spec(" naive , cublas "), 2);   /* blanks trimmed */
}

static void select_unknown_names_valid_kernels(void **state)
{
    (void)state;
    bad_select("naive,xyz", "unknown kernel 'xyz' (valid: ");
    for (int i = 0; i < gp_registry_count(); i++)
        if (!strstr(err, gp_registry_get(i)->name))
            fail_msg("'%s' not among the valid names: %s", gp_registry_get(i)->name, err);
    assert_int_equal(err[strlen(err) - 1], ')');
    bad_select("nai", "unknown kernel 'nai'");              /* no prefixes */
    bad_select("naive cublas", "unknown kernel 'naive cublas'");
    bad_select("NAIVE", "unknown kernel 'NAIVE'");
}

static void select_rejects_empty_names(void **state)
{
    (void)state;
    bad_select("", "empty kernel list");
    bad_select("naive,,cublas", "empty kernel name in 'naive,,cublas'");
    bad_select(",naive", "empty kernel name");
    bad_select("naive,", "empty kernel name");
    bad_select(" ", "empty kernel name");
}

static void select_respects_max(void **state)
{
    (void)state;
    strcpy(err, "");
    assert_int_equal(gp_registry_select("naive,cublas", sel, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "too many kernels (at most 1)"));
    assert_int_equal(gp_registry_select("naive,naive", sel, 1, err, sizeof err), 1);
}

static void reference_is_the_precisions_cublas(void **state)
{
    (void)state;
    const gp_kernel *r = gp_registry_reference(GP_FP32);
    assert_non_null(r);
    assert_string_equal(r->name, "cublas");
    assert_int_equal(r->precision, GP_FP32);
    assert_ptr_equal(gp_registry_reference(GP_FP64), gp_registry_find("cublas_fp64"));
    assert_ptr_equal(gp_registry_reference(GP_TF32), gp_registry_find("cublas_tf32"));
    const gp_kernel *r64 = gp_registry_reference(GP_FP64);
    if (r64)
        assert_int_equal(r64->precision, GP_FP64);
}

static void precision_names_and_sizes(void **state)
{
    (void)state;
    assert_string_equal(gp_precision_name(GP_FP32), "fp32");
    assert_string_equal(gp_precision_name(GP_FP64), "fp64");
    assert_string_equal(gp_precision_name(GP_TF32), "tf32");
    assert_int_equal(gp_precision_bytes(GP_FP32), 4);
    assert_int_equal(gp_precision_bytes(GP_FP64), 8);
    assert_int_equal(gp_precision_bytes(GP_TF32), 4);
}

/* A header, then one line per kernel: name, precision, needs, here, idea,
 * in aligned columns; with no GPU, "here" says so. */
static void list_prints_aligned_columns(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    gp_build b;
    assert_int_equal(gp_build_parse("sm_90", &b, err, sizeof err), 0);
    FILE *f = open_memstream(&text, &len);
    gp_registry_print(f, 0, &b, NULL);
    fclose(f);
    char *line = strtok(text, "\n");
    assert_non_null(line);
    char *p = strstr(line, "precision"), *i = strstr(line, "idea");
    char *h = strstr(line, "here");
    assert_int_equal(strncmp(line, "name  ", 6), 0);
    assert_non_null(p);
    assert_non_null(i);
    assert_non_null(strstr(line, "needs"));
    assert_non_null(h);
    long prec_col = p - line, idea_col = i - line, here_col = h - line;
    int lines = 0;
    for (line = strtok(NULL, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        const gp_kernel *k = gp_registry_get(lines);
        assert_non_null(k);
        assert_int_equal(strncmp(line, k->name, strlen(k->name)), 0);
        p = strstr(line + strlen(k->name), gp_precision_name(k->precision));
        i = strstr(line, k->idea);
        assert_non_null(p);
        assert_non_null(i);
        assert_int_equal(p - line, prec_col);
        assert_int_equal(i - line, idea_col);
        assert_int_equal(strncmp(line + here_col, "no GPU", 6), 0);
        assert_true(p[-1] == ' ' && p[-2] == ' ');
    }
    assert_int_equal(lines, gp_registry_count());
    free(text);
}

static void plugins_are_appended_and_selectable(void **state)
{
    (void)state;
    int before = gp_registry_count();
    gp_kernel k = { "my_plugin", GP_FP32, "a plugin kernel", fake_launch };
    assert_int_equal(gp_registry_add(&k, "libmy.so"), 0);
    assert_int_equal(gp_registry_count(), before + 1);
    assert_string_equal(gp_plugin_origin(gp_registry_find("my_plugin")), "libmy.so");
    assert_null(gp_plugin_origin(gp_registry_find("naive")));
    assert_string_equal(gp_registry_get(before)->name, "my_plugin");
    assert_non_null(gp_registry_find("my_plugin"));
    int n = select_spec("all");
    assert_int_equal(n, before + 1);
    assert_string_equal(sel[n - 1]->name, "my_plugin");
    assert_int_equal(select_spec("my_plugin,naive"), 2);
    bad_select("xyz", "my_plugin");          /* listed among the valid names */
}

static void plugins_with_taken_or_bad_names_are_refused(void **state)
{
    (void)state;
    int before = gp_registry_count();
    gp_kernel k = { "naive", GP_FP32, "clash", fake_launch };
    assert_int_equal(gp_registry_add(&k, NULL), -1);
    static const char *const bad[] = { "", "all", "Upper", "a,b", "a b", "my_plugin" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        k.name = bad[i];
        if (gp_registry_add(&k, NULL) != -1)
            fail_msg("plugin name '%s' was accepted", bad[i]);
    }
    k.name = "no_launcher";
    k.launch = NULL;
    assert_int_equal(gp_registry_add(&k, NULL), -1);
    k.launch = fake_launch;
    k.idea = NULL;
    assert_int_equal(gp_registry_add(&k, NULL), -1);
    assert_int_equal(gp_registry_count(), before);
}

static void registry_refuses_when_full(void **state)
{
    (void)state;
    char names[300][16];
    int added = 0;
    for (int i = 0; i < 300; i++) {
        snprintf(names[i], sizeof names[i], "fill%d", i);
        gp_kernel k = { names[i], GP_FP32, "filler", fake_launch };
        if (gp_registry_add(&k, NULL) == 0)
            added++;
        else
            break;
    }
    assert_true(added < 300);
    assert_int_equal(gp_registry_count(), 256);
    strcpy(err, "");
    assert_int_equal(gp_registry_select("all", sel, 10, err, sizeof err), -1);
    assert_non_null(strstr(err, "too many kernels"));
    assert_int_equal(select_spec("all"), 256);
    /* the unknown-kernel message is cut to the buffer, not overrun */
    char small[64];
    assert_int_equal(gp_registry_select("xyz", sel, MAXSEL, small, sizeof small), -1);
    assert_int_equal(strlen(small), sizeof small - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtins_have_unique_names_and_ideas),
        cmocka_unit_test(select_all_in_table_order),
        cmocka_unit_test(select_list_keeps_order_and_drops_duplicates),
        cmocka_unit_test(select_unknown_names_valid_kernels),
        cmocka_unit_test(select_rejects_empty_names),
        cmocka_unit_test(select_respects_max),
        cmocka_unit_test(reference_is_the_precisions_cublas),
        cmocka_unit_test(precision_names_and_sizes),
        cmocka_unit_test(list_prints_aligned_columns),
        cmocka_unit_test(plugins_are_appended_and_selectable),
        cmocka_unit_test(plugins_with_taken_or_bad_names_are_refused),
        cmocka_unit_test(registry_refuses_when_full),
    };
    return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
