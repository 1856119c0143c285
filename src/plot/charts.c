/* charts.c - the table of charts, from charts.def: each chart's name, the
 * function that draws it, its script, the runs it draws.  The chart files
 * are listed there and call only down, into draw.c, gnuplot.c and
 * select.c. */
#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "charts.h"

const gp_chart_def gp_charts[GP_NCHARTS] = {
#define GP_CHART(id, name, draw, script, data, alias, what) \
    [GP_CHART_##id] = { name, draw, script, data, alias, what },
#include "charts.def"
#undef GP_CHART
};

int gp_chart_find(const char *name)
{
    for (int c = 0; c < GP_NCHARTS; c++)
        if (strcmp(name, gp_charts[c].name) == 0 ||
            (gp_charts[c].alias && strcmp(name, gp_charts[c].alias) == 0))
            return c;
    return -1;
}

/* A trace row stands for launches of an application's kernel. */
int gp_chart_applies(gp_chart c, const gp_dataset *d)
{
    if (gp_charts[c].data != GP_DATA_TRACE)
        return 1;
    for (int i = 0; i < d->nrows; i++)
        if (d->rows[i].launches > 0)
            return 1;
    return 0;
}

void gp_chart_names(char *out, size_t len, const char *sep)
{
    size_t off = 0;
    out[0] = '\0';
    for (int c = 0; c < GP_NCHARTS && off < len; c++)
        off += (size_t)snprintf(out + off, len - off, "%s%s", c ? sep : "", gp_charts[c].name);
}

int gp_chart_render(gp_chart c, const gp_dataset *d, const gp_chart_opts *o,
                    gp_strlist *written, char *err, size_t errlen)
{
    err[0] = '\0';
    if ((unsigned)c >= GP_NCHARTS) {
        gp_fmt(err, errlen, "unknown chart %d", (int)c);
        return -1;
    }
    return gp_charts[c].draw(d, o, written, err, errlen);
}

/* "roofline: skipped, ..." -> "roofline (fp64): skipped, ..." */
static void with_family(const char *m, const gp_family *f, char *out, size_t len)
{
    size_t word = strcspn(m, ": ");
    if (f->whole || m[word] != ':')
        gp_fmt(out, len, "%s", m);
    else
        gp_fmt(out, len, "%.*s (%s)%s", (int)word, m, f->name, m + word);
}

int gp_chart_each_family(const gp_dataset *d, const gp_chart_opts *o, gp_family_chart one,
                         gp_strlist *written, char *err, size_t errlen)
{
    gp_families own = { 0 };
    const gp_families *fs = o->families;
    if (!fs && gp_families_of(d, &own) < 0) {
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    fs = fs ? fs : &own;
    int drawn = 0, rc = 0;
    gp_strlist skipped = { 0 };
    char first[1024] = "";
    for (int i = 0; i < fs->n && rc >= 0; i++) {
        char m[1024] = "", line[1200];
        rc = one(d, o, &fs->f[i], written, m, sizeof m);
        with_family(m, &fs->f[i], line, sizeof line);
        if (rc < 0)
            gp_fmt(err, errlen, "%s", line);
        else if (rc == 1)
            gp_strlist_add(&skipped, line);
        if (rc == 1 && !first[0])
            gp_fmt(first, sizeof first, "%s", m);
        else if (rc >= 0 && m[0] && o->notes)   /* an error is said once, by err */
            gp_strlist_add(o->notes, line);
        drawn += rc == 0;
    }
    if (rc >= 0 && !drawn)
        gp_fmt(err, errlen, "%s", first[0] ? first : "nothing to draw");
    for (int i = 0; rc >= 0 && drawn && o->notes && i < skipped.n; i++)
        gp_strlist_add(o->notes, skipped.v[i]);
    gp_strlist_free(&skipped);
    gp_families_free(&own);
    return rc < 0 ? -1 : drawn ? 0 : 1;
}
