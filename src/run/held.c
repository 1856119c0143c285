/* held.c - rows that wait for their --energy window.  A 1.5 s window leaves
 * the card at its power cap, and a timed burst started right after one runs
 * at the capped clock: with the window after each kernel's own reps, every
 * kernel's burst followed the previous kernel's window, except the first
 * reference's (session 4 measured cuBLAS TF32's bursts within 0.4% over six
 * rounds, the rungs' within 5%).  So the run command times every kernel of
 * a shape first and holds the rows here; then each timed row gets its window,
 * in the same order, and is written.  Adding --energy no longer changes what
 * the timing columns measure. */
#include <math.h>
#include <stdlib.h>

#include "run.h"

int gp_held_add(gp_held *h, const gp_kernel *k, const gp_row *r)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 16;
        gp_row *rows = realloc(h->rows, (size_t)cap * sizeof *rows);
        if (!rows)
            return -1;
        h->rows = rows;
        const gp_kernel **ks = realloc(h->kernels, (size_t)cap * sizeof *ks);
        if (!ks)
            return -1;
        h->kernels = ks;
        h->cap = cap;
    }
    h->rows[h->n] = *r;
    h->kernels[h->n++] = k;
    return 0;
}

/* A row whose timing failed has nothing to sustain: it goes as it is. */
void gp_held_flush(gp_held *h, gp_held_window_fn window, gp_held_write_fn write,
                   void *ctx)
{
    for (int i = 0; i < h->n; ++i) {
        if (window && isfinite(h->rows[i].time_ms))
            window(ctx, h, i);
        write(ctx, &h->rows[i]);
    }
    h->n = 0;
}

void gp_held_free(gp_held *h)
{
    free(h->rows);
    free(h->kernels);
    *h = (gp_held){0};
}
