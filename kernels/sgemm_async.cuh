/* sgemm_async.cuh - the FP32 SIMT kernel of rungs 11-18: rung 10's warp
 * tiling (128x128 block tile, 256 threads = 8 warps of 32x64, each lane a
 * 2x2 grid of 4x4 sub-tiles = 8x8 outputs, __launch_bounds__(256, 2))
 * fed by a multi-stage cp.async (LDGSTS) pipeline instead of registers.
 * Each rung instantiates it with one more idea switched on:
 *   T       the block tile, a Tile<BM, BN, MSUB, NSUB, MINB>: rungs 11-14
 *           use Tile128 (the shape above); rung 15 a 128x256 tile whose
 *           lanes hold 2x4 sub-tiles (8x16 outputs), one block per SM
 *   BK      k depth of a tile: 8, or 16 (rung 14: half the barriers)
 *   STAGES  shared-memory stages: STAGES-1 tiles in flight behind the one
 *           being multiplied
 *   XTILE   fragment prefetch across the tile boundary (rung 12)
 *   GROUP   block rasterisation: GROUP tile rows walked column by column,
 *           so resident blocks share A and B panels in L2 (rung 13);
 *           1 = row-major order over tiles
 *   VB      B copied in 16-byte pieces (ldb % 4 == 0, B 16-byte aligned);
 *           else 4-byte pieces.  A always goes 4 bytes at a time, because
 *           it is transposed on the way (As[k][m]).
 *   STEADY  rung 18: interior blocks run a k loop with no branch, issuing
 *           the next copies at this k step of each tile (-1: no such loop)
 *
 * Copies (per thread and tile: BM*BK/256 4-byte A copies, BN*BK/1024
 * 16-byte or BN*BK/256 4-byte B copies; Tile128: BK/2, BK/8 or BK/2):
 *  - A: a warp copies 4 rows x 8 k of A (four 32-byte sectors of global)
 *    to As[kk][row] with stride LDAS = BM + 4 (132 or 260, both 4 mod 32):
 *    word kk*LDAS + row, bank (4*kk + row) % 32 with row = 4c + lane/8,
 *    kk = lane%8: 32 distinct banks, one wavefront.
 *  - B: a warp copies 512 (VB) or 128 contiguous bytes of a k row into the
 *    same bytes of Bs[kk][col]: the minimum wavefronts.
 *  - Edges: blocks whose BM x BN tile lies wholly inside C take every
 *    full-depth k tile through an unpredicated path (fixed offsets); edge
 *    blocks and the partial last k tile take a guarded path that
 *    zero-fills whatever lies outside A or B (src-size 0, the source moved
 *    to the tile's first element, which exists); a 16-byte copy that
 *    straddles the n edge reads only its valid bytes.
 *
 * Pipeline (one barrier per k tile): the prologue issues tiles 0..S-2, one
 * commit group each.  Tile t issues tile t+S-1 into the stage tile t-1
 * was read from, right after a barrier that every read of that stage
 * precedes, and commits a group every tile (empty past the end) so that
 * "wait_group S-2" always means "the next tile to read has landed"
 * (committed: tiles 0..t+S-1 when tile t+1 is awaited, at most S-2 newer).
 *
 * Fragments (as rung 10): per k step a lane loads MSUB LDS.128 of A (a
 * warp touches 64 contiguous bytes each: broadcast) and NSUB LDS.128 of B
 * (128 contiguous bytes each), double-buffered in registers inside a
 * tile; with
 * XTILE the next tile's first fragments are loaded during the last k step
 * of this one, so no fragment load waits behind the barrier.
 */
#ifndef GEMMPROF_SGEMM_ASYNC_CUH
#define GEMMPROF_SGEMM_ASYNC_CUH

#include <stdint.h>
#include <type_traits>
#include "blocktile_2d.cuh"
#include "cp_async.cuh" /* gp_cp_async_commit, gp_cp_async_wait */

namespace gp_async {
constexpr int NT = 256;
constexpr int SUBM = 16;      /* rows between a lane's A sub-tiles (4 lanes x 4) */
constexpr int SUBN = 32;      /* columns between its B sub-tiles (8 lanes x 4) */

/* A block tile: BM x BN of C for 8 warps whose lanes sit 4 (m) x 8 (n),
 * each lane an MSUB x NSUB grid of 4x4 sub-tiles, so a warp covers
 * WM = 16*MSUB rows by WN = 32*NSUB columns.  MINB: the blocks per SM
 * asked of __launch_bounds__ (2 caps registers at 128, 1 at 255). */
template <int BM_, int BN_, int MSUB_, int NSUB_, int MINB_>
struct Tile {
    static constexpr int BM = BM_, BN = BN_, MSUB = MSUB_, NSUB = NSUB_, MINB = MINB_;
    static constexpr int LDAS = BM + 4; /* padded stride of As[k][m] */
    static constexpr int WM = SUBM * MSUB, WN = SUBN * NSUB;
    static constexpr int WARPS_N = BN / WN;
    static constexpr int TM = 4 * MSUB, TN = 4 * NSUB; /* outputs per lane */
    static_assert(BM % WM == 0 && BN % WN == 0 && (BM / WM) * WARPS_N == NT / 32,
                  "the warp tiles must cover the block tile with 8 warps");
    static_assert(BM % 32 == 0, "a pass of A copies covers 8 warps x 4 rows");
    static_assert(BN <= NT && NT % BN == 0, "a pass of B copies covers whole k rows");
};
using Tile128 = Tile<128, 128, 2, 2, 2>; /* rungs 11-14 */

template <class T, int BK>
struct Stage {
    static constexpr int A = BK * T::LDAS, B = BK * T::BN; /* floats */
    static constexpr int FLOATS = A + B;
};

/* 4 bytes global -> shared; src_bytes 0 writes a zero.  .ca is the only
 * 4-byte form; L2::128B lets L2 fetch the whole line that the next k
 * tiles of this row will read. */
__device__ __forceinline__ void cp4(unsigned sdst, const float *src, int src_bytes)
{
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 4, %2;\n"
                 :: "r"(sdst), "l"(src), "r"(src_bytes) : "memory");
}

/* 16 bytes, the first src_bytes read, the rest zero; .cg skips L1. */
__device__ __forceinline__ void cp16(unsigned sdst, const float *src, int src_bytes)
{
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n"
                 :: "r"(sdst), "l"(src), "r"(src_bytes) : "memory");
}

/* This thread's copies of a tile.  Interior blocks (all BM rows and BN
 * columns exist) issue full-depth tiles through issue_fast, with fixed
 * offsets and no predicates; edge blocks and the partial last k tile go
 * through issue_edge, which guards every copy and zero-fills the missing
 * elements (src-size 0, source moved to the tile's first element, which
 * exists).  A 16-byte B copy straddling the n edge reads only its valid
 * bytes. */
template <class T, int BK, bool VB>
struct Copies {
    static_assert(BK % 8 == 0 && BK <= 32, "a warp copies A in 4-row x 8-k pieces");
    static constexpr int BM = T::BM, BN = T::BN, LDAS = T::LDAS;
    static constexpr int RP = BM / 32;                      /* A row passes */
    static constexpr int LA = BM * BK / NT;                 /* 4-byte A copies */
    static constexpr int LB = VB ? BK * BN / 4 / NT : BK * BN / NT;
    static constexpr int BROWS = VB ? NT / (BN / 4) : NT / BN; /* k rows per pass */
    static_assert(LB * BROWS == BK, "the B copies cover the tile's k rows");

    /* copy l of A: row (l%RP)*32 + warp*4 + lane/8, k column (l/RP)*8 + lane%8 */
    static __device__ __forceinline__ int arow(int l, int tid)
    {
        return (l % RP) * 32 + (tid / 32) * 4 + (tid % 32) / 8;
    }
    static __device__ __forceinline__ int acol(int l, int tid)
    {
        return (l / RP) * 8 + tid % 8;
    }
    /* copy l of B: k row brow(l), first column bcol */
    static __device__ __forceinline__ int brow(int l, int tid)
    {
        return l * BROWS + (VB ? tid / (BN / 4) : tid / BN);
    }
    static __device__ __forceinline__ int bcol(int tid)
    {
        return VB ? (tid % (BN / 4)) * 4 : tid % BN;
    }
    /* byte offsets in a stage */
    static __device__ __forceinline__ unsigned adst(int l, int tid)
    {
        return 4u * (unsigned)(acol(l, tid) * LDAS + arow(l, tid));
    }
    static __device__ __forceinline__ unsigned bdst(int l, int tid)
    {
        return 4u * (unsigned)(Stage<T, BK>::A + brow(l, tid) * BN + bcol(tid));
    }

    /* At/Bt: the tile's top-left elements; a full-depth tile of an interior
     * block.  aoff/boff: copy 0's offsets (arow(0)*lda + acol(0),
     * brow(0)*ldb + bcol). */
    static __device__ __forceinline__ void
    issue_fast(unsigned sbase, const float *At, int lda, int aoff,
               unsigned adst0, const float *Bt, int ldb, int boff, unsigned bdst0)
    {
        const unsigned d0 = sbase + adst0;
#pragma unroll
        for (int l = 0; l < LA; ++l)
            cp4(d0 + (adst(l, 0) - adst(0, 0)),
                At + aoff + (l % RP) * 32 * lda + (l / RP) * 8, 4);
        const unsigned e0 = sbase + bdst0;
#pragma unroll
        for (int l = 0; l < LB; ++l) {
            const float *src = Bt + boff + l * BROWS * ldb;
            if (VB) cp16(e0 + 4u * (l * BROWS * BN), src, 16);
            else    cp4(e0 + 4u * (l * BROWS * BN), src, 4);
        }
    }

    /* Any tile: mrem rows, nrem columns, krem k of it exist.  The thread
     * index is re-read here (volatile: not hoisted), so that the offsets of
     * this rare path are not kept in registers across the main loop. */
    static __device__ __forceinline__ void
    issue_edge(unsigned sbase, const float *At, int lda, const float *Bt,
               int ldb, int mrem, int nrem, int krem)
    {
        int tid;
        asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
#pragma unroll
        for (int l = 0; l < LA; ++l) {
            const int r = arow(l, tid), c = acol(l, tid);
            const bool ok = r < mrem && c < krem;
            cp4(sbase + adst(l, tid), ok ? At + r * lda + c : At, ok ? 4 : 0);
        }
#pragma unroll
        for (int l = 0; l < LB; ++l) {
            const int r = brow(l, tid), c = bcol(tid);
            const int have = r < krem ? min(max(nrem - c, 0), VB ? 4 : 1) : 0;
            const float *src = have ? Bt + r * ldb + c : Bt;
            if (VB) cp16(sbase + bdst(l, tid), src, 4 * have);
            else    cp4(sbase + bdst(l, tid), src, 4 * have);
        }
    }
};

/* A lane's fragments of k step kk: As/Bs point at its first A row / B
 * column in a stage.  A and B loads alternate, A first. */
template <class T>
__device__ __forceinline__ void frags(const float *As, const float *Bs, int kk,
                                      float (&fa)[T::TM], float (&fb)[T::TN])
{
#pragma unroll
    for (int w = 0; w < T::MSUB || w < T::NSUB; ++w) {
        if (w < T::MSUB) {
            const float4 a = *reinterpret_cast<const float4 *>(As + kk * T::LDAS + w * SUBM);
            fa[4 * w + 0] = a.x; fa[4 * w + 1] = a.y; fa[4 * w + 2] = a.z; fa[4 * w + 3] = a.w;
        }
        if (w < T::NSUB) {
            const float4 b = *reinterpret_cast<const float4 *>(Bs + kk * T::BN + w * SUBN);
            fb[4 * w + 0] = b.x; fb[4 * w + 1] = b.y; fb[4 * w + 2] = b.z; fb[4 * w + 3] = b.w;
        }
    }
}

template <class T>
__device__ __forceinline__ void outer(float (&acc)[T::TM][T::TN], const float (&fa)[T::TM],
                                      const float (&fb)[T::TN])
{
#pragma unroll
    for (int i = 0; i < T::TM; ++i)
#pragma unroll
        for (int j = 0; j < T::TN; ++j)
            acc[i][j] += fa[i] * fb[j];
}

/* Tile (tm, tn) of block b.  GROUP > 1: consecutive blocks walk GROUP
 * tile rows column by column (the last group may have fewer rows), so the
 * resident blocks of an H200 (~264 of 128x128, 132 of 128x256) cover a
 * near-square patch of C. */
template <int GROUP>
__device__ __forceinline__ void tile_of(int b, int ntm, int ntn, int &tm, int &tn)
{
    if (GROUP <= 1) {
        tm = b / ntn;
        tn = b % ntn;
        return;
    }
    const int per = GROUP * ntn, g = b / per, r = b % per;
    const int rows = min(GROUP, ntm - g * GROUP);
    tm = g * GROUP + r % rows;
    tn = r / rows;
}

/* Which work a block does (the W of sgemm_async): Whole, one tile of C
 * per block, over all of k; rung 16's SplitTail also splits tiles' k
 * among blocks.  tile(b): the tile of block b (in tile_of order); k0 / kl:
 * the first k (a multiple of BK) and how many; finish: called with the
 * block's sums, true when this block is to store C (then acc holds the
 * whole sum). */
struct Whole {
    __device__ __forceinline__ int tile(int b) const { return b; }
    __device__ __forceinline__ int k0(int, int) const { return 0; }
    __device__ __forceinline__ int kl(int, int k) const { return k; }
    template <class T>
    __device__ __forceinline__ bool finish(float (&)[T::TM][T::TN]) const
    {
        return true;
    }
};

} // namespace gp_async

extern __shared__ __align__(16) float gp_sgemm_async_smem[];

template <class T, int BK, int STAGES, bool XTILE, int GROUP, bool VB,
          class W = gp_async::Whole, int STEADY = -1>
__global__ void __launch_bounds__(gp_async::NT, T::MINB)
sgemm_async(int m, int n, int k, float alpha, const float *__restrict__ A,
            int lda, const float *__restrict__ B, int ldb, float beta,
            float *__restrict__ C, int ldc, int ntm, int ntn, int vc, W w)
{
    GP_KERNEL_NEEDS(GP_FEAT_CP_ASYNC) {
        using namespace gp_async;
        static_assert(STAGES >= 2, "a pipeline needs a stage to fill while one is read");
        static_assert(BK % 2 == 0, "XTILE's fragment buffers alternate by k step parity");
        constexpr int BM = T::BM, BN = T::BN, SF = Stage<T, BK>::FLOATS, SA = Stage<T, BK>::A;
        float *const smem = gp_sgemm_async_smem;

        int tm, tn;
        const int blk = (int)blockIdx.x, kl = w.kl(blk, k); /* this block's k */
        tile_of<GROUP>(w.tile(blk), ntm, ntn, tm, tn);
        const int bm0 = tm * BM, bn0 = tn * BN, mrem = m - bm0, nrem = n - bn0;
        const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
        /* first row / column of the lane's first sub-tile (rung 10's layout) */
        const int arow = (warp / T::WARPS_N) * T::WM + (lane / 8) * 4;
        const int bcol = (warp % T::WARPS_N) * T::WN + (lane % 8) * 4;
        using CP = Copies<T, BK, VB>;
        const bool interior = mrem >= BM && nrem >= BN; /* uniform per block */
        const int aoff = CP::arow(0, tid) * lda + CP::acol(0, tid);
        const int boff = CP::brow(0, tid) * ldb + CP::bcol(tid);
        const unsigned adst0 = CP::adst(0, tid), bdst0 = CP::bdst(0, tid);
        const unsigned s0 = (unsigned)__cvta_generic_to_shared(smem);
        const int k0 = w.k0(blk, k);
        const float *An = A + (size_t)bm0 * lda + k0, *Bn = B + (size_t)k0 * ldb + bn0; /* next tile to issue */

        /* Issue the tile at An/Bn (kn k left) into the stage at float offset
         * so, then step to the next one. */
        auto issue = [&](int so, int kn) {
            if (interior && kn >= BK)
                CP::issue_fast(s0 + 4u * so, An, lda, aoff, adst0, Bn, ldb, boff, bdst0);
            else
                CP::issue_edge(s0 + 4u * so, An, lda, Bn, ldb, mrem, nrem, kn);
            An += BK;
            Bn += (size_t)BK * ldb;
        };

#pragma unroll
        for (int s = 0; s < STAGES - 1; ++s) {
            if (kl > s * BK)
                issue(s * SF, kl - s * BK);
            gp_cp_async_commit();
        }

        float acc[T::TM][T::TN] = {};
        float fa[2][T::TM], fb[2][T::TN];
        constexpr int AHEAD = (STAGES - 1) * BK; /* k issued ahead of the tile read */
        if (XTILE) {
            gp_cp_async_wait<STAGES - 2>();
            __syncthreads();
            frags<T>(smem + arow, smem + SA + bcol, 0, fa[0], fb[0]);
        }
        /* The k loop, in two copies.  The steady one (STEADY >= 0: rung 18)
         * runs in an interior block whose k tiles are all full and more than
         * S-1: its body has no branch.  Each tile issues the tile S-1 ahead
         * through the fast path at its k step STEADY, and the copy pointers
         * stop at the last tile, so the last S-1 tiles copy that one again
         * into stages nothing reads any more. */
        auto k_loop = [&](auto steady_tag) {
            constexpr bool steady = decltype(steady_tag)::value;
            int rs = 0;                         /* float offset of the stage read */
            for (int kc = kl; kc > 0; kc -= BK) { /* kc: k left from this tile on */
                if (!XTILE) {
                    gp_cp_async_wait<STAGES - 2>(); /* my copies of this tile landed */
                    __syncthreads(); /* everyone's did, and all reads of the stage
                                        refilled below (the previous tile's) are done */
                }
                /* the tile S-1 ahead goes into the previous tile's stage */
                const int ro = rs == 0 ? (STAGES - 1) * SF : rs - SF;
                if (!steady) {
                    if (kc > AHEAD)
                        issue(ro, kc - AHEAD);
                    gp_cp_async_commit();
                }
                const int rn = rs == (STAGES - 1) * SF ? 0 : rs + SF;
                const float *As = smem + rs + arow;
                const float *Bs = smem + rs + SA + bcol;
                if (!XTILE)
                    frags<T>(As, Bs, 0, fa[0], fb[0]);
#pragma unroll
                for (int kk = 0; kk < BK; ++kk) {
                    if (steady && kk == STEADY) {
                        CP::issue_fast(s0 + 4u * ro, An, lda, aoff, adst0, Bn, ldb, boff, bdst0);
                        const int step = kc > AHEAD + BK ? BK : 0;
                        An += step;
                        Bn += (size_t)step * ldb;
                        gp_cp_async_commit();
                    }
                    if (kk + 1 < BK) {
                        frags<T>(As, Bs, kk + 1, fa[(kk + 1) & 1], fb[(kk + 1) & 1]);
                    } else if (XTILE) {
                        /* the next tile landed for everyone; every read of stage rs
                         * (which the next tile refills) is issued before this barrier */
                        gp_cp_async_wait<STAGES - 2>();
                        __syncthreads();
                        frags<T>(smem + rn + arow, smem + rn + SA + bcol, 0, fa[0], fb[0]);
                    }
                    outer<T>(acc, fa[kk & 1], fb[kk & 1]);
                }
                rs = rn;
            }
        };
        static_assert(STEADY < BK, "the steady loop issues at one of the tile's k steps");
        if (STEADY >= 0 && interior && kl % BK == 0 && kl > AHEAD)
            k_loop(std::true_type{});
        else
            k_loop(std::false_type{});
        gp_cp_async_wait<0>(); /* only empty groups can be left; leave none */
        if (!w.template finish<T>(acc))
            return;

        C += (size_t)bm0 * ldc + bn0;
#pragma unroll
        for (int wm = 0; wm < T::MSUB; ++wm)
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int wn = 0; wn < T::NSUB; ++wn) {
                    const float *v = &acc[wm * 4 + i][wn * 4];
                    gp_store4(C, ldc, arow + wm * SUBM + i,
                              bcol + wn * SUBN, mrem, nrem,
                              make_float4(v[0], v[1], v[2], v[3]), alpha, beta,
                              vc & GP_VEC_C);
                }
    }
}

/* The config column of every sgemm_async launch (rungs 11-18; charts key
 * series by it): tile, warp and lane shape, stages, B copy width, cross-tile
 * fragments, group, then `tail` ("" or "/split", "/subgemm", "/steady4/O1"). */
template <class T, int BK, int STAGES, bool XTILE, int GROUP>
static void gp_sgemm_async_config(char *out, size_t len, bool vb, const char *tail)
{
    char group[16] = "";
    if (GROUP > 1)
        snprintf(group, sizeof group, "/group%d", GROUP);
    snprintf(out, len, "%dx%dx%d/%dx%d/%dx%d/4x4/%dstage/cpB%d%s%s%s", T::BM, T::BN, BK, T::WM,
             T::WN, T::MSUB, T::NSUB, STAGES, vb ? 16 : 4, XTILE ? "/xfrag" : "", group, tail);
}

/* The launcher rungs 11-15 and 18 share: picks the B copy width per call, opts
 * in to more than 48 KB of dynamic shared memory when the stages need it.
 * tail: the end of the config column (rung 18 names its loop and build). */
template <int BK, int STAGES, bool XTILE, int GROUP, class T = gp_async::Tile128,
          int STEADY = -1>
static int gp_sgemm_async_launch(const gemm_args *a, cudaStream_t s,
                                 gp_launch_info *info, const char *tail = "")
{
    using namespace gp_async;
    constexpr int BM = T::BM, BN = T::BN;
    const int vec = gp_vec_flags(a);
    const bool vb = (vec & GP_VEC_B) != 0;
    void (*kern)(int, int, int, float, const float *, int, const float *, int,
                 float, float *, int, int, int, int, Whole) =
        vb ? sgemm_async<T, BK, STAGES, XTILE, GROUP, true, Whole, STEADY>
           : sgemm_async<T, BK, STAGES, XTILE, GROUP, false, Whole, STEADY>;
    const size_t smem = (size_t)STAGES * Stage<T, BK>::FLOATS * sizeof(float);
    if (smem > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute((const void *)kern,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)smem);
        if (e != cudaSuccess)
            return (int)e;
    }
    char config[64];
    gp_sgemm_async_config<T, BK, STAGES, XTILE, GROUP>(config, sizeof config, vb, tail);
    const int ntn = GP_NTILES(a->n, BN), ntm = GP_NTILES(a->m, BM);
    dim3 block(NT);
    dim3 grid((unsigned)ntn * (unsigned)ntm);
    GP_LAUNCH(info, kern, grid, block, smem, s, config,
              a->m, a->n, a->k, (float)a->alpha, (const float *)a->A, a->lda,
              (const float *)a->B, a->ldb, (float)a->beta, (float *)a->C,
              a->ldc, ntm, ntn, vec, Whole());
}

#endif
