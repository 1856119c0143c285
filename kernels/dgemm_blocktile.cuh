/* dgemm_blocktile.cuh - FP64 2D register blocking, templated on the tile so
 * that one source serves the ladder rung (dgemm_03_blocktile_2d.cu) and the
 * block-size sweep (a table of instantiations of gp_dgemm_blocktile_launch).
 *
 * A block of NT = (BM/TM)*(BN/TN) threads computes a BM x BN tile of C,
 * walking k in steps of BK through shared memory.  Thread (tr, tc) keeps a
 * TM x TN tile of accumulators in registers; for each p of a k step it
 * loads TM values of A and TN values of B from shared memory and does
 * TM*TN DFMAs with them (an outer product), so shared loads per DFMA drop
 * from 2 to 1/TN + 1/TM.
 *
 * Thread tiles are INTERLEAVED, not contiguous: thread (tr, tc) owns rows
 * tr + i*RT and columns tc + j*CT (RT = BM/TM thread rows, CT = BN/TN
 * thread columns).  Consecutive lanes then read consecutive doubles of a
 * B row (conflict-free, one 128-byte wavefront per 16 lanes) and store
 * consecutive doubles of C (coalesced); with contiguous TN-wide tiles the
 * lanes would read B at a stride of TN doubles and conflict TN/2-ways.
 * A is stored row-major (as it sits in memory) with its rows padded to
 * BK+1 doubles, so the 32/CT rows a warp reads at one p fall in distinct
 * banks; storing A transposed is the next rung's idea, not this one's.
 *
 * Valid for any BM, BN, BK, TM, TN with BM % TM == 0, BN % TN == 0,
 * 32 <= NT <= 1024 and registers to hold the accumulators (e.g. 128x128x8/8x8, 64x64x8/8x4, 32x32x4/4x2,
 * 128x16x8/8x2).  Loads are scalar and guarded (zero fill), so any
 * m, n, k >= 1 and any leading dimensions work.
 */
#ifndef GEMMPROF_DGEMM_BLOCKTILE_CUH
#define GEMMPROF_DGEMM_BLOCKTILE_CUH

#include "rung.cuh"

template <int BM, int BN, int BK, int TM, int TN>
struct gp_dbt_shape {
    static_assert(BM % TM == 0 && BN % TN == 0, "thread tile must divide block tile");
    static constexpr int RT = BM / TM;  /* thread rows    */
    static constexpr int CT = BN / TN;  /* thread columns */
    static constexpr int NT = RT * CT;  /* threads        */
    static constexpr int AS = BK + 1;   /* padded A row   */
    static_assert(NT >= 32 && NT <= 1024, "block must have 32..1024 threads");
    /* TM*TN doubles of accumulators are 2*TM*TN registers; with ~32 more
     * per thread the block must fit the 64K-register file, else ptxas
     * spills the accumulators (e.g. 8x8 with 512 threads) */
    static_assert(NT * (2 * TM * TN + 32) <= 65536,
                  "accumulators would spill: fewer threads or a smaller thread tile");
    static_assert((BM * AS + BK * BN) * 8 <= 48 * 1024,
                  "tiles exceed the 48 KB of static shared memory");
};

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(gp_dbt_shape<BM, BN, BK, TM, TN>::NT)
dgemm_blocktile(int m, int n, int k, double alpha, const double *A, int lda,
                const double *B, int ldb, double beta, double *C, int ldc)
{
    typedef gp_dbt_shape<BM, BN, BK, TM, TN> S;
    constexpr int NT = S::NT, RT = S::RT, CT = S::CT, AS = S::AS;
    __shared__ double As[BM * AS]; /* As[r][p] at r * AS + p */
    __shared__ double Bs[BK * BN]; /* Bs[p][c] at p * BN + c */
    int tid = threadIdx.x;
    int tr = tid / CT, tc = tid % CT;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    double acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0;
    for (int t = 0; t < k; t += BK) {
        /* staging: element e of a tile goes to thread e % NT, so a warp
         * reads consecutive doubles of a row (A rows are only BK long) */
#pragma unroll
        for (int e0 = 0; e0 < BM * BK; e0 += NT) {
            int e = e0 + tid, r = e / BK, p = e % BK;
            if ((BM * BK) % NT == 0 || e < BM * BK)
                As[r * AS + p] = (row0 + r < m && t + p < k)
                                     ? A[(row0 + r) * lda + t + p] : 0.0;
        }
#pragma unroll
        for (int e0 = 0; e0 < BK * BN; e0 += NT) {
            int e = e0 + tid, p = e / BN, c = e % BN;
            if ((BK * BN) % NT == 0 || e < BK * BN)
                Bs[p * BN + c] = (t + p < k && col0 + c < n)
                                     ? B[(t + p) * ldb + col0 + c] : 0.0;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; ++p) {
            double a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = As[(tr + i * RT) * AS + p];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[p * BN + tc + j * CT];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads(); /* before the next step overwrites the tiles */
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int row = row0 + tr + i * RT;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            int col = col0 + tc + j * CT;
            if (row < m && col < n)
                gp_store(&C[row * ldc + col], acc[i][j], alpha, beta);
        }
    }
}

/* The launcher every instantiation shares: the rung uses one, the sweep a
 * table of them.  config reads "BMxBNxBK/TMxTN", e.g. "128x128x8/8x8". */
template <int BM, int BN, int BK, int TM, int TN>
int gp_dgemm_blocktile_launch(const gemm_args *a, cudaStream_t s,
                              gp_launch_info *info)
{
    void (*kern)(int, int, int, double, const double *, int, const double *,
                 int, double, double *, int) = dgemm_blocktile<BM, BN, BK, TM, TN>;
    char config[64];
    snprintf(config, sizeof config, "%dx%dx%d/%dx%d", BM, BN, BK, TM, TN);
    dim3 block(gp_dbt_shape<BM, BN, BK, TM, TN>::NT);
    dim3 grid(GP_CDIV(a->n, BN), GP_CDIV(a->m, BM));
    GP_LAUNCH(info, kern, grid, block, 0, s, config,
              a->m, a->n, a->k, a->alpha, (const double *)a->A, a->lda,
              (const double *)a->B, a->ldb, a->beta, (double *)a->C, a->ldc);
}

#endif
