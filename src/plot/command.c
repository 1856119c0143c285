/* command.c - `gemmprof plot DATA.csv ...`: render the charts, print each
 * path written.  Charts the data cannot support are skipped with a note;
 * only when none can be drawn is it an error.  Everything is drawn in a
 * hidden folder inside --out and moved out at the end, so a failure leaves
 * nothing behind. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot.h"
#include "util/util.h"

typedef struct {
    const char *ceilings, *format, *out, *family, *kernels;
    int want[GP_NCHARTS];
    int hierarchical, help, version;
    long size[3];
} plot_args;

static void usage(FILE *f)
{
    fputs("Usage: gemmprof plot [OPTION]... DATA.csv...\n"
          "Draw charts from run files (gnuplot; no GPU needed).\n"
          "\n"
          "  -c, --ceilings FILE   ceilings file from `gemmprof probe` (the roofline\n"
          "                        needs one; a ceilings.csv beside the data is used,\n"
          "                        and a ceilings file among DATA is recognised)\n"
          "  -f, --format F        pdf (default), png, svg, cairolatex (.tex + .pdf)\n"
          "  -o, --out DIR         where the charts go (default: results/charts)\n"
          "      --charts LIST     some of these charts (comma-separated), or all (the\n"
          "                        default: those the data has runs for)\n", f);
    for (int c = 0; c < GP_NCHARTS; c++)        /* charts.def */
        fprintf(f, "%24s%-15s %s\n", "", gp_charts[c].name, gp_charts[c].what);
    fputs("  -s, --size N|M,N,K    the size for roofline and metrics (default: the size\n"
          "                        most kernels have, largest first)\n"
          "      --family LIST     which families get charts (default: each family\n"
          "                        of the data: fp32-ladder, fp32-top, fp64, tf32, ...;\n"
          "                        fp32 names both halves); all: one chart of everything\n"
          "  -k, --kernel LIST     one chart of just these kernels (comma-separated)\n"
          "      --hierarchical    roofline with L2 points and L2/shared-memory ceilings\n"
          "  -h, --help            show this help and exit\n"
          "  -V, --version         show version and build information and exit\n"
          "\n"
          "Exit status:\n"
          "  0  at least one chart was drawn (a chart the data cannot support is\n"
          "     skipped with a note)\n"
          "  2  bad options, an unreadable or malformed file, or no chart drawn\n"
          "\n"
          "Examples:\n"
          "  gemmprof plot results/run.csv\n"
          "  gemmprof plot reports/data/h200/*.csv --out charts/h200 -f png\n"
          "  gemmprof plot run.csv --charts roofline,gflops_vs_n -c ceilings.csv\n", f);
}

/* "roofline,speedup" -> want[] (2: named); "all" -> every chart (1, as
 * the default).  -1 on a bad name. */
static int parse_charts(const char *spec, int want[GP_NCHARTS], char *err, size_t errlen)
{
    char buf[512];
    gp_fmt(buf, sizeof buf, "%s", spec);
    memset(want, 0, GP_NCHARTS * sizeof *want);
    for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int c = gp_chart_find(t);
        if (c >= 0) {
            want[c] = 2;
        } else if (strcmp(t, "all") == 0) {
            for (c = 0; c < GP_NCHARTS; c++)
                want[c] = want[c] ? want[c] : 1;
        } else {
            char names[512];
            gp_chart_names(names, sizeof names, ", ");
            gp_fmt(err, errlen, "unknown chart '%s' (%s, all)", t, names);
            return -1;
        }
    }
    return 0;
}

static int call_charts(void *p, const char *arg, char *err, size_t errlen)
{
    return parse_charts(arg, ((plot_args *)p)->want, err, errlen);
}

static int call_size(void *p, const char *arg, char *err, size_t errlen)
{
    return gp_plot_size_option(arg, ((plot_args *)p)->size, err, errlen);
}

#define TEXT(name, letter, f) \
    { name, letter, GP_OPT_TEXT, GP_OPT_FIELD(plot_args, f, const char *), 0, 0, 0, 0, 0, 0 }

static const gp_opt table[] = {
    TEXT("ceilings", 'c', ceilings),
    TEXT("format", 'f', format),
    GP_OPTS_OUT(plot_args, out),
    { "charts", 0, GP_OPT_CALL, 0, 0, 0, 0, 0, 0, call_charts },
    { "size", 's', GP_OPT_CALL, 0, 0, 0, 0, 0, 0, call_size },
    { "hierarchical", 0, GP_OPT_FLAG, GP_OPT_FIELD(plot_args, hierarchical, int),
      0, 0, 0, 0, 0, 0 },
    TEXT("family", 0, family),
    TEXT("kernel", 'k', kernels),
    GP_OPTS_HELP(plot_args, help, version),
    GP_OPTS_END
};

static int parse_args(int argc, char **argv, plot_args *a, char *err, size_t errlen)
{
    *a = (plot_args){ .format = "pdf", .out = "results/charts" };   /* git-ignored */
    for (int c = 0; c < GP_NCHARTS; c++)
        a->want[c] = 1;
    if (gp_opts_parse(table, argc, argv, a, err, errlen) < 0)
        return -1;
    if (a->help || a->version)
        return 0;
    if (!gp_format_ext(a->format)) {
        gp_fmt(err, errlen, "unknown format '%s' (pdf, png, svg, cairolatex)", a->format);
        return -1;
    }
    if (optind >= argc) {
        gp_fmt(err, errlen, "no data file given (gemmprof plot DATA.csv ...)");
        return -1;
    }
    return 0;
}

/* A hidden folder inside `outdir` to draw in; outdir is created if needed
 * (*created says so, for the clean-up). */
static int make_scratch(const char *outdir, char *tmp, size_t len, int *created,
                        char *err, size_t errlen)
{
    struct stat st;
    *created = stat(outdir, &st) != 0;
    if (gp_mkdir_p(outdir, err, errlen) < 0)
        return -1;
    /* Absolute: gnuplot runs inside the scratch folder. */
    char abs[PATH_MAX];
    if (!realpath(outdir, abs)) {
        gp_fmt(err, errlen, "%s: %s", outdir, strerror(errno));
        if (*created)
            rmdir(outdir);
        return -1;
    }
    gp_fmt(tmp, len, "%s/.gemmprof-plot-XXXXXX", abs);
    if (!mkdtemp(tmp)) {
        gp_fmt(err, errlen, "%s: %s", outdir, strerror(errno));
        if (*created)
            rmdir(outdir);
        return -1;
    }
    gp_cleanup_add(tmp);                    /* an interrupt removes it too */
    return 0;
}

/* Draw the wanted charts into o->outdir.  Returns how many were drawn, or
 * -1 with err; why a chart was skipped goes to `notes`. */
static int render_all(const gp_dataset *d, const gp_chart_opts *o, const int *want,
                      gp_strlist *written, gp_strlist *notes, char *err, size_t errlen)
{
    int drawn = 0;
    for (int c = 0; c < GP_NCHARTS; c++) {
        if (!want[c] || (want[c] == 1 && !gp_chart_applies((gp_chart)c, d)))
            continue;                       /* another kind of run's chart */
        char msg[1024];
        gp_chart_opts oc = *o;
        oc.notes = notes;
        int rc = gp_chart_render((gp_chart)c, d, &oc, written, msg, sizeof msg);
        if (rc < 0) {
            gp_fmt(err, errlen, "%s", msg);
            return -1;
        }
        if (rc == 1)
            gp_strlist_add(notes, msg);
        drawn += rc == 0;
    }
    return drawn;
}

/* Move what was drawn from `from` to `to`, printing each final path. */
static int publish(const gp_strlist *w, const char *from, const char *to, FILE *print,
                   char *err, size_t errlen)
{
    for (int i = 0; i < w->n; i++) {
        char a[PATH_MAX], b[PATH_MAX];
        gp_path_join(a, sizeof a, from, w->v[i]);
        gp_path_join(b, sizeof b, to, w->v[i]);
        if (gp_move_file(a, b, err, errlen) < 0)
            return -1;
        if (print)
            fprintf(print, "%s\n", b);
    }
    return 0;
}

/* The common path of plot and --roofline: tools, scratch, render, move. */
static int plot_into(const gp_dataset *d, const char *outdir, const char *format,
                     const int *want, int hierarchical, const long size[3],
                     const gp_families *families, gp_strlist *final, gp_strlist *notes,
                     FILE *print, char *err, size_t errlen)
{
    char gnuplot[PATH_MAX], plots[PATH_MAX], tmp[PATH_MAX], work[PATH_MAX];
    if (gp_find_gnuplot(gnuplot, sizeof gnuplot, err, errlen) < 0 ||
        gp_find_plots_dir(plots, sizeof plots, err, errlen) < 0)
        return -1;
    int created;
    if (make_scratch(outdir, tmp, sizeof tmp, &created, err, errlen) < 0)
        return -1;
    gp_fmt(work, sizeof work, "%s/work", tmp);
    gp_chart_opts o = { .format = format, .outdir = tmp, .workdir = work,
                        .plotsdir = plots, .gnuplot = gnuplot,
                        .hierarchical = hierarchical, .families = families };
    memcpy(o.size, size, sizeof o.size);
    gp_strlist w = { 0 };
    int drawn = mkdir(work, 0777) == 0 ? render_all(d, &o, want, &w, notes, err, errlen) : -1;
    if (drawn < 0 && !err[0])
        gp_fmt(err, errlen, "%s: %s", work, strerror(errno));
    if (drawn > 0 && publish(&w, tmp, outdir, print, err, errlen) < 0)
        drawn = -1;
    for (int i = 0; drawn > 0 && i < w.n; i++) {
        char p[PATH_MAX];
        gp_path_join(p, sizeof p, outdir, w.v[i]);
        gp_strlist_add(final, p);
    }
    gp_rm_rf(tmp);
    gp_cleanup_drop(tmp);
    if (drawn <= 0 && created)
        rmdir(outdir);
    gp_strlist_free(&w);
    return drawn;
}

/* Rows from `gemmprof dist` over several GPUs, given only to one-GPU
 * charts: each chart would skip them with a note of its own; one line at
 * the first such row says what to ask for instead.  -1 with err. */
static int one_gpu_charts_of_dist(const gp_dataset *d, const int *want,
                                  char *err, size_t errlen)
{
    for (int c = 0; c < GP_NCHARTS; c++)
        if (want[c] && gp_charts[c].data == GP_DATA_DIST)
            return 0;
    for (int i = 0; i < d->nrows; i++)
        if (!gp_row_multi_gpu(&d->rows[i]))
            return 0;
    const gp_row *r = &d->rows[0];
    char dist[256] = "";
    for (int c = 0; c < GP_NCHARTS; c++)
        if (gp_charts[c].data == GP_DATA_DIST) {
            size_t len = strlen(dist);
            gp_fmt(dist + len, sizeof dist - len, "%s%s", len ? "," : "", gp_charts[c].name);
        }
    gp_fmt(err, errlen, "%s:%d:1: a gemmprof dist run over %g GPUs (%s): the "
           "one-GPU charts asked for cannot show it; draw it with --charts %s",
           d->files[0], d->row_line[0], r->ranks, r->comm, dist);
    return -1;
}

/* What a failed chart was drawn from: its message says which chart. */
static void chart_failed(const gp_dataset *d, const char *err)
{
    gp_error("%s (data: %s%s)", err, d->files[0],
             d->nfiles > 1 ? " and the other files" : "");
}

int gp_cmd_plot(int argc, char **argv)
{
    plot_args a;
    char err[2048] = "";
    if (parse_args(argc, argv, &a, err, sizeof err) < 0) {
        gp_error("%s", err);
        return 2;
    }
    if (a.help) {
        usage(stdout);
        return 0;
    }
    if (a.version)
        return gp_print_version(stdout);
    if (gp_dry_run())
        return gp_dry_run_report("plot", argc, argv, "draw charts from the data "
                                 "files into --out");
    gp_dataset d;
    gp_families fams;
    int chosen = gp_dataset_open(&d, argv + optind, argc - optind, a.ceilings, a.family,
                                 a.kernels, &fams, err, sizeof err);
    if (chosen >= 0 && one_gpu_charts_of_dist(&d, a.want, err, sizeof err) < 0) {
        gp_families_free(&fams);
        gp_dataset_free(&d);
        chosen = -1;
    }
    if (chosen < 0) {
        gp_error("%s", err);
        return 2;
    }
    gp_strlist final = { 0 }, notes = { 0 };
    int drawn = plot_into(&d, a.out, a.format, a.want, a.hierarchical, a.size,
                          chosen ? &fams : NULL, &final, &notes, stdout, err, sizeof err);
    gp_families_free(&fams);
    for (int i = 0; i < notes.n; i++)
        fprintf(stderr, "gemmprof: %s\n", notes.v[i]);
    gp_strlist_free(&notes);
    if (drawn == 0)
        gp_error("no chart could be drawn from %s%s (notes above)", d.files[0],
                 d.nfiles > 1 ? " and the other files" : "");
    else if (drawn < 0)
        chart_failed(&d, err);
    gp_strlist_free(&final);
    gp_dataset_free(&d);
    return drawn > 0 ? 0 : 2;
}

int gp_plot_roofline(const char *data_csv, const char *ceilings_csv,
                     const char *outdir, const char *format,
                     char *written, size_t wlen, char *err, size_t errlen)
{
    gp_dataset d;
    char *paths[1] = { (char *)data_csv };
    written[0] = err[0] = '\0';
    if (!gp_format_ext(format)) {
        gp_fmt(err, errlen, "unknown format '%s' (pdf, png, svg, cairolatex)", format);
        return -1;
    }
    if (gp_dataset_load(&d, paths, 1, ceilings_csv, err, errlen) < 0) {
        gp_dataset_free(&d);
        return -1;
    }
    int want[GP_NCHARTS] = { [GP_CHART_ROOFLINE] = 1 };
    long size[3] = { 0, 0, 0 };
    gp_strlist final = { 0 }, notes = { 0 };
    char fail[1024] = "";
    int drawn = plot_into(&d, outdir, format, want, 0, size, NULL, &final, &notes, NULL,
                          fail, sizeof fail);
    size_t off = 0;
    for (int i = 0; i < final.n && off < wlen; i++)
        off += (size_t)snprintf(written + off, wlen - off, "%s%s", i ? "\n" : "", final.v[i]);
    if (drawn < 0)
        gp_fmt(err, errlen, "%s", fail);
    else if (drawn == 0)
        gp_fmt(err, errlen, "%s", notes.n ? notes.v[0] : "roofline: not drawn");
    gp_strlist_free(&final);
    gp_strlist_free(&notes);
    gp_dataset_free(&d);
    return drawn > 0 ? 0 : drawn == 0 ? 1 : -1;
}
