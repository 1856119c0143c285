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

/* LaTeX through util's escaper; the other formats show text as it is
 * (noenhanced), control characters (a newline in a kernel name) as spaces. */
void gp_chart_text(const char *format, const char *in, int word,
                   char *out, size_t outlen)
{
    char raw[1024];
    size_t o = 0;
    for (const char *p = in; *p && o + 1 < sizeof raw; p++) {
        unsigned char c = (unsigned char)*p;
        raw[o++] = c < 0x20 || c == 0x7f || (word && c == ' ') ? (word ? '_' : ' ') : *p;
    }
    raw[o] = '\0';
    if (strcmp(format, "cairolatex") == 0)
        gp_esc_latex(raw, out, outlen);
    else
        gp_fmt(out, outlen, "%s", raw);
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

/* gnuplot's message without where in the script it was: '"x.gp" line
 * 12: all points y value undefined!' -> 'all points y value undefined!'. */
static const char *bare(const char *line)
{
    const char *at = strstr(line, "\" line ");
    if (at) {
        const char *colon = strstr(at, ": ");
        if (colon)
            return colon + 2;
    }
    return line;
}

/* The first warning gnuplot printed ("warning: ..." or a data problem it
 * shrugged off, such as "all points y value undefined"), into err.  1 if
 * there was one.  Such a chart is wrong or empty, so it is not drawn. */
static int first_warning(const char *file, char *err, size_t errlen)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return 0;
    char line[1024];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strstr(line, "arning") || strstr(line, "undefined") ||
            strstr(line, "no valid points")) {
            gp_fmt(err, errlen, "%s", bare(line));
            found = 1;
        }
    }
    fclose(f);
    return found;
}

/* gnuplot's own lines never reach the user: whatever it says becomes one
 * line naming `what` (the chart); the caller adds the data files. */
int gp_gnuplot_run(const char *gnuplot, const char *script, const char *vars,
                   const char *cwd, const char *errfile, const char *what,
                   char *err, size_t errlen)
{
    char *argv[] = { (char *)gnuplot, "-e", (char *)vars, (char *)script, NULL };
    char msg[1024];
    int rc = gp_spawn(argv, cwd, errfile, msg, sizeof msg);
    if (rc == 0 && !first_warning(errfile, msg, sizeof msg))
        return 0;
    gp_fmt(err, errlen, "%s: not drawn, gnuplot %s: %s", what,
           rc == 0 ? "warned" : "failed", rc == 0 ? msg : bare(msg));
    return -1;
}
