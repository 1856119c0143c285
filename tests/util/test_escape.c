/* test_escape.c - text on its way into groff, Markdown, LaTeX and file
 * names (util/escape.c): what each target would misread is made plain,
 * ordinary names pass unchanged. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* What `put` writes for `in`. */
static const char *through(void (*put)(FILE *, const char *), const char *in)
{
    static char out[1024];
    FILE *f = fmemopen(out, sizeof out, "w");
    assert_non_null(f);
    put(f, in);
    fclose(f);
    return out;
}

static const char *latex(const char *in)
{
    static char out[1024];
    gp_esc_latex(in, out, sizeof out);
    return out;
}

static const char *word(const char *in, size_t len)
{
    static char out[1024];
    gp_file_word(in, out, len);
    return out;
}

static void roff_newline_never_starts_a_request(void **state)
{
    (void)state;
    assert_string_equal(through(gp_esc_roff, "warp\n.ab PWNED"), "warp .ab PWNED");
    assert_string_equal(through(gp_esc_roff, ".ab x"), "\\&.ab x");
    assert_string_equal(through(gp_esc_roff, "'br"), "\\&'br");
    assert_string_equal(through(gp_esc_roff, "a\\fBb|c"), "a\\efBb/c");
    /* tbl: a cell of _ or = is a rule, T{ and T} a text block's ends */
    assert_string_equal(through(gp_esc_roff, "_"), "\\&_");
    assert_string_equal(through(gp_esc_roff, "="), "\\&=");
    assert_string_equal(through(gp_esc_roff, "T}"), "\\&T}");
    assert_string_equal(through(gp_esc_roff, "blocktile_2d"), "blocktile_2d");
}

static void markdown_cells_stay_cells(void **state)
{
    (void)state;
    assert_string_equal(through(gp_esc_markdown, "a|b\nc"), "a\\|b c");
    assert_string_equal(through(gp_esc_markdown, "`x` *y* [z](u) <b>"),
                        "\\`x\\` \\*y\\* \\[z\\](u) \\<b>");
    assert_string_equal(through(gp_esc_markdown, "a\\"), "a\\\\");
    /* '_' inside a word is plain in CommonMark and stays as it is */
    assert_string_equal(through(gp_esc_markdown, "cublas_fp64"), "cublas_fp64");
    assert_string_equal(through(gp_esc_markdown, "_x_"), "\\_x\\_");
}

static void latex_specials_escaped(void **state)
{
    (void)state;
    assert_string_equal(latex("50% of a_b & #1 {$}"), "50\\% of a\\_b \\& \\#1 \\{\\$\\}");
    assert_string_equal(latex("\\x~^"), "\\textbackslash{}x\\textasciitilde{}"
                                        "\\textasciicircum{}");
    assert_string_equal(latex("two\n\nparagraphs"), "two  paragraphs");
}

static void file_words_stay_in_their_folder(void **state)
{
    (void)state;
    assert_string_equal(word("roofline-fp32", 64), "roofline-fp32");
    assert_string_equal(word("../../etc/x y", 64), "_._.._etc_x_y");
    assert_string_equal(word("data'$(touch PWNED)'\n", 64), "data___touch_PWNED___");
    assert_string_equal(word(".hidden", 64), "_hidden");
    assert_string_equal(word("", 64), "_");
    assert_string_equal(word("\xc3\xa9t\xc3\xa9", 64), "__t__");
    assert_string_equal(word("abcdef", 4), "abc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roff_newline_never_starts_a_request),
        cmocka_unit_test(markdown_cells_stay_cells),
        cmocka_unit_test(latex_specials_escaped),
        cmocka_unit_test(file_words_stay_in_their_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
