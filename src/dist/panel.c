/* panel.c - `--panel auto`: the panel width by measurement.
 *
 * A panel of width W costs each rank one local gemm C += A(mloc x W) *
 * B(W x nloc), which reads and writes all of local C: narrow panels run
 * below the GPU's rate.  Wide panels cost the pipeline its start: nothing
 * hides the first panel's broadcast.  So each rank times its local gemm at
 * every width bk * 2^j up to the buffers' width, and the unsplit local gemm
 * (K = its whole local K) as the rate to keep; the slowest rank's times
 * decide, and the narrowest width within GP_DIST_PANEL_AUTO_SLACK of the
 * unsplit rate wins (the widest if none is).  Operands are the rank's own
 * local A and B read in place, so no panel buffer or broadcast is needed;
 * C's contents do not matter (every repetition uploads a zero C). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu.h"
#include "run.h"

#define AUTO_REPS 3

/* Mean GPU ms of AUTO_REPS gemms of width kb (after one warm-up),
 * from the backend's own events; 0 for a rank without local C. */
static double time_width(gp_dist_run *r, int kb, char *err, size_t errlen)
{
    const gp_dist_geom *g = &r->geom;
    const gp_dist_backend *be = r->be;
    void *a = be->buf(r->bctx, GP_DIST_A, 0), *b = be->buf(r->bctx, GP_DIST_B, 0);
    if (g->mloc == 0 || g->nloc == 0 || kb == 0)
        return 0;
    double before = 0;
    for (int i = 0; i <= AUTO_REPS; i++) {
        if (be->gemm(r->bctx, 0, a, (int)g->kloc_a, b, (int)g->nloc, kb, err,
                     errlen) != 0 || be->sync(r->bctx, err, errlen) != 0)
            return -1;
        if (i == 0)
            before = gp_gpu_gemm_ms(r->bctx);
    }
    return (gp_gpu_gemm_ms(r->bctx) - before) / AUTO_REPS;
}

/* The widths to try: bk, 2bk, 4bk, ... up to the buffers' and K's. */
static int candidates(const gp_dist_run *r, long *w, int max)
{
    const gp_dist_geom *g = &r->geom;
    long top = r->sched.max_width, kmin = g->k;
    int n = 0;
    for (long x = r->o->bk; x <= top && x <= kmin && n < max; x *= 2)
        w[n++] = x;
    return n;
}

/* Times (slowest rank's) for each width and, last, the unsplit gemm. */
static int measure(gp_dist_run *r, const long *w, int n, double *t)
{
    const gp_dist_geom *g = &r->geom;
    long kfull = g->kloc_a < g->kloc_b ? g->kloc_a : g->kloc_b;
    double mine[GP_DIST_AUTO_MAXW + 1];
    int failed = r->be->upload(r->bctx, GP_DIST_A, r->host_a, r->err, sizeof r->err) ||
                 r->be->upload(r->bctx, GP_DIST_B, r->host_b, r->err, sizeof r->err) ||
                 r->be->upload(r->bctx, GP_DIST_C, r->host_c, r->err, sizeof r->err);
    for (int i = 0; i <= n && !failed; i++) {
        long kb = i < n ? (w[i] <= kfull ? w[i] : 0) : kfull;
        mine[i] = time_width(r, (int)kb, r->err, sizeof r->err);
        failed = mine[i] < 0;
    }
    if (gp_dist_agree(r, failed, r->err, sizeof r->err) != 0)
        return -1;
    MPI_Allreduce(mine, t, n + 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return 0;
}

/* The table every rank keeps (rank 0 prints it and the metadata says the
 * choice); returns the chosen width. */
static long choose(gp_dist_run *r, const long *w, int n, const double *t)
{
    const gp_dist_geom *g = &r->geom;
    double kfull = (double)(g->kloc_a < g->kloc_b ? g->kloc_a : g->kloc_b);
    double full_rate = t[n] > 0 ? kfull / t[n] : 0;   /* K columns per ms */
    long pick = 0;
    size_t len = 0;
    len += (size_t)snprintf(r->panel_table + len, sizeof r->panel_table - len,
                            "--panel auto: local gemm %ldx%ldxW on the slowest rank, "
                            "against the unsplit %ldx%ldx%.0f (%.3f ms)\n"
                            "  %6s %10s %12s\n", g->mloc, g->nloc, g->mloc,
                            g->nloc, kfull, t[n], "W", "ms", "% of unsplit");
    for (int i = 0; i < n; i++) {
        double pct = full_rate > 0 && t[i] > 0 ? 100.0 * (w[i] / t[i]) / full_rate : NAN;
        int ok = pct >= 100.0 * (1.0 - GP_DIST_PANEL_AUTO_SLACK);
        if (ok && !pick)
            pick = w[i];
        if (len < sizeof r->panel_table)
            len += (size_t)snprintf(r->panel_table + len, sizeof r->panel_table - len,
                                    "  %6ld %10.3f %11.1f%%%s\n", w[i], t[i], pct,
                                    ok && pick == w[i] ? "  <- narrowest within 3%" : "");
    }
    for (int i = n - 1; i >= 0 && !pick; i--)   /* else the widest measured */
        if (t[i] > 0)
            pick = w[i];
    if (!pick)
        pick = w[0];
    snprintf(r->panel_why, sizeof r->panel_why, "auto: %ld, the narrowest whose "
             "local gemm runs within %.0f%% of the unsplit local gemm's rate "
             "(else the widest)", pick, 100 * GP_DIST_PANEL_AUTO_SLACK);
    return pick;
}

int gp_dist_panel_auto(gp_dist_run *r)
{
    long w[GP_DIST_AUTO_MAXW];
    double t[GP_DIST_AUTO_MAXW + 1];
    int n = candidates(r, w, GP_DIST_AUTO_MAXW);
    if (r->nranks == 1 || n == 0) {   /* options gave one rank the whole K */
        snprintf(r->panel_why, sizeof r->panel_why, "auto: %ld, the whole K in "
                 "one panel (%s)", r->sched.max_width,
                 r->nranks == 1 ? "one rank: nothing to broadcast" : "K is one block");
        r->panel_table[0] = '\0';
        return 0;
    }
    if (measure(r, w, n, t) != 0)
        return -1;
    long pick = choose(r, w, n, t);
    gp_dist_schedule_free(&r->sched);
    int rc = gp_dist_schedule_make(&r->sched, r->o->k, r->o->bk, r->o->pr,
                                   r->o->pc, pick / r->o->bk, r->err, sizeof r->err);
    return gp_dist_agree(r, rc != 0, r->err, sizeof r->err);
}
