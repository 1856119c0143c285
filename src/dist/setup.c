/* setup.c - everything before the first multiply.  Each step that can
 * fail on one rank ends with gp_dist_agree, so every rank leaves together
 * and nobody is left waiting in a broadcast. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "run.h"
#include "run/run.h"

int gp_dist_agree(gp_dist_run *r, int failed, char *err, size_t errlen)
{
    int mine = failed ? r->rank : r->nranks, first;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == r->nranks)
        return 0;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", err);
    MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, MPI_COMM_WORLD);
    msg[sizeof msg - 1] = '\0';
    if (r->nranks > 1)
        snprintf(err, errlen, "rank %d: %s", first, msg);
    else
        snprintf(err, errlen, "%s", msg);
    return -1;
}

/* Row-major grid: my row's ranks ordered by column and vice versa, so a
 * rank's number in its row communicator is its process column. */
static void make_comms(gp_dist_run *r)
{
    gp_dist_comms *c = &r->comms;
    c->world = MPI_COMM_WORLD;
    c->pr = r->o->pr;
    c->pc = r->o->pc;
    c->myrow = r->rank / c->pc;
    c->mycol = r->rank % c->pc;
    MPI_Comm_split(MPI_COMM_WORLD, c->myrow, c->mycol, &c->row);
    MPI_Comm_split(MPI_COMM_WORLD, c->mycol, c->myrow, &c->col);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r->rank,
                        MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &r->local_rank);
    MPI_Comm_size(node, &r->local_size);
    MPI_Comm_free(&node);
}

static int open_backend(gp_dist_run *r)
{
    const gp_dist_options *o = r->o;
    const gp_dist_geom *g = &r->geom;
    gp_dist_local *l = &r->loc;
    l->precision = o->precision;
    l->m = o->m, l->n = o->n, l->k = o->k;
    l->mloc = (int)g->mloc, l->nloc = (int)g->nloc;
    l->kloc_a = (int)g->kloc_a, l->kloc_b = (int)g->kloc_b;
    l->panel_max = (int)r->sched.max_width;
    l->rank = r->rank, l->nranks = r->nranks;
    l->local_rank = r->local_rank, l->local_size = r->local_size;
    r->esize = gp_precision_bytes(o->precision);
    r->be = gp_dist_backend_find(o->local);     /* known: options checked */
    return r->be->open(&r->bctx, o->local, l, r->err, sizeof r->err);
}

static int open_transport(gp_dist_run *r)
{
    const gp_dist_local *l = &r->loc;
    size_t a = (size_t)l->mloc * (size_t)l->panel_max;
    size_t b = (size_t)l->panel_max * (size_t)l->nloc;
    r->tr = gp_dist_transport_find(r->o->comm, r->be, r->err, sizeof r->err);
    if (!r->tr)
        return -1;
    return r->tr->open(&r->tctx, &r->comms, r->be, r->bctx, l->precision,
                       a > b ? a : b, r->err, sizeof r->err);
}

static void *host_alloc(size_t n, size_t esize, int *failed)
{
    void *p = calloc(n ? n : 1, esize);
    *failed |= p == NULL;
    return p;
}

/* Host backends get A and B generated in place; device backends get host
 * copies that every repetition uploads (and C's download lands in). */
static int fill_matrices(gp_dist_run *r)
{
    const gp_dist_geom *g = &r->geom;
    uint64_t seed = r->o->seed;
    int failed = 0;
    r->times = host_alloc((size_t)r->o->reps, sizeof *r->times, &failed);
    if (!r->be->device_memory) {
        if (!failed) {
            gp_dist_fill_a(g, seed, r->o->precision, r->be->buf(r->bctx, GP_DIST_A, 0));
            gp_dist_fill_b(g, seed, r->o->precision, r->be->buf(r->bctx, GP_DIST_B, 0));
        }
    } else {
        r->host_a = host_alloc((size_t)(g->mloc * g->kloc_a), r->esize, &failed);
        r->host_b = host_alloc((size_t)(g->kloc_b * g->nloc), r->esize, &failed);
        r->host_c = host_alloc((size_t)(g->mloc * g->nloc), r->esize, &failed);
        if (!failed) {
            gp_dist_fill_a(g, seed, r->o->precision, r->host_a);
            gp_dist_fill_b(g, seed, r->o->precision, r->host_b);
        }
    }
    if (failed)
        snprintf(r->err, sizeof r->err, "out of host memory for the local "
                 "matrices (%ldx%ld local C)", g->mloc, g->nloc);
    return failed ? -1 : 0;
}

/* Rank 0 opens the run file before any work, so a bad --out costs nothing. */
static int open_output(gp_dist_run *r)
{
    gp_meta meta;
    gp_dist_meta(r, &meta);                      /* collective */
    if (r->rank != 0)
        return 0;
    if (gp_run_out_path(r->o->out, r->path, sizeof r->path, r->err,
                        sizeof r->err) != 0)
        return -1;
    r->csv = gp_csv_open(r->path, &meta, r->err, sizeof r->err);
    return r->csv ? 0 : -1;
}

/* Each step in turn; after a failure the later ones are skipped on every
 * rank (they may be collective). */
int gp_dist_setup(gp_dist_run *r)
{
    make_comms(r);
    gp_dist_geom_init(&r->geom, r->o->m, r->o->n, r->o->k, r->o->br, r->o->bc,
                      r->o->bk, r->o->pr, r->o->pc, r->rank);
    int rc = gp_dist_schedule_make(&r->sched, r->o->k, r->o->bk, r->o->pr,
                                   r->o->pc, r->o->panel / r->o->bk, r->err,
                                   sizeof r->err);
    if (rc == 0)
        rc = open_backend(r);
    if (gp_dist_agree(r, rc != 0, r->err, sizeof r->err) != 0)
        return -1;
    rc = open_transport(r);
    if (gp_dist_agree(r, rc != 0, r->err, sizeof r->err) != 0)
        return -1;
    rc = fill_matrices(r);
    if (gp_dist_agree(r, rc != 0, r->err, sizeof r->err) != 0)
        return -1;
    if (r->o->panel_auto && gp_dist_panel_auto(r) != 0)
        return -1;
    if (r->o->panel_auto && r->rank == 0 && !r->o->quiet)
        fputs(r->panel_table, stdout);
    rc = open_output(r);
    return gp_dist_agree(r, rc != 0, r->err, sizeof r->err);
}

void gp_dist_teardown(gp_dist_run *r)
{
    if (r->tr && r->tctx)
        r->tr->close(r->tctx);
    if (r->be && r->bctx)
        r->be->close(r->bctx);
    r->tctx = r->bctx = NULL;
    if (r->csv && gp_csv_close(r->csv) != 0)
        gp_warn("writing %s failed", r->path);
    r->csv = NULL;
    free(r->host_a);
    free(r->host_b);
    free(r->host_c);
    free(r->times);
    r->host_a = r->host_b = r->host_c = NULL;
    r->times = NULL;
    gp_dist_schedule_free(&r->sched);
    if (r->comms.row != MPI_COMM_NULL)
        MPI_Comm_free(&r->comms.row);
    if (r->comms.col != MPI_COMM_NULL)
        MPI_Comm_free(&r->comms.col);
}
