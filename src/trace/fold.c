/* fold.c - gemmprof trace --summary: the launches of one kernel with one
 * launch configuration in one process become one row, the way nsys sums
 * a kernel up (count, total, median) but with the counters beside it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static int same_group(const gp_row *a, const gp_row *b)
{
    return a->pid == b->pid && strcmp(a->rank, b->rank) == 0 &&
           strcmp(a->kernel, b->kernel) == 0 && strcmp(a->config, b->config) == 0;
}

/* Median of the field at `offset` over the members that have it. */
static double median_of(const gp_row *rows, const int *member, int n, size_t offset,
                        double *scratch)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        double v = *(const double *)((const char *)&rows[member[i]] + offset);
        if (!isnan(v))
            scratch[k++] = v;
    }
    return gp_median_inplace(scratch, (size_t)k);
}

static double add_known(double sum, double v)
{
    return isnan(v) ? sum : (isnan(sum) ? v : sum + v);
}

static void fold_group(const gp_row *rows, const int *member, int n, double *scratch,
                       gp_row *out)
{
    *out = rows[member[0]];
    out->correlation_id = -1;
    out->launches = 0;
    out->reps = 0;
    out->time_total_ms = NAN;
    for (int i = 0; i < n; i++) {
        const gp_row *r = &rows[member[i]];
        out->launches += r->launches > 0 ? r->launches : 1;
        out->reps += r->reps > 0 ? r->reps : 0;
        out->time_total_ms = add_known(out->time_total_ms,
                                       isnan(r->time_total_ms) ? r->time_ms : r->time_total_ms);
        out->time_min_ms = fmin(out->time_min_ms, r->time_min_ms);  /* fmin skips NAN */
        out->time_max_ms = fmax(out->time_max_ms, r->time_max_ms);
        if (strcmp(r->status, "ok") != 0 && strcmp(out->status, "ok") == 0)
            memcpy(out->status, r->status, sizeof out->status);
    }
    out->time_ms = median_of(rows, member, n, offsetof(gp_row, time_ms), scratch);
    for (int m = 0; m < GP_NMETRICS; m++)
        out->metric[m] = median_of(rows, member, n,
                                   offsetof(gp_row, metric) + (size_t)m * sizeof(double),
                                   scratch);
    out->gflops = NAN;                  /* from the folded time and counters */
    gp_row_derive(out);
}

int gp_trace_fold(gp_row *rows, int n)
{
    if (n <= 0)
        return 0;
    int *group = malloc((size_t)n * sizeof *group);
    int *head = malloc((size_t)n * sizeof *head);
    int *member = malloc((size_t)n * sizeof *member);
    double *scratch = malloc((size_t)n * sizeof *scratch);
    gp_row *out = malloc((size_t)n * sizeof *out);
    int ngroups = 0;
    if (!group || !head || !member || !scratch || !out) {
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
        int k = 0;
        for (int i = head[g]; i < n; i++)
            if (group[i] == g)
                member[k++] = i;
        fold_group(rows, member, k, scratch, &out[g]);
    }
    memcpy(rows, out, (size_t)ngroups * sizeof *out);
done:
    free(group);
    free(head);
    free(member);
    free(scratch);
    free(out);
    return ngroups;
}
