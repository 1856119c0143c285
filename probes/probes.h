/* probes.h - C entry points of the ceiling probes, the .cu files
 * in probes/.  Launchers return a cudaError_t as int (0: launched) and
 * never sync.  All kernels but STREAM's run GP_PROBE_THREADS threads per
 * block. */
#ifndef GP_PROBE_KERNELS_H
#define GP_PROBE_KERNELS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GP_PROBE_THREADS 256

/* STREAM (probes/stream.cu), BabelStream's set and byte counting:
 * copy c=a, scale b=q*c, add c=a+b, triad a=b+q*c (2, 2, 3, 3 arrays),
 * read: per-block partial sums of a (1 array), one partial per block.
 * Each runs as a variant: `unroll` 16-byte vectors per thread per
 * iteration, block i's iteration covering threads x unroll consecutive
 * vectors, every load issued before any store; `threads` per block (a
 * multiple of 32, at most 1024); a grid of SMs x resident blocks looping
 * over the array (grid-stride) or one block per chunk, no loop
 * (one-shot); a cache hint on the vector loads and stores.  Every element
 * is read and written exactly once per launch whatever the variant. */
enum { GP_STREAM_COPY, GP_STREAM_SCALE, GP_STREAM_ADD, GP_STREAM_TRIAD,
       GP_STREAM_READ, GP_STREAM_NOPS };
enum { GP_HINT_PLAIN,       /* ld.global / st.global */
       GP_HINT_CS,          /* ld.global.cs / st.global.cs (evict-first) */
       GP_HINT_NC,          /* ld.global.nc / st.global */
       GP_HINT_NC_CS,       /* ld.global.nc / st.global.cs */
       GP_HINT_N };
typedef struct { int unroll, threads, one_shot, hint; } gp_stream_variant;
/* The probe's sweep: unroll 1,2,4,8 x threads 256,512,1024 x grid-stride,
 * one-shot x every hint, in that nesting (hint fastest). */
int gp_stream_variant_count(void);
gp_stream_variant gp_stream_variant_at(int i);
/* 0 when the variant's kernel cannot run `threads` per block (registers)
 * or the variant is not one stream.cu has. */
int gp_stream_blocks_per_sm(int op, int fp64, const gp_stream_variant *v);
/* The variant's grid for n elements: SMs x resident blocks, or one block
 * per threads x unroll vectors; 0 when it cannot run. */
int gp_stream_grid(int op, int fp64, const gp_stream_variant *v, size_t n,
                   int sm_count);
/* Any grid of at least one block is correct (tests use small ones). */
int gp_stream_launch(int op, int fp64, const gp_stream_variant *v, void *a,
                     void *b, void *c, double q, size_t n, void *partials,
                     int blocks, cudaStream_t s);
int gp_stream_fill(int fp64, void *x, size_t n, double v, cudaStream_t s);
/* Adds to *count (device memory) the number of x[i] != v, i < n. */
int gp_stream_count_ne(int fp64, const void *x, size_t n, double v,
                       unsigned long long *count, int blocks, cudaStream_t s);

/* FMA throughput (probes/fma.cu): each thread runs GP_FMA_CHAINS
 * independent chains x = fma(x, a, b) for `iters` steps, chain c starting
 * at GP_FMA_START, and writes the sum of its chains (c = 0, 1, ... in
 * order, in T) to out[thread].  The host repeats the same IEEE arithmetic
 * to check every thread. */
#define GP_FMA_CHAINS 8
#define GP_FMA_CLASSES 8
#define GP_FMA_UNROLL 32    /* iters must be a multiple of this */
#define GP_FMA_START(T, thread, chain) \
    ((T)1 + (T)((thread) % GP_FMA_CLASSES) + (T)0.5 * (T)(chain))
int gp_fma_blocks_per_sm(int fp64);
int gp_fma_launch(int fp64, void *out, int iters, double a, double b,
                  int blocks, unsigned long long *span, cudaStream_t s);

/* The FMA and shared-memory kernels take `span`: NULL, or 2 x blocks
 * counts that thread 0 of block b fills with its run in SM cycles
 * (span[2b]) and in %globaltimer ns (span[2b+1]) (probes/span.cuh); the
 * host divides them for the SM clock the kernel ran at. */

/* Caches (probes/cache.cu).
 * L2: `passes` read passes over x[0..nvec) float4 with ld.global.cg (L1
 * bypassed), grid-stride; out[thread] = sum of everything it read.
 * Shared memory: each block copies src[0..GP_SMEM_VECS) float4 into shared
 * memory, then every thread reads `iters` float4 at (tid + r*step) mod
 * GP_SMEM_VECS (step a multiple of 8: conflict-free); out[thread] = sum. */
#define GP_SMEM_VECS 1024
int gp_l2_blocks_per_sm(void);
int gp_l2_launch(const void *x, size_t nvec, int passes, float *out,
                 int blocks, cudaStream_t s);
int gp_smem_blocks_per_sm(void);
int gp_smem_launch(const void *src, int iters, int step, float *out,
                   int blocks, unsigned long long *span, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
