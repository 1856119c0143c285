/* select.c - choosing rows, series, sizes and medians for the charts and
 * tables.  Data sets are small (hundreds of rows), so plain scans are
 * fine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "key.h"
#include "family.h"
#include "select.h"

/* Rows of gemmprof trace have no GEMM shape (m, n, k NA): no size axis,
 * no compulsory bytes. */
static int has_shape(const gp_row *r)
{
    return r->m > 0 && r->n > 0 && r->k > 0;
}

double gp_elt_bytes(const gp_row *r)
{
    return strcmp(r->precision, "fp64") == 0 ? 8 : 4;
}

static double sum2(double a, double b)
{
    return isnan(a) || isnan(b) ? NAN : a + b;
}

double gp_get_gflops(const gp_row *r) { return r->gflops; }
double gp_get_ai_dram(const gp_row *r) { return r->ai_dram; }
double gp_get_ai_l2(const gp_row *r) { return r->ai_l2; }
double gp_get_bank_ratio(const gp_row *r) { return r->bank_conflict_ratio; }
double gp_get_occ_achieved(const gp_row *r) { return r->metric[GP_M_WARPS_ACTIVE]; }
double gp_get_occ_theoretical(const gp_row *r) { return r->occupancy_theoretical; }

double gp_get_dram_bytes(const gp_row *r)
{
    return sum2(r->metric[GP_M_DRAM_READ], r->metric[GP_M_DRAM_WRITE]);
}

double gp_get_spill_bytes(const gp_row *r)
{
    return sum2(r->spill_store_bytes, r->spill_load_bytes);
}

/* C is read only when beta != 0 (BLAS semantics; NA beta counts as 0). */
double gp_get_compulsory_bytes(const gp_row *r)
{
    if (!has_shape(r))
        return NAN;
    double m = (double)r->m, n = (double)r->n, k = (double)r->k;
    double elems = m * k + k * n + m * n;
    if (!isnan(r->beta) && r->beta != 0)
        elems += m * n;
    return gp_elt_bytes(r) * elems;
}

static long dim(const gp_row *r, int d)
{
    return d == 0 ? r->m : d == 1 ? r->n : r->k;
}

static int in_sweep(const gp_sweep *s, const gp_row *r)
{
    if (!has_shape(r))
        return 0;
    if (s->square)
        return r->m == r->n && r->n == r->k;
    for (int d = 0; d < 3; d++)
        if (d != s->xdim && dim(r, d) != s->fixed[d])
            return 0;
    return 1;
}

/* A gemmprof dist row (a transport in `comm`; trace rows under MPI have
 * ranks but no transport) that a one-GPU chart or table must leave to
 * dist_scaling and dist_time: one over several GPUs (gp_row_multi_gpu: its
 * GFLOP/s is the ranks' together), or a 1-rank run's summary row ("all"),
 * which repeats its rank's row without the counters and config and made
 * the same run a second series (the 4 x H200 example: cublas beside
 * cublas[CUBLAS_COMPUTE_32F]). */
static int dist_only(const gp_row *r)
{
    int dist = r->comm[0] && strcmp(r->comm, "NA") != 0;
    return gp_row_multi_gpu(r) || (dist && strcmp(r->rank, "all") == 0);
}

static int passes(const gp_where *w, const gp_row *r)
{
    if (!w->all_rows && !gp_row_usable(r))
        return 0;
    if (dist_only(r))
        return 0;
    if (w->need && isnan(w->need(r)))
        return 0;
    if (!w->sweep_configs && w->d->swept && w->d->swept[r - w->d->rows])
        return 0;
    if (w->only && (strcmp(w->only->kernel, r->kernel) != 0 ||
                    strcmp(w->only->precision, r->precision) != 0))
        return 0;
    if (w->family && !gp_family_has(w->family, r))
        return 0;
    if (w->sweep && (!in_sweep(w->sweep, r) || dim(r, w->sweep->xdim) != w->x))
        return 0;
    if (w->shape && (r->m != w->shape[0] || r->n != w->shape[1] || r->k != w->shape[2]))
        return 0;
    return 1;
}

/* Same filter, any x: for building the axis itself. */
static int passes_any_x(const gp_where *w, const gp_row *r)
{
    gp_where any = *w;
    any.sweep = NULL;
    return passes(&any, r) && (!w->sweep || in_sweep(w->sweep, r));
}

int gp_keys(const gp_where *w, gp_key **out)
{
    const gp_dataset *d = w->d;
    gp_key *k = malloc((size_t)(d->nrows + 1) * sizeof *k);
    int n = 0;
    for (int i = 0; k && i < d->nrows; i++) {
        const gp_row *r = &d->rows[i];
        if (!passes_any_x(w, r))
            continue;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = gp_key_match(&k[j], r, w->by_config);
        if (!seen)
            k[n++] = (gp_key){ r->kernel, r->precision, r->config };
    }
    *out = k;
    return n;
}

/* The most common pair of values of dimensions a and b among rows passing
 * w (ties: the larger pair), so that the fixed dimensions of a sweep are
 * ones the data actually holds together. */
static void mode_pair(const gp_where *w, int a, int b, long *va, long *vb)
{
    long bestc = 0;
    for (int i = 0; i < w->d->nrows; i++) {
        const gp_row *ri = &w->d->rows[i];
        if (!passes(w, ri))
            continue;
        long c = 0;
        for (int j = 0; j < w->d->nrows; j++) {
            const gp_row *rj = &w->d->rows[j];
            c += passes(w, rj) && dim(rj, a) == dim(ri, a) && dim(rj, b) == dim(ri, b);
        }
        double size = (double)dim(ri, a) * (double)dim(ri, b);
        if (c > bestc || (c == bestc && size > (double)*va * (double)*vb)) {
            *va = dim(ri, a);
            *vb = dim(ri, b);
            bestc = c;
        }
    }
}

static int distinct_of(const gp_where *w, int d)
{
    long *xs = malloc((size_t)(w->d->nrows + 1) * sizeof *xs);
    int n = 0;
    for (int i = 0; xs && i < w->d->nrows; i++) {
        const gp_row *r = &w->d->rows[i];
        if (!passes(w, r))
            continue;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = xs[j] == dim(r, d);
        if (!seen)
            xs[n++] = dim(r, d);
    }
    free(xs);
    return n;
}

int gp_sweep_choose(const gp_where *w, gp_sweep *s)
{
    static const char *const up[3] = { "M", "N", "K" };
    gp_where base = *w;
    base.sweep = NULL;
    base.shape = NULL;
    memset(s, 0, sizeof *s);
    int any = 0, square = 0;
    for (int i = 0; i < w->d->nrows; i++) {
        const gp_row *r = &w->d->rows[i];
        if (passes(&base, r) && has_shape(r)) {
            any = 1;
            square |= r->m == r->n && r->n == r->k;
        }
    }
    if (!any)
        return -1;
    if (square) {
        s->square = 1;
        s->xdim = 1;
        gp_fmt(s->label, sizeof s->label, "N (M = N = K)");
        return 0;
    }
    int best = 0;
    for (int d = 1; d < 3; d++)
        if (distinct_of(&base, d) > distinct_of(&base, best))
            best = d;
    s->xdim = best;
    int a = best == 0 ? 1 : 0, b = best == 2 ? 1 : 2;
    mode_pair(&base, a, b, &s->fixed[a], &s->fixed[b]);
    gp_fmt(s->label, sizeof s->label, "%s (%s = %ld, %s = %ld)", up[best],
             up[a], s->fixed[a], up[b], s->fixed[b]);
    return 0;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int gp_sweep_xs(const gp_where *w, long **out)
{
    long *xs = malloc((size_t)(w->d->nrows + 1) * sizeof *xs);
    int n = 0;
    for (int i = 0; xs && i < w->d->nrows; i++) {
        const gp_row *r = &w->d->rows[i];
        if (!passes_any_x(w, r))
            continue;
        long x = dim(r, w->sweep->xdim);
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = xs[j] == x;
        if (!seen)
            xs[n++] = x;
    }
    if (n)
        qsort(xs, (size_t)n, sizeof *xs, cmp_long);
    *out = xs;
    return n;
}

int gp_shape_choose(const gp_where *w, const long want[3], long shape[3])
{
    gp_where at = *w;
    at.sweep = NULL;
    if (want && want[0]) {
        at.shape = want;
        gp_key *k;
        int n = gp_keys(&at, &k);
        free(k);
        if (n == 0)
            return -1;
        memcpy(shape, want, 3 * sizeof *shape);
        return 0;
    }
    /* The largest shape that has most of the kernels: a size where only
     * cuBLAS ran, or where one rung failed, does not hide the others. */
    int most = 0;
    for (int pass = 0; pass < 2; pass++) {
        double best_flop = -1;
        for (int i = 0; i < w->d->nrows; i++) {
            const gp_row *r = &w->d->rows[i];
            at.shape = NULL;
            if (!passes(&at, r))
                continue;
            long s[3] = { r->m, r->n, r->k };
            at.shape = s;
            gp_key *k;
            int n = gp_keys(&at, &k);
            free(k);
            /* a traced file's rows share the "no shape" shape, chosen
             * only where no row has a GEMM shape */
            double flop = has_shape(r) ? (double)r->m * (double)r->n * (double)r->k : 0;
            if (pass == 0 && n > most)
                most = n;
            if (pass == 1 && 4 * n >= 3 * most && flop > best_flop) {
                best_flop = flop;
                memcpy(shape, s, sizeof s);
            }
        }
    }
    return most ? 0 : -1;
}

gp_key gp_config_at(const gp_where *w, const gp_key *k)
{
    gp_where at = *w;
    at.need = NULL;
    for (int i = 0; !w->by_config && i < w->d->nrows; i++) {
        const gp_row *r = &w->d->rows[i];
        if (gp_key_match(k, r, 0) && passes(&at, r))
            return (gp_key){ k->kernel, k->precision, r->config };
    }
    return *k;
}

/* Every number of a fact comes from the same rows: those of its config at
 * the point, each where it has a value.  The point's filter w->need only
 * chose the series (a roofline's points need counters; their GFLOP/s is
 * still the median over every run of that config and shape). */
double gp_median(const gp_where *w, const gp_key *k, gp_getter get)
{
    gp_key c = gp_config_at(w, k);
    gp_where at = *w;
    at.need = NULL;
    at.all_rows = 0;
    double *v = malloc((size_t)(w->d->nrows + 1) * sizeof *v);
    int n = 0;
    for (int i = 0; v && i < w->d->nrows; i++) {
        const gp_row *r = &w->d->rows[i];
        if (gp_key_match(&c, r, 1) && passes(&at, r) && !isnan(get(r)))
            v[n++] = get(r);
    }
    double med = n ? gp_median_inplace(v, (size_t)n) : NAN;
    free(v);
    return med;
}

static double get_pct(const gp_row *r) { return r->pct_cublas; }

/* The references are looked up in the whole data: naive is not in the
 * top family, and a --kernel choice may leave cuBLAS out. */
static double median_anywhere(const gp_where *w, const gp_key *k, gp_getter get)
{
    gp_where all = *w;
    all.family = NULL;
    all.only = NULL;
    return gp_median(&all, k, get);
}

double gp_pct_cublas(const gp_where *w, const gp_key *k)
{
    double p = gp_median(w, k, get_pct);
    gp_key ref;
    if (!isnan(p) || gp_cublas_key(w, k->precision, &ref) < 0)
        return p;
    double g = gp_median(w, k, gp_get_gflops), gr = median_anywhere(w, &ref, gp_get_gflops);
    return gr > 0 ? 100 * g / gr : NAN;
}

double gp_speedup(const gp_where *w, const gp_key *k)
{
    gp_key base;
    if (gp_baseline_key(w, k->precision, &base) < 0)
        return NAN;
    double g = gp_median(w, k, gp_get_gflops), gb = median_anywhere(w, &base, gp_get_gflops);
    return gb > 0 ? g / gb : NAN;
}

/* First series of `precision` (among rows passing w, any x) for which
 * pick() says yes. */
static int find_key(const gp_where *w, const char *precision,
                    int (*pick)(const gp_row *), gp_key *out)
{
    gp_where any = *w;
    any.sweep = NULL;
    any.shape = NULL;
    any.by_config = 0;
    any.sweep_configs = 1;
    any.only = NULL;
    any.family = NULL;
    for (int i = 0; i < w->d->nrows; i++) {
        const gp_row *r = &w->d->rows[i];
        if (strcmp(r->precision, precision) == 0 && passes(&any, r) && pick(r)) {
            *out = (gp_key){ r->kernel, r->precision, r->config };
            return 0;
        }
    }
    return -1;
}

static int is_naive_exact(const gp_row *r) { return strcmp(r->kernel, "naive") == 0; }
static int is_naive_like(const gp_row *r) { return strstr(r->kernel, "naive") != NULL; }

int gp_baseline_key(const gp_where *w, const char *precision, gp_key *out)
{
    if (find_key(w, precision, is_naive_exact, out) == 0)
        return 0;
    return find_key(w, precision, is_naive_like, out);
}

int gp_cublas_key(const gp_where *w, const char *precision, gp_key *out)
{
    return find_key(w, precision, gp_row_is_cublas, out);
}

void gp_shape_str(const long s[3], char *out, size_t len)
{
    if (s[0] < 0)
        gp_fmt(out, len, "NA (traced kernels)");
    else if (s[0] == s[1] && s[1] == s[2])
        gp_fmt(out, len, "%ld", s[0]);
    else
        gp_fmt(out, len, "%ldx%ldx%ld", s[0], s[1], s[2]);
}
