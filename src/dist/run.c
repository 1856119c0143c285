/* run.c - warm-up and timed repetitions of the distributed multiply,
 * then each rank's check of its own C blocks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu.h"
#include "run.h"


/* Device backends: local A, B and (zero) C go up before the multiply and
 * C comes back after it, timed as transfer.  Host backends just zero C. */
static void upload(gp_dist_run *r, gp_dist_times *t)
{
    char err[512];
    const gp_dist_backend *be = r->be;
    if (r->failed)
        return;
    if (!be->device_memory) {
        if (be->zero_c(r->bctx, err, sizeof err) != 0)
            gp_dist_note(r, err);
        return;
    }
    memset(r->host_c, 0, (size_t)(r->geom.mloc * r->geom.nloc) * r->esize);
    double t0 = gp_dist_now_ms();
    if (be->upload(r->bctx, GP_DIST_A, r->host_a, err, sizeof err) != 0 ||
        be->upload(r->bctx, GP_DIST_B, r->host_b, err, sizeof err) != 0 ||
        be->upload(r->bctx, GP_DIST_C, r->host_c, err, sizeof err) != 0)
        gp_dist_note(r, err);
    t->transfer += gp_dist_now_ms() - t0;
}

static void download(gp_dist_run *r, gp_dist_times *t)
{
    char err[512];
    if (r->failed || !r->be->device_memory)
        return;
    double t0 = gp_dist_now_ms();
    if (r->be->download(r->bctx, GP_DIST_C, r->host_c, err, sizeof err) != 0)
        gp_dist_note(r, err);
    t->transfer += gp_dist_now_ms() - t0;
}

static void one_rep(gp_dist_run *r, gp_dist_times *t)
{
    memset(t, 0, sizeof *t);
    upload(r, t);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = gp_dist_now_ms();
    gp_dist_summa(r, t);
    t->total = gp_dist_now_ms() - t0;
    /* GPU gemms run asynchronously: their own event times, not the host's
     * launch-and-wait time, are the compute time; a gemm's wait on the GPU
     * for its panel is communication on the critical path.  With a
     * device-ordered transport the host only issues work, so that wait is
     * all of the exposed comm; a host transport's blocking waits add. */
    if (r->be == &gp_dist_backend_gpu && !r->failed) {
        t->compute = gp_gpu_gemm_ms(r->bctx);
        if (r->tr->device_ordered)
            t->comm = 0;
        t->comm += gp_gpu_panel_wait_ms(r->bctx);
    }
    t->comm_total = r->tr->busy_ms ? r->tr->busy_ms(r->tctx) : NAN;
    MPI_Barrier(MPI_COMM_WORLD);
    download(r, t);
}

static void check(gp_dist_run *r)
{
    const void *c = r->be->device_memory ? r->host_c
                                         : r->be->buf(r->bctx, GP_DIST_C, 0);
    memset(&r->check, 0, sizeof r->check);
    if (r->failed)
        return;
    if (gp_dist_check_c(&r->geom, r->o->seed, r->o->precision, c,
                        r->o->check_budget, &r->check) != 0)
        gp_dist_note(r, "out of memory for the check of local C");
}

void gp_dist_repeat(gp_dist_run *r)
{
    gp_dist_times scratch;
    for (int i = 0; i < r->o->warmup; i++)
        one_rep(r, &scratch);
    for (int i = 0; i < r->o->reps; i++)
        one_rep(r, &r->times[i]);
    check(r);
}
