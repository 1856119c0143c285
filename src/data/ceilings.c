/* ceilings.c - the ceilings file: '#' metadata lines "# key: value", the
 * header row, one row per ceiling, NA for numbers nobody knows. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ceilings.h"
#include "util/util.h"
#include "value.h"

#define HEADER "ceiling,unit,measured,theoretical,pct_of_theoretical,method"
#define NFIELDS 6

const gp_ceiling *gp_ceilings_find(const gp_ceilings *c, const char *name)
{
    for (int i = 0; i < c->n; ++i)
        if (strcmp(c->c[i].name, name) == 0)
            return &c->c[i];
    return NULL;
}

static void put_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("NA", f);
}

/* Quote only when a field needs it: a comma or quote, white space at
 * either end (the reader trims each line), or a leading '#' (a comment
 * line).  Found by fuzzing: a method ending in a space lost it. */
static int needs_quotes(const char *s)
{
    size_t n = strlen(s);
    return strpbrk(s, ",\"") || s[0] == '#' ||
           (n && (strchr(" \t\r\n", s[0]) || strchr(" \t\r\n", s[n - 1])));
}

static void put_str(FILE *f, const char *s)
{
    if (!needs_quotes(s)) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_body(FILE *f, const void *arg)
{
    const gp_ceilings *c = arg;
    if (!gp_meta_get(&c->meta, "schema"))
        fprintf(f, "# schema: %s\n", GP_CEILINGS_SCHEMA);
    for (int i = 0; i < c->meta.n; ++i)
        fprintf(f, "# %s: %s\n", c->meta.kv[i].key, c->meta.kv[i].value);
    fputs(HEADER "\n", f);
    for (int i = 0; i < c->n; ++i) {
        const gp_ceiling *r = &c->c[i];
        put_str(f, r->name);
        fputc(',', f);
        put_str(f, r->unit);
        fputc(',', f);
        put_num(f, r->measured);
        fputc(',', f);
        put_num(f, r->theoretical);
        fputc(',', f);
        put_num(f, r->pct_of_theoretical);
        fputc(',', f);
        put_str(f, r->method);
        fputc('\n', f);
    }
}

/* Written whole or not at all (a fresh temp file, renamed), so a reader
 * (another gemmprof sharing the cache) never sees half a file. */
int gp_ceilings_write(const char *path, const gp_ceilings *c, char *err,
                      size_t errlen)
{
    return gp_write_atomic(path, write_body, c, err, errlen);
}

/* Split one CSV line in place into at most `max` fields ("" quoting),
 * each field's column (1-based, from `line0`) in col[].  Returns the
 * number of fields, -1 on an unterminated quote. */
static int split_csv(char *s, const char *line0, char **fld, int *col, int max)
{
    int n = 0;
    for (;;) {
        char *out = s;
        if (n < max) {
            fld[n] = out;
            col[n] = (int)(s - line0) + 1;
        }
        ++n;
        if (*s == '"') {
            ++s;
            for (;;) {
                if (!*s)
                    return -1;
                if (*s == '"' && s[1] == '"') {
                    *out++ = '"';
                    s += 2;
                } else if (*s == '"') {
                    ++s;
                    break;
                } else {
                    *out++ = *s++;
                }
            }
            if (*s && *s != ',')
                return -1;
        } else {
            while (*s && *s != ',')
                *out++ = *s++;
        }
        int more = *s == ',';
        if (*s)
            ++s;
        *out = '\0';
        if (!more)
            return n;
    }
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        ++s;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
                     e[-1] == '\n'))
        *--e = '\0';
    return s;
}

/* The position of a problem: "PATH:LINE:COL: ". */
typedef struct {
    const char *path;
    int line;
    char *err;
    size_t errlen;
} ceil_pos;

static int fail_at(const ceil_pos *p, int col, const char *what)
{
    snprintf(p->err, p->errlen, "%s:%d:%d: %s", p->path, p->line, col, what);
    return -1;
}

/* measured and theoretical are rates (>= 0), pct_of_theoretical 0..100;
 * NA where nobody knows. */
static int parse_numbers(char **f, const int *col, gp_ceiling *r, const ceil_pos *p)
{
    static const char *const name[] = { "measured", "theoretical", "pct_of_theoretical" };
    const gp_range *range[] = { &gp_range_nonneg, &gp_range_nonneg, &gp_range_pct };
    double *num[] = { &r->measured, &r->theoretical, &r->pct_of_theoretical };
    for (int i = 0; i < 3; ++i) {
        char msg[200], why[160];
        *num[i] = NAN;
        if (strcmp(f[2 + i], "NA") == 0)
            continue;
        if (gp_value_parse(f[2 + i], range[i], num[i], why, sizeof why) != 0) {
            snprintf(msg, sizeof msg, "%s: %s", name[i], why);
            return fail_at(p, col[2 + i], msg);
        }
    }
    return 0;
}

static int parse_row(char *line, const char *line0, gp_ceiling *r, const ceil_pos *p)
{
    char *f[NFIELDS], msg[64];
    int col[NFIELDS];
    int nf = split_csv(line, line0, f, col, NFIELDS);
    if (nf < 0)
        return fail_at(p, (int)(line - line0) + 1, "unterminated quote");
    if (nf != NFIELDS) {
        snprintf(msg, sizeof msg, "%d fields, expected %d", nf, NFIELDS);
        return fail_at(p, (int)(line - line0) + 1, msg);
    }
    if (!*f[0])
        return fail_at(p, col[0], "empty ceiling name");
    if (parse_numbers(f, col, r, p) != 0)
        return -1;
    snprintf(r->name, sizeof r->name, "%s", f[0]);
    snprintf(r->unit, sizeof r->unit, "%s", f[1]);
    snprintf(r->method, sizeof r->method, "%s", f[5]);
    return 0;
}

/* One row per ceiling: plots look them up by name, so a second row of a
 * name would be a second number for one fact. */
static int duplicate(const gp_ceilings *c, const ceil_pos *p, const int *lines)
{
    for (int i = 0; i < c->n; ++i)
        if (strcmp(c->c[i].name, c->c[c->n].name) == 0) {
            char msg[128];
            snprintf(msg, sizeof msg, "duplicate ceiling '%.48s' (also on line %d)",
                     c->c[i].name, lines[i]);
            return fail_at(p, 1, msg);
        }
    return 0;
}

/* Reads lines after the header; 0 or -1 with err.  A last line without a
 * newline is refused: the file is written whole and renamed, so that is a
 * file cut off by something else. */
static int read_rows(FILE *f, gp_ceilings *c, ceil_pos *p)
{
    char line[4096];
    int lines[GP_CEILINGS_MAX];
    while (fgets(line, sizeof line, f)) {
        ++p->line;
        int newline = strchr(line, '\n') != NULL;
        char *s = trim(line);
        if (!*s)
            continue;
        if (*s == '#') {
            gp_meta_read_line(&c->meta, s, p->line);
            continue;
        }
        if (!newline)
            return fail_at(p, (int)strlen(line) + 1, "last line is cut off (no newline)");
        if (c->n == GP_CEILINGS_MAX) {
            char msg[48];
            snprintf(msg, sizeof msg, "more than %d ceilings", GP_CEILINGS_MAX);
            return fail_at(p, 1, msg);
        }
        if (parse_row(s, line, &c->c[c->n], p) != 0 || duplicate(c, p, lines) != 0)
            return -1;
        lines[c->n++] = p->line;
    }
    return 0;
}

int gp_ceilings_read(const char *path, gp_ceilings *c, char *err,
                     size_t errlen)
{
    memset(c, 0, sizeof *c);
    gp_meta_init(&c->meta);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char line[4096];
    ceil_pos p = { path, 0, err, errlen };
    int seen = 0, rc = -1;
    while (fgets(line, sizeof line, f)) {
        ++p.line;
        char *s = trim(line);
        if (!*s)
            continue;
        seen = 1;
        if (*s == '#') {
            gp_meta_read_line(&c->meta, s, p.line);
            continue;
        }
        if (strcmp(s, HEADER) != 0) {
            snprintf(err, errlen, "%s:%d:1: wrong header '%.60s' (expected '%s')",
                     path, p.line, s, HEADER);
            goto out;
        }
        rc = gp_meta_check(&c->meta, path, GP_CEILINGS_SCHEMA, err, errlen);
        if (rc == 0)
            rc = read_rows(f, c, &p);
        if (rc == 0)
            rc = gp_meta_check(&c->meta, path, GP_CEILINGS_SCHEMA, err, errlen);
        goto out;
    }
    snprintf(err, errlen, "%s:%d:1: %s", path, p.line + 1,
             seen ? "no header row after the '#' lines" : "empty file (no header row)");
out:
    fclose(f);
    return rc;
}

int gp_ceilings_cache_path(const char *gpu_name, char *path, size_t pathlen,
                           char *err, size_t errlen)
{
    char dir[4096], slug[128], why[4200];
    const char *v;
    if ((v = getenv("GEMMPROF_CACHE")) && *v)
        snprintf(dir, sizeof dir, "%s", v);
    else if ((v = getenv("XDG_CACHE_HOME")) && *v)
        snprintf(dir, sizeof dir, "%s/gemmprof", v);
    else if ((v = getenv("HOME")) && *v)
        snprintf(dir, sizeof dir, "%s/.cache/gemmprof", v);
    else {
        snprintf(err, errlen, "no cache directory: set GEMMPROF_CACHE or HOME");
        return -1;
    }
    if (gp_mkdir_p(dir, why, sizeof why) != 0) {
        snprintf(err, errlen, "cannot create cache directory %s", why);
        return -1;
    }
    gp_slug(gpu_name, slug, sizeof slug);
    if (snprintf(path, pathlen, "%s/ceilings-%s.csv", dir, slug) >= (int)pathlen) {
        snprintf(err, errlen, "%s: cache path too long", dir);
        return -1;
    }
    return 0;
}
