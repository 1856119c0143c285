/* csv.c - writing run files: "# key: value" metadata, a header row, one
 * row per measurement.  Writer and reader (csv_read.c) both walk
 * gp_columns[] (row.c), so a new column needs no change here. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* ---------- writing ---------- */

struct gp_csv_writer {
    FILE *f;
};

static const void *col_cptr(const gp_row *r, const gp_column *c)
{
    return (const char *)r + c->offset;
}

/* Quote when a reader would otherwise split or drop the field; '#' because
 * pandas' comment="#" cuts an unquoted line there. */
static void write_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n#")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Integral values (counters, shapes) exactly; the rest to 6 digits, which
 * is more than any timing or error estimate here is worth. */
static void write_double(FILE *f, double x)
{
    if (isnan(x))
        fputs("NA", f);
    else if (isinf(x))
        fputs(x > 0 ? "inf" : "-inf", f);
    else if (x == floor(x) && fabs(x) < 9007199254740992.0)
        fprintf(f, "%.0f", x == 0 ? 0.0 : x);
    else
        fprintf(f, "%.6g", x);
}

void gp_csv_write_meta(FILE *f, const gp_meta *meta)
{
    if (!meta)
        return;
    for (int i = 0; i < meta->n; i++)
        fprintf(f, "# %s: %s\n", meta->kv[i].key, meta->kv[i].value);
}

void gp_csv_write_header(FILE *f)
{
    for (int i = 0; i < gp_ncolumns; i++) {
        if (i)
            fputc(',', f);
        fputs(gp_columns[i].name, f);
    }
    fputc('\n', f);
}

void gp_csv_write_row_to(FILE *f, const gp_row *r)
{
    for (int i = 0; i < gp_ncolumns; i++) {
        const gp_column *c = &gp_columns[i];
        const void *p = col_cptr(r, c);
        if (i)
            fputc(',', f);
        switch (c->type) {
        case GP_COL_STR:   /* an empty string is a missing value */
            if (*(const char *)p)
                write_str(f, p);
            else
                fputs("NA", f);
            break;
        case GP_COL_LONG:  /* negative is NA (row.h) */
            if (*(const long *)p < 0)
                fputs("NA", f);
            else
                fprintf(f, "%ld", *(const long *)p);
            break;
        case GP_COL_INT:
            if (*(const int *)p < 0)
                fputs("NA", f);
            else
                fprintf(f, "%d", *(const int *)p);
            break;
        case GP_COL_DBL:
            write_double(f, *(const double *)p);
            break;
        }
    }
    fputc('\n', f);
}

/* Written in place, not to a temporary: a run that dies half-way must leave
 * the rows it measured where the user asked for them. */
gp_csv_writer *gp_csv_open(const char *path, const gp_meta *meta,
                           char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    gp_csv_write_meta(f, meta);
    gp_csv_write_header(f);
    gp_csv_writer *w = malloc(sizeof *w);
    if (fflush(f) != 0 || ferror(f) || !w) {
        snprintf(err, errlen, "%s: %s", path, w ? strerror(errno) : "out of memory");
        fclose(f);
        free(w);
        return NULL;
    }
    w->f = f;
    return w;
}

int gp_csv_write_row(gp_csv_writer *w, const gp_row *r)
{
    gp_csv_write_row_to(w->f, r);
    return fflush(w->f) != 0 || ferror(w->f) ? -1 : 0;
}

int gp_csv_close(gp_csv_writer *w)
{
    if (!w)
        return 0;
    int rc = ferror(w->f) ? -1 : 0;
    if (fclose(w->f) != 0)
        rc = -1;
    free(w);
    return rc;
}
