/* dgemm_dfma_warptile.cuh - the DFMA kernel of rung 08 (dgemm_warptiling),
 * templated on the k depth and the pipeline depth so that alternatives
 * are one line each.  The design is explained in dgemm_08_warptiling.cu;
 * in short: 64x128 block tile, 4 warps of 32x64, lane tile 8x8 doubles
 * whose LDS.128 fragment loads pair up (2 wavefronts each), two blocks per
 * SM, a cp.async pipeline of STAGES stages of BK k steps.
 *
 * The copies issue one per k step between the DFMAs (two per step in the
 * first half of the tile with two stages, so that they land by its end).
 * Their addressing is hoisted out of the k loop: four A row pointers and
 * one B pointer per thread, advanced once per tile, the A k offsets and
 * the B row steps as immediates or one add; the m and n edges are fixed
 * per thread (a bit mask and a pair count), so a copy costs a compare
 * against the k left and a select.  A copy outside the matrices reads 0
 * bytes (zero fill); its address is then not dereferenced, so it may
 * point past the edge (as CUTLASS's zfill copies do).
 */
#ifndef GEMMPROF_DGEMM_DFMA_WARPTILE_CUH
#define GEMMPROF_DGEMM_DFMA_WARPTILE_CUH

#include <stdint.h>
#include "dgemm_ptx.cuh"

namespace dw {

constexpr int BM = 64, BN = 128, NT = 128;
constexpr int AS = BM + 2; /* As[k][m] row stride: conflict-free transpose */

template <int BK_, int STAGES_, bool SNAKE_ = false>
struct Cfg {
    static constexpr int BK = BK_, STAGES = STAGES_;
    static constexpr bool SNAKE = SNAKE_;
    static constexpr int A_ELEMS = BK * AS;     /* 16 B multiple: B aligned */
    static constexpr int STAGE = A_ELEMS + BK * BN;
    static constexpr size_t SMEM = (size_t)STAGES * STAGE * sizeof(double);
    static constexpr int NQ = BK / 2;           /* A (and B) copies/thread */
    static constexpr int PER_STEP = STAGES == 2 ? 2 : 1;
    static_assert(BK % 8 == 0 && STAGES >= 2, "k tile");
    static_assert(A_ELEMS % 2 == 0, "B tile 16-byte aligned");
};

/* What a thread copies, set up once: A rows (tid/8 + 16i, i < 4) at k
 * tid%8 + 8j, B (VEC) column pair 2(tid%64) of rows tid/64 + 2j, or
 * (8-byte) column tid of rows j. */
struct Copier {
    const double *a[4];   /* A row pointers at the k tile being copied  */
    const double *b;      /* B at row k0 (+ tid/64), this thread's column */
    int amask;            /* bit i: A row i inside m                    */
    int bbytes;           /* bytes of a B copy inside n: 0, 8 or 16     */
    int tk, tr;           /* tid%8 (A k), tid/64 (B row, VEC)           */
};

template <bool VEC>
__device__ __forceinline__ Copier copier_init(const double *A, int lda,
                                              const double *B, int ldb, int m,
                                              int n, int row0, int col0,
                                              int tid)
{
    Copier c;
    c.tk = tid & 7;
    c.tr = VEC ? tid >> 6 : 0;
    c.amask = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        int r = row0 + (tid >> 3) + 16 * i;
        c.a[i] = A + (size_t)r * lda + c.tk;
        c.amask |= (r < m) << i;
    }
    int col = col0 + (VEC ? 2 * (tid & 63) : tid), left = n - col;
    c.b = B + (size_t)c.tr * ldb + col;
    c.bbytes = VEC ? 8 * (left <= 0 ? 0 : left >= 2 ? 2 : left)
                   : (left > 0 ? 8 : 0);
    return c;
}

/* Copy q (0..BK-1) of the tile whose k left is krem (k - k0), into stage
 * (As, Bs): q < NQ is A element (row tid/8 + 16(q%4), k tid%8 + 8(q/4)),
 * transposed into As[k][m]; q >= NQ is B (VEC: row tid/64 + 2(q-NQ); else
 * rows 2(q-NQ), 2(q-NQ)+1). */
template <class K, bool VEC>
__device__ __forceinline__ void copy(const Copier &c, int q, double *As,
                                     double *Bs, int ldb, int krem, int tid)
{
    if (q < K::NQ) {
        int i = q & 3, kk = 8 * (q >> 2);
        bool ok = ((c.amask >> i) & 1) && c.tk + kk < krem;
        gp_cp_async8(&As[(kk + c.tk) * AS + (tid >> 3) + 16 * i], c.a[i] + kk,
                     ok ? 8 : 0);
    } else if (VEC) {
        int r = 2 * (q - K::NQ);
        bool ok = c.tr + r < krem;
        gp_cp_async16(&Bs[(c.tr + r) * BN + 2 * (tid & 63)],
                      c.b + (size_t)r * ldb, ok ? c.bbytes : 0);
    } else {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            int r = 2 * (q - K::NQ) + h;
            gp_cp_async8(&Bs[r * BN + tid], c.b + (size_t)r * ldb,
                         r < krem ? c.bbytes : 0);
        }
    }
}

/* next tile: k0 += BK */
template <class K>
__device__ __forceinline__ void copier_advance(Copier &c, int ldb)
{
#pragma unroll
    for (int i = 0; i < 4; ++i)
        c.a[i] += K::BK;
    c.b += (size_t)K::BK * ldb;
}

/* The lane's fragments of k step kk: 4 A row pairs 8 rows apart, 4 B
 * column pairs 16 columns apart (aoff, boff: the first pair's offset). */
template <class K>
__device__ __forceinline__ void frags(const double *As, const double *Bs,
                                      int kk, int aoff, int boff,
                                      double2 (&a)[4], double2 (&b)[4])
{
#pragma unroll
    for (int i = 0; i < 4; ++i)
        a[i] = *reinterpret_cast<const double2 *>(&As[kk * AS + aoff + 8 * i]);
#pragma unroll
    for (int j = 0; j < 4; ++j)
        b[j] = *reinterpret_cast<const double2 *>(&Bs[kk * BN + boff + 16 * j]);
}

/* The 8x8 outer product of one k step.  SNAKE walks odd rows right to
 * left, so that each row's first DFMA finds its B operand in the operand
 * reuse cache, left there by the previous row's last: a DFMA whose three
 * 64-bit operands all come from the register file issues at 2/3 of the
 * pipe rate on Hopper (probes/experiments/dfma_issue.cu). */
template <bool SNAKE>
__device__ __forceinline__ void outer(double (&acc)[8][8],
                                      const double2 (&a)[4],
                                      const double2 (&b)[4])
{
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        double av = (i & 1) ? a[i >> 1].y : a[i >> 1].x;
#pragma unroll
        for (int jj = 0; jj < 8; ++jj) {
            int j = SNAKE && (i & 1) ? 7 - jj : jj;
            acc[i][j] += av * ((j & 1) ? b[j >> 1].y : b[j >> 1].x);
        }
    }
}

template <class K, bool VEC>
__global__ void __launch_bounds__(NT, 2)
dgemm_dfma_warptile(int m, int n, int k, double alpha, const double *A,
                    int lda, const double *B, int ldb, double beta, double *C,
                    int ldc, int vecc)
{
    GP_KERNEL_NEEDS(GP_FEAT_CP_ASYNC) {
        constexpr int S = K::STAGES, BK = K::BK;
        extern __shared__ __align__(16) double dw_smem[];
        int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
        int lr = ((lane >> 1) & 1) | ((lane >> 3) & 2);  /* lane bits 1, 4    */
        int lc = (lane & 1) | ((lane >> 1) & 6);         /* lane bits 0, 2, 3 */
        int aoff = (warp >> 1) * 32 + 2 * lr, boff = (warp & 1) * 64 + 2 * lc;
        int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
        int ktiles = GP_CDIV(k, BK);
        Copier cp = copier_init<VEC>(A, lda, B, ldb, m, n, row0, col0, tid);
        double acc[8][8] = {};

#pragma unroll
        for (int s = 0; s < S - 1; ++s) {
            double *st = dw_smem + s * K::STAGE;
#pragma unroll
            for (int q = 0; q < BK; ++q)
                copy<K, VEC>(cp, q, st, st + K::A_ELEMS, ldb, k - s * BK, tid);
            copier_advance<K>(cp, ldb);
            gp_cp_async_commit();
        }
        int cur = 0, fil = S - 1; /* stages of tiles kt and kt+S-1 */
        for (int kt = 0; kt < ktiles; ++kt) {
            /* groups committed: tiles ..kt+S-2; tile kt is mine once at most
             * S-2 are pending, everyone's after the barrier, which also frees
             * stage fil, read in the previous iteration */
            gp_cp_async_wait<S - 2>();
            __syncthreads();
            /* tile kt+S-1 goes to stage fil; past the end the copies only
             * zero-fill that (unused) stage: no branch in the loop */
            int krem = k - (kt + S - 1) * BK;
            double *Fs = dw_smem + fil * K::STAGE;
            const double *As = dw_smem + cur * K::STAGE;
            const double *Bs = As + K::A_ELEMS;
            double2 a[2][4], b[2][4]; /* k step kk in [kk&1], kk+1 loading */
            frags<K>(As, Bs, 0, aoff, boff, a[0], b[0]);
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                if (kk + 1 < BK)
                    frags<K>(As, Bs, kk + 1, aoff, boff, a[(kk + 1) & 1],
                             b[(kk + 1) & 1]);
                if (kk * K::PER_STEP < BK)
#pragma unroll
                    for (int q = kk * K::PER_STEP; q < (kk + 1) * K::PER_STEP; ++q)
                        copy<K, VEC>(cp, q, Fs, Fs + K::A_ELEMS, ldb, krem, tid);
                outer<K::SNAKE>(acc, a[kk & 1], b[kk & 1]);
            }
            copier_advance<K>(cp, ldb);
            gp_cp_async_commit();
            fil = cur;
            cur = cur + 1 == S ? 0 : cur + 1;
        }
        gp_cp_async_wait<0>(); /* the zero fills past the end: leave none behind */

#pragma unroll
        for (int i = 0; i < 8; ++i) {
            int row = row0 + aoff + 8 * (i >> 1) + (i & 1);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                gp_store2(C, ldc, row, col0 + boff + 16 * j, m, n, acc[i][2 * j],
                       acc[i][2 * j + 1], alpha, beta, vecc != 0);
        }
    }
}

/* The launcher: 16-byte B copies when ldb is even and B 16-byte aligned
 * (A is transposed by 8-byte copies either way); double2 stores when ldc
 * is even and C aligned. */
template <class K>
int launch(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    bool vec = a->ldb % 2 == 0 && (uintptr_t)a->B % 16 == 0;
    int vecc = a->ldc % 2 == 0 && (uintptr_t)a->C % 16 == 0;
    void (*kern)(int, int, int, double, const double *, int, const double *,
                 int, double, double *, int, int) =
        vec ? dgemm_dfma_warptile<K, true> : dgemm_dfma_warptile<K, false>;
    char config[64];
    snprintf(config, sizeof config, "64x128x%d/warp32x64/8x8/%dstage/cp%d%s",
             K::BK, K::STAGES, vec ? 16 : 8, K::SNAKE ? "/snake" : "");
    /* above the 48 KB default, so opt in */
    cudaError_t e = cudaFuncSetAttribute((const void *)kern,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)K::SMEM);
    if (e != cudaSuccess)
        return (int)e;
    dim3 grid(GP_CDIV(a->n, BN), GP_CDIV(a->m, BM));
    GP_LAUNCH(info, kern, grid, dim3(NT), K::SMEM, s, config,
              a->m, a->n, a->k, a->alpha, (const double *)a->A, a->lda,
              (const double *)a->B, a->ldb, a->beta, (double *)a->C, a->ldc,
              vecc);
}

} // namespace dw

#endif
