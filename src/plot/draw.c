/* draw.c - what drawing every chart shares: finding gnuplot and the
 * scripts, output formats, titles, and running one chart's script. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot.h"
#include "frame.h"

const char *gp_format_ext(const char *format)
{
    static const char *const map[][2] = {
        { "pdf", "pdf" }, { "png", "png" }, { "svg", "svg" }, { "cairolatex", "tex" },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(format, map[i][0]) == 0)
            return map[i][1];
    return NULL;
}

/* "N" or three positive integers joined by ',' or 'x'. */
int gp_parse_plot_size(const char *s, long size[3])
{
    long v[3];
    int n = 0;
    for (const char *p = s;; ) {
        char *end;
        if (n == 3 || *p < '0' || *p > '9')
            return -1;
        errno = 0;
        v[n++] = strtol(p, &end, 10);
        if (errno || v[n - 1] < 1)
            return -1;
        if (*end == '\0')
            break;
        if (*end != ',' && *end != 'x')
            return -1;
        p = end + 1;
    }
    if (n == 2)
        return -1;
    if (n == 1)
        v[1] = v[2] = v[0];
    memcpy(size, v, sizeof v);
    return 0;
}

int gp_plot_size_option(const char *arg, long size[3], char *err, size_t errlen)
{
    if (gp_parse_plot_size(arg, size) == 0)
        return 0;
    gp_fmt(err, errlen, "--size: '%s' is not N or M,N,K", arg);
    return -1;
}

int gp_find_gnuplot(char *path, size_t len, char *err, size_t errlen)
{
    char abs[PATH_MAX];
    if (gp_which("gnuplot", path, len) == 0 && realpath(path, abs)) {
        gp_fmt(path, len, "%s", abs);
        return 0;
    }
    gp_fmt(err, errlen, "gnuplot not found: apt-get install gnuplot-nox");
    return -1;
}

/* Yes if `dir` holds the scripts; then made absolute in place (gnuplot
 * runs in the output folder). */
static int has_scripts(char *dir, size_t len)
{
    char p[PATH_MAX + 32], abs[PATH_MAX];
    gp_fmt(p, sizeof p, "%s/roofline.gp", dir);
    if (access(p, R_OK) != 0 || !realpath(dir, abs))
        return 0;
    gp_fmt(dir, len, "%s", abs);
    return 1;
}

int gp_find_plots_dir(char *dir, size_t len, char *err, size_t errlen)
{
    const char *env = getenv("GEMMPROF_PLOTS");
    if (env && *env) {
        gp_fmt(dir, len, "%s", env);
        if (has_scripts(dir, len))
            return 0;
        gp_fmt(err, errlen, "GEMMPROF_PLOTS=%s: no roofline.gp there", env);
        return -1;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        static const char *const rel[] = { "../plots", "../share/gemmprof/plots" };
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            gp_fmt(dir, len, "%s/%s", exe, rel[i]);
            if (has_scripts(dir, len))
                return 0;
        }
    }
    gp_fmt(err, errlen, "gnuplot scripts not found (looked in <gemmprof>/../plots "
             "and ../share/gemmprof/plots; set GEMMPROF_PLOTS=DIR)");
    return -1;
}

void gp_chart_title(const gp_chart_opts *o, char *out, size_t len,
                    const char *fmt, ...)
{
    char raw[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    gp_fit_text(raw, 10, GP_CHART_W - 16);      /* style.gp: titles are 10 pt */
    gp_chart_text(o->format, raw, 0, out, len);
}

const char *gp_chart_gpu(const gp_dataset *d)
{
    const char *g = gp_meta_get(&d->meta, "gpu_name");
    return g && *g ? g : "unknown GPU";
}

int gp_chart_draw(const gp_chart_opts *o, const char *script, const char *name,
                  const char *caption, gp_buf *vars, gp_strlist *written,
                  char *err, size_t errlen)
{
    const char *ext = gp_format_ext(o->format);
    char out[512], path[PATH_MAX], errfile[PATH_MAX], stem[256];
    gp_file_word(name, stem, sizeof stem);   /* a family is named by the data */
    if (!ext) {
        gp_fmt(err, errlen, "unknown format '%s' (pdf, png, svg, cairolatex)", o->format);
        return -1;
    }
    gp_fmt(out, sizeof out, "%s.%s", stem, ext);
    gp_fmt(path, sizeof path, "%s/%s", o->plotsdir, script);
    gp_fmt(errfile, sizeof errfile, "%s/%s.gnuplot.log", o->workdir, stem);
    gp_var_str(vars, "term", o->format);
    gp_var_str(vars, "out", out);
    if (gp_gnuplot_run(o->gnuplot, path, vars->s, o->outdir, errfile, stem,
                       err, errlen) < 0)
        return -1;
    char check[PATH_MAX];
    struct stat st;
    gp_fmt(check, sizeof check, "%s/%s", o->outdir, out);
    if (stat(check, &st) != 0 || st.st_size == 0) {
        gp_fmt(err, errlen, "%s: gnuplot wrote nothing to %s", stem, out);
        return -1;
    }
    gp_strlist_add(written, out);
    if (o->captions)
        gp_strlist_add(o->captions, caption ? caption : stem);
    if (strcmp(o->format, "cairolatex") == 0) {      /* and its graphics */
        gp_fmt(out, sizeof out, "%s.pdf", stem);
        gp_strlist_add(written, out);
    }
    return 0;
}
