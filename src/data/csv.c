/* csv.c - run files: "# key: value" metadata, a header row, one row per
 * measurement.  Writer and reader both walk gp_columns[] (row.c), so a new
 * column needs no change here.
 *
 * Reader policy for damaged files: a row with the wrong number of fields is
 * an error naming its line, except the LAST line when it has no newline and
 * is short (or ends inside a quote).  That is what a writer killed mid-row
 * leaves behind; the complete rows before it are returned and `err` holds a
 * warning ("...: last line is cut off ...; ignored") while the call still
 * returns 0.  Callers print err when it is not empty. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* ---------- writing ---------- */

struct gp_csv_writer {
    FILE *f;
};

static void *col_ptr(gp_row *r, const gp_column *c)
{
    return (char *)r + c->offset;
}

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

/* ---------- reading ---------- */

typedef struct {
    const char *path;
    char *buf;               /* whole file, parsed in place */
    size_t len, pos;
    int line;                /* line number at pos, 1-based */
    char **field;
    int nfield, cap;
    char *err;
    size_t errlen;
} reader;

static int fail(reader *rd, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "FILE:LINE: msg" (or "FILE: msg" for line 0); always returns -1. */
static int fail(reader *rd, int line, const char *fmt, ...)
{
    int n = line > 0 ? snprintf(rd->err, rd->errlen, "%s:%d: ", rd->path, line)
                     : snprintf(rd->err, rd->errlen, "%s: ", rd->path);
    if (n >= 0 && (size_t)n < rd->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rd->err + n, rd->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Slurp the file; one spare byte so the last field can be terminated. */
static int read_all(reader *rd)
{
    FILE *f = fopen(rd->path, "rb");
    if (!f)
        return fail(rd, 0, "%s", strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            break;
        len += fread(buf + len, 1, cap - len - 1, f);
        if (len + 1 < cap || ferror(f) || feof(f))
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int bad = ferror(f), saved = errno;
    fclose(f);
    if (!buf)
        return fail(rd, 0, "out of memory");
    if (bad) {
        free(buf);
        return fail(rd, 0, "%s", strerror(saved));
    }
    buf[len] = '\0';
    rd->buf = buf;
    rd->len = len;
    rd->line = 1;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)   /* BOM (Excel) */
        rd->pos = 3;
    return 0;
}

static int push_field(reader *rd, char *start)
{
    if (rd->nfield == rd->cap) {
        int cap = rd->cap ? 2 * rd->cap : 64;
        char **grown = realloc(rd->field, (size_t)cap * sizeof *grown);
        if (!grown)
            return fail(rd, rd->line, "out of memory");
        rd->field = grown;
        rd->cap = cap;
    }
    rd->field[rd->nfield++] = start;
    return 0;
}

/* "# key: value" lines become metadata; other comments are skipped. */
static void parse_comment(char *s, gp_meta *meta)
{
    s++;                                /* the '#' */
    while (*s == ' ')
        s++;
    char *colon = strchr(s, ':');
    if (!colon || colon == s)
        return;
    *colon = '\0';
    if (strpbrk(s, " \t"))              /* prose, not a key */
        return;
    char *v = colon + 1;
    if (*v == ' ')
        v++;
    gp_meta_set(meta, s, "%s", v);
}

/* Skip blank lines and comment lines (a '#' that starts a line). */
static void skip_comments(reader *rd, gp_meta *meta)
{
    while (rd->pos < rd->len) {
        char *s = rd->buf + rd->pos;
        char *nl = memchr(s, '\n', rd->len - rd->pos);
        char *end = nl ? nl : rd->buf + rd->len;
        int blank = end == s || (end == s + 1 && s[0] == '\r');
        if (!blank && s[0] != '#')
            return;
        if (end > s && end[-1] == '\r')
            end[-1] = '\0';
        *end = '\0';
        if (!blank)
            parse_comment(s, meta);
        rd->pos = (size_t)(end - rd->buf) + (nl ? 1 : 0);
        rd->line++;
    }
}

/* One quoted field starting at b[*i] == '"', decoded to *w.  Returns 1 if
 * the file ended inside the quotes. */
static int quoted_field(reader *rd, size_t *i, char **w)
{
    char *b = rd->buf;
    for (++*i; *i < rd->len; ++*i) {
        if (b[*i] == '"') {
            if (*i + 1 < rd->len && b[*i + 1] == '"') {
                *(*w)++ = '"';
                ++*i;
                continue;
            }
            ++*i;
            return 0;
        }
        if (b[*i] == '\n')
            rd->line++;
        *(*w)++ = b[*i];
    }
    return 1;
}

/* Parse the record at rd->pos into rd->field[] (decoding in place: the
 * write pointer never passes the read pointer).  Returns 1, 0 at end of
 * file, -1 on error.  *cut: 0 the record ended with a newline, 1 the file
 * ended without one, 2 the file ended inside quotes. */
static int next_record(reader *rd, int *cut)
{
    char *b = rd->buf;
    size_t i = rd->pos;
    if (i >= rd->len)
        return 0;
    int start_line = rd->line;
    char *w = b + i;
    int open = 0;
    rd->nfield = 0;
    for (;;) {
        if (push_field(rd, w) < 0)
            return -1;
        if (i < rd->len && b[i] == '"') {
            open = quoted_field(rd, &i, &w);
            if (i < rd->len && b[i] == '\r' && (i + 1 == rd->len || b[i + 1] == '\n'))
                i++;
            if (i < rd->len && b[i] != ',' && b[i] != '\n')
                return fail(rd, start_line, "text after a closing quote");
        } else {
            char *start = w;
            while (i < rd->len && b[i] != ',' && b[i] != '\n')
                *w++ = b[i++];
            if (w > start && w[-1] == '\r' && (i == rd->len || b[i] == '\n'))
                w--;
        }
        if (i < rd->len && b[i] == ',') {
            *w++ = '\0';
            i++;
            continue;
        }
        int newline = i < rd->len;
        *w = '\0';
        if (newline) {
            i++;
            rd->line++;
        }
        *cut = open ? 2 : !newline;
        rd->pos = i;
        return 1;
    }
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

static int is_na(const char *s)
{
    return *s == '\0' || strcmp(s, "NA") == 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

/* Store text `s` into column c of r.  -1 with "column X: ..." in msg. */
static int set_field(gp_row *r, const gp_column *c, char *s,
                     char *msg, size_t msglen)
{
    void *p = col_ptr(r, c);
    if (c->type == GP_COL_STR) {
        if (strlen(s) >= c->size) {
            snprintf(msg, msglen, "column %s: value longer than %zu characters",
                     c->name, c->size - 1);
            return -1;
        }
        strcpy(p, strcmp(s, "NA") == 0 ? "" : s);
        return 0;
    }
    s = trim(s);
    if (is_na(s))
        return 0;                       /* gp_row_init left it NA */
    double v;
    if (parse_double(s, &v) < 0) {
        snprintf(msg, msglen, "column %s: '%s' is not a number", c->name, s);
        return -1;
    }
    if (c->type == GP_COL_DBL) {
        *(double *)p = v;
        return 0;
    }
    if (v != floor(v) || fabs(v) > 9e15) {
        snprintf(msg, msglen, "column %s: '%s' is not an integer", c->name, s);
        return -1;
    }
    if (c->type == GP_COL_LONG) {
        if (v < 0) {   /* a count or an index; the writer spells NA "NA" */
            snprintf(msg, msglen, "column %s: '%s' is negative", c->name, s);
            return -1;
        }
        *(long *)p = (long)v;
    } else if (v == 0 || v == 1) {
        *(int *)p = (int)v;
    } else {
        snprintf(msg, msglen, "column %s: '%s' is not 0, 1 or NA", c->name, s);
        return -1;
    }
    return 0;
}

/* The header: which gp_columns entry each field feeds (-1: ignored). */
static int read_header(reader *rd, gp_run_file *out, int **col_of)
{
    int cut;
    skip_comments(rd, &out->meta);
    int line = rd->line;
    int rc = next_record(rd, &cut);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return rd->len == 0 ? fail(rd, 0, "empty") : fail(rd, 0, "no header row");
    *col_of = malloc((size_t)rd->nfield * sizeof **col_of);
    if (!*col_of)
        return fail(rd, line, "out of memory");
    for (int f = 0; f < rd->nfield; f++) {
        int c = gp_column_index(trim(rd->field[f]));
        (*col_of)[f] = c;
        if (c < 0)
            continue;
        if (out->has_column[c])
            return fail(rd, line, "column '%s' appears twice", gp_columns[c].name);
        out->has_column[c] = 1;
    }
    static const char *const required[] = { "kernel", "m", "n", "k" };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!out->has_column[gp_column_index(required[i])])
            return fail(rd, 0, "no column '%s' (is this a gemmprof run file?)",
                        required[i]);
    return rd->nfield;
}

static gp_row *new_row(reader *rd, gp_run_file *out, int *cap)
{
    if (out->nrows == *cap) {
        int n = *cap ? 2 * *cap : 64;
        gp_row *grown = realloc(out->rows, (size_t)n * sizeof *grown);
        if (!grown) {
            fail(rd, rd->line, "out of memory");
            return NULL;
        }
        out->rows = grown;
        *cap = n;
    }
    gp_row *r = &out->rows[out->nrows];
    gp_row_init(r);
    return r;
}

static int read_rows(reader *rd, gp_run_file *out, const int *col_of, int nhead)
{
    int cap = 0, cut;
    for (;;) {
        skip_comments(rd, &out->meta);
        int line = rd->line;
        int rc = next_record(rd, &cut);
        if (rc <= 0)
            return rc;
        /* What a writer killed mid-row leaves: a short last line, or one
         * that ends inside quotes. */
        if ((cut == 1 && rd->nfield < nhead) || (cut == 2 && rd->nfield <= nhead)) {
            fail(rd, line, "last line is cut off (%d of %d fields); ignored",
                 rd->nfield, nhead);
            return 0;
        }
        if (rd->nfield != nhead)
            return fail(rd, line, "%d fields, header has %d", rd->nfield, nhead);
        gp_row *r = new_row(rd, out, &cap);
        if (!r)
            return -1;
        for (int f = 0; f < nhead; f++) {
            char msg[256];
            if (col_of[f] >= 0 &&
                set_field(r, &gp_columns[col_of[f]], rd->field[f], msg, sizeof msg) < 0)
                return fail(rd, line, "%s", msg);
        }
        out->nrows++;
    }
}

int gp_csv_read(const char *path, gp_run_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    gp_meta_init(&out->meta);
    if (errlen)
        err[0] = '\0';
    reader rd = { .path = path, .err = err, .errlen = errlen };
    int *col_of = NULL;
    int rc = read_all(&rd);
    int nhead = rc < 0 ? -1 : read_header(&rd, out, &col_of);
    if (nhead >= 0)
        rc = read_rows(&rd, out, col_of, nhead);
    else
        rc = -1;
    free(col_of);
    free(rd.field);
    free(rd.buf);
    if (rc < 0) {
        gp_run_file_free(out);
        memset(out->has_column, 0, sizeof out->has_column);
        return -1;
    }
    return 0;
}

void gp_run_file_free(gp_run_file *f)
{
    free(f->rows);
    f->rows = NULL;
    f->nrows = 0;
}
