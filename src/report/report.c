/* report.c - `gemmprof report DATA.csv ...`: everything a write-up needs,
 * in results/reports/<name>/ (git-ignored: never into the source tree):
 *   report.pdf        the tables (typeset by groff if it is installed),
 *                     then every chart on its own A4 or Letter page with
 *                     a one-line caption under it
 *   figures/          each chart on its own, PDF, 6 in wide
 *   latex/            each chart as cairolatex, .tex + .pdf
 *   tables/           the tables, Markdown and LaTeX (booktabs)
 *   writeup-example.tex  a LaTeX document with one figure and one table
 *   data/             the data files it was made from
 *   chart-data/       the numbers each chart draws, as gnuplot reads them,
 *                     each series named (the tables show the same numbers:
 *                     tests/report/consistency.py checks that)
 * It is built in a hidden folder beside the target and renamed into place
 * at the end, so a failure leaves no half-written report. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "util/util.h"
#include "plot/plot.h"
#include "parts.h"

static void usage(FILE *f)
{
    fputs("Usage: gemmprof report [OPTION]... DATA.csv...\n"
          "Write results/reports/<name>/ (or --out DIR/<name>/): report.pdf (the\n"
          "tables, typeset by groff if it is installed, then every chart on a page\n"
          "with its caption), each chart as PDF and cairolatex, the tables as\n"
          "Markdown and LaTeX, writeup-example.tex, copies of the data files, and\n"
          "the numbers behind each chart (chart-data/).  Charts are drawn per\n"
          "family, as gemmprof plot.\n"
          "\n"
          "  -c, --ceilings FILE   ceilings file (needed for the roofline)\n"
          "  -n, --name NAME       report folder name (default: the first file's stem)\n"
          "  -o, --out DIR         parent folder (default: results/reports)\n"
          "  -s, --size N|M,N,K    the size for the roofline, metrics and summary\n"
          "  -p, --paper P         a4 (default) or letter: the pages of report.pdf\n"
          "      --family LIST     the families to chart (see gemmprof plot --help)\n"
          "  -k, --kernel LIST     chart just these kernels\n"
          "  -h, --help            show this help and exit\n"
          "  -V, --version         show version and build information and exit\n"
          "\n"
          "Exit status:\n"
          "  0  the report was written\n"
          "  2  bad options, an unreadable or malformed file, or the report could\n"
          "     not be built (nothing half-written is left)\n"
          "\n"
          "Examples:\n"
          "  gemmprof report reports/data/h200/*.csv --name h200\n"
          "  gemmprof report run.csv -c ceilings.csv -o results -p letter\n", f);
}

/* A newline or other control character: no place in a folder name. */
static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

static int call_size(void *p, const char *arg, char *err, size_t errlen)
{
    return gp_plot_size_option(arg, ((report_args *)p)->size, err, errlen);
}

#define TEXT(name, letter, f) \
    { name, letter, GP_OPT_TEXT, GP_OPT_FIELD(report_args, f, const char *), \
      0, 0, 0, 0, 0, 0 }

static const gp_opt table[] = {
    TEXT("ceilings", 'c', ceilings),
    TEXT("name", 'n', name),
    GP_OPTS_OUT(report_args, out),
    { "size", 's', GP_OPT_CALL, 0, 0, 0, 0, 0, 0, call_size },
    TEXT("paper", 'p', paper),
    TEXT("family", 0, family),
    TEXT("kernel", 'k', kernels),
    GP_OPTS_HELP(report_args, help, version),
    GP_OPTS_END
};

static int parse_args(int argc, char **argv, report_args *a, char *err, size_t errlen)
{
    *a = (report_args){ .out = "results/reports", .paper = "a4" };
    if (gp_opts_parse(table, argc, argv, a, err, errlen) < 0)
        return -1;
    if (a->help || a->version)
        return 0;
    if (optind >= argc) {
        gp_fmt(err, errlen, "no data file given (gemmprof report DATA.csv ...)");
        return -1;
    }
    if (strcmp(a->paper, "a4") != 0 && strcmp(a->paper, "letter") != 0) {
        gp_fmt(err, errlen, "unknown --paper '%s' (a4, letter)", a->paper);
        return -1;
    }
    if (a->name && has_control(a->name)) {      /* not echoed: one line */
        gp_fmt(err, errlen, "bad --name: it holds a newline or other control character");
        return -1;
    }
    if (a->name && (!*a->name || strchr(a->name, '/') || a->name[0] == '.')) {
        gp_fmt(err, errlen, "bad --name '%s' (a folder name, no '/', not starting with '.')",
               a->name);
        return -1;
    }
    return 0;
}

static int subdirs(report *r, char *err, size_t errlen)
{
    static const char *const dirs[] = { "figures", "latex", "tables", "data", "chart-data",
                                        "work", "work/pages" };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char p[PATH_MAX];
        gp_path_join(p, sizeof p, r->tmp, dirs[i]);
        if (mkdir(p, 0777) != 0) {
            gp_fmt(err, errlen, "%s: %s", p, strerror(errno));
            return -1;
        }
    }
    gp_path_join(r->work, sizeof r->work, r->tmp, "work");
    return 0;
}

static int run_pdfunite(report *r, const gp_strlist *parts, char *err, size_t errlen)
{
    char out[PATH_MAX], log[PATH_MAX], msg[1024];
    gp_path_join(out, sizeof out, r->tmp, "report.pdf");
    gp_path_join(log, sizeof log, r->work, "pdfunite.log");
    char **argv = calloc((size_t)parts->n + 3, sizeof *argv);
    if (!argv) {
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    argv[0] = r->pdfunite;
    for (int i = 0; i < parts->n; i++)
        argv[i + 1] = parts->v[i];
    argv[parts->n + 1] = out;
    int rc = gp_spawn(argv, NULL, log, msg, sizeof msg);
    free(argv);
    if (rc != 0)
        gp_fmt(err, errlen, "pdfunite failed making %s: %s", out, msg);
    return rc == 0 ? 0 : -1;
}

/* report.pdf: the front pages (groff, else text pages), then the figure
 * pages. */
static int write_pdf(report *r, char *err, size_t errlen)
{
    gp_front fr = { .d = r->d, .name = r->a->name, .paper = r->a->paper,
                    .paper_w = r->paper_w, .paper_h = r->paper_h, .tables = r->tables,
                    .ntables = r->ntables, .captions = &r->captions, .notes = &r->notes,
                    .workdir = r->work, .gnuplot = r->gnuplot, .plots = r->plots };
    gp_strlist parts = { 0 };
    int rc;
    if (r->groff[0]) {
        char front[PATH_MAX];
        gp_path_join(front, sizeof front, r->work, "front.pdf");
        rc = gp_front_typeset(&fr, r->groff, front, err, errlen);
        if (rc == 0)
            gp_strlist_add(&parts, front);
    } else {
        rc = gp_front_text(&fr, &parts, err, errlen);
    }
    for (int i = 0; rc == 0 && i < r->pages.n; i++)
        gp_strlist_add(&parts, r->pages.v[i]);
    if (rc == 0)
        rc = run_pdfunite(r, &parts, err, errlen);
    gp_strlist_free(&parts);
    return rc;
}

static int copy_data(report *r, char *err, size_t errlen)
{
    int n = r->d->nfiles + (r->d->ceil ? 1 : 0);
    for (int i = 0; i < n; i++) {
        const char *src = i < r->d->nfiles ? r->d->files[i] : r->d->ceil_path;
        const char *base = strrchr(src, '/');
        char dst[PATH_MAX];
        gp_fmt(dst, sizeof dst, "%s/data/%s", r->tmp, base ? base + 1 : src);
        if (access(dst, F_OK) == 0)             /* same name from two folders */
            gp_fmt(dst, sizeof dst, "%s/data/%d-%s", r->tmp, i + 1, base ? base + 1 : src);
        if (gp_copy_file(src, dst, err, errlen) < 0)
            return -1;
    }
    return 0;
}

/* Swap the finished folder into place; an old report of the same name is
 * replaced only once the new one is complete. */
static int install(report *r, const char *target, char *err, size_t errlen)
{
    char old[PATH_MAX];
    gp_rm_rf(r->work);
    if (rename(r->tmp, target) == 0) {
        gp_cleanup_drop(r->tmp);
        return 0;
    }
    if (errno != ENOTEMPTY && errno != EEXIST) {
        gp_fmt(err, errlen, "%s: %s", target, strerror(errno));
        return -1;
    }
    gp_fmt(old, sizeof old, "%s/.%s.old-XXXXXX", r->a->out, r->a->name);
    if (!mkdtemp(old) || rename(target, old) != 0 || rename(r->tmp, target) != 0) {
        gp_fmt(err, errlen, "%s: cannot replace the old report: %s", target, strerror(errno));
        return -1;
    }
    gp_cleanup_drop(r->tmp);
    gp_rm_rf(old);
    return 0;
}

static int build(report *r, char *err, size_t errlen)
{
    char target[PATH_MAX];
    gp_fmt(target, sizeof target, "%s/%s", r->a->out, r->a->name);
    if (gp_find_gnuplot(r->gnuplot, sizeof r->gnuplot, err, errlen) < 0 ||
        gp_find_plots_dir(r->plots, sizeof r->plots, err, errlen) < 0)
        return -1;
    if (gp_which("pdfunite", r->pdfunite, sizeof r->pdfunite) < 0) {
        gp_fmt(err, errlen, "pdfunite not found: apt-get install poppler-utils");
        return -1;
    }
    if (!gp_front_groff(r->groff, sizeof r->groff)) {
        r->groff[0] = '\0';
        gp_strlist_add(&r->notes, "tables as fixed-width text: groff's PDF device is not "
                       "installed (apt-get install groff)");
    }
    struct stat st;
    int created = stat(r->a->out, &st) != 0;
    if (gp_mkdir_p(r->a->out, err, errlen) < 0)
        return -1;
    char abs[PATH_MAX];
    if (!realpath(r->a->out, abs)) {          /* gnuplot runs in sub-folders */
        gp_fmt(err, errlen, "%s: %s", r->a->out, strerror(errno));
        if (created)
            rmdir(r->a->out);
        return -1;
    }
    gp_fmt(r->tmp, sizeof r->tmp, "%s/.%s.tmp-XXXXXX", abs, r->a->name);
    if (!mkdtemp(r->tmp)) {
        gp_fmt(err, errlen, "%s: %s", r->a->out, strerror(errno));
        return -1;
    }
    gp_cleanup_add(r->tmp);                 /* an interrupt removes it too */
    int rc = subdirs(r, err, errlen);
    if (rc == 0)
        rc = gp_report_figures(r, err, errlen);
    if (rc == 0)
        rc = gp_report_tables(r, err, errlen);
    if (rc == 0)
        rc = write_pdf(r, err, errlen);
    if (rc == 0)
        rc = copy_data(r, err, errlen);
    if (rc == 0)
        rc = gp_report_readme(r, err, errlen);
    if (rc == 0)
        rc = gp_report_example_tex(r, err, errlen);
    if (rc == 0)
        rc = install(r, target, err, errlen);
    if (rc < 0) {
        gp_rm_rf(r->tmp);
        gp_cleanup_drop(r->tmp);
        if (created)
            rmdir(r->a->out);
        return -1;
    }
    printf("%s/report.pdf\n", target);
    printf("%s/ (%d figures as PDF and cairolatex, tables, data)\n", target, r->figures.n);
    if (!r->groff[0])
        fprintf(stderr, "gemmprof: report.pdf tables as fixed-width text: groff's PDF "
                "device is not installed (apt-get install groff)\n");
    for (int i = 0; i < r->notes.n; i++)
        if (strncmp(r->notes.v[i], "tables as", 9) != 0)
            fprintf(stderr, "gemmprof: %s\n", r->notes.v[i]);
    return 0;
}

int gp_cmd_report(int argc, char **argv)
{
    report_args a;
    char err[2048] = "", stem[256];
    if (parse_args(argc, argv, &a, err, sizeof err) < 0) {
        gp_error("%s", err);
        return 2;
    }
    int answered = gp_opts_answer(a.help, a.version, usage, "report", argc, argv,
                                  "write a report from the data files under --out");
    if (answered >= 0)
        return answered;
    gp_dataset d;
    gp_families fams;
    int chosen = gp_dataset_open(&d, argv + optind, argc - optind, a.ceilings, a.family,
                                 a.kernels, &fams, err, sizeof err);
    if (chosen < 0) {
        gp_error("%s", err);
        return 2;
    }
    if (!a.name) {                 /* the data file's name, as a folder name */
        char raw[256];
        gp_path_stem(d.files[0], raw, sizeof raw);
        gp_file_word(raw, stem, sizeof stem);
        a.name = stem;
    }
    int a4 = strcmp(a.paper, "a4") == 0;
    report r = { .a = &a, .d = &d, .fams = chosen ? &fams : NULL,
                 .paper_w = a4 ? 595 : 612, .paper_h = a4 ? 842 : 792 };   /* groff's */
    int rc = build(&r, err, sizeof err);
    if (rc < 0)
        gp_error("%s", err);
    gp_report_tables_free(&r);
    gp_strlist *lists[] = { &r.figures, &r.pages, &r.captions, &r.texfigs, &r.notes };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        gp_strlist_free(lists[i]);
    gp_families_free(&fams);
    gp_dataset_free(&d);
    return rc < 0 ? 2 : 0;
}
