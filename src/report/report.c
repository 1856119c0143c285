/* report.c - `gemmprof report DATA.csv ...`: everything a write-up needs,
 * in reports/<name>/:
 *   report.pdf        summary page(s), then every chart
 *   figures/          each chart on its own, PDF
 *   latex/            each chart as cairolatex, .tex + .pdf (\input-able)
 *   tables/           the tables, Markdown and LaTeX (booktabs)
 *   data/             the data files it was made from
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
#include "tables.h"

typedef struct {
    const char *ceilings, *name, *out;
    long size[3];
    int help;
} report_args;

typedef struct {
    const report_args *a;
    const gp_dataset *d;
    char tmp[PATH_MAX], work[PATH_MAX];
    char gnuplot[PATH_MAX], plots[PATH_MAX], pdfunite[PATH_MAX];
    gp_strlist figures;          /* figures/NAME.pdf, in chart order */
    gp_strlist notes;            /* why charts were left out        */
    int ntex;
} report;

static void usage(FILE *f)
{
    fputs("Usage: gemmprof report DATA.csv [DATA2.csv ...] [options]\n"
          "Write reports/<name>/: report.pdf (summary page and every chart), each\n"
          "chart as PDF and cairolatex, the tables as Markdown and LaTeX, and copies\n"
          "of the data files.\n"
          "  -c, --ceilings FILE   ceilings file (needed for the roofline)\n"
          "  -n, --name NAME       report folder name (default: the first file's stem)\n"
          "  -o, --out DIR         parent folder (default: reports)\n"
          "  -s, --size N|M,N,K    the size for the roofline, metrics and summary\n"
          "  -h, --help\n", f);
}

static int parse_args(int argc, char **argv, report_args *a, char *err, size_t errlen)
{
    static const struct option opts[] = {
        { "ceilings", required_argument, NULL, 'c' },
        { "name", required_argument, NULL, 'n' },
        { "out", required_argument, NULL, 'o' },
        { "size", required_argument, NULL, 's' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    *a = (report_args){ .out = "reports" };
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":c:n:o:s:h", opts, NULL)) != -1) {
        switch (c) {
        case 'c': a->ceilings = optarg; break;
        case 'n': a->name = optarg; break;
        case 'o': a->out = optarg; break;
        case 'h': a->help = 1; return 0;
        case 's':
            if (gp_parse_plot_size(optarg, a->size) < 0) {
                gp_fmt(err, errlen, "bad --size '%s' (N or M,N,K)", optarg);
                return -1;
            }
            break;
        case ':':
            gp_fmt(err, errlen, "option %s needs a value", argv[optind - 1]);
            return -1;
        default:
            gp_fmt(err, errlen, "unknown option '%s' (see gemmprof report --help)",
                   argv[optind - 1]);
            return -1;
        }
    }
    if (optind >= argc) {
        gp_fmt(err, errlen, "no data file given (gemmprof report DATA.csv ...)");
        return -1;
    }
    if (a->name && (!*a->name || strchr(a->name, '/') || a->name[0] == '.')) {
        gp_fmt(err, errlen, "bad --name '%s' (a folder name, no '/', not starting with '.')",
               a->name);
        return -1;
    }
    return 0;
}

static int find_tool(const char *name, char *path, size_t len)
{
    const char *env = getenv("PATH");
    char dirs[8192];
    gp_fmt(dirs, sizeof dirs, "%s", env ? env : "/usr/bin:/bin");
    for (char *save, *dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
        if (gp_path_join(path, len, *dir ? dir : ".", name) == 0 && access(path, X_OK) == 0)
            return 0;
    return -1;
}

static int subdirs(report *r, char *err, size_t errlen)
{
    static const char *const dirs[] = { "figures", "latex", "tables", "data", "work" };
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

/* Every chart the data supports, as PDF and as cairolatex. */
static int draw_charts(report *r, char *err, size_t errlen)
{
    char fig[PATH_MAX], tex[PATH_MAX];
    gp_path_join(fig, sizeof fig, r->tmp, "figures");
    gp_path_join(tex, sizeof tex, r->tmp, "latex");
    gp_chart_opts o = { .format = "pdf", .outdir = fig, .workdir = r->work,
                        .plotsdir = r->plots, .gnuplot = r->gnuplot };
    memcpy(o.size, r->a->size, sizeof o.size);
    for (int c = 0; c < GP_NCHARTS; c++) {
        char msg[1024];
        gp_strlist w = { 0 };
        o.format = "pdf";
        o.outdir = fig;
        int rc = gp_chart_render((gp_chart)c, r->d, &o, &w, msg, sizeof msg);
        if (rc == 0) {
            for (int i = 0; i < w.n; i++) {
                char p[PATH_MAX];
                gp_path_join(p, sizeof p, fig, w.v[i]);
                gp_strlist_add(&r->figures, p);
            }
            gp_strlist_free(&w);
            o.format = "cairolatex";
            o.outdir = tex;
            rc = gp_chart_render((gp_chart)c, r->d, &o, &w, msg, sizeof msg);
            r->ntex += rc == 0;
        }
        gp_strlist_free(&w);
        if (rc < 0) {
            gp_fmt(err, errlen, "%s", msg);
            return -1;
        }
        if (rc == 1)
            gp_strlist_add(&r->notes, msg);
    }
    return 0;
}

static int write_file_tables(report *r, const gp_table *t, const char *stem,
                             char *err, size_t errlen)
{
    char dir[PATH_MAX], path[PATH_MAX], name[64], label[64];
    gp_path_join(dir, sizeof dir, r->tmp, "tables");
    gp_fmt(name, sizeof name, "%s.md", stem);
    FILE *f = gp_open_in(dir, name, path, sizeof path, err, errlen);
    if (!f)
        return -1;
    gp_table_markdown(f, t);
    int bad = fclose(f) != 0;
    gp_fmt(name, sizeof name, "%s.tex", stem);
    gp_fmt(label, sizeof label, "tab:gemmprof-%s", stem);
    if (bad || !(f = gp_open_in(dir, name, path, sizeof path, err, errlen)))
        return -1;
    gp_table_latex(f, t, label);
    if (fclose(f) != 0) {
        gp_fmt(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

/* The first page(s) of report.pdf: where the data came from, the tables,
 * and what was left out. */
static void page_text(report *r, FILE *f, const gp_table *sum, const gp_table *by)
{
    static const char *const keys[] = {
        "gpu_name", "date", "gemmprof_version", "git_commit", "cuda_runtime",
        "driver_version", "cublas_math", "command",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = gp_meta_get(&r->d->meta, keys[i]);
        if (v)
            fprintf(f, "%-17s %.130s\n", keys[i], v);
    }
    for (int i = 0; i < r->d->nfiles; i++)
        fprintf(f, "%-17s %.130s\n", "data", r->d->files[i]);
    fprintf(f, "%-17s %.130s\n\n", "ceilings", r->d->ceil ? r->d->ceil_path : "none");
    fprintf(f, "%s\n\n", sum->caption);
    gp_table_text(f, sum);
    if (by) {
        fprintf(f, "\n%s\n\n", by->caption);
        gp_table_text(f, by);
    }
    if (r->notes.n)
        fprintf(f, "\nLeft out:\n");
    for (int i = 0; i < r->notes.n; i++)
        fprintf(f, "  %s\n", r->notes.v[i]);
}

/* Split the text into pages of at most `per` lines, one PDF each. */
static int summary_pages(report *r, const char *text, gp_strlist *pages,
                         char *err, size_t errlen)
{
    const int per = 46;
    FILE *in = fopen(text, "r");
    if (!in) {
        gp_fmt(err, errlen, "%s: %s", text, strerror(errno));
        return -1;
    }
    char line[1024];
    int page = 0, eof = 0;
    while (!eof) {
        char name[64], path[PATH_MAX], title[256];
        gp_fmt(name, sizeof name, "summary-%d.txt", page + 1);
        FILE *f = gp_open_in(r->work, name, path, sizeof path, err, errlen);
        if (!f)
            break;
        int n = 0;
        while (n < per && !(eof = !fgets(line, sizeof line, in))) {
            for (char *s = line; *s; s++)      /* one field for table.gp */
                if (*s == '\t' || *s == '"')
                    *s = *s == '\t' ? ' ' : '\'';
            fprintf(f, "%d\t%s", ++n, line);
        }
        fclose(f);
        if (n == 0 && page > 0)
            break;
        gp_buf v = { 0 };
        gp_fmt(title, sizeof title, "gemmprof report: %s%s", r->a->name,
               page ? " (continued)" : "");
        gp_var_str(&v, "f", path);
        gp_var_num(&v, "nlines", per);
        gp_var_str(&v, "ttl", title);
        gp_chart_opts o = { .format = "pdf", .outdir = r->work, .workdir = r->work,
                            .plotsdir = r->plots, .gnuplot = r->gnuplot };
        gp_fmt(name, sizeof name, "summary-%d", ++page);
        gp_strlist w = { 0 };
        int rc = gp_chart_draw(&o, "table.gp", name, &v, &w, err, errlen);
        gp_buf_free(&v);
        if (rc == 0) {
            gp_path_join(path, sizeof path, r->work, w.v[0]);
            gp_strlist_add(pages, path);
        }
        gp_strlist_free(&w);
        if (rc < 0) {
            fclose(in);
            return -1;
        }
    }
    fclose(in);
    return eof ? 0 : -1;
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

static int write_pdf(report *r, char *err, size_t errlen)
{
    gp_table sum, by;
    if (gp_table_summary(r->d, r->a->size, &sum) < 0) {
        gp_fmt(err, errlen, "%s: no kernel has a GFLOP/s value to report%s", r->d->files[0],
               r->a->size[0] ? " at that size" : "");
        gp_table_free(&sum);
        return -1;
    }
    int has_by = gp_table_by_size(r->d, &by) == 0;
    int rc = write_file_tables(r, &sum, "summary", err, errlen);
    if (rc == 0 && has_by)
        rc = write_file_tables(r, &by, "gflops_by_size", err, errlen);
    char text[PATH_MAX];
    FILE *f = rc == 0 ? gp_open_in(r->work, "summary.txt", text, sizeof text, err, errlen) : NULL;
    gp_strlist parts = { 0 };
    if (f) {
        page_text(r, f, &sum, has_by ? &by : NULL);
        rc = fclose(f) == 0 ? summary_pages(r, text, &parts, err, errlen) : -1;
        for (int i = 0; rc == 0 && i < r->figures.n; i++)
            gp_strlist_add(&parts, r->figures.v[i]);
        if (rc == 0)
            rc = run_pdfunite(r, &parts, err, errlen);
    } else {
        rc = -1;
    }
    gp_strlist_free(&parts);
    gp_table_free(&sum);
    if (has_by)
        gp_table_free(&by);
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

static int write_readme(report *r, char *err, size_t errlen)
{
    char path[PATH_MAX];
    FILE *f = gp_open_in(r->tmp, "README.md", path, sizeof path, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "# gemmprof report: %s\n\n"
               "Made by `gemmprof report` from the files in `data/`.\n\n"
               "- `report.pdf`: summary page(s), then every chart\n"
               "- `figures/`: each chart as PDF\n"
               "- `latex/`: each chart as cairolatex; in LaTeX, with `\\usepackage{graphicx,"
               "color,import}`: `\\import{latex/}{roofline.tex}`\n"
               "- `tables/`: the tables as Markdown and LaTeX (`\\usepackage{booktabs}`, "
               "then `\\input{tables/summary.tex}`)\n", r->a->name);
    if (r->notes.n)
        fprintf(f, "\nCharts left out:\n\n");
    for (int i = 0; i < r->notes.n; i++)
        fprintf(f, "- %s\n", r->notes.v[i]);
    if (fclose(f) != 0) {
        gp_fmt(err, errlen, "%s: write failed", path);
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
    if (rename(r->tmp, target) == 0)
        return 0;
    if (errno != ENOTEMPTY && errno != EEXIST) {
        gp_fmt(err, errlen, "%s: %s", target, strerror(errno));
        return -1;
    }
    gp_fmt(old, sizeof old, "%s/.%s.old-XXXXXX", r->a->out, r->a->name);
    if (!mkdtemp(old) || rename(target, old) != 0 || rename(r->tmp, target) != 0) {
        gp_fmt(err, errlen, "%s: cannot replace the old report: %s", target, strerror(errno));
        return -1;
    }
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
    if (find_tool("pdfunite", r->pdfunite, sizeof r->pdfunite) < 0) {
        gp_fmt(err, errlen, "pdfunite not found: apt-get install poppler-utils");
        return -1;
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
    int rc = subdirs(r, err, errlen);
    if (rc == 0)
        rc = draw_charts(r, err, errlen);
    if (rc == 0)
        rc = write_pdf(r, err, errlen);
    if (rc == 0)
        rc = copy_data(r, err, errlen);
    if (rc == 0)
        rc = write_readme(r, err, errlen);
    if (rc == 0)
        rc = install(r, target, err, errlen);
    if (rc < 0) {
        gp_rm_rf(r->tmp);
        if (created)
            rmdir(r->a->out);
        return -1;
    }
    printf("%s/report.pdf\n", target);
    printf("%s/ (%d figures as PDF and cairolatex, tables, data)\n", target, r->figures.n);
    for (int i = 0; i < r->notes.n; i++)
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
    if (a.help) {
        usage(stdout);
        return 0;
    }
    gp_dataset d;
    if (gp_dataset_load(&d, argv + optind, argc - optind, a.ceilings, err, sizeof err) < 0) {
        gp_error("%s", err);
        gp_dataset_free(&d);
        return 2;
    }
    if (!a.name) {
        gp_path_stem(d.files[0], stem, sizeof stem);
        a.name = stem;
    }
    report r = { .a = &a, .d = &d };
    int rc = build(&r, err, sizeof err);
    if (rc < 0)
        gp_error("%s", err);
    gp_strlist_free(&r.figures);
    gp_strlist_free(&r.notes);
    gp_dataset_free(&d);
    return rc < 0 ? 2 : 0;
}
