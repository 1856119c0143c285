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
        fprintf(f, "%s,%s,%ld,%ld,%s,%.6g\n", e->family, e->precision,
                e->min_size, e->max_size, e->config, e->gflops);
    }
}

/* Whole or not at all, as the ceilings: a run reads the table it tunes by. */
int gp_tuning_write(const char *path, const gp_tuning *t, char *err, size_t errlen)
{
    return gp_write_atomic(path, write_body, t, err, errlen);
}

/* "# key: value" -> meta */
static void read_meta_line(gp_meta *m, char *line)
{
    char *colon = strchr(line, ':');
    if (!colon)
        return;
    *colon = '\0';
    char *key = line + 1, *val = colon + 1;
    while (*key == ' ')
        key++;
    while (*val == ' ')
        val++;
    gp_meta_set(m, key, "%s", val);
}

static int parse_entry(const char *line, gp_tuning_entry *e)
{
    int used = -1;
    char g[32];
    if (sscanf(line, "%31[^,],%7[^,],%ld,%ld,%63[^,],%31[^,\n]%n", e->family,
               e->precision, &e->min_size, &e->max_size, e->config, g, &used) != 6 ||
        line[used] != '\0')
        return -1;
    char *end;
    e->gflops = strtod(g, &end);
    if (*end)
        e->gflops = NAN;     /* NA: the range is still usable */
    return e->min_size >= 1 && e->min_size <= e->max_size ? 0 : -1;
}

int gp_tuning_read(const char *path, gp_tuning *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[2048];
    int lineno = 0, header = 0, rc = 0;
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    gp_meta_init(&t->meta);
    t->n = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#') {
            read_meta_line(&t->meta, line);
        } else if (!header) {
            header = 1;
            if (strcmp(line, TUNING_HEADER) != 0) {
                snprintf(err, errlen, "%s: line %d: not a tuning table (header "
                         "must be %s)", path, lineno, TUNING_HEADER);
                rc = -1;
            }
        } else if (line[0] && t->n == GP_TUNING_MAX) {
            snprintf(err, errlen, "%s: line %d: more than %d entries", path,
                     lineno, GP_TUNING_MAX);
            rc = -1;
        } else if (line[0] && parse_entry(line, &t->e[t->n++]) != 0) {
            snprintf(err, errlen, "%s: line %d: malformed tuning entry (want "
                     TUNING_HEADER ")", path, lineno);
            rc = -1;
        }
    }
    fclose(f);
    if (rc == 0 && !header) {
        snprintf(err, errlen, "%s: empty tuning table (no header)", path);
        rc = -1;
    }
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
