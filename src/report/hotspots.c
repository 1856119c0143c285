/* hotspots.c - the report's table of where a trace's GPU time goes: the
 * list data/hotspots.c ranks (the one gemmprof trace prints and the
 * trace_roofline chart draws), as a report table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "tables.h"

static int is_trace(const gp_dataset *d)
{
    for (int i = 0; i < d->nrows; i++)
        if (d->rows[i].launches > 0)
            return 1;
    return 0;
}

static void row(gp_table *t, int brief, const char *rank, const char *name,
                const gp_hotspot *h, const char *bound)
{
    char (*c)[64] = t->cell[t->nrow++];
    int j = 0;
    gp_fmt(c[j++], 64, "%s", rank);
    gp_fmt(c[j++], 64, "%s", name);
    if (!brief) {
        gp_fmt(c[j++], 64, "%s", h->precision);
        gp_fmt(c[j++], 64, "%s", h->config);
    }
    gp_table_cell_num(c[j++], "%.1f", h->share);
    gp_fmt(c[j++], 64, "%ld", h->launches);
    gp_table_cell_num(c[j++], "%.4f", h->median_ms);
    gp_table_cell_num(c[j++], "%.0f", h->gflops);
    gp_table_cell_num(c[j++], "%.1f", h->ai_dram);
    gp_fmt(c[j++], 64, "%s", bound);
}

int gp_table_hotspots(const gp_dataset *d, int top, int brief, gp_table *t)
{
    static const char *const head[] = {
        "#", "kernel", "precision", "config", "share %", "launches", "median ms",
        "GFLOP/s", "FLOP/B DRAM", "bound",
    };
    memset(t, 0, sizeof *t);
    t->shape[0] = t->shape[1] = t->shape[2] = -1;          /* no GEMM shape */
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) {
        if (brief && (i == 2 || i == 3))
            continue;
        gp_fmt(t->head[t->ncol], sizeof t->head[0], "%s", head[i]);
        t->align[t->ncol++] = i == 1 || i == 2 || i == 3 || i == 9 ? 'l' : 'r';
    }
    if (!is_trace(d))
        return 1;
    gp_hotspots hs;
    if (gp_hotspots_of(d->rows, d->nrows, d->ceil, &d->meta, &hs) < 0)
        return -1;
    int shown = gp_hotspots_shown(&hs, top);
    if (gp_table_alloc(t, shown + 1) < 0) {
        gp_hotspots_free(&hs);
        return -1;
    }
    for (int i = 0; i < shown; i++) {
        char rank[8], name[64];
        gp_fmt(rank, sizeof rank, "%d", i + 1);
        gp_hotspot_name(&hs, shown, i, brief ? 40 : 63, name, sizeof name);
        row(t, brief, rank, name, &hs.h[i], gp_bound_name(hs.h[i].bound));
    }
    gp_hotspot other;
    if (gp_hotspots_rest(&hs, top, &other)) {
        char name[64];
        gp_fmt(name, sizeof name, "other (%d kernel%s)", other.nrows,
               other.nrows == 1 ? "" : "s");
        row(t, brief, "", name, &other, "");
    }
    const char *gpu = gp_meta_get(&d->meta, "gpu_name");
    gp_fmt(t->caption, sizeof t->caption, "Where the GPU time goes on %s (traced kernels, at "
           "size NA): the top %d of %d kernels by total GPU time (%.4g ms, %ld launches); share %% of it, median ms of "
           "a launch, GFLOP/s and FLOP/B DRAM medians over a kernel's rows, bound: the roof "
           "over its DRAM intensity (%s)", gpu ? gpu : "an unknown GPU", shown, hs.n,
           hs.total_ms, hs.launches, d->ceil ? "ceilings file" : "theoretical roofs");
    gp_hotspots_free(&hs);
    return 0;
}
