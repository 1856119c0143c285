/* tuning.c - best config per shape, crossovers, and the tuning table file
 * (see tuning.h for the size key and the range rule). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "csv.h"
#include "tuning.h"
#include "util/util.h"

#define TUNING_HEADER "family,precision,min_size,max_size,config,gflops"

/* floor(sqrt(x)) exactly, for x >= 0 */
static long isqrt(long x)
{
    long r = (long)sqrt((double)x);
    while (r > 0 && r * r > x)
        r--;
    while ((r + 1) * (r + 1) <= x)
        r++;
    return r;
}

long gp_tuning_key(long m, long n)
{
    long p = m * n, r = isqrt(p);
    return p - r * r > r ? r + 1 : r;   /* nearest: (r+.5)^2 = r^2 + r + .25 */
}

static int usable(const gp_row *r, const char *family)
{
    return !strcmp(r->kernel, family) && r->verified == 1 && isfinite(r->gflops);
}

static int best_cmp(const void *a, const void *b)
{
    const gp_sweep_best *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    return (x->m > y->m) - (x->m < y->m);
}

int gp_sweep_bests(const gp_row *rows, int n, const char *family,
                   gp_sweep_best *out, int max)
{
    int nb = 0;
    for (int i = 0; i < n; ++i) {
        const gp_row *r = &rows[i];
        if (!usable(r, family))
            continue;
        int j = 0;
        while (j < nb && !(out[j].m == r->m && out[j].n == r->n && out[j].k == r->k))
            j++;
        if (j == nb) {
            if (nb == max)
                continue;
            out[nb++] = (gp_sweep_best){r->m, r->n, r->k, gp_tuning_key(r->m, r->n),
                                        "", -INFINITY};
        }
        if (r->gflops > out[j].gflops) {
            out[j].gflops = r->gflops;
            snprintf(out[j].config, sizeof out[j].config, "%s", r->config);
        }
    }
    qsort(out, (size_t)nb, sizeof *out, best_cmp);
    return nb;
}

int gp_sweep_crossovers(const gp_sweep_best *b, int n, int *idx, int max)
{
    int nc = 0;
    for (int i = 1; i < n && nc < max; ++i)
        if (strcmp(b[i].config, b[i - 1].config) != 0)
            idx[nc++] = i;
    return nc;
}

/* Best gflops of `config` at shape s; NAN if not measured there. */
static double config_at(const gp_row *rows, int n, const char *family,
                        const char *config, const gp_sweep_best *s)
{
    double g = NAN;
    for (int i = 0; i < n; ++i) {
        const gp_row *r = &rows[i];
        if (usable(r, family) && !strcmp(r->config, config) && r->m == s->m &&
            r->n == s->n && r->k == s->k && !(r->gflops <= g))
            g = r->gflops;
    }
    return g;
}

/* The config winning the shapes b[lo..hi) (one key): highest mean of
 * gflops / best, a shape it was not measured at counting 0.  Its mean
 * gflops goes to *gflops. */
static const char *key_winner(const gp_row *rows, int n, const char *family,
                              const gp_sweep_best *b, int lo, int hi,
                              double *gflops)
{
    const char *win = NULL;
    double best_score = -1;
    for (int i = 0; i < n; ++i) {
        const gp_row *r = &rows[i];
        if (!usable(r, family) || gp_tuning_key(r->m, r->n) != b[lo].key)
            continue;
        double score = 0, sum = 0;
        int cnt = 0;
        for (int s = lo; s < hi; ++s) {
            double g = config_at(rows, n, family, r->config, &b[s]);
            if (!isnan(g)) {
                score += g / b[s].gflops;
                sum += g;
                cnt++;
            }
        }
        if (score > best_score) {
            best_score = score;
            win = r->config;
            *gflops = sum / cnt;
        }
    }
    return win;
}

int gp_tuning_build(const gp_row *rows, int n, const char *family,
                    const char *precision, gp_tuning *t)
{
    gp_sweep_best *b = malloc((size_t)(n > 0 ? n : 1) * sizeof *b);
    int nb = b ? gp_sweep_bests(rows, n, family, b, n) : 0;
    int cnt = 0;           /* keys merged into the last entry */
    t->n = 0;
    for (int lo = 0, hi; lo < nb; lo = hi) {
        for (hi = lo + 1; hi < nb && b[hi].key == b[lo].key; ++hi)
            ;
        double g = NAN;
        const char *cfg = key_winner(rows, n, family, b, lo, hi, &g);
        gp_tuning_entry *e = t->n ? &t->e[t->n - 1] : NULL;
        if (e && !strcmp(e->config, cfg)) {
            e->gflops = (e->gflops * cnt + g) / (cnt + 1);
            cnt++;
            continue;
        }
        if (t->n == GP_TUNING_MAX)
            break;
        long start = 1;
        if (e) {
            e->max_size = isqrt(b[lo - 1].key * b[lo].key);
            start = e->max_size + 1;
        }
        e = &t->e[t->n++];
        snprintf(e->family, sizeof e->family, "%s", family);
        snprintf(e->precision, sizeof e->precision, "%s", precision);
        snprintf(e->config, sizeof e->config, "%s", cfg);
        e->min_size = start;
        e->gflops = g;
        cnt = 1;
    }
    if (t->n)
        t->e[t->n - 1].max_size = GP_TUNING_MAX_SIZE;
    free(b);
    return t->n;
}

static void write_body(FILE *f, const void *arg)
{
    const gp_tuning *t = arg;
    gp_csv_write_meta(f, &t->meta);
    fputs(TUNING_HEADER "\n", f);
    for (int i = 0; i < t->n; ++i) {
        const gp_tuning_entry *e = &t->e[i];
        fprintf(f, "%s,%s,%ld,%ld,%s,", e->family, e->precision, e->min_size,
                e->max_size, e->config);
        fprintf(f, isfinite(e->gflops) ? "%.6g\n" : "NA\n", e->gflops);
    }
}

/* Whole or not at all, as the ceilings: a run reads the table it tunes by. */
int gp_tuning_write(const char *path, const gp_tuning *t, char *err, size_t errlen)
{
    return gp_write_atomic(path, write_body, t, err, errlen);
}

/* "PATH:LINE:COL: what"; always -1. */
static int fail_at(char *err, size_t errlen, const char *path, int line, int col,
                   const char *what)
{
    snprintf(err, errlen, "%s:%d:%d: %s", path, line, col, what);
    return -1;
}

/* Split at commas (the writer never quotes: family, precision and config
 * names hold none); each field's column in col[].  The field count. */
static int split(char *line, char **f, int *col, int max)
{
    int n = 0;
    for (char *s = line;; s++) {
        if (n < max) {
            f[n] = s;
            col[n] = (int)(s - line) + 1;
        }
        n++;
        s += strcspn(s, ",");
        if (!*s)
            return n;
        *s = '\0';
    }
}

/* A size bound: an integer 1..GP_TUNING_MAX_SIZE. */
static int parse_size(const char *s, const char *name, long *out, char *err, size_t errlen)
{
    static const gp_range r = { 1, GP_TUNING_MAX_SIZE, 0, "a size from 1 to 1048576" };
    char why[160];
    double v;
    if (gp_value_parse(s, &r, &v, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", name, why);
        return -1;
    }
    if (v != floor(v)) {
        snprintf(err, errlen, "%s: '%s' is not an integer", name, s);
        return -1;
    }
    *out = (long)v;
    return 0;
}

/* One entry; -1 with the column and message of what is wrong. */
static int parse_entry(char *line, gp_tuning_entry *e, int *col, char *err, size_t errlen)
{
    char *f[6], why[160];
    int c[6], nf = split(line, f, c, 6);
    *col = 1;
    if (nf != 6) {
        snprintf(err, errlen, "%d fields, want %s", nf, TUNING_HEADER);
        return -1;
    }
    const size_t max[] = { sizeof e->family, sizeof e->precision, 0, 0, sizeof e->config };
    for (int i = 0; i < 5; i++)
        if (max[i] && (!*f[i] || strlen(f[i]) >= max[i])) {
            *col = c[i];
            snprintf(err, errlen, "field %d: empty or longer than %zu characters", i + 1,
                     max[i] - 1);
            return -1;
        }
    snprintf(e->family, sizeof e->family, "%s", f[0]);
    snprintf(e->precision, sizeof e->precision, "%s", f[1]);
    snprintf(e->config, sizeof e->config, "%s", f[4]);
    e->gflops = NAN;                     /* NA: the range is still usable */
    if ((*col = c[2], parse_size(f[2], "min_size", &e->min_size, err, errlen)) != 0 ||
        (*col = c[3], parse_size(f[3], "max_size", &e->max_size, err, errlen)) != 0)
        return -1;
    *col = c[5];
    if (!gp_value_is_na(f[5]) &&
        gp_value_parse(f[5], &gp_range_nonneg, &e->gflops, why, sizeof why) != 0) {
        snprintf(err, errlen, "gflops: %s", why);
        return -1;
    }
    *col = c[2];
    if (e->min_size > e->max_size) {
        snprintf(err, errlen, "min_size %ld > max_size %ld", e->min_size, e->max_size);
        return -1;
    }
    return 0;
}

/* The range of entry n overlaps an earlier one of its family: two configs
 * for one size. */
static int overlaps(const gp_tuning *t, int n, const int *lines, char *err, size_t errlen)
{
    const gp_tuning_entry *e = &t->e[n];
    for (int i = 0; i < n; i++)
        if (!strcmp(t->e[i].family, e->family) && t->e[i].min_size <= e->max_size &&
            e->min_size <= t->e[i].max_size) {
            snprintf(err, errlen, "sizes %ld..%ld of %s overlap line %d's %ld..%ld",
                     e->min_size, e->max_size, e->family, lines[i], t->e[i].min_size,
                     t->e[i].max_size);
            return 1;
        }
    return 0;
}

/* One line after the '#' lines: the header, then entries.  0, or -1. */
static int read_line(gp_tuning *t, char *line, int lineno, int *header, int *lines,
                     const char *path, char *err, size_t errlen)
{
    char msg[320];
    int col = 1;
    if (!*header) {
        *header = 1;
        if (strcmp(line, TUNING_HEADER) != 0)
            return fail_at(err, errlen, path, lineno, 1,
                           "not a tuning table (header must be " TUNING_HEADER ")");
        return gp_meta_check(&t->meta, path, GP_TUNING_SCHEMA, err, errlen);
    }
    if (!line[0])
        return 0;
    if (t->n == GP_TUNING_MAX) {
        snprintf(msg, sizeof msg, "more than %d entries", GP_TUNING_MAX);
        return fail_at(err, errlen, path, lineno, 1, msg);
    }
    if (parse_entry(line, &t->e[t->n], &col, msg, sizeof msg) != 0 ||
        overlaps(t, t->n, lines, msg, sizeof msg))
        return fail_at(err, errlen, path, lineno, col, msg);
    lines[t->n++] = lineno;
    return 0;
}

int gp_tuning_read(const char *path, gp_tuning *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[2048];
    int lineno = 0, header = 0, rc = 0, lines[GP_TUNING_MAX];
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    gp_meta_init(&t->meta);
    t->n = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        int newline = strchr(line, '\n') != NULL;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#')
            gp_meta_read_line(&t->meta, line, lineno);
        else if (!newline && line[0])   /* written whole: cut off by something else */
            rc = fail_at(err, errlen, path, lineno, (int)strlen(line) + 1,
                         "last line is cut off (no newline)");
        else
            rc = read_line(t, line, lineno, &header, lines, path, err, errlen);
    }
    fclose(f);
    if (rc == 0 && !header)
        rc = fail_at(err, errlen, path, lineno + 1, 1, "empty tuning table (no header)");
    if (rc == 0)                        /* '#' lines after the header too */
        rc = gp_meta_check(&t->meta, path, GP_TUNING_SCHEMA, err, errlen);
    return rc;
}

const gp_tuning_entry *gp_tuning_lookup(const gp_tuning *t, const char *family,
                                        long key)
{
    for (int i = 0; t && i < t->n; ++i)
        if (!strcmp(t->e[i].family, family) && t->e[i].min_size <= key &&
            key <= t->e[i].max_size)
            return &t->e[i];
    return NULL;
}

int gp_tuning_cache_path(const char *gpu_name, const char *family, char *path,
                         size_t pathlen, char *err, size_t errlen)
{
    char ceil[4096], slug[128];
    if (gp_ceilings_cache_path(gpu_name, ceil, sizeof ceil, err, errlen) != 0)
        return -1;
    char *slash = strrchr(ceil, '/');
    gp_slug(gpu_name, slug, sizeof slug);
    if (snprintf(path, pathlen, "%.*s/tuning-%s-%s.csv", (int)(slash - ceil), ceil,
                 slug, family) >= (int)pathlen) {
        snprintf(err, errlen, "%s: cache path too long", ceil);
        return -1;
    }
    return 0;
}
