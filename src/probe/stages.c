/* stages.c - the table of probe stages and the one call that runs them
 * all.  Each stage (stream.c, fma.c, onchip.c) adds its rows to the
 * ceilings and uses timing.c; none of them calls back here. */
#include <string.h>
#include "stage.h"

/* In the order they run. */
static const struct {
    const char *name;
    int (*run)(gp_probe_ctx *x);
} stages[] = {
    {"stream", gp_probe_stream},    /* DRAM: copy, scale, add, triad, read */
    {"fma", gp_probe_fma},          /* FP32 and FP64 FMA throughput; the
                                     * tensor ceilings (theoretical only)  */
    {"caches", gp_probe_caches},    /* L2 and shared-memory bandwidth      */
};

int gp_probe_measure(const gp_gpu *g, const gp_probe_opts *o,
                     gp_ceilings *out, char *err, size_t errlen)
{
    gp_probe_ctx x = {.g = g, .o = o, .reps = o->reps > 0 ? o->reps : 1,
                      .out = out, .err = err, .errlen = errlen};
    cudaGetLastError();   /* launchers report cudaGetLastError: start clean */
    cudaError_t e = cudaStreamCreateWithFlags(&x.s, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "probe: %s", gp_cuda_msg(e));
        return -1;
    }
    x.nv = gp_nvml_open(g->ordinal);
    gp_meta_set(&out->meta, "probe_clock_source", "%s",
                x.nv ? "NVML, sampled while the probes ran"
                     : "max clock attribute (NVML unavailable)");
    gp_meta_set(&out->meta, "probe_reps", "%d", x.reps);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof stages / sizeof stages[0]; i++)
        rc = stages[i].run(&x);
    gp_nvml_close(x.nv);
    cudaStreamDestroy(x.s);
    if (rc == 0)
        gp_order_rows(out);
    return rc;
}

/* Rows in the order ceilings.h lists them, whatever order probes ran. */
void gp_order_rows(gp_ceilings *c)
{
    static const char *first[] = {"dram_bw", "l2_bw", "smem_bw", "fp32_fma",
                                  "fp64_fma", "tf32_tensor", "fp64_tensor"};
    int k = 0;
    for (size_t i = 0; i < sizeof first / sizeof first[0]; ++i)
        for (int j = k; j < c->n; ++j)
            if (strcmp(c->c[j].name, first[i]) == 0) {
                gp_ceiling t = c->c[j];
                memmove(&c->c[k + 1], &c->c[k], (size_t)(j - k) * sizeof t);
                c->c[k++] = t;
                break;
            }
}
