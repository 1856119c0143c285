/* csv_read.c - reading run files.  Whatever is wrong is refused with one
 * line "FILE:LINE:COLUMN: what" (COLUMN counts characters from 1, as
 * compilers do): a number that is not finite or not what its column holds
 * (value.c, gp_column_range), a duplicate row, another schema, a row with
 * the wrong number of fields, a header that is not a run file's.  diff,
 * plot and report all read through here, so none of them draws, compares
 * or writes up such a file.
 *
 * A last line cut off mid-row (no newline, too few fields, or inside a
 * quote) is what a writer killed while writing leaves.  gp_csv_read
 * refuses it; gp_csv_read_salvage (trace's part files, whose writer dies
 * with its application) drops it with a warning in err and returns 0. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

typedef struct {
    const char *path;
    char *buf;               /* whole file, parsed in place */
    size_t len, pos;
    int line;                /* line number at pos, 1-based */
    size_t line_start;       /* offset of that line's first character */
    char **field;
    int *fcol;               /* column of each field's first character */
    int nfield, cap;
    int end_col;             /* column just past the record's last field */
    int *row_line;           /* line of each row read */
    int salvage;
    char *err;
    size_t errlen;
} reader;

static int fail(reader *rd, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* "FILE:LINE:COL: msg" (or "FILE: msg" for line 0); always returns -1. */
static int fail(reader *rd, int line, int col, const char *fmt, ...)
{
    int n = line > 0 ? snprintf(rd->err, rd->errlen, "%s:%d:%d: ", rd->path, line, col)
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
        return fail(rd, 0, 0, "%s", strerror(errno));
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
        return fail(rd, 0, 0, "out of memory");
    if (bad) {
        free(buf);
        return fail(rd, 0, 0, "%s", strerror(saved));
    }
    buf[len] = '\0';
    rd->buf = buf;
    rd->len = len;
    rd->line = 1;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)   /* BOM (Excel) */
        rd->pos = rd->line_start = 3;
    return 0;
}

static int push_field(reader *rd, char *start, size_t at)
{
    if (rd->nfield == rd->cap) {
        int cap = rd->cap ? 2 * rd->cap : 64;
        char **grown = realloc(rd->field, (size_t)cap * sizeof *grown);
        if (grown)
            rd->field = grown;
        int *cols = grown ? realloc(rd->fcol, (size_t)cap * sizeof *cols) : NULL;
        if (!cols)
            return fail(rd, rd->line, 1, "out of memory");
        rd->fcol = cols;
        rd->cap = cap;
    }
    rd->fcol[rd->nfield] = (int)(at - rd->line_start) + 1;
    rd->field[rd->nfield++] = start;
    return 0;
}

/* Skip blank lines and comment lines (a '#' that starts a line); "# key:
 * value" lines become metadata. */
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
            gp_meta_read_line(meta, s, rd->line);
        rd->pos = rd->line_start = (size_t)(end - rd->buf) + (nl ? 1 : 0);
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
        if (b[*i] == '\n') {
            rd->line++;
            rd->line_start = *i + 1;
        }
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
        if (push_field(rd, w, i) < 0)
            return -1;
        if (i < rd->len && b[i] == '"') {
            open = quoted_field(rd, &i, &w);
            if (i < rd->len && b[i] == '\r' && (i + 1 == rd->len || b[i + 1] == '\n'))
                i++;
            if (i < rd->len && b[i] != ',' && b[i] != '\n')
                return fail(rd, start_line, (int)(i - rd->line_start) + 1,
                            "text after a closing quote");
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
        rd->end_col = (int)(i - rd->line_start) + 1;
        int newline = i < rd->len;
        *w = '\0';
        if (newline) {
            i++;
            rd->line++;
            rd->line_start = i;
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

/* Store text `s` into column c of r.  -1 with "column X: ..." in err. */
static int set_field(gp_row *r, const gp_column *c, char *s, char *err, size_t errlen)
{
    void *p = (char *)r + c->offset;
    if (c->type == GP_COL_STR) {
        if (strlen(s) >= c->size) {
            snprintf(err, errlen, "column %s: value longer than %zu characters",
                     c->name, c->size - 1);
            return -1;
        }
        strcpy(p, strcmp(s, "NA") == 0 ? "" : s);
        return 0;
    }
    s = trim(s);
    if (gp_value_is_na(s))
        return 0;                       /* gp_row_init left it NA */
    char why[160];
    double v;
    const gp_range *range = c->type == GP_COL_INT ? &gp_range_nonneg : gp_column_range(c);
    if (gp_value_parse(s, range, &v, why, sizeof why) < 0) {
        snprintf(err, errlen, "column %s: %s", c->name, why);
        return -1;
    }
    if (c->type == GP_COL_DBL) {
        *(double *)p = v;
        return 0;
    }
    if (v != floor(v) || v > 9e15) {
        snprintf(err, errlen, "column %s: '%s' is not an integer", c->name, s);
        return -1;
    }
    if (c->type == GP_COL_LONG)
        *(long *)p = (long)v;
    else if (v == 0 || v == 1)
        *(int *)p = (int)v;
    else {
        snprintf(err, errlen, "column %s: '%s' is not 0, 1 or NA", c->name, s);
        return -1;
    }
    return 0;
}

/* The header names none of `required`: not a run file, or its header row
 * is missing (the first line is data). */
static int no_required(reader *rd, int line, const char *name)
{
    char head[64] = "";
    int f = 0;
    for (; f < rd->nfield && strlen(head) < 40; f++)
        snprintf(head + strlen(head), sizeof head - strlen(head), "%s%s",
                 f ? "," : "", rd->field[f]);
    for (char *p = head; *p; p++)       /* a binary file: keep the line one line */
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            *p = '?';
    return fail(rd, line, 1, "no column '%s' in the header row '%.40s%s' (not a "
                "gemmprof run file, or its header row is missing)", name, head,
                strlen(head) > 40 || f < rd->nfield ? "..." : "");
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
        return fail(rd, line, 1, rd->len == 0 ? "empty file (no header row)"
                                              : "no header row after the '#' lines");
    *col_of = malloc((size_t)rd->nfield * sizeof **col_of);
    if (!*col_of)
        return fail(rd, line, 1, "out of memory");
    for (int f = 0; f < rd->nfield; f++) {
        int c = gp_column_index(trim(rd->field[f]));
        (*col_of)[f] = c;
        if (c < 0)
            continue;
        if (out->has_column[c])
            return fail(rd, line, rd->fcol[f], "column '%s' appears twice",
                        gp_columns[c].name);
        out->has_column[c] = 1;
    }
    static const char *const required[] = { "kernel", "m", "n", "k" };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!out->has_column[gp_column_index(required[i])])
            return no_required(rd, line, required[i]);
    return rd->nfield;
}

static gp_row *new_row(reader *rd, gp_run_file *out, int *cap, int line)
{
    if (out->nrows == *cap) {
        int n = *cap ? 2 * *cap : 64;
        gp_row *grown = realloc(out->rows, (size_t)n * sizeof *grown);
        if (grown)
            out->rows = grown;
        int *lines = grown ? realloc(rd->row_line, (size_t)n * sizeof *lines) : NULL;
        if (!lines) {
            fail(rd, line, 1, "out of memory");
            return NULL;
        }
        rd->row_line = lines;
        *cap = n;
    }
    rd->row_line[out->nrows] = line;
    gp_row *r = &out->rows[out->nrows];
    gp_row_init(r);
    return r;
}

/* What a writer killed mid-row leaves: a short last line, or one that ends
 * inside quotes.  Refused, or (salvage) dropped with a warning. */
static int cut_off(reader *rd, int line, int nhead)
{
    int col = rd->end_col;
    if (!rd->salvage)
        return fail(rd, line, col, "last line is cut off (%d of %d fields, no newline): "
                    "an interrupted run? delete that line to read the rows before it",
                    rd->nfield, nhead);
    fail(rd, line, col, "last line is cut off (%d of %d fields); ignored", rd->nfield,
         nhead);
    return 0;
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
        if ((cut == 1 && rd->nfield < nhead) || (cut == 2 && rd->nfield <= nhead))
            return cut_off(rd, line, nhead);
        if (rd->nfield != nhead)
            return fail(rd, line, rd->nfield > nhead ? rd->fcol[nhead] : rd->end_col,
                        "%d fields, header has %d", rd->nfield, nhead);
        gp_row *r = new_row(rd, out, &cap, line);
        if (!r)
            return -1;
        for (int f = 0; f < nhead; f++) {
            char msg[320];
            if (col_of[f] >= 0 &&
                set_field(r, &gp_columns[col_of[f]], rd->field[f], msg, sizeof msg) < 0)
                return fail(rd, line, rd->fcol[f], "%s", msg);
        }
        out->nrows++;
    }
}

/* ---------- duplicate rows ---------- */

typedef struct {
    const gp_row *r;
    int line;
} keyed;

static int cmp_long(long a, long b)
{
    return (a > b) - (a < b);
}

/* A row's identity: two rows with one identity are two numbers for one
 * fact, which no table or chart can show honestly.  Trace rows differ in
 * pid and correlation id, or for kernels of a CUDA graph, which share the
 * graph launch's correlation id, in graph node (torch.compile's graphs
 * launch one kernel with one configuration from several nodes); dist
 * rows differ in rank and grid. */
static int key_cmp(const gp_row *a, const gp_row *b)
{
    int c;
    if ((c = strcmp(a->kernel, b->kernel)) || (c = strcmp(a->precision, b->precision)) ||
        (c = strcmp(a->config, b->config)) || (c = cmp_long(a->m, b->m)) ||
        (c = cmp_long(a->n, b->n)) || (c = cmp_long(a->k, b->k)) ||
        (c = strcmp(a->rank, b->rank)) || (c = strcmp(a->grid, b->grid)) ||
        (c = cmp_long(a->pid, b->pid)))
        return c;
    if ((c = cmp_long(a->correlation_id, b->correlation_id)))
        return c;
    return cmp_long(a->graph_node_id, b->graph_node_id);
}

static int keyed_cmp(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = key_cmp(a->r, b->r);
    return c ? c : a->line - b->line;
}

/* Sorted, so a trace file of many launches costs n log n.  The duplicate
 * named is the one earliest in the file. */
static int check_duplicates(reader *rd, const gp_run_file *out)
{
    keyed *k = malloc((size_t)(out->nrows ? out->nrows : 1) * sizeof *k);
    if (!k)
        return fail(rd, 0, 0, "out of memory");
    for (int i = 0; i < out->nrows; i++)
        k[i] = (keyed){ &out->rows[i], rd->row_line[i] };
    qsort(k, (size_t)out->nrows, sizeof *k, keyed_cmp);
    int dup = -1;
    for (int i = 1; i < out->nrows; i++)
        if (key_cmp(k[i - 1].r, k[i].r) == 0 && (dup < 0 || k[i].line < k[dup].line))
            dup = i;
    int rc = 0;
    if (dup >= 0) {
        char shape[64];
        const gp_row *r = k[dup].r;
        gp_row_shape(r, shape, sizeof shape);
        rc = fail(rd, k[dup].line, 1, "duplicate row: %.80s%s%s %s%s%s is also on line "
                  "%d (one row per kernel, precision, config and shape)", r->kernel,
                  r->precision[0] ? " " : "", r->precision, shape,
                  r->config[0] ? " " : "", r->config, k[dup - 1].line);
    }
    free(k);
    return rc;
}

/* ---------- the file ---------- */

static int read_file(reader *rd, gp_run_file *out)
{
    int *col_of = NULL;
    int rc = read_all(rd), nhead = -1;
    if (rc == 0)
        nhead = read_header(rd, out, &col_of);
    /* the schema first: another version's columns may mean other things */
    if (nhead >= 0)
        rc = gp_meta_check(&out->meta, rd->path, GP_RUN_SCHEMA, rd->err, rd->errlen);
    if (nhead >= 0 && rc == 0)
        rc = read_rows(rd, out, col_of, nhead);
    else
        rc = -1;
    char warning[512] = "";
    if (rc == 0 && rd->err[0])          /* salvage: keep the cut-off warning */
        snprintf(warning, sizeof warning, "%s", rd->err);
    if (rc == 0)                        /* '#' lines after the header too */
        rc = gp_meta_check(&out->meta, rd->path, GP_RUN_SCHEMA, rd->err, rd->errlen);
    if (rc == 0)
        rc = check_duplicates(rd, out);
    if (rc == 0)
        snprintf(rd->err, rd->errlen, "%s", warning);
    free(col_of);
    return rc;
}

static int read_run_file(const char *path, int salvage, gp_run_file *out,
                         char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    gp_meta_init(&out->meta);
    if (errlen)
        err[0] = '\0';
    reader rd = { .path = path, .err = err, .errlen = errlen, .salvage = salvage };
    int rc = read_file(&rd, out);
    free(rd.field);
    free(rd.fcol);
    free(rd.buf);
    if (rc < 0) {
        free(rd.row_line);
        gp_run_file_free(out);
        memset(out->has_column, 0, sizeof out->has_column);
        return -1;
    }
    out->line = rd.row_line;
    return 0;
}

int gp_csv_read(const char *path, gp_run_file *out, char *err, size_t errlen)
{
    return read_run_file(path, 0, out, err, errlen);
}

int gp_csv_read_salvage(const char *path, gp_run_file *out, char *err, size_t errlen)
{
    return read_run_file(path, 1, out, err, errlen);
}

void gp_run_file_free(gp_run_file *f)
{
    free(f->rows);
    free(f->line);
    f->rows = NULL;
    f->line = NULL;
    f->nrows = 0;
}
