/* writeup.c - the parts of a report a write-up takes as they are: the
 * tables (tables/, Markdown and LaTeX with booktabs), README.md, and
 * writeup-example.tex, a minimal LaTeX document that includes one of the
 * cairolatex figures and one table (pdflatex with texlive-latex-base and
 * -recommended builds it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "parts.h"

/* tables/STEM.md from `t` (with the reasons of its skipped rows under it:
 * the table itself says only "skipped"), tables/STEM.tex from `tex` (a
 * page wide). */
static int write_file_tables(report *r, const gp_table *t, const gp_table *tex,
                             const char *stem, char *err, size_t errlen)
{
    char dir[PATH_MAX], path[PATH_MAX], name[96], label[96];
    gp_path_join(dir, sizeof dir, r->tmp, "tables");
    gp_fmt(name, sizeof name, "%s.md", stem);
    FILE *f = gp_open_in(dir, name, path, sizeof path, err, errlen);
    if (!f)
        return -1;
    gp_table_markdown(f, t);
    gp_strlist skipped = { 0 };
    gp_table_skipped(r->d, t, &skipped);
    for (int i = 0; i < skipped.n; i++) {
        fprintf(f, "%s- ", i ? "" : "\nSkipped here:\n\n");
        gp_esc_markdown(f, skipped.v[i]);
        fputc('\n', f);
    }
    gp_strlist_free(&skipped);
    int bad = fclose(f) != 0;
    gp_fmt(name, sizeof name, "%s.tex", stem);
    gp_fmt(label, sizeof label, "tab:gemmprof-%s", stem);
    if (bad || !(f = gp_open_in(dir, name, path, sizeof path, err, errlen)))
        return -1;
    gp_table_latex(f, tex, label);
    if (fclose(f) != 0) {
        gp_fmt(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

static gp_report_table *add_table(report *r, int kind)
{
    gp_report_table *t = gp_push(&r->tables, &r->ntables, sizeof *r->tables);
    if (t)
        t->kind = kind;
    return t;
}

/* GFLOP/s by size of family f (NULL: every kernel, in tables/ only), if
 * it has a sweep: tables/STEM.md with the config column, the page and
 * tables/STEM.tex with the kernel column only. */
static int by_size_table(report *r, const gp_family *f, int maxcols, char *err,
                         size_t errlen)
{
    gp_table full, brief;
    int rc = gp_table_by_size(r->d, f, maxcols, &full);
    if (rc == 0)
        rc = gp_table_by_size_brief(&full, &brief) < 0 ? -1 : 0;
    if (rc != 0) {
        gp_table_free(&full);
        if (rc < 0)
            gp_fmt(err, errlen, "out of memory");
        return rc < 0 ? -1 : 0;                          /* 1: one size only */
    }
    char stem[96], word[64] = "";
    if (f)
        gp_file_word(f->name, word, sizeof word);      /* a file name: tables/ */
    gp_fmt(stem, sizeof stem, "gflops_by_size%s%s", f ? "-" : "", word);
    rc = write_file_tables(r, &full, &brief, stem, err, errlen);
    gp_table_free(&full);
    gp_report_table *t = rc == 0 && f ? add_table(r, GP_RT_BY_SIZE) : NULL;
    if (!t) {
        gp_table_free(&brief);
        if (rc == 0 && f)
            gp_fmt(err, errlen, "out of memory");
        return rc == 0 && f ? -1 : rc;
    }
    t->t = brief;
    gp_fmt(t->stem, sizeof t->stem, "%s", stem);
    return 0;
}

/* The tile configs at the summary's size: tables/configs.md in full
 * (config, GFLOP/s, how many configs measured, the fastest); on the page
 * and in configs.tex the configs, and in fastest_configs.* the kernels
 * measured in several. */
static int configs_tables(report *r, const gp_table *summary, char *err, size_t errlen)
{
    gp_table full = { 0 };
    gp_report_table *t = add_table(r, GP_RT_CONFIGS);
    int rc = t && gp_table_configs(r->d, summary, &full) == 0 ? 0 : -1;
    if (rc == 0 && gp_table_configs_brief(&full, &t->t) == 0) {
        gp_fmt(t->stem, sizeof t->stem, "configs");
        rc = write_file_tables(r, &full, &t->t, t->stem, err, errlen);
    } else {
        rc = -1;
    }
    gp_table fast = { 0 };           /* in tables/ as it is, on the page short */
    gp_report_table *b = rc == 0 ? add_table(r, GP_RT_CONFIGS) : NULL;
    int got = b ? gp_table_fastest(&full, &fast) : -1;
    if (got == 0 && gp_table_copy(&fast, &b->t) < 0)
        got = -1;
    if (got == 0) {
        gp_table_short_configs(&b->t);
        gp_fmt(b->stem, sizeof b->stem, "fastest_configs");
        rc = write_file_tables(r, &fast, &b->t, b->stem, err, errlen);
    } else if (got == 1) {                      /* one config per kernel */
        r->ntables--;
    } else {
        rc = -1;
    }
    gp_table_free(&fast);
    if (rc < 0 && !err[0])
        gp_fmt(err, errlen, "out of memory");
    gp_table_free(&full);
    return rc;
}

/* Every config of each kernel that gemmprof sweep measured beside its own
 * (the sweep's series, apart from the kernel's row and curve). */
static int sweep_tables(report *r, char *err, size_t errlen)
{
    gp_where w = { .d = r->d, .need = gp_get_gflops, .sweep_configs = 1 };
    gp_key *k;
    int n = gp_keys(&w, &k), rc = 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        int swept = 0, seen = 0;
        for (int j = 0; j < r->d->nrows && !swept; j++)
            swept = r->d->swept[j] && strcmp(k[i].kernel, r->d->rows[j].kernel) == 0 &&
                    strcmp(k[i].precision, r->d->rows[j].precision) == 0;
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(k[j].kernel, k[i].kernel) == 0 &&
                   strcmp(k[j].precision, k[i].precision) == 0;
        if (!swept || seen)
            continue;
        gp_report_table *t = add_table(r, GP_RT_BY_SIZE);
        if (!t) {
            gp_fmt(err, errlen, "out of memory");
            rc = -1;
        } else if (gp_table_sweep(r->d, &k[i], 9, &t->t) != 0) {
            gp_table_free(&t->t);
            r->ntables--;
        } else {
            gp_fmt(t->stem, sizeof t->stem, "sweep-%s-%s", k[i].kernel, k[i].precision);
            rc = write_file_tables(r, &t->t, &t->t, t->stem, err, errlen);
        }
    }
    free(k);
    return rc;
}

/* A family's summary and its GFLOP/s by size, if it has a sweep. */
static int family_tables(report *r, const gp_family *f, char *err, size_t errlen)
{
    gp_table full;
    int rc = gp_table_summary(r->d, r->a->size, f, &full);
    gp_report_table *t = rc == 0 ? add_table(r, GP_RT_FAMILY) : NULL;
    if (!t || gp_table_brief(&full, &t->t) < 0) {    /* none at that size: no table */
        gp_table_free(&full);
        return rc == 0 ? -1 : 0;
    }
    gp_table_skipped(r->d, &full, &t->skipped);
    char word[64];
    gp_file_word(f->name, word, sizeof word);          /* a file name: tables/ */
    gp_fmt(t->stem, sizeof t->stem, "summary-%s", word);
    rc = write_file_tables(r, &full, &t->t, t->stem, err, errlen);
    gp_table_free(&full);
    return rc < 0 ? -1 : by_size_table(r, f, 9, err, errlen);
}

/* Energy, if any row was measured with --energy. */
static int energy_table(report *r, char *err, size_t errlen)
{
    gp_table e;
    int rc = gp_table_energy(r->d, r->a->size, &e);
    if (rc != 0) {
        gp_table_free(&e);
        if (rc < 0)
            gp_fmt(err, errlen, "out of memory");
        return rc < 0 ? -1 : 0;
    }
    gp_report_table *t = add_table(r, GP_RT_ENERGY);
    if (!t) {
        gp_table_free(&e);
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    t->t = e;
    gp_fmt(t->stem, sizeof t->stem, "energy");
    return write_file_tables(r, &t->t, &t->t, t->stem, err, errlen);
}

/* A trace's top kernels by GPU time, first: tables/hotspots.md with
 * precision and config, the page and hotspots.tex without. */
static int hotspots_table(report *r, char *err, size_t errlen)
{
    gp_table full;
    int rc = gp_table_hotspots(r->d, 10, 0, &full);
    gp_report_table *t = rc == 0 ? add_table(r, GP_RT_HOTSPOTS) : NULL;
    if (!t || gp_table_hotspots(r->d, 10, 1, &t->t) != 0) {
        gp_table_free(&full);
        if (rc >= 0 && !t && rc != 1)
            gp_fmt(err, errlen, "out of memory");
        return rc == 1 ? 0 : -1;
    }
    gp_fmt(t->stem, sizeof t->stem, "hotspots");
    rc = write_file_tables(r, &full, &t->t, t->stem, err, errlen);
    gp_table_free(&full);
    return rc;
}

int gp_report_tables(report *r, char *err, size_t errlen)
{
    if (hotspots_table(r, err, errlen) < 0)
        return -1;
    gp_table all, brief;
    if (gp_table_summary(r->d, r->a->size, NULL, &all) < 0) {
        gp_fmt(err, errlen, "%s: no kernel has a GFLOP/s value to report%s", r->d->files[0],
               r->a->size[0] ? " at that size" : "");
        gp_table_free(&all);
        return -1;
    }
    int rc = gp_table_brief(&all, &brief);
    if (rc == 0) {
        rc = write_file_tables(r, &all, &brief, "summary", err, errlen);
        gp_table_free(&brief);
    }
    if (rc == 0)
        rc = by_size_table(r, NULL, GP_TABLE_MAXCOL, err, errlen);
    gp_families own = { 0 };
    const gp_families *fs = r->fams;
    if (rc == 0 && !fs && gp_families_of(r->d, &own) < 0)
        rc = -1;
    fs = fs ? fs : &own;
    for (int i = 0; rc == 0 && i < fs->n; i++)
        rc = family_tables(r, &fs->f[i], err, errlen);
    gp_families_free(&own);
    if (rc == 0)
        rc = configs_tables(r, &all, err, errlen);
    if (rc == 0)
        rc = sweep_tables(r, err, errlen);
    gp_table_free(&all);
    if (rc == 0)
        rc = energy_table(r, err, errlen);
    return rc;
}

void gp_report_tables_free(report *r)
{
    for (int i = 0; i < r->ntables; i++) {
        gp_table_free(&r->tables[i].t);
        gp_strlist_free(&r->tables[i].skipped);
    }
    free(r->tables);
    r->tables = NULL;
    r->ntables = 0;
}

int gp_report_readme(report *r, char *err, size_t errlen)
{
    char path[PATH_MAX];
    FILE *f = gp_open_in(r->tmp, "README.md", path, sizeof path, err, errlen);
    if (!f)
        return -1;
    fputs("# gemmprof report: ", f);
    gp_esc_markdown(f, r->a->name);
    fprintf(f, "\n\n"
               "Made by `gemmprof report` from the files in `data/`.\n\n"
               "- `report.pdf`: the tables, then every chart on its own page with a "
               "caption (%s paper)\n"
               "- `figures/`: each chart as PDF, 6 in wide: it fits the text of A4 and "
               "Letter pages as it is\n"
               "- `latex/`: each chart as cairolatex (its text set by LaTeX in your "
               "document's font, at 8 pt); with `\\usepackage{graphicx,color}` and "
               "`\\graphicspath{{latex/}}`: `\\input{latex/NAME.tex}`\n"
               "- `tables/`: the tables as Markdown and LaTeX (`\\usepackage{booktabs}`, "
               "then `\\input{tables/summary.tex}`); one summary per family\n"
               "- `writeup-example.tex`: a minimal document with one figure and one "
               "table: `pdflatex writeup-example.tex` here\n"
               "- `chart-data/`: the numbers each chart draws, each series named "
               "(kernel|precision|config); the tables show the same numbers\n",
               r->a->paper);
    if (r->notes.n)
        fprintf(f, "\nLeft out, or worth knowing:\n\n");
    for (int i = 0; i < r->notes.n; i++) {
        fputs("- ", f);
        gp_esc_markdown(f, r->notes.v[i]);
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        gp_fmt(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

/* The first roofline drawn (else the first figure), its caption, and the
 * summary table of the same family (else of every kernel). */
static void example_parts(const report *r, char *fig, size_t flen, char *tab, size_t tlen,
                          const char **caption)
{
    fig[0] = '\0';
    for (int i = 0; i < r->texfigs.n && !fig[0]; i++)
        if (strncmp(r->texfigs.v[i], "roofline", 8) == 0)
            gp_fmt(fig, flen, "%s", r->texfigs.v[i]);
    if (!fig[0] && r->texfigs.n)
        gp_fmt(fig, flen, "%s", r->texfigs.v[0]);
    char stem[128];
    gp_path_stem(fig, stem, sizeof stem);
    *caption = "";
    for (int i = 0; i < r->figures.n && i < r->captions.n; i++) {
        char f[128];
        gp_path_stem(r->figures.v[i], f, sizeof f);
        if (strcmp(f, stem) == 0)
            *caption = r->captions.v[i];
    }
    const char *fam = strchr(stem, '-');
    gp_fmt(tab, tlen, "summary");
    for (int i = 0; fam && i < r->ntables; i++)
        if (r->tables[i].kind == GP_RT_FAMILY && strcmp(r->tables[i].stem + 7, fam) == 0)
            gp_fmt(tab, tlen, "%s", r->tables[i].stem);
}

int gp_report_example_tex(report *r, char *err, size_t errlen)
{
    char fig[128], tab[128], path[PATH_MAX];
    const char *caption;
    example_parts(r, fig, sizeof fig, tab, sizeof tab, &caption);
    if (!fig[0])
        return 0;                      /* no figure: nothing to show */
    FILE *f = gp_open_in(r->tmp, "writeup-example.tex", path, sizeof path, err, errlen);
    if (!f)
        return -1;
    char cap[600];
    gp_esc_latex(caption, cap, sizeof cap);
    fprintf(f, "%% writeup-example.tex - one figure and one table of this report in a\n"
               "%% LaTeX document; build it here with: pdflatex writeup-example.tex\n"
               "%% (Debian: texlive-latex-base, texlive-latex-recommended).  The figure is\n"
               "%% cairolatex: the graphics in latex/%.*s.pdf, the text typeset by LaTeX.\n"
               "\\documentclass[%spaper,11pt]{article}\n"
               "\\usepackage[margin=25mm]{geometry}   %% a text block the 6 in figures fit\n"
               "\\usepackage{graphicx,color,booktabs}\n"
               "\\graphicspath{{latex/}}\n"
               "\\begin{document}\n"
               "\\section*{Results}\n"
               "Figure~\\ref{fig:gemmprof} and Table~\\ref{tab:gemmprof-%s} come from "
               "\\texttt{gemmprof report}.\n\n"
               "\\begin{figure}[htbp]\n  \\centering\n  \\input{latex/%s}\n"
               "  \\caption{%s}\n  \\label{fig:gemmprof}\n\\end{figure}\n\n"
               "\\input{tables/%s.tex}\n"
               "\\end{document}\n", (int)strlen(fig) - 4, fig, r->a->paper, tab, fig, cap, tab);
    if (fclose(f) != 0) {
        gp_fmt(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}
