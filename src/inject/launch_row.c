/* launch_row.c - the row of one traced launch: its kernel, launch shape,
 * process and static facts.  Pure, so the CPU tests check what the
 * injected library writes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inject.h"

void gp_trace_config(const gp_trace_launch *l, char *out, size_t n)
{
    int len = snprintf(out, n, "grid=%ux%ux%u block=%ux%ux%u", l->grid[0], l->grid[1],
                       l->grid[2], l->block[0], l->block[1], l->block[2]);
    if (l->cluster[0] * l->cluster[1] * l->cluster[2] > 1 && len > 0 && (size_t)len < n)
        snprintf(out + len, n - (size_t)len, " cluster=%ux%ux%u", l->cluster[0],
                 l->cluster[1], l->cluster[2]);
}

/* Theoretical occupancy from the driver's block count; the limiter from
 * the arithmetic when it gets the same count (as the run's facts do). */
static void occupancy(const gp_trace_launch *l, int threads, gp_row *r)
{
    if (l->active_blocks < 0 || !l->have_device || l->dev.warp_size <= 0 ||
        l->dev.max_threads_per_sm <= 0)
        return;
    int warps = (threads + l->dev.warp_size - 1) / l->dev.warp_size;
    r->occupancy_theoretical = 100.0 * l->active_blocks * warps * l->dev.warp_size /
                               l->dev.max_threads_per_sm;
    const char *limiter = "unknown";
    if (l->regs >= 0 && l->static_smem >= 0 && l->dyn_smem >= 0) {
        gp_occupancy_input in = l->dev;
        gp_occupancy occ;
        in.block_threads = threads;
        in.regs_per_thread = l->regs;
        in.smem_per_block = (size_t)l->static_smem + (size_t)l->dyn_smem;
        gp_occupancy_compute(&in, &occ);
        if (occ.blocks == l->active_blocks)
            limiter = occ.limiter;
    }
    snprintf(r->occupancy_limiter, sizeof r->occupancy_limiter, "%s", limiter);
}

void gp_trace_launch_row(const gp_trace_launch *l, gp_row *r)
{
    gp_row_init(r);
    gp_row_set_kernel(r, l->name && *l->name ? l->name : "(unnamed kernel)");
    gp_trace_config(l, r->config, sizeof r->config);
    snprintf(r->status, sizeof r->status, "ok");
    r->grid_blocks = (double)l->grid[0] * l->grid[1] * l->grid[2];
    int threads = (int)(l->block[0] * l->block[1] * l->block[2]);
    r->block_threads = threads;
    if (l->regs >= 0)
        r->regs_per_thread = l->regs;
    if (l->local_bytes >= 0)
        r->local_bytes_per_thread = l->local_bytes;
    if (l->static_smem >= 0 && l->dyn_smem >= 0)
        r->smem_per_block = (double)l->static_smem + l->dyn_smem;
    if (threads > 0)
        occupancy(l, threads, r);
    r->pid = l->pid;
    r->correlation_id = l->correlation_id;
    r->launches = 1;
    if (l->rank && *l->rank) {
        snprintf(r->rank, sizeof r->rank, "%s", l->rank);
        r->ranks = l->ranks > 0 ? (double)l->ranks : NAN;
    }
}
