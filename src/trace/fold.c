/* fold.c - a trace's launches as rows: one per launch configuration (the
 * default, the way nsys sums a kernel up: count, total, median, but with
 * the counters beside it), or one per launch (--per-launch).  A
 * configuration's time comes from its unprofiled launches only: a
 * replayed launch runs with the profiler's passes around it, and short
 * kernels come out slower (docs/profile-an-application.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static int same_number(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static int same_group(const gp_row *a, const gp_row *b)
{
    return a->pid == b->pid && strcmp(a->rank, b->rank) == 0 &&
           strcmp(a->kernel, b->kernel) == 0 && strcmp(a->config, b->config) == 0 &&
           same_number(a->smem_per_block, b->smem_per_block) &&   /* dynamic smem */
           a->graph_id == b->graph_id && a->graph_node_id == b->graph_node_id;
}

/* A row of the part files holds its launch's counters when it was
 * profiled (older parts have no column: every row was). */
static int row_profiled(const gp_row *r)
{
    return r->profiled != 0;
}

static void set_source(gp_row *r, const char *source)
{
    snprintf(r->time_source, sizeof r->time_source, "%s", source);
}

void gp_trace_launch_of(const gp_row *rows, const gp_trace_launch_time *t, gp_row *out)
{
    const gp_row *r = &rows[t->row];
    int own = r->correlation_id == t->corr;
    *out = *r;
    if (!own || !t->profiled) {
        for (int m = 0; m < GP_NMETRICS; m++)
            out->metric[m] = NAN;
        out->tensor_math_inst = NAN;
        if (strncmp(out->status, "error: launch failed", 20) == 0 && !own)
            snprintf(out->status, sizeof out->status, "ok");  /* the first's, not its */
    }
    out->correlation_id = t->corr;
    out->launches = 1;
    out->profiled = t->profiled;
    out->time_ms = out->time_min_ms = out->time_max_ms = out->time_total_ms = NAN;
    out->reps = -1;
    set_source(out, "none");
    if (t->reps > 0) {
        out->time_ms = t->ms;
        out->time_min_ms = t->min_ms;
        out->time_max_ms = t->max_ms;
        out->time_total_ms = t->ms;
        out->reps = t->reps;
        set_source(out, t->profiled ? "profiled-activity" : "activity");
    } else if (t->profiled && own && out->metric[GP_M_GPU_TIME] > 0) {
        double ms = out->metric[GP_M_GPU_TIME] * 1e-6;
        out->time_ms = out->time_min_ms = out->time_max_ms = out->time_total_ms = ms;
        set_source(out, "gpu__time_duration");
    }
    out->gflops = NAN;
    gp_row_derive(out);
}

/* time_ms, min, max, total and reps of a configuration from the durations
 * in v (n of them, sorted here); NA when n is 0. */
static void set_times(gp_row *out, double *v, size_t n, const double *lo, const double *hi)
{
    out->time_ms = out->time_min_ms = out->time_max_ms = out->time_total_ms = NAN;
    if (n == 0)
        return;
    double sum = 0, mn = INFINITY, mx = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        sum += v[i];
        mn = fmin(mn, lo ? lo[i] : v[i]);
        mx = fmax(mx, hi ? hi[i] : v[i]);
    }
    out->time_total_ms = sum;
    out->time_min_ms = mn;
    out->time_max_ms = mx;
    out->time_ms = gp_median_inplace(v, n);
}

typedef struct {
    double *v, *lo, *hi;        /* scratch, one per launch */
} scratch;

/* The durations of the group's launches that were (profiled) or were not
 * replayed, with their records' extremes.  Returns how many. */
static size_t durations(const gp_trace_launch_time *t, size_t nt, const int *group, int g,
                        int profiled, scratch *s)
{
    size_t k = 0;
    for (size_t i = 0; i < nt; i++)
        if (group[t[i].row] == g && t[i].profiled == profiled && t[i].reps > 0) {
            s->v[k] = t[i].ms;
            s->lo[k] = t[i].min_ms;
            s->hi[k] = t[i].max_ms;
            k++;
        }
    return k;
}

/* Median of the field at `offset` over the group's profiled rows. */
static double median_of(const gp_row *rows, int n, const int *group, int g, size_t offset,
                        double *v)
{
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (group[i] != g || !row_profiled(&rows[i]))
            continue;
        double x = *(const double *)((const char *)&rows[i] + offset);
        if (!isnan(x))
            v[k++] = x;
    }
    return gp_median_inplace(v, k);
}

static void fold_group(const gp_row *rows, int n, const int *group, int g,
                       const gp_trace_launch_time *t, size_t nt, scratch *s, gp_row *out)
{
    out->launches = 0;
    out->profiled = 0;
    for (size_t i = 0; i < nt; i++)
        if (group[t[i].row] == g) {
            out->launches++;
            out->profiled += t[i].profiled;
        }
    for (int i = 0; i < n; i++)
        if (group[i] == g && strcmp(rows[i].status, "ok") != 0 &&
            strcmp(out->status, "ok") == 0)
            memcpy(out->status, rows[i].status, sizeof out->status);
    /* a gated launch's counters with the full launch after it: the
     * tensor-path ones are the full launch's alone */
    for (int m = 0; m < GP_NMETRICS; m++)
        out->metric[m] = median_of(rows, n, group, g,
                                   offsetof(gp_row, metric) + (size_t)m * sizeof(double), s->v);
    out->tensor_math_inst = median_of(rows, n, group, g, offsetof(gp_row, tensor_math_inst),
                                      s->v);
    size_t k = durations(t, nt, group, g, 0, s);
    const char *source = "activity";
    if (k == 0) {
        k = durations(t, nt, group, g, 1, s);
        source = "profiled-activity";
    }
    if (k == 0) {               /* replayed launches with zero-length records */
        for (int i = 0; i < n; i++)
            if (group[i] == g && row_profiled(&rows[i]) && rows[i].metric[GP_M_GPU_TIME] > 0)
                s->v[k++] = rows[i].metric[GP_M_GPU_TIME] * 1e-6;
        source = k ? "gpu__time_duration" : "none";
        set_times(out, s->v, k, NULL, NULL);
        out->reps = -1;
    } else {
        set_times(out, s->v, k, s->lo, s->hi);
        out->reps = (long)k;
    }
    set_source(out, source);
    out->precision[0] = '\0';           /* from the folded counters */
    out->gflops = NAN;
    gp_row_derive(out);
}

int gp_trace_fold(gp_row *rows, int n, const gp_trace_launch_time *t, size_t nt)
{
    if (n <= 0)
        return 0;
    size_t most = nt > (size_t)n ? nt : (size_t)n;
    int *group = malloc((size_t)n * sizeof *group);
    int *head = malloc((size_t)n * sizeof *head);
    scratch s = { malloc(most * sizeof(double)), malloc(most * sizeof(double)),
                  malloc(most * sizeof(double)) };
    gp_row *out = malloc((size_t)n * sizeof *out);
    int ngroups = 0;
    if (!group || !head || !s.v || !s.lo || !s.hi || !out) {
        ngroups = n;                    /* out of memory: leave rows as they are */
        goto done;
    }
    for (int i = 0; i < n; i++) {
        int g = 0;
        while (g < ngroups && !same_group(&rows[head[g]], &rows[i]))
            g++;
        if (g == ngroups)
            head[ngroups++] = i;
        group[i] = g;
    }
    for (int g = 0; g < ngroups; g++) {
        out[g] = rows[head[g]];
        fold_group(rows, n, group, g, t, nt, &s, &out[g]);
    }
    memcpy(rows, out, (size_t)ngroups * sizeof *out);
done:
    free(group);
    free(head);
    free(s.v);
    free(s.lo);
    free(s.hi);
    free(out);
    return ngroups;
}
