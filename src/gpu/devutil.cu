/* devutil.cu - device-side helpers of the harness: random inputs and the
 * NaN poison.  Inputs come from a counter-based hash so any element is
 * reproducible from (seed, index) without a sequential generator. */
#include <cuda_runtime.h>
#include <stdint.h>
#include "devutil.h"
#include "scrub.h"

__device__ __forceinline__ uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

template <typename T>
__global__ void fill_uniform(T *p, size_t n, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint64_t r = splitmix64(seed ^ splitmix64(i));
        /* 53 random bits -> [0,1) -> [-1,1) */
        double u = (double)(r >> 11) * (1.0 / 9007199254740992.0);
        p[i] = (T)(2.0 * u - 1.0);
    }
}

extern "C" int gp_fill_uniform(void *p, size_t n, int is_double,
                               unsigned long long seed, cudaStream_t s)
{
    int blocks = (int)((n + 255) / 256 < 65536 ? (n + 255) / 256 : 65536);
    if (blocks < 1)
        blocks = 1;
    if (is_double)
        fill_uniform<double><<<blocks, 256, 0, s>>>((double *)p, n, seed);
    else
        fill_uniform<float><<<blocks, 256, 0, s>>>((float *)p, n, seed);
    return (int)cudaPeekAtLastError();
}

template <typename T>
__global__ void abs_inplace(T *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = p[i] < 0 ? -p[i] : p[i];
}

/* |x| in place: the bench's |A|, |B|, |C0| for the magnitude that bounds
 * each element's error (src/run/bench.c). */
extern "C" int gp_abs(void *p, size_t n, int is_double, cudaStream_t s)
{
    int blocks = (int)((n + 255) / 256 < 65536 ? (n + 255) / 256 : 65536);
    if (blocks < 1)
        blocks = 1;
    if (is_double)
        abs_inplace<double><<<blocks, 256, 0, s>>>((double *)p, n);
    else
        abs_inplace<float><<<blocks, 256, 0, s>>>((float *)p, n);
    return (int)cudaPeekAtLastError();
}

extern "C" int gp_poison(void *p, size_t bytes, cudaStream_t s)
{
    /* all-ones bytes are a quiet NaN in both float and double */
    return (int)cudaMemsetAsync(p, 0xFF, bytes, s);
}

/* The same over `height` rows of `width` bytes, `pitch` bytes apart (a
 * padded C: the padding between rows keeps its own contents). */
extern "C" int gp_poison2d(void *p, size_t pitch, size_t width, size_t height,
                           cudaStream_t s)
{
    return (int)cudaMemset2DAsync(p, pitch, 0xFF, width, height, s);
}

/* The L2 scrubs of scrub.h.  Kernel names start with gp_scrub_ so that
 * scripts/ncu-compare.sh can tell them from the kernel they prepare for.
 *
 * Read pass: every 16 bytes once, through L2 (ld.global.cg skips L1).
 * Evicting with reads forces earlier dirty lines (the C poison, the last
 * kernel's output) to be written back now, not during the measured launch.
 * The loads feed a store behind a pointer that is always NULL: ptxas
 * deletes loads whose values nobody uses, asm volatile or not (seen in
 * the SASS), and cannot know `sink` is NULL. */
__global__ void gp_scrub_read(const uint4 *buf, size_t n, unsigned *sink)
{
    unsigned x = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = __ldcg(&buf[i]);
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (sink)
        *sink = x;
}

/* Write pass: leaves L2 full of dirty lines of the buffer. */
__global__ void gp_scrub_write(float4 *buf, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        buf[i] = make_float4(0.f, 0.f, 0.f, 0.f);
}

/* Discard each 128-byte line of the buffer from L2 without writing it back:
 * after a read pass filled L2 with the buffer, this leaves it empty.  The
 * buffer's contents are undefined afterwards, which no scrub cares about.
 * Before sm_80 (no discard) it does nothing: flush is then a read pass. */
__global__ void gp_scrub_discard(char *buf, size_t lines)
{
#if __CUDA_ARCH__ >= 800
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < lines;
         i += (size_t)gridDim.x * blockDim.x)
        asm volatile("discard.global.L2 [%0], 128;" : : "l"(buf + 128 * i) : "memory");
#else
    (void)buf;
    (void)lines;
#endif
}

extern "C" int gp_scrub_run(const gp_scrub *s, void *buf, size_t bytes, cudaStream_t st)
{
    const int blocks = 1024, threads = 256;
    if (s->kind == GP_SCRUB_NONE)
        return 0;
    if (s->kind == GP_SCRUB_WRITE || s->kind == GP_SCRUB_WRITE_READ)
        gp_scrub_write<<<blocks, threads, 0, st>>>((float4 *)buf, bytes / 16);
    if (s->kind != GP_SCRUB_WRITE)
        for (int p = 0; p < s->passes; p++)
            gp_scrub_read<<<blocks, threads, 0, st>>>((const uint4 *)buf, bytes / 16, NULL);
    if (s->kind == GP_SCRUB_FLUSH)
        gp_scrub_discard<<<blocks, threads, 0, st>>>((char *)buf, bytes / 128);
    return (int)cudaPeekAtLastError();
}
