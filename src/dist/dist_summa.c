/* dist_summa.c - one multiply, SUMMA with double-buffered panels: while
 * panel p is multiplied, panel p+1 is already on its way.
 *
 *   post(0)
 *   for p: wait(p); post(p+1) into the other slot; C += Ap * Bp
 *
 * post(p+1) reuses the slot of panel p-1, whose GEMM was synchronised at the
 * end of the previous step.  Every rank of a row (column) communicator has
 * the same mloc (nloc), so a whole communicator skips an empty panel
 * together. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "dist_run.h"

static double now_ms(void)
{
    return MPI_Wtime() * 1e3;
}

static void note(gp_dist_run *r, const char *err)
{
    if (!r->failed)
        snprintf(r->err, sizeof r->err, "%s", err);
    r->failed = 1;
}

/* A broken transport leaves ranks inside collectives: nothing to agree
 * on any more, so the job ends here. */
static void transport_failed(gp_dist_run *r, const char *err)
{
    gp_error("rank %d: --comm %s: %s", r->rank, r->tr->name, err);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static char *at(void *base, size_t elems, size_t esize)
{
    return (char *)base + elems * esize;
}

/* The panel's A part, on the process column that owns it: its K-blocks'
 * columns of local A side by side, mloc x W. */
static void pack_a(gp_dist_run *r, const gp_dist_panel *p, void *dst)
{
    const gp_dist_geom *g = &r->geom;
    void *a = r->be->buf(r->bctx, GP_DIST_A, 0);
    char err[512];
    long off = 0;
    for (long i = 0; i < p->count; i++) {
        long t = r->sched.blocks[p->first + i];
        long w = gp_dist_kblock_width(g->k, g->bk, t);
        long col = gp_bc_g2l(t * g->bk, g->bk, g->pc);
        if (r->be->copy2d(r->bctx, at(dst, (size_t)off, r->esize), (size_t)p->width,
                          at(a, (size_t)col, r->esize), (size_t)g->kloc_a,
                          (size_t)g->mloc, (size_t)w, err, sizeof err) != 0)
            note(r, err);
        off += w;
    }
}

/* The panel's B part, on the process row that owns it: its K-blocks' rows
 * of local B one under another, W x nloc. */
static void pack_b(gp_dist_run *r, const gp_dist_panel *p, void *dst)
{
    const gp_dist_geom *g = &r->geom;
    void *b = r->be->buf(r->bctx, GP_DIST_B, 0);
    char err[512];
    long off = 0;
    for (long i = 0; i < p->count; i++) {
        long t = r->sched.blocks[p->first + i];
        long w = gp_dist_kblock_width(g->k, g->bk, t);
        long row = gp_bc_g2l(t * g->bk, g->bk, g->pr);
        if (r->be->copy2d(r->bctx, at(dst, (size_t)(off * g->nloc), r->esize),
                          (size_t)g->nloc, at(b, (size_t)(row * g->nloc), r->esize),
                          (size_t)g->nloc, (size_t)w, (size_t)g->nloc,
                          err, sizeof err) != 0)
            note(r, err);
        off += w;
    }
}

static void post(gp_dist_run *r, long pi, int slot)
{
    const gp_dist_panel *p = &r->sched.panels[pi];
    const gp_dist_geom *g = &r->geom;
    char err[512];
    if (g->mloc > 0) {
        void *dst = r->be->buf(r->bctx, GP_DIST_APANEL, slot);
        if (g->mycol == p->root_col)
            pack_a(r, p, dst);
        if (r->tr->post(r->tctx, GP_DIST_ROW, slot, dst,
                        (size_t)(g->mloc * p->width), p->root_col, err, sizeof err))
            transport_failed(r, err);
    }
    if (g->nloc > 0) {
        void *dst = r->be->buf(r->bctx, GP_DIST_BPANEL, slot);
        if (g->myrow == p->root_row)
            pack_b(r, p, dst);
        if (r->tr->post(r->tctx, GP_DIST_COL, slot, dst,
                        (size_t)(p->width * g->nloc), p->root_row, err, sizeof err))
            transport_failed(r, err);
    }
}

static void wait_for(gp_dist_run *r, int slot)
{
    char err[512];
    if (r->geom.mloc > 0 &&
        r->tr->wait(r->tctx, GP_DIST_ROW, slot, err, sizeof err) != 0)
        transport_failed(r, err);
    if (r->geom.nloc > 0 &&
        r->tr->wait(r->tctx, GP_DIST_COL, slot, err, sizeof err) != 0)
        transport_failed(r, err);
}

static void multiply(gp_dist_run *r, long pi, int slot)
{
    char err[512];
    if (r->failed || r->geom.mloc == 0 || r->geom.nloc == 0)
        return;
    if (r->be->gemm(r->bctx, slot, (int)r->sched.panels[pi].width, err,
                    sizeof err) != 0 ||
        r->be->sync(r->bctx, err, sizeof err) != 0)
        note(r, err);
}

void gp_dist_summa(gp_dist_run *r, gp_dist_times *t)
{
    long np = r->sched.npanels;
    double t0 = now_ms();
    if (np > 0)
        post(r, 0, 0);
    double t1 = now_ms();
    t->comm += t1 - t0;
    for (long pi = 0; pi < np; pi++) {
        int slot = (int)(pi & 1);
        t0 = now_ms();
        wait_for(r, slot);
        if (pi + 1 < np)
            post(r, pi + 1, slot ^ 1);
        t1 = now_ms();
        multiply(r, pi, slot);
        double t2 = now_ms();
        t->comm += t1 - t0;
        t->compute += t2 - t1;
    }
}
