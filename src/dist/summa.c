/* summa.c - one multiply, SUMMA with double-buffered panels: while
 * panel p is multiplied, panel p+1 is already on its way.
 *
 *   post(0)
 *   for p: wait(p); post(p+1) into the other slot; C += Ap * Bp
 *
 * post(p+1) reuses the slot of panel p-1, whose GEMM was synchronised at the
 * end of the previous step.  Every rank of a row (column) communicator has
 * the same mloc (nloc), so a whole communicator skips an empty panel
 * together, and a communicator of one rank posts nothing.
 *
 * Posting also decides where each gemm reads its operands (backend.h): the
 * owner's local A/B in place where the panel's K-blocks lie side by side
 * there, else the panel slot.  A pack (asynchronous on a GPU) happens only
 * for an A panel that must be broadcast, or a panel scattered locally;
 * issued at post(p+1), it runs beside the gemm of panel p.
 *
 * comm (host ms): time in post and wait, i.e. what the host spends issuing
 * packs and broadcasts plus what it is blocked waiting for panels to land
 * (and packing, for a backend that packs synchronously).  A device
 * backend replaces it in run.c by what the GPU saw: its gemms' wait
 * for their panels (with a device-ordered transport, the whole of it). */
#include <stdio.h>
#include <stdlib.h>

#include "util/util.h"
#include "run.h"

/* Where one gemm reads a panel operand. */
typedef struct {
    const void *p;
    int ld;
} operand;

typedef struct {
    operand a, b;
} operands;


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

/* Local A columns [l0, l0+W) of the panel, or its blocks one by one when
 * they are scattered (l0 < 0), into dst: mloc x W, leading dimension W. */
static void pack_a(gp_dist_run *r, const gp_dist_panel *p, long l0, int slot,
                   void *dst)
{
    const gp_dist_geom *g = &r->geom;
    char *a = r->be->buf(r->bctx, GP_DIST_A, 0);
    char err[512];
    long off = 0;
    for (long i = 0; i < (l0 >= 0 ? 1 : p->count); i++) {
        long t = r->sched.blocks[p->first + i];
        long w = l0 >= 0 ? p->width : gp_dist_kblock_width(g->k, g->bk, t);
        long col = l0 >= 0 ? l0 : gp_bc_g2l(t * g->bk, g->bk, g->pc);
        if (r->be->pack(r->bctx, GP_DIST_APANEL, slot, at(dst, (size_t)off, r->esize),
                        (size_t)p->width, at(a, (size_t)col, r->esize),
                        (size_t)g->kloc_a, (size_t)g->mloc, (size_t)w,
                        err, sizeof err) != 0)
            gp_dist_note(r, err);
        off += w;
    }
}

/* A panel's B blocks scattered over local B: their rows one under another
 * into dst, W x nloc.  (Side by side they are read and sent in place.) */
static void pack_b(gp_dist_run *r, const gp_dist_panel *p, int slot, void *dst)
{
    const gp_dist_geom *g = &r->geom;
    char *b = r->be->buf(r->bctx, GP_DIST_B, 0);
    char err[512];
    long off = 0;
    for (long i = 0; i < p->count; i++) {
        long t = r->sched.blocks[p->first + i];
        long w = gp_dist_kblock_width(g->k, g->bk, t);
        long row = gp_bc_g2l(t * g->bk, g->bk, g->pr);
        if (r->be->pack(r->bctx, GP_DIST_BPANEL, slot,
                        at(dst, (size_t)(off * g->nloc), r->esize), (size_t)g->nloc,
                        at(b, (size_t)(row * g->nloc), r->esize), (size_t)g->nloc,
                        (size_t)w, (size_t)g->nloc, err, sizeof err) != 0)
            gp_dist_note(r, err);
        off += w;
    }
}

/* The A side of panel pi: the gemm's operand, a pack only where the
 * broadcast or a scattered panel needs one, the broadcast along the row. */
static void post_a(gp_dist_run *r, const gp_dist_panel *p, int slot, operand *op)
{
    const gp_dist_geom *g = &r->geom;
    void *dst = r->be->buf(r->bctx, GP_DIST_APANEL, slot);
    int bcast = g->pc > 1;
    char err[512];
    op->p = dst, op->ld = (int)p->width;
    if (g->mycol == p->root_col) {
        long l0 = gp_dist_panel_local_start(&r->sched, p, g->k, g->bk, g->pc);
        if (l0 >= 0) {
            op->p = at(r->be->buf(r->bctx, GP_DIST_A, 0), (size_t)l0, r->esize);
            op->ld = (int)g->kloc_a;
        }
        if (bcast || l0 < 0)
            pack_a(r, p, l0, slot, dst);
    }
    if (bcast && r->tr->post(r->tctx, GP_DIST_ROW, slot, dst,
                             (size_t)(g->mloc * p->width), p->root_col,
                             err, sizeof err))
        transport_failed(r, err);
}

/* The B side: side by side in local B, the owner's rows are already a
 * contiguous W x nloc panel, read and broadcast in place. */
static void post_b(gp_dist_run *r, const gp_dist_panel *p, int slot, operand *op)
{
    const gp_dist_geom *g = &r->geom;
    void *src = r->be->buf(r->bctx, GP_DIST_BPANEL, slot);
    char err[512];
    if (g->myrow == p->root_row) {
        long l0 = gp_dist_panel_local_start(&r->sched, p, g->k, g->bk, g->pr);
        if (l0 >= 0)
            src = at(r->be->buf(r->bctx, GP_DIST_B, 0), (size_t)(l0 * g->nloc),
                     r->esize);
        else
            pack_b(r, p, slot, src);
    }
    op->p = src, op->ld = (int)g->nloc;
    if (g->pr > 1 && r->tr->post(r->tctx, GP_DIST_COL, slot, src,
                                 (size_t)(p->width * g->nloc), p->root_row,
                                 err, sizeof err))
        transport_failed(r, err);
}

static void post(gp_dist_run *r, long pi, int slot, operands *ops)
{
    const gp_dist_panel *p = &r->sched.panels[pi];
    if (r->geom.mloc > 0)
        post_a(r, p, slot, &ops->a);
    if (r->geom.nloc > 0)
        post_b(r, p, slot, &ops->b);
}

static void wait_for(gp_dist_run *r, int slot)
{
    char err[512];
    if (r->geom.mloc > 0 && r->geom.pc > 1 &&
        r->tr->wait(r->tctx, GP_DIST_ROW, slot, err, sizeof err) != 0)
        transport_failed(r, err);
    if (r->geom.nloc > 0 && r->geom.pr > 1 &&
        r->tr->wait(r->tctx, GP_DIST_COL, slot, err, sizeof err) != 0)
        transport_failed(r, err);
}

/* The gemm of panel pi; `sync`: and wait for it (a host transport moves
 * the next broadcast while it waits, see gpu.h). */
static void multiply(gp_dist_run *r, long pi, int slot, const operands *ops,
                     int sync)
{
    char err[512];
    if (r->failed || r->geom.mloc == 0 || r->geom.nloc == 0)
        return;
    if (r->be->gemm(r->bctx, slot, ops->a.p, ops->a.ld, ops->b.p, ops->b.ld,
                    (int)r->sched.panels[pi].width, err, sizeof err) != 0 ||
        (sync && r->be->sync(r->bctx, err, sizeof err) != 0))
        gp_dist_note(r, err);
}

/* Wait for the gemms issued so far (the previous panel's). */
static void sync_gemms(gp_dist_run *r)
{
    char err[512];
    if (!r->failed && r->be->sync(r->bctx, err, sizeof err) != 0)
        gp_dist_note(r, err);
}

/* With a device-ordered transport (backend.h) the GPU orders each gemm after
 * its broadcast, so the host never blocks on a panel.  It still waits for
 * gemm p-1 before it posts panel p+1 and issues gemm p: issued together
 * on every rank, each broadcast reaches the SMs ahead of the gemm it runs
 * beside, and the ranks of a collective start it together.  (Issued
 * further ahead, gemm p took every SM the moment gemm p-1 ended, the
 * broadcast crept along on the SMs a wave left and its peers spun for it:
 * on 4 H200s at 16384^3, 1x4, the gemms ran 9% slower.)  Otherwise the
 * host waits for each panel and each gemm in turn. */
void gp_dist_summa(gp_dist_run *r, gp_dist_times *t)
{
    long np = r->sched.npanels;
    int ahead = r->tr->device_ordered;
    operands ops[2] = { { { NULL, 0 }, { NULL, 0 } }, { { NULL, 0 }, { NULL, 0 } } };
    double t0 = gp_dist_now_ms();
    if (np > 0)
        post(r, 0, 0, &ops[0]);
    double t1 = gp_dist_now_ms();
    t->comm += t1 - t0;
    for (long pi = 0; pi < np; pi++) {
        int slot = (int)(pi & 1);
        t0 = gp_dist_now_ms();
        wait_for(r, slot);
        if (ahead && pi > 0)
            sync_gemms(r);
        if (pi + 1 < np)
            post(r, pi + 1, slot ^ 1, &ops[slot ^ 1]);
        t1 = gp_dist_now_ms();
        multiply(r, pi, slot, &ops[slot], !ahead);
        double t2 = gp_dist_now_ms();
        t->comm += t1 - t0;
        t->compute += t2 - t1;
    }
    t0 = gp_dist_now_ms();
    if (ahead)
        sync_gemms(r);
    t->compute += gp_dist_now_ms() - t0;
}
