/* gnuplot.c - talking to gnuplot: `-e` variables, text as a chart
 * format needs it, and running a script with its warnings passed on. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"

void gp_var_str(gp_buf *b, const char *name, const char *value)
{
    gp_buf_printf(b, "%s='", name);
    for (const char *p = value; *p; p++)
        gp_buf_printf(b, *p == '\'' ? "''" : "%c", *p);
    gp_buf_printf(b, "'; ");
}

void gp_var_num(gp_buf *b, const char *name, double value)
{
    if (isnan(value) || isinf(value))
        gp_buf_printf(b, "%s=NaN; ", name);
    else
        gp_buf_printf(b, "%s=%.10g; ", name, value);
}

void gp_chart_text(const char *format, const char *in, int word,
                   char *out, size_t outlen)
{
    int latex = strcmp(format, "cairolatex") == 0;
    size_t o = 0;
    for (const char *p = in; *p && o + 1 < outlen; p++) {
        char c = (word && (*p == ' ' || *p == '\t')) ? '_' : *p;
        const char *rep = NULL;
        if (latex) {
            switch (c) {
            case '\\': rep = "\\textbackslash{}"; break;
            case '~':  rep = "\\textasciitilde{}"; break;
            case '^':  rep = "\\textasciicircum{}"; break;
            case '_': case '%': case '&': case '#': case '$': case '{': case '}':
                if (o + 2 < outlen) {
                    out[o++] = '\\';
                    out[o++] = c;
                }
                continue;
            }
        }
        if (rep) {
            size_t n = strlen(rep);
            if (o + n < outlen) {
                memcpy(out + o, rep, n);
                o += n;
            }
            continue;
        }
        out[o++] = c;
    }
    if (outlen)
        out[o] = '\0';
}

void gp_data_text(const char *format, const char *in, char *out, size_t outlen)
{
    char tmp[1024];
    gp_chart_text(format, in, 0, tmp, sizeof tmp);
    size_t o = 0;
    for (const char *p = tmp; *p && o + 2 < outlen; p++) {
        if (*p == '\\')
            out[o++] = '\\';
        out[o++] = *p == ',' ? ';' : *p;
    }
    if (outlen)
        out[o] = '\0';
}

static void print_warnings(const char *file, const char *what)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strstr(line, "arning"))
            gp_warn("gnuplot (%s): %s", what, line);
    }
    fclose(f);
}

int gp_gnuplot_run(const char *gnuplot, const char *script, const char *vars,
                   const char *cwd, const char *errfile, const char *what,
                   char *err, size_t errlen)
{
    char *argv[] = { (char *)gnuplot, "-e", (char *)vars, (char *)script, NULL };
    char msg[1024];
    int rc = gp_spawn(argv, cwd, errfile, msg, sizeof msg);
    if (rc == 0) {
        print_warnings(errfile, what);
        return 0;
    }
    gp_fmt(err, errlen, "%s: gnuplot failed: %s", what, msg);
    return -1;
}
