/* report.c - a row per rank and the run's summary row: gathered on
 * rank 0, written to the run file and printed as a short table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "run.h"
#include "gpu/gpu.h"
#include "run/run.h"

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values at v[0], v[stride], ... (n >= 1). */
static double median(const double *v, int stride, int n)
{
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return NAN;
    for (int i = 0; i < n; i++)
        s[i] = v[(size_t)i * stride];
    qsort(s, (size_t)n, sizeof *s, by_double);
    double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

/* A gp_dist_times member across an array of them: pointer, stride. */
#define FIELD(t, f) (&(t)->f), (int)(sizeof *(t) / sizeof(double))

static void identity(const gp_dist_run *r, gp_row *row, const char *rank)
{
    const gp_dist_options *o = r->o;
    gp_row_init(row);
    snprintf(row->kernel, sizeof row->kernel, "%s", o->local);
    snprintf(row->precision, sizeof row->precision, "%s",
             gp_precision_name(o->precision));
    row->m = o->m, row->n = o->n, row->k = o->k;
    row->alpha = 1, row->beta = 0;
    row->reps = o->reps;
    row->ranks = r->nranks;
    snprintf(row->rank, sizeof row->rank, "%s", rank);
    snprintf(row->grid, sizeof row->grid, "%dx%d", o->pr, o->pc);
    if (o->bk == o->bc)
        snprintf(row->dist_block, sizeof row->dist_block, "%ldx%ld", o->br, o->bc);
    else
        snprintf(row->dist_block, sizeof row->dist_block, "%ldx%ld/%ld",
                 o->br, o->bc, o->bk);
    row->panel = (double)r->sched.max_width;   /* what ran, <= --panel */
    snprintf(row->comm, sizeof row->comm, "%s", r->tr->name);
    row->tolerance = gp_verify_tolerance(o->precision, o->k);
}

/* verified, errors and status from a check (ranks' sums or one rank's). */
static void judge(gp_row *row, const gp_dist_check *c, int failed, const char *err)
{
    if (failed) {
        snprintf(row->status, sizeof row->status, "error: %.*s",
                 (int)(sizeof row->status - 8), err);
        return;
    }
    row->max_rel_err = c->maxref > 0 ? c->maxdiff / c->maxref : NAN;
    row->rel_err_fro = c->ref2 > 0 ? sqrt(c->diff2 / c->ref2)
                                   : (c->diff2 > 0 ? INFINITY : NAN);
    int bad = c->nonfinite > 0 ||
              (!isnan(row->rel_err_fro) && !(row->rel_err_fro <= row->tolerance));
    row->verified = !bad;
    if (c->nonfinite)
        snprintf(row->status, sizeof row->status,
                 "verify_failed: %ld non-finite values", c->nonfinite);
    else
        snprintf(row->status, sizeof row->status, "%s", bad ? "verify_failed" : "ok");
}

static void rank_row(const gp_dist_run *r, gp_row *row)
{
    const gp_dist_geom *g = &r->geom;
    const gp_dist_times *t = r->times;
    int n = r->o->reps;
    char rank[8];
    snprintf(rank, sizeof rank, "%d", r->rank);
    identity(r, row, rank);
    row->time_ms = median(FIELD(t, total), n);
    row->time_min_ms = row->time_max_ms = t[0].total;
    for (int i = 1; i < n; i++) {
        row->time_min_ms = fmin(row->time_min_ms, t[i].total);
        row->time_max_ms = fmax(row->time_max_ms, t[i].total);
    }
    row->compute_ms = median(FIELD(t, compute), n);
    row->comm_ms = median(FIELD(t, comm), n);
    row->comm_total_ms = median(FIELD(t, comm_total), n);
    row->transfer_ms = median(FIELD(t, transfer), n);
    double flops = 2.0 * g->mloc * g->nloc * g->k;   /* this rank's share */
    row->gflops = flops / (row->time_ms * 1e6);
    row->gflops_with_transfers = flops / ((row->time_ms + row->transfer_ms) * 1e6);
    row->efficiency = row->compute_ms / row->time_ms;
    judge(row, &r->check, r->failed, r->err);
    if (g->mloc == 0 || g->nloc == 0)
        snprintf(row->verify_scope, sizeof row->verify_scope, "none (no local C)");
    else if (r->check.sampled)
        snprintf(row->verify_scope, sizeof row->verify_scope,
                 "sample %ldx%ld of %ldx%ld local C", r->check.rows,
                 r->check.cols, g->mloc, g->nloc);
    else
        snprintf(row->verify_scope, sizeof row->verify_scope, "full %ldx%ld",
                 g->mloc, g->nloc);
}

/* The local kernel's counters: derived numbers use this rank's own 2mnk. */
static void rank_counters(gp_dist_run *r, gp_row *row)
{
    char err[512];
    if (!r->be->counters || r->failed)
        return;
    if (r->be->counters(r->bctx, row, err, sizeof err) != 0) {
        if (r->rank == 0)
            gp_warn("hardware counters unavailable, rows carry NA counters: %s", err);
        return;
    }
    gp_row local = *row;
    local.m = r->geom.mloc, local.n = r->geom.nloc;
    gp_row_derive(&local);
    row->flop_count = local.flop_count;
    row->flop_2mnk = local.flop_2mnk;
    row->ai_dram = local.ai_dram;
    row->ai_l2 = local.ai_l2;
    row->gflops_counted = local.gflops_counted;
    row->bank_conflict_ratio = local.bank_conflict_ratio;
}

static void summary_row(const gp_dist_run *r, const gp_row *rows,
                        const gp_dist_times *all, const gp_dist_check *checks,
                        gp_row *s)
{
    int n = r->o->reps, p = r->nranks, failed = -1, sampled = 0;
    identity(r, s, "all");
    double *wall = n > 0 ? malloc((size_t)n * sizeof *wall) : NULL;
    if (!wall)          /* no reps (options refuse that) or no memory */
        return;
    for (int i = 0; i < n; i++) {       /* a repetition lasts as long as its slowest rank */
        wall[i] = 0;
        for (int q = 0; q < p; q++)
            wall[i] = fmax(wall[i], all[(size_t)q * n + i].total);
    }
    s->time_ms = median(wall, 1, n);
    s->time_min_ms = s->time_max_ms = wall[0];
    for (int i = 1; i < n; i++) {
        s->time_min_ms = fmin(s->time_min_ms, wall[i]);
        s->time_max_ms = fmax(s->time_max_ms, wall[i]);
    }
    free(wall);
    gp_dist_check sum = { 0 };
    s->compute_ms = s->comm_ms = s->comm_total_ms = s->transfer_ms = 0;
    for (int q = 0; q < p; q++) {
        s->compute_ms += rows[q].compute_ms / p;
        s->comm_ms += rows[q].comm_ms / p;
        s->comm_total_ms += rows[q].comm_total_ms / p;   /* NAN stays NAN */
        s->transfer_ms += rows[q].transfer_ms / p;
        gp_dist_check_merge(&sum, &checks[q]);
        sampled += checks[q].sampled;
        if (failed < 0 && strncmp(rows[q].status, "error", 5) == 0)
            failed = q;
    }
    double flops = 2.0 * s->m * s->n * s->k;
    s->gflops = flops / (s->time_ms * 1e6);
    s->gflops_with_transfers = flops / ((s->time_ms + s->transfer_ms) * 1e6);
    s->efficiency = s->compute_ms / s->time_ms;
    char why[sizeof s->status + 24];
    snprintf(why, sizeof why, "rank %d: %s", failed, failed >= 0 ? rows[failed].status : "");
    judge(s, &sum, failed >= 0, why);
    for (int q = 0; q < p && s->verified == 1; q++)
        if (rows[q].verified != 1) {
            s->verified = 0;
            snprintf(s->status, sizeof s->status, "verify_failed on rank %d", q);
        }
    if (sampled)
        snprintf(s->verify_scope, sizeof s->verify_scope,
                 "sample on %d of %d ranks (%ld entries)", sampled, p, sum.entries);
    else
        snprintf(s->verify_scope, sizeof s->verify_scope, "full (%ld entries)",
                 sum.entries);
}

static void print_table(const gp_dist_run *r, const gp_row *rows, const gp_row *s)
{
    const gp_dist_options *o = r->o;
    printf("dist %ldx%ldx%ld %s, local %s, grid %dx%d, blocks %s, panel %.0f, "
           "comm %s, %d rank%s\n", o->m, o->n, o->k, s->precision, o->local,
           o->pr, o->pc, s->dist_block, s->panel, s->comm, r->nranks,
           r->nranks > 1 ? "s" : "");
    printf("%-5s %10s %10s %10s %10s %11s %10s %-8s %9s\n", "rank", "time_ms",
           "compute_ms", "comm_ms", "comm_total", "transfer_ms", "gflops",
           "verified", "rel_err");
    for (int q = 0; q <= r->nranks; q++) {
        const gp_row *x = q < r->nranks ? &rows[q] : s;
        printf("%-5s %10.3f %10.3f %10.3f %10.3f %11.3f %10.2f %-8s %9.2e", x->rank,
               x->time_ms, x->compute_ms, x->comm_ms, x->comm_total_ms,
               x->transfer_ms, x->gflops,
               x->verified == 1 ? "yes" : x->verified == 0 ? "NO" : "NA",
               x->rel_err_fro);
        if (x->verified != 1)
            printf("  %s", x->status);
        putchar('\n');
    }
    printf("wrote %s\n", r->path);
    fflush(stdout);
}

/* Rank 0: every row to the file (rank rows, then the summary), the table. */
static int write_rows(gp_dist_run *r, const gp_row *rows, const gp_dist_times *all,
                      const gp_dist_check *checks)
{
    gp_row s;
    summary_row(r, rows, all, checks, &s);
    for (int q = 0; q < r->nranks; q++)
        gp_csv_write_row(r->csv, &rows[q]);
    gp_csv_write_row(r->csv, &s);
    if (!r->o->quiet)
        print_table(r, rows, &s);
    return s.verified == 1 ? 0 : 1;
}

int gp_dist_report(gp_dist_run *r)
{
    int p = r->nranks, n = r->o->reps, code = 1;
    gp_row mine;
    rank_row(r, &mine);
    rank_counters(r, &mine);
    gp_row *rows = NULL;
    gp_dist_times *all = NULL;
    gp_dist_check *checks = NULL;
    if (r->rank == 0) {
        rows = malloc((size_t)p * sizeof *rows);
        all = malloc((size_t)p * n * sizeof *all);
        checks = malloc((size_t)p * sizeof *checks);
        if (!rows || !all || !checks) {
            gp_error("out of memory for %d ranks' rows", p);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, rows, (int)sizeof mine,
               MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Gather(r->times, n * (int)sizeof *r->times, MPI_BYTE, all,
               n * (int)sizeof *r->times, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Gather(&r->check, (int)sizeof r->check, MPI_BYTE, checks,
               (int)sizeof r->check, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (r->rank == 0)
        code = write_rows(r, rows, all, checks);
    free(rows);
    free(all);
    free(checks);
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return code;
}
