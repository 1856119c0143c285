/* span.cuh - a block's run counted twice: in SM cycles (clock64) and in
 * %globaltimer nanoseconds, the time base CUDA events read.  Their ratio
 * is the SM clock the kernel ran at.  NVML's sampled clock only
 * approximates it: on an H100 the FP64 FMA probe measured 100.67% of the
 * peak at 1980 MHz, NVML's highest reading (gpu-tests-86d00a0.txt).
 * Thread 0 of each block writes span[2 b] = cycles, span[2 b + 1] = ns;
 * span NULL: nothing is read or written. */
#ifndef GP_PROBE_SPAN_CUH
#define GP_PROBE_SPAN_CUH

struct gp_span_mark {
    unsigned long long cyc, ns;
};

/* "memory": not moved across the kernel's stores, so the end mark
 * follows the work it brackets. */
__device__ __forceinline__ unsigned long long gp_globaltimer_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
    return t;
}

__device__ __forceinline__ gp_span_mark gp_span_begin(const unsigned long long *span)
{
    gp_span_mark m = {0, 0};
    if (span && threadIdx.x == 0) {
        m.cyc = clock64();
        m.ns = gp_globaltimer_ns();
    }
    return m;
}

/* Call after the block's last store. */
__device__ __forceinline__ void gp_span_end(unsigned long long *span, gp_span_mark m)
{
    if (span && threadIdx.x == 0) {
        unsigned long long ns = gp_globaltimer_ns();
        unsigned long long cyc = clock64();
        span[2 * blockIdx.x] = cyc - m.cyc;
        span[2 * blockIdx.x + 1] = ns - m.ns;
    }
}

#endif
