/* specimen_spill.cuh - the register-spill specimen: one double-buffered
 * SGEMM body, templated over the integer type of its descriptor.
 *
 * The story it reproduces: an SGEMM with a global-memory double buffer got
 * much slower on a Tesla P4, an RTX 3080 and an RTX 4090 because its
 * descriptor struct held four size_t fields; the 64-bit index arithmetic
 * they drag in (two registers per value) pushed the kernel into spilling,
 * and turning the fields into unsigned int fixed it.  Here the twins differ in
 * nothing but that type (specimen_spill_sizet.cu, specimen_spill_uint.cu),
 * and __launch_bounds__(256, 2) caps them at 128 registers per thread (two
 * blocks per SM), the cap that makes only the size_t one spill on sm_90.
 * ptxas (nvcc 13.0.88, sm_90, -O3), uncapped: 129 registers (unsigned) vs
 * 158 (size_t); capped at 128: no spill vs 44 B/thread of spill stores.
 * The unsigned one fits only just (ptxas rematerialises its last value), so
 * another compiler may draw the line elsewhere: the ptxas report in the run
 * file (spill_store_bytes) says what each build did.
 *
 * The kernel: a 128x128x8 block tile, 256 threads, an 8x8 register tile per
 * thread.  While the block computes on one shared-memory buffer, each
 * thread's loads of the next k step are in flight into registers (pa, pb),
 * then stored into the other buffer: one __syncthreads per k step.
 *
 * Correct at any size: tile elements outside A or B load as zero, stores
 * outside C are skipped, beta == 0 never reads C (gp_store).  Every I-typed
 * offset stays inside one block's panel (at most 128 rows or 8 rows of a
 * matrix whose rows are at most 2^20 long: < 2^28), the pointers carry the
 * rest in 64 bits, so unsigned int cannot overflow at any size gemmprof
 * accepts.
 *
 * Profile should show: size_t spill_store_bytes > 0 and local-memory
 * traffic (l1tex__t_bytes_pipe_lsu_mem_local_op_{ld,st}.sum) > 0, unsigned
 * 0 and 0; same registers (the cap), same theoretical occupancy (25%,
 * limited by registers); the size_t one slower.  How much slower is an
 * open question on Hopper: what ptxas spills here are the load addresses
 * and bounds (11 words reloaded once per k step, before the next step's
 * global loads), not accumulators, and a large L1 and 16 warps per SM hide
 * much of that; older GPUs (the story's) have less of both.
 */
#ifndef GEMMPROF_SPECIMEN_SPILL_CUH
#define GEMMPROF_SPECIMEN_SPILL_CUH

#include "rung.cuh"

#define SP_BM 128
#define SP_BN 128
#define SP_BK 8
#define SP_TM 8
#define SP_TN 8
#define SP_NT 256       /* (SP_BM / SP_TM) * (SP_BN / SP_TN)                */
#define SP_MIN_BLOCKS 2 /* 65536 / (256 * 2) = 128 registers per thread     */
#define SP_LOADS 4      /* A and B elements per thread per k step: 1024/256 */

/* The descriptor of the story: strides and depth, in the index type I. */
template <typename I>
struct sp_desc {
    I lda, ldb, ldc, k;
};

/* Where one thread's loads land in the tiles. */
struct sp_slot {
    int ar, ac;         /* A tile: rows ar + 32*i, column ac                */
    int br, bc;         /* B tile: row br, columns bc + 32*i                */
};

/* This thread's elements of the k step starting at column t of A and row t
 * of B; At and Bt point at that column and row of this block's panels. */
template <typename I>
__device__ __forceinline__ void sp_load(const sp_desc<I> &d, const float *At,
                                        const float *Bt, I t, int rows_left,
                                        int cols_left, sp_slot s,
                                        float pa[SP_LOADS], float pb[SP_LOADS])
{
#pragma unroll
    for (int i = 0; i < SP_LOADS; ++i) {
        int r = s.ar + 32 * i, c = s.bc + 32 * i;
        I aoff = (I)r * d.lda + s.ac;
        I boff = (I)s.br * d.ldb + c;
        pa[i] = (r < rows_left && t + s.ac < d.k) ? At[aoff] : 0.0f;
        pb[i] = (t + s.br < d.k && c < cols_left) ? Bt[boff] : 0.0f;
    }
}

/* A is stored transposed (As[p][row]) so the compute loop reads a column
 * of A as contiguous words. */
__device__ __forceinline__ void sp_stash(float As[SP_BK][SP_BM],
                                         float Bs[SP_BK][SP_BN], sp_slot s,
                                         const float pa[SP_LOADS],
                                         const float pb[SP_LOADS])
{
#pragma unroll
    for (int i = 0; i < SP_LOADS; ++i) {
        As[s.ac][s.ar + 32 * i] = pa[i];
        Bs[s.br][s.bc + 32 * i] = pb[i];
    }
}

__device__ __forceinline__ void sp_compute(const float As[SP_BK][SP_BM],
                                           const float Bs[SP_BK][SP_BN],
                                           int ty, int tx,
                                           float acc[SP_TM][SP_TN])
{
#pragma unroll
    for (int p = 0; p < SP_BK; ++p) {
        float a[SP_TM], b[SP_TN];
#pragma unroll
        for (int i = 0; i < SP_TM; ++i)
            a[i] = As[p][ty * SP_TM + i];
#pragma unroll
        for (int j = 0; j < SP_TN; ++j)
            b[j] = Bs[p][tx * SP_TN + j];
#pragma unroll
        for (int i = 0; i < SP_TM; ++i)
#pragma unroll
            for (int j = 0; j < SP_TN; ++j)
                acc[i][j] += a[i] * b[j];
    }
}

template <typename I>
__global__ void __launch_bounds__(SP_NT, SP_MIN_BLOCKS)
sgemm_specimen(int m, int n, sp_desc<I> d, float alpha, const float *A,
               const float *B, float beta, float *C)
{
    __shared__ float As[2][SP_BK][SP_BM];
    __shared__ float Bs[2][SP_BK][SP_BN];
    int tid = threadIdx.x;
    int row0 = blockIdx.y * SP_BM, col0 = blockIdx.x * SP_BN;
    int rows_left = m - row0, cols_left = n - col0;
    /* 64-bit panel bases: I-typed offsets stay within one panel */
    const float *At = A + (size_t)row0 * d.lda;
    const float *Bt = B + col0;
    sp_slot s = { tid / SP_BK, tid % SP_BK, tid / 32, tid % 32 };
    int ty = tid / (SP_BN / SP_TN), tx = tid % (SP_BN / SP_TN);
    float pa[SP_LOADS], pb[SP_LOADS];
    float acc[SP_TM][SP_TN] = {};

    sp_load(d, At, Bt, (I)0, rows_left, cols_left, s, pa, pb);
    sp_stash(As[0], Bs[0], s, pa, pb);
    __syncthreads();
    int cur = 0;
    for (I t = 0; t < d.k; t += SP_BK) {
        int more = t + SP_BK < d.k;
        /* Advanced unconditionally, like the tutorial kernels this follows:
         * after the last step they point past the tiles and are never
         * dereferenced.  (Advancing only when `more` costs the unsigned
         * twin 17 registers under nvcc 13.0 and spoils the specimen.) */
        At += SP_BK;
        Bt += SP_BK * d.ldb;
        if (more)       /* next step's loads fly while this one computes */
            sp_load(d, At, Bt, t + SP_BK, rows_left, cols_left, s, pa, pb);
        sp_compute(As[cur], Bs[cur], ty, tx, acc);
        if (more)       /* the other buffer: nobody reads it this step */
            sp_stash(As[cur ^ 1], Bs[cur ^ 1], s, pa, pb);
        __syncthreads();
        cur ^= 1;
    }

    float *Cb = C + (size_t)row0 * d.ldc + col0;
#pragma unroll
    for (int i = 0; i < SP_TM; ++i)
#pragma unroll
        for (int j = 0; j < SP_TN; ++j) {
            int r = ty * SP_TM + i, c = tx * SP_TN + j;
            if (r < rows_left && c < cols_left)
                gp_store(&Cb[(I)r * d.ldc + c], acc[i][j], alpha, beta);
        }
}

/* The twins' launchers differ only in I; their config strings are equal
 * so that `gemmprof diff --rename` can pair their rows. */
template <typename I>
static int sp_launch(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    sp_desc<I> d = { (I)a->lda, (I)a->ldb, (I)a->ldc, (I)a->k };
    dim3 block(SP_NT);
    dim3 grid(GP_CDIV(a->n, SP_BN), GP_CDIV(a->m, SP_BM));
    GP_LAUNCH(info, sgemm_specimen<I>, grid, block, 0, s, "128x128x8/8x8/cap128",
              a->m, a->n, d, (float)a->alpha, (const float *)a->A,
              (const float *)a->B, (float)a->beta, (float *)a->C);
}

#endif
