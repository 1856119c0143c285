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

/* Split one CSV line in place into at most `max` fields ("" quoting).
 * Returns the number of fields, -1 on an unterminated quote. */
static int split_csv(char *s, char **fld, int max)
{
    int n = 0;
    for (;;) {
        char *out = s;
        if (n < max)
            fld[n] = out;
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

/* "NA" -> NAN; otherwise a whole finite number. */
static int parse_num(const char *s, double *v)
{
    if (strcmp(s, "NA") == 0) {
        *v = NAN;
        return 0;
    }
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return (end == s || *end || errno == ERANGE || !isfinite(*v)) ? -1 : 0;
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

/* "# key: value"; other comment lines are free text and ignored. */
static void parse_meta(char *line, gp_meta *m)
{
    char *s = trim(line + 1);
    char *colon = strchr(s, ':');
    if (!colon || colon == s)
        return;
    *colon = '\0';
    char *key = trim(s), *val = trim(colon + 1);
    if (*key && !strpbrk(key, " \t") && strlen(key) < sizeof m->kv[0].key)
        gp_meta_set(m, key, "%s", val);
}

static int parse_row(char *line, gp_ceiling *r, const char *path, int ln,
                     char *err, size_t errlen)
{
    static const char *numcol[] = {"measured", "theoretical",
                                   "pct_of_theoretical"};
    char *f[NFIELDS];
    int nf = split_csv(line, f, NFIELDS);
    if (nf < 0) {
        snprintf(err, errlen, "%s:%d: unterminated quote", path, ln);
        return -1;
    }
    if (nf != NFIELDS) {
        snprintf(err, errlen, "%s:%d: %d fields, expected %d", path, ln, nf,
                 NFIELDS);
        return -1;
    }
    if (!*f[0]) {
        snprintf(err, errlen, "%s:%d: empty ceiling name", path, ln);
        return -1;
    }
    double *num[] = {&r->measured, &r->theoretical, &r->pct_of_theoretical};
    for (int i = 0; i < 3; ++i)
        if (parse_num(f[2 + i], num[i]) != 0) {
            snprintf(err, errlen, "%s:%d: malformed number '%.40s' in column %s",
                     path, ln, f[2 + i], numcol[i]);
            return -1;
        }
    snprintf(r->name, sizeof r->name, "%s", f[0]);
    snprintf(r->unit, sizeof r->unit, "%s", f[1]);
    snprintf(r->method, sizeof r->method, "%s", f[5]);
    return 0;
}

/* Reads lines after the header; 0 or -1 with err. */
static int read_rows(FILE *f, gp_ceilings *c, const char *path, int *ln,
                     char *err, size_t errlen)
{
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        ++*ln;
        char *s = trim(line);
        if (!*s)
            continue;
        if (*s == '#') {
            parse_meta(s, &c->meta);
            continue;
        }
        if (c->n == GP_CEILINGS_MAX) {
            snprintf(err, errlen, "%s:%d: more than %d ceilings", path, *ln,
                     GP_CEILINGS_MAX);
            return -1;
        }
        if (parse_row(s, &c->c[c->n], path, *ln, err, errlen) != 0)
            return -1;
        c->n++;
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
    int ln = 0, seen = 0, rc = -1;
    while (fgets(line, sizeof line, f)) {
        ++ln;
        char *s = trim(line);
        if (!*s)
            continue;
        seen = 1;
        if (*s == '#') {
            parse_meta(s, &c->meta);
            continue;
        }
        if (strcmp(s, HEADER) != 0) {
            snprintf(err, errlen, "%s:%d: wrong header '%.60s' (expected '%s')",
                     path, ln, s, HEADER);
            goto out;
        }
        rc = read_rows(f, c, path, &ln, err, errlen);
        goto out;
    }
    snprintf(err, errlen, seen ? "%s: no header row" : "%s: empty file", path);
out:
    fclose(f);
    if (rc == 0) {
        const char *schema = gp_meta_get(&c->meta, "schema");
        if (schema && strcmp(schema, GP_CEILINGS_SCHEMA) != 0) {
            snprintf(err, errlen, "%s: schema '%.60s', expected '%s'", path,
                     schema, GP_CEILINGS_SCHEMA);
            rc = -1;
        }
    }
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
