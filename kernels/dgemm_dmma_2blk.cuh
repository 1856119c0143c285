/* dgemm_dmma_2blk.cuh - the FP64 tensor-core kernel of rungs 09-11
 * (dgemm_dmma_tuned, dgemm_dmma_interior, dgemm_dmma_k8), templated on
 * the k depth, the pipeline depth, the block rasterisation and two
 * switches (Variant below) so that alternatives are one line each.
 *
 * Shape (cuBLAS's sm90 DGEMM shape, in our row-major terms): 128 threads =
 * 4 warps in a 2 x 2 grid, a 64x128 block tile of C, warp tiles 32x64, and
 * at most ~100 KB of shared memory and 255 registers, so that TWO blocks run
 * per SM: their barriers are independent, so while one block's warps wait
 * the other block's keep the tensor pipe fed (one block of 8 warps stalls
 * the whole SM at every barrier).
 *
 * Per warp (as in the 128x128 version it replaces): m16n8k16 DMMAs computing
 * C^T = B^T A^T, so that every fragment is one LDS.128 of two adjacent
 * operand slots:
 *  - MMA A operand from the B tile Bs[k][n] (row stride BS = 130 doubles):
 *    slots (row g, row g+8) <-> C columns 2g, 2g+1, adjacent.  Lane (g, t)
 *    reads row 2t (+ k offset), 16-byte unit g: unit (2t + g) mod 8, so a
 *    quarter-warp's 8 lanes hit 8 distinct units.
 *  - MMA B operand from the A tile As[m][k] (row stride BK, no padding):
 *    MMA k 4q+t <-> smem k 8(q/2) + 2t + q%2 (the same permutation on both
 *    operands: a dot product's k order is free), so slots q, q+1 are
 *    adjacent k.  Rows g and g+1 would hit the same units, so the 16-byte
 *    unit index is XOR-swizzled with (row & 1) << 2: unit t for even rows,
 *    t ^ 4 for odd ones, 8 distinct units per quarter-warp.  The swizzle
 *    (instead of padding) keeps 4 stages of BK = 16 at 99 KB.
 *  - fragments software-pipelined at n16 granularity: block I+1's A operand
 *    loads while block I's 4 MMAs issue; the next k16 step's B operands
 *    replace the current ones one m8 block at a time, right after the last
 *    MMA reading them.
 *  - one barrier per k tile, after the warp's last fragment load of the
 *    tile and before its last 4 MMAs; the next tile's first fragments load
 *    right after it.
 *  - the cp.async copies of tile kt+STAGES-1 issue between the MMAs of tile
 *    kt (PER_STEP per n16 block), into the stage tile kt-1 left; past the
 *    end they zero-fill a stage nobody reads: no branch in the loop.  With
 *    two stages they must land by the end of the same tile, so they all
 *    issue in its first k16 step.
 *  - GROUP > 0: blocks rasterised in groups of GROUP tile rows walked
 *    column by column (L2 reuse of the B panels); 0: a plain 2D grid.
 *  - INTERIOR (rung 10): a block whose tile lies inside m and n copies
 *    the k tiles that lie wholly inside k with unchecked cp.async (no
 *    byte counts, no selects); the last tiles and edge blocks keep the
 *    checked copies.  K8 (rung 11): each m16n8k16 issued as two m16n8k8,
 *    cuBLAS's sm90 instruction, on the same fragment registers.  Both on
 *    the 16-byte copy path only: at 255 registers the 8-byte path has no
 *    room for either, and runs the plain kernel.
 */
#ifndef GEMMPROF_DGEMM_DMMA_2BLK_CUH
#define GEMMPROF_DGEMM_DMMA_2BLK_CUH

#include <stdint.h>
#include "dgemm_ptx.cuh"

namespace d2 {

constexpr int BM = 64, BN = 128, NT = 128;
constexpr int BS = BN + 2; /* Bs[k][n] row stride: 65 units = 1 mod 8 */

template <int BK_, int STAGES_, int GROUP_>
struct Cfg {
    static constexpr int BK = BK_, STAGES = STAGES_, GROUP = GROUP_;
    static constexpr int KS = BK / 16;          /* k16 steps per tile   */
    static constexpr int A_ELEMS = BM * BK;
    static constexpr int STAGE = A_ELEMS + BK * BS;
    static constexpr size_t SMEM = (size_t)STAGES * STAGE * sizeof(double);
    static constexpr int NA = BM * BK / 2 / NT; /* 16-byte A copies/thread */
    static constexpr int NC = NA + BK * BN / 2 / NT;
    static constexpr int CSTEPS = STAGES == 2 ? 4 : 4 * KS;
    static constexpr int PER_STEP = NC / CSTEPS;
    static_assert(BK % 16 == 0 && STAGES >= 2, "k tile of k16 steps");
    static_assert(NC % CSTEPS == 0, "copies spread evenly over the steps");
    static_assert(STAGE % 2 == 0, "stages 16-byte aligned");
    static constexpr bool K8 = false, INTERIOR = false;
};

/* K with the switches of rungs 10 and 11 on (a Cfg keeps them off, so
 * that rung 09 instantiates the kernel it always did, name included). */
template <class K, bool K8_, bool INTERIOR_>
struct Variant : K {
    static constexpr bool K8 = K8_, INTERIOR = INTERIOR_;
};


__device__ __forceinline__ int pair_count(int left)
{
    return left <= 0 ? 0 : left >= 2 ? 2 : left;
}

/* element offset of A (row r, k kc) in a stage: 16-byte unit swizzled */
template <int BK>
__device__ __forceinline__ int a_at(int r, int kc)
{
    return r * BK + ((((kc >> 1) ^ ((r & 1) << 2)) << 1) | (kc & 1));
}

/* What a thread copies, set up once so that a copy in the k loop costs a
 * select and an address add.  A: rows r0 + x*RS (x < NA, or 2*NA 8-byte
 * copies) at k kc of the tile, B (16-byte) column pair bc of rows
 * br + 2y, or (8-byte) column bc of rows y.  Rows outside m are a
 * count, columns outside n a byte count; a copy outside the matrices reads
 * 0 bytes (zero fill), so its address, never dereferenced, may point past
 * the edge (as CUTLASS's zfill copies do). */
template <class K, bool VEC>
struct Copier {
    static constexpr int BK = K::BK;
    static constexpr int AW = VEC ? BK / 2 : BK; /* A copies per row      */
    static constexpr int RS = NT / AW;           /* rows between copies   */
    const double *a, *b;   /* A row r0 at k kc, B row br at column bc  */
    int astep;             /* RS * lda                                 */
    int alim, bbytes;      /* A copies x < alim inside m; B bytes in n */
    int kc, br, adst, bdst; /* k of A; B row; smem offsets of copy 0   */

    __device__ __forceinline__ Copier(const double *A, int lda,
                                      const double *B, int ldb, int m, int n,
                                      int row0, int col0, int tid)
    {
        int r0 = tid / AW;
        kc = VEC ? 2 * (tid % AW) : tid % AW;
        a = A + (size_t)(row0 + r0) * lda + kc;
        astep = RS * lda;
        int left_m = m - row0 - r0;
        alim = left_m > 0 ? (left_m + RS - 1) / RS : 0;
        adst = a_at<BK>(r0, kc); /* RS is even: every row has r0's swizzle */
        br = VEC ? tid >> 6 : 0;
        int bc = VEC ? 2 * (tid & 63) : tid, left = n - col0 - bc;
        b = B + (size_t)br * ldb + col0 + bc;
        bbytes = VEC ? 8 * pair_count(left) : (left > 0 ? 8 : 0);
        bdst = K::A_ELEMS + br * BS + bc;
    }

    /* Copy c (0..NC-1) of the tile at k0 (krem = k - k0) into stage st */
    __device__ __forceinline__ void copy(int c, double *st, int ldb,
                                         int krem) const
    {
        if (VEC) {
            if (c < K::NA) {
                int bytes = 8 * pair_count(krem - kc);
                gp_cp_async16(st + adst + c * RS * BK, a + (size_t)c * astep,
                              c < alim ? bytes : 0);
            } else {
                int r = 2 * (c - K::NA);
                gp_cp_async16(st + bdst + r * BS, b + (size_t)r * ldb,
                              br + r < krem ? bbytes : 0);
            }
        } else {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                if (c < K::NA) {
                    int x = 2 * c + h;
                    gp_cp_async8(st + adst + x * RS * BK, a + (size_t)x * astep,
                                 x < alim && kc < krem ? 8 : 0);
                } else {
                    int r = 2 * (c - K::NA) + h;
                    gp_cp_async8(st + bdst + r * BS, b + (size_t)r * ldb,
                                 r < krem ? bbytes : 0);
                }
            }
        }
    }

    /* copy(c) of a tile wholly inside the matrices (16-byte path) */
    __device__ __forceinline__ void copy_full(int c, double *st,
                                              int ldb) const
    {
        static_assert(VEC, "unchecked copies on the 16-byte path only");
        if (c < K::NA) {
            gp_cp_async16_full(st + adst + c * RS * BK, a + (size_t)c * astep);
        } else {
            int r = 2 * (c - K::NA);
            gp_cp_async16_full(st + bdst + r * BS, b + (size_t)r * ldb);
        }
    }

    __device__ __forceinline__ void advance(int ldb)
    {
        a += BK;
        b += (size_t)BK * ldb;
    }
};

__device__ __forceinline__ double2 ld2(const double *p)
{
    return *reinterpret_cast<const double2 *>(p);
}

/* MMA A operand (from the B tile) of n16 block I, k16 step s: b points at
 * Bs[2t][wcol + 2g] of the stage. */
__device__ __forceinline__ void frag_bt(double (&f)[8], const double *b, int s,
                                        int I)
{
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        double2 v = ld2(b + (16 * s + 8 * (q >> 1) + (q & 1)) * BS + 16 * I);
        f[2 * q] = v.x;
        f[2 * q + 1] = v.y;
    }
}

/* MMA B operand (from the A tile) of m8 block j, k16 step s: A row
 * wrow + 8j + g at smem k 16s + 2t (+1) and 16s + 8 + 2t (+1); a0 and a1
 * point at those two 16-byte units of row wrow + g, swizzle applied (rows
 * 8j apart have the same parity, so the same swizzle). */
template <int BK>
__device__ __forceinline__ void frag_at(double (&f)[4], const double *a0,
                                        const double *a1, int s, int j)
{
    double2 v = ld2(a0 + 8 * j * BK + 16 * s);
    double2 w = ld2(a1 + 8 * j * BK + 16 * s);
    f[0] = v.x;
    f[1] = v.y;
    f[2] = w.x;
    f[3] = w.y;
}


/* acc[I][j][h][c] = C[row + 8j + c][col + 16I + h]: MMA (I, j) is n16
 * block I times m8 block j of D = B^T A^T, MMA row g + 8h <-> C column
 * 2g + h, MMA column 2t + c <-> C row 2t + c (row, col include 2t, 2g). */
__device__ __forceinline__ void epilogue(const double (&acc)[4][4][2][2],
                                         double *C, int ldc, int m, int n,
                                         int row, int col, double alpha,
                                         double beta, bool vec)
{
#pragma unroll
    for (int I = 0; I < 4; ++I)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int c = 0; c < 2; ++c)
                gp_store2(C, ldc, row + 8 * j + c, col + 16 * I, m, n,
                       acc[I][j][0][c], acc[I][j][1][c], alpha, beta, vec);
}

/* This block's tile (row0, col0): grid order, or grouped rasterisation. */
template <int GROUP>
__device__ __forceinline__ void tile_of_block(int m, int n, int &row0,
                                              int &col0)
{
    if (GROUP == 0) {
        row0 = blockIdx.y * BM;
        col0 = blockIdx.x * BN;
        return;
    }
    int tn = GP_CDIV(n, BN), tm = GP_CDIV(m, BM), id = blockIdx.x;
    int per = GROUP * tn, first = id / per * GROUP;
    int rows = tm - first < GROUP ? tm - first : GROUP, in = id % per;
    row0 = (first + in % rows) * BM;
    col0 = in / rows * BN;
}

/* The four MMAs of n16 block I against m8 blocks j = 0..3.  K8: each as
 * two m16n8k8, k 0-7 for all j first, then k 8-15, so that an accumulator
 * is reused four MMAs later, not at once.  RELOAD (the last n16 block of
 * a k16 step): each B operand is replaced by step s's of src as soon as
 * the MMA that last reads it has issued. */
template <bool K8, bool RELOAD, int BK>
__device__ __forceinline__ void mmas(double (&acc)[4][2][2],
                                     const double (&af)[8],
                                     double (&bf)[4][4], const double *src,
                                     int a0, int a1, int s)
{
    if (K8) {
#pragma unroll
        for (int j = 0; j < 4; ++j)
            gp_dmma_1688(acc[j][0], acc[j][1], af[0], af[1], af[2], af[3],
                      bf[j][0], bf[j][1]);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            gp_dmma_1688(acc[j][0], acc[j][1], af[4], af[5], af[6], af[7],
                      bf[j][2], bf[j][3]);
            if (RELOAD)
                frag_at<BK>(bf[j], src + a0, src + a1, s, j);
        }
    } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            gp_dmma_16816(acc[j][0], acc[j][1], af, bf[j]);
            if (RELOAD)
                frag_at<BK>(bf[j], src + a0, src + a1, s, j);
        }
    }
}

/* What the k loop carries from tile to tile: the fragments the next MMAs
 * use, and the stages of tiles kt and kt+S-1. */
struct Loop {
    double af[8], bf[4][4];
    int cur, fil;
};

/* One k tile.  FULL: tile kt+S-1 lies wholly inside the matrices, so its
 * copies go unchecked (krem unused). */
template <class K, bool VEC, bool FULL>
__device__ __forceinline__ void tile(Loop &L, double (&acc)[4][4][2][2],
                                     Copier<K, VEC> &cp, double *smem,
                                     int ldb, int krem, int a0, int a1,
                                     int boff)
{
    constexpr int S = K::STAGES, KS = K::KS, BK = K::BK;
    constexpr bool K8 = K::K8 && VEC;
    int nxt = L.cur + 1 == S ? 0 : L.cur + 1;
    const double *st = smem + L.cur * K::STAGE;
    const double *ns = smem + nxt * K::STAGE;
    double *fs = smem + L.fil * K::STAGE;
#pragma unroll
    for (int s = 0; s < KS; ++s)
#pragma unroll
        for (int I = 0; I < 4; ++I) {
            int step = 4 * s + I;
            if (step < K::CSTEPS)
#pragma unroll
                for (int c = step * K::PER_STEP; c < (step + 1) * K::PER_STEP;
                     ++c) {
                    if constexpr (FULL)
                        cp.copy_full(c, fs, ldb);
                    else
                        cp.copy(c, fs, ldb, krem);
                }
            double an[8];
            if (I < 3) {
                frag_bt(an, st + boff, s, I + 1);
            } else if (s < KS - 1) {
                frag_bt(an, st + boff, s + 1, 0);
            } else {
                /* every fragment of stage cur is loaded: wait for tile
                 * kt+1 (committed: tiles ..kt+S-1), sync (which also
                 * frees stage cur) and start on tile kt+1 while the last
                 * 4 MMAs of tile kt issue (past the end: data nobody
                 * uses) */
                gp_cp_async_commit();
                gp_cp_async_wait<S - 2>();
                __syncthreads();
                frag_bt(an, ns + boff, 0, 0);
            }
            if (I < 3)
                mmas<K8, false, BK>(acc[I], L.af, L.bf, st, a0, a1, 0);
            else
                mmas<K8, true, BK>(acc[3], L.af, L.bf, s < KS - 1 ? st : ns,
                                   a0, a1, s < KS - 1 ? s + 1 : 0);
#pragma unroll
            for (int x = 0; x < 8; ++x)
                L.af[x] = an[x];
        }
    cp.advance(ldb);
    L.fil = L.cur;
    L.cur = nxt;
}

template <class K, bool VEC>
__global__ void __launch_bounds__(NT, 2)
dgemm_dmma_2blk(int m, int n, int k, double alpha, const double *A, int lda,
                const double *B, int ldb, double beta, double *C, int ldc,
                int vecc)
{
    GP_KERNEL_NEEDS(K::K8 ? GP_FEAT_DMMA_K8 : GP_FEAT_DMMA_K16) {
        constexpr int S = K::STAGES, BK = K::BK;
        extern __shared__ __align__(16) double d2_smem[];
        int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
        int g = lane >> 2, t = lane & 3, p = g & 1;
        int wrow = (warp >> 1) * 32, wcol = (warp & 1) * 64;
        int row0, col0;
        tile_of_block<K::GROUP>(m, n, row0, col0);
        int ktiles = GP_CDIV(k, BK);
        int a0 = (wrow + g) * BK + 2 * t + 8 * p, a1 = a0 + 8 - 16 * p;
        int boff = K::A_ELEMS + 2 * t * BS + wcol + 2 * g;
        Copier<K, VEC> cp(A, lda, B, ldb, m, n, row0, col0, tid);
        double acc[4][4][2][2] = {};

#pragma unroll
        for (int s = 0; s < S - 1; ++s) {
#pragma unroll
            for (int c = 0; c < K::NC; ++c)
                cp.copy(c, d2_smem + s * K::STAGE, ldb, k - s * BK);
            cp.advance(ldb);
            gp_cp_async_commit();
        }
        gp_cp_async_wait<S - 2>(); /* tile 0 is mine ... */
        __syncthreads();           /* ... and everyone's */

        Loop L;
        frag_bt(L.af, d2_smem + boff, 0, 0);
#pragma unroll
        for (int j = 0; j < 4; ++j)
            frag_at<BK>(L.bf[j], d2_smem + a0, d2_smem + a1, 0, j);
        L.cur = 0;
        L.fil = S - 1;
        int kt = 0;
        if constexpr (K::INTERIOR && VEC) {
            /* tiles kt whose copied tile kt+S-1 ends inside k */
            if (row0 + BM <= m && col0 + BN <= n)
                for (int kfull = k / BK - S + 1; kt < kfull; ++kt)
                    tile<K, VEC, true>(L, acc, cp, d2_smem, ldb, 0, a0, a1, boff);
        }
        for (; kt < ktiles; ++kt)
            tile<K, VEC, false>(L, acc, cp, d2_smem, ldb, k - (kt + S - 1) * BK,
                                a0, a1, boff);
        gp_cp_async_wait<0>(); /* the zero fills past the end: leave none behind */
        epilogue(acc, C, ldc, m, n, row0 + wrow + 2 * t, col0 + wcol + 2 * g,
                 alpha, beta, vecc != 0);
    }
}

/* The launcher: 16-byte copies when lda, ldb are even and A, B 16-byte
 * aligned (and only then K8 and INTERIOR); double2 stores when ldc is even
 * and C aligned. */
template <class K>
int launch(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    bool vec = a->lda % 2 == 0 && a->ldb % 2 == 0 &&
               (uintptr_t)a->A % 16 == 0 && (uintptr_t)a->B % 16 == 0;
    int vecc = a->ldc % 2 == 0 && (uintptr_t)a->C % 16 == 0;
    void (*kern)(int, int, int, double, const double *, int, const double *,
                 int, double, double *, int, int) =
        vec ? dgemm_dmma_2blk<K, true> : dgemm_dmma_2blk<K, false>;
    char config[64];
    snprintf(config, sizeof config,
             "64x128x%d/warp32x64/%s/%dstage/g%d/cp%d%s", K::BK,
             K::K8 && vec ? "m16n8k8" : "m16n8k16", K::STAGES, K::GROUP,
             vec ? 16 : 8, K::INTERIOR && vec ? "/interior" : "");
    /* above the 48 KB default, so opt in */
    cudaError_t e = cudaFuncSetAttribute((const void *)kern,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)K::SMEM);
    if (e != cudaSuccess)
        return (int)e;
    int tm = GP_CDIV(a->m, BM), tn = GP_CDIV(a->n, BN);
    dim3 grid = K::GROUP ? dim3((unsigned)tm * (unsigned)tn) : dim3(tn, tm);
    GP_LAUNCH(info, kern, grid, dim3(NT), K::SMEM, s, config,
              a->m, a->n, a->k, a->alpha, (const double *)a->A, a->lda,
              (const double *)a->B, a->ldb, a->beta, (double *)a->C, a->ldc,
              vecc);
}

} // namespace d2

#endif
