/* tf32_rs.cuh - the TF32 wgmma kernel that computes C^T = B^T A^T (the
 * rungs tf32_03_wgmma_rs and tf32_04_wgmma_mc; their headers say why and
 * what each adds).  Template CL: blocks per cluster that share the A tile
 * by TMA multicast (1: none).  Include only from *_sm90a.cu files.
 *
 * Persistent or not is the launcher's choice of grid (rs_gemm's
 * `persistent`): tf32_05_wgmma_persist launches only as many clusters as
 * the GPU holds at once, and each cluster then takes cluster tiles
 * ct, ct + G, ct + 2G, ... of the G launched.  The kernel always loops over
 * tiles that way; with a cluster per tile (rs, mc) the loop runs once.
 *
 * Layout, per block of 256 (m) x 128 (n) x 32 (k), 384 threads: warpgroup 0
 * produces (one thread issues TMA; or all 128 copy with cp.async when the
 * strides rule TMA out); warpgroups 1 and 2 consume, each D' = C^T rows
 * n (64) x columns m (256), m64n256k8 with A = B^T from registers and
 * B = A^T from shared memory.  4 stages of 48 KB, mbarrier full/empty. */
#ifndef GEMMPROF_TF32_RS_CUH
#define GEMMPROF_TF32_RS_CUH

#include <stdint.h>
#include "rung.cuh"
#include "cp_async.cuh"
#include "sm90_ptx.cuh"
#include "sm90_host.cuh"

#define RBM 256                             /* m per block: wgmma's N      */
#define RBN 128                             /* n per block: 64 per consumer */
#define RBK 32                              /* one 128-byte swizzle row     */
#define RSTAGES 4
#ifndef RGROUP /* an experiment may build another */
#define RGROUP 8                            /* block rows per raster group  */
#endif
#define RA_BYTES (RBM * RBK * 4)            /* 32 KB: A tile, K-major       */
#define RB_BOX (32 * RBK * 4)               /* 4 KB: 32 n x 32 k of B       */
#define RB_BYTES (RBN * RBK * 4)            /* 16 KB: four boxes            */
#define RSTAGE_BYTES (RA_BYTES + RB_BYTES)  /* 48 KB */
#define RSMEM_BYTES ((size_t)RSTAGES * RSTAGE_BYTES + 1024) /* + alignment */
#define RNT 384

/* Cluster tiles: CL neighbouring 256x128 tiles of one block row. */
template <int CL>
__host__ __device__ __forceinline__ int rs_cluster_tiles(int m, int n)
{
    return GP_CDIV(m, RBM) * GP_CDIV(GP_CDIV(n, RBN), CL);
}

/* Which 256x128 tile this block computes of cluster tile `id`.  The CL
 * blocks of a cluster take CL neighbouring tiles of one block row (they
 * share its A tile); cluster tiles walk down RGROUP block rows before
 * moving right (L2 reuse, as tf32_wgmma).  With n not a multiple of CL
 * tiles the last block of a row lies past n: it still loads and shares its
 * part of A, and stores nothing. */
template <int CL>
__device__ __forceinline__ void rs_tile_of(int m, int n, int id, int *bm, int *bn)
{
    int tiles_m = GP_CDIV(m, RBM), cols = GP_CDIV(GP_CDIV(n, RBN), CL);
    int per_group = RGROUP * cols;
    int first = id / per_group * RGROUP;
    int rows = min(tiles_m - first, RGROUP);
    *bm = first + id % per_group % rows;
    *bn = id % per_group / rows * CL + (int)(blockIdx.x % CL);
}

/* Byte offset of element (row r, column c < 32) in a 128-byte-swizzled box
 * of 128-byte rows: 16-byte chunk c/4 of row r is stored at chunk
 * (c/4) ^ (r % 8), what TMA's SWIZZLE_128B writes (sm90_ptx.cuh). */
__device__ __forceinline__ uint32_t rs_swz(int r, int c)
{
    return (uint32_t)(r * 128 + ((((c >> 2) ^ r) & 7) << 4) + ((c & 3) << 2));
}

struct rs_args {
    const float *A, *B;
    float *C;
    int lda, ldb, ldc, m, n, k;
    float alpha, beta;
    bool vec_c;
};

/* The cluster tiles of this block: blockIdx.x / CL, then every G-th,
 * G = the clusters launched.  Producer and consumers walk the same list,
 * and stages are numbered across tiles (`g`), so the producer fills the
 * next tile's stages while the consumers still store this one's C. */
#define RS_FOR_EACH_TILE(CL, p, ct)                                            \
    for (int ct = blockIdx.x / (CL); ct < rs_cluster_tiles<CL>((p).m, (p).n); \
         ct += gridDim.x / (CL))

/* TMA producer (one thread): per k tile the A tile (256 x 32) and four
 * 32 x 32 boxes of B, completing on full[s] with the stage's byte count.
 * In a cluster of CL blocks each loads 1/CL of the A tile and multicasts
 * it to the same place in every block of the cluster, so a stage's bytes
 * come from CL producers; it may be overwritten only when the consumers of
 * every block released it (empty[s] counts all of them). */
template <int CL>
__device__ __forceinline__ void rs_produce_tma(const CUtensorMap *tmA,
                                               const CUtensorMap *tmB,
                                               const rs_args &p, uint8_t *smem,
                                               uint64_t *full, uint64_t *empty,
                                               int ktiles)
{
    const int part = RBM / CL;                /* A rows this block loads */
    const unsigned rank = CL > 1 ? gp_cluster_ctarank() : 0;
    gp_tma_prefetch(tmA);
    gp_tma_prefetch(tmB);
    unsigned g = 0; /* stages filled so far, over all tiles */
    RS_FOR_EACH_TILE(CL, p, ct) {
        int bm, bn;
        rs_tile_of<CL>(p.m, p.n, ct, &bm, &bn);
        int row0 = bm * RBM, col0 = bn * RBN;
        for (int kt = 0; kt < ktiles; ++kt, ++g) {
            unsigned s = g % RSTAGES;
            if (g >= RSTAGES) /* phase g/S - 1 of empty[s]: the last reader left */
                gp_mbar_wait(&empty[s], (g / RSTAGES - 1) & 1);
            uint8_t *st = smem + s * RSTAGE_BYTES;
            gp_mbar_arrive_tx(&full[s], RSTAGE_BYTES);
            if (CL > 1)
                gp_tma_load_2d_multicast(st + rank * part * 128, tmA, &full[s],
                                         kt * RBK, row0 + rank * part,
                                         (uint16_t)((1u << CL) - 1));
            else
                gp_tma_load_2d(st, tmA, &full[s], kt * RBK, row0);
#pragma unroll
            for (int i = 0; i < RBN / 32; ++i)
                gp_tma_load_2d(st + RA_BYTES + i * RB_BOX, tmB, &full[s],
                               col0 + 32 * i, kt * RBK);
        }
    }
}

/* cp.async producer (all 128 threads): the same swizzled stages, 4 bytes
 * at a time, zeros past the matrix.  One commit group per k tile; a tile's
 * stage is announced (full[s], expecting 128 arrivals) once the thread's
 * copies of it have landed, checked with wait_group while the next tile's
 * copies are already in flight. */
__device__ __forceinline__ void rs_copy_tile(const rs_args &p, uint8_t *smem,
                                             uint64_t *full, uint64_t *empty,
                                             int row0, int col0, int ktiles,
                                             unsigned g0)
{
    int tid = threadIdx.x; /* 0..127: the producer warpgroup */
    for (int kt = 0; kt < ktiles; ++kt) {
        unsigned g = g0 + kt, s = g % RSTAGES;
        int k0 = kt * RBK;
        if (g >= RSTAGES)
            gp_mbar_wait(&empty[s], (g / RSTAGES - 1) & 1);
        uint8_t *st = smem + s * RSTAGE_BYTES;
        /* A: a warp copies one row's 32 k (128 contiguous bytes) */
        for (int idx = tid; idx < RBM * RBK; idx += 128) {
            int r = idx >> 5, c = idx & 31, gr = row0 + r, gk = k0 + c;
            bool ok = gr < p.m && gk < p.k;
            gp_cp_async4((float *)(st + rs_swz(r, c)),
                         ok ? p.A + (size_t)gr * p.lda + gk : p.A, ok ? 4 : 0);
        }
        /* B: a warp copies 32 consecutive n of one k row */
        for (int idx = tid; idx < RBK * RBN; idx += 128) {
            int r = idx / RBN, c = idx % RBN, gk = k0 + r, gn = col0 + c;
            bool ok = gk < p.k && gn < p.n;
            gp_cp_async4((float *)(st + RA_BYTES + (c >> 5) * RB_BOX + rs_swz(r, c & 31)),
                         ok ? p.B + (size_t)gk * p.ldb + gn : p.B, ok ? 4 : 0);
        }
        gp_cp_async_commit();
        if (kt > 0) {
            gp_cp_async_wait<1>(); /* tile kt-1's copies landed */
            gp_mbar_arrive(&full[(g - 1) % RSTAGES]);
        }
    }
    gp_cp_async_wait<0>();
    gp_mbar_arrive(&full[(g0 + ktiles - 1) % RSTAGES]);
}

__device__ __forceinline__ void rs_produce_copy(const rs_args &p, uint8_t *smem,
                                                uint64_t *full, uint64_t *empty,
                                                int ktiles)
{
    unsigned g = 0;
    RS_FOR_EACH_TILE(1, p, ct) {
        int bm, bn;
        rs_tile_of<1>(p.m, p.n, ct, &bm, &bn);
        rs_copy_tile(p, smem, full, empty, bm * RBM, bn * RBN, ktiles, g);
        g += ktiles;
    }
}

/* Keep the fragment registers live and unmoved across this point: wgmma
 * reads them asynchronously, until the wait that retires it. */
__device__ __forceinline__ void rs_fence_frag(uint32_t (&a)[RBK / 8][4])
{
#pragma unroll
    for (int i = 0; i < RBK / 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
            asm volatile("" : "+r"(a[i][j]) :: "memory");
}

/* This thread's B^T fragments of one k tile from the stage's B boxes:
 * rows g, g+8 of the warp's 16 wgmma rows are columns n, n+1 (offset
 * `pair` of chunk `chunk` of the box), k = 8kk + t (+4).  The raw FP32
 * bits go in: the tensor core reads them as TF32 (the low 13 mantissa bits
 * ignored), exactly as it treats the A tile read from shared memory.
 * (Rounding with cvt.rna cost three instructions per element: measured,
 * see reports/ladder-notes.md.) */
__device__ __forceinline__ void rs_load_frag(uint32_t (&a)[RBK / 8][4],
                                             const uint8_t *bbox, int chunk,
                                             int pair, int t)
{
#pragma unroll
    for (int kk = 0; kk < RBK / 8; ++kk)
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            int r = 8 * kk + t + 4 * q;
            const uint2 v = *(const uint2 *)(bbox + r * 128 +
                                             (((chunk ^ r) & 7) << 4) + pair * 8);
            a[kk][2 * q] = v.x;
            a[kk][2 * q + 1] = v.y;
        }
}

template <int CL>
struct rs_consumer {
    uint8_t *smem;
    uint64_t *full, *empty;
    int cw, chunk, pair, t, box;
    bool lane0, copied;
};

/* Give stage s back to the producer(s) once this warp's wgmmas that read
 * it retired: every warp frees it itself (in every block of the cluster:
 * their producers multicast into it), after all its lanes' fragment loads,
 * so the barrier orders them before the producers' next writes.  Where
 * threads copy (cp.async) every consumer thread arrives: compute-sanitizer
 * racecheck does not take __syncwarp plus one lane's arrival as ordering
 * the other lanes' reads before those writes (measured on the H100). */
template <int CL>
__device__ __forceinline__ void rs_release(const rs_consumer<CL> &c, unsigned s)
{
    __syncwarp();
    if (c.lane0 || c.copied) {
        if (CL > 1)
            for (unsigned b = 0; b < CL; ++b)
                gp_mbar_arrive_cluster(&c.empty[s], b);
        else
            gp_mbar_arrive(&c.empty[s]);
    }
}

/* One k tile (stage number g over all tiles): wait for its stage,
 * fragments into `a`, four wgmmas; then, unless it is the tile's first,
 * free the previous k tile's stage and fragment registers (`prev`) once
 * its wgmmas retired: until then they must stay as they are. */
template <int CL>
__device__ __forceinline__ void rs_step(const rs_consumer<CL> &c, float (&d)[128],
                                        uint32_t (&a)[RBK / 8][4],
                                        uint32_t (&prev)[RBK / 8][4], unsigned g,
                                        bool first)
{
    unsigned s = g % RSTAGES;
    gp_mbar_wait(&c.full[s], (g / RSTAGES) & 1);
    if (c.copied) /* cp.async wrote through the generic proxy; wgmma reads async */
        gp_fence_proxy_async();
    uint8_t *st = c.smem + s * RSTAGE_BYTES;
    rs_load_frag(a, st + RA_BYTES + c.box * RB_BOX, c.chunk, c.pair, c.t);
    uint64_t db = gp_wgmma_desc_sw128(gp_smem_u32(st));
    gp_fence_regs(d);
    gp_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < RBK / 8; ++kk) /* +32 bytes = +2 in the >>4 field */
        gp_wgmma_m64n256k8_tf32_rs(d, a[kk], db + 2 * kk);
    gp_wgmma_commit();
    gp_fence_regs(d);
    rs_fence_frag(a);
    if (!first) {
        gp_wgmma_wait<1>(); /* k tile g-1 retired: its stage and registers are free */
        rs_fence_frag(prev);
        rs_release(c, (g - 1) % RSTAGES);
    }
}

/* A consumer warpgroup, one tile: 64 n x 256 m of D' = C^T, all of k,
 * stages g0 .. g0 + ktiles - 1; fragments double-buffered in registers
 * (even k tiles in a0, odd in a1: compile-time indices only, so the arrays
 * stay in registers).  The last stage is freed before the epilogue, so the
 * producer can fill it with the next tile's data meanwhile. */
template <int CL>
__device__ __forceinline__ void rs_consume(const rs_consumer<CL> &c, float (&d)[128],
                                           int ktiles, unsigned g0)
{
    uint32_t a0[RBK / 8][4] = {}, a1[RBK / 8][4] = {};
#pragma unroll
    for (int i = 0; i < 128; ++i)
        d[i] = 0.0f;
    for (int kt = 0; kt < ktiles; kt += 2) {
        rs_step(c, d, a0, a1, g0 + kt, kt == 0);
        if (kt + 1 < ktiles)
            rs_step(c, d, a1, a0, g0 + kt + 1, false);
    }
    gp_wgmma_wait<0>();
    gp_fence_regs(d);
    rs_fence_frag(a0);
    rs_fence_frag(a1);
    rs_release(c, (g0 + ktiles - 1) % RSTAGES);
}

/* d[4j + 2h + e] = D'[row g + 8h][8j + 2t + e] = C[m0 + 8j + 2t + e][n + h]:
 * each (j, e) is one 8-byte store of C's columns n, n+1. */
__device__ __forceinline__ void rs_epilogue(const float (&d)[128], const rs_args &p,
                                            int m0, int n)
{
    if (n >= p.n)
        return;
    bool pair = n + 1 < p.n;
#pragma unroll
    for (int j = 0; j < 32; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            int r = m0 + 8 * j + e;
            if (r >= p.m)
                continue;
            float *c = p.C + (size_t)r * p.ldc + n;
            float v0 = d[4 * j + e], v1 = d[4 * j + 2 + e];
            if (p.vec_c && pair) {
                float2 o = make_float2(p.alpha * v0, p.alpha * v1);
                if (p.beta != 0.0f) {
                    float2 old = *(const float2 *)c;
                    o.x += p.beta * old.x;
                    o.y += p.beta * old.y;
                }
                *(float2 *)c = o;
            } else {
                gp_store(c, v0, p.alpha, p.beta);
                if (pair)
                    gp_store(c + 1, v1, p.alpha, p.beta);
            }
        }
}

/* CL: blocks per cluster sharing A by multicast (TMA only); TMA false: the
 * cp.async producer, for strides TMA cannot take.  The grid (the launcher's
 * choice) says how many tiles each block takes.  static: each rung's file
 * has its own copies of the instantiations it launches. */
template <int CL, bool TMA>
static __global__ void __launch_bounds__(RNT, 1)
tf32_wgmma_rs(const __grid_constant__ CUtensorMap tmA,
              const __grid_constant__ CUtensorMap tmB, const rs_args p)
{
    static_assert(TMA || CL == 1, "the cp.async producer does not multicast");
    GP_KERNEL_NEEDS(GP_FEAT_WGMMA) {
        extern __shared__ __align__(1024) uint8_t gp_rs_raw[];
        __shared__ __align__(8) uint64_t full[RSTAGES], empty[RSTAGES];
        /* SWIZZLE_128B tiles start on 1024 bytes (sm90_ptx.cuh); the same
         * offset in every block of a cluster (same kernel, same layout) */
        uint8_t *smem = gp_rs_raw + ((1024 - (gp_smem_u32(gp_rs_raw) & 1023)) & 1023);
        int wg = threadIdx.x / 128, ktiles = GP_CDIV(p.k, RBK);
        if (threadIdx.x == 0) {
            for (int s = 0; s < RSTAGES; ++s) {
                gp_mbar_init(&full[s], TMA ? 1 : 128); /* TMA: arrive + tx bytes */
                /* one arrive per consumer warp (per thread when copying) */
                gp_mbar_init(&empty[s], (TMA ? 8 : 256) * CL);
            }
            gp_mbar_init_fence();
        }
        if (CL > 1)
            gp_cluster_sync(); /* no remote arrive or multicast before init */
        else
            __syncthreads();
        if (wg == 0) {
            gp_setmaxnreg_dec<40>();
            if (TMA && threadIdx.x == 0)
                rs_produce_tma<CL>(&tmA, &tmB, p, smem, full, empty, ktiles);
            else if (!TMA)
                rs_produce_copy(p, smem, full, empty, ktiles);
        } else {
            gp_setmaxnreg_inc<232>();
            int lane = threadIdx.x & 31, warp = (threadIdx.x >> 5) & 3;
            int g = lane >> 2, t = lane & 3, gg = g & 3;
            rs_consumer<CL> c;
            c.smem = smem;
            c.full = full;
            c.empty = empty;
            c.cw = wg - 1;
            c.t = t;
            /* Warp w's 16 rows: box 2cw + w/2; half-warp h (g/4) takes chunks
             * 2(w%2) + h and that + 4; lanes g%2 split a chunk in two pairs. */
            c.box = 2 * c.cw + (warp >> 1);
            c.chunk = 2 * (warp & 1) + (g >> 2) + 4 * (gg >> 1);
            c.pair = gg & 1;
            c.lane0 = lane == 0;
            c.copied = !TMA;
            float d[128];
            unsigned stage = 0; /* stages consumed so far, over all tiles */
            RS_FOR_EACH_TILE(CL, p, ct) {
                int bm, bn;
                rs_tile_of<CL>(p.m, p.n, ct, &bm, &bn);
                rs_consume(c, d, ktiles, stage);
                stage += ktiles;
                rs_epilogue(d, p, bm * RBM + 2 * t,
                            bn * RBN + 32 * c.box + 4 * c.chunk + 2 * c.pair);
            }
        }
        if (CL > 1)
            gp_cluster_sync(); /* stay until no block can touch this one's smem */
    }
}

/* ---- host side ---- */

/* How many clusters of CL blocks of this kernel the GPU holds at once:
 * the persistent grid.  Asked once per device (the occupancy query is a
 * driver call; the answer does not change). */
template <int CL, bool TMA>
static int rs_resident_clusters(const cudaLaunchConfig_t &cfg, int *clusters)
{
    static int dev_seen = -1, cached = 0;
    int dev;
    cudaError_t ce = cudaGetDevice(&dev);
    if (ce != cudaSuccess)
        return (int)ce;
    if (dev != dev_seen) {
        ce = cudaOccupancyMaxActiveClusters(&cached, tf32_wgmma_rs<CL, TMA>, &cfg);
        if (ce != cudaSuccess)
            return (int)ce;
        if (cached < 1) /* cannot hold one: the launch will say why */
            cached = 1;
        dev_seen = dev;
    }
    *clusters = cached;
    return 0;
}

/* persistent: as many blocks as the GPU holds at once (whole clusters),
 * each looping over tiles; else one block per tile. */
template <int CL, bool TMA>
static int rs_launch(const rs_args &p, const CUtensorMap &tmA, const CUtensorMap &tmB,
                     bool persistent, cudaStream_t s, gp_launch_info *info)
{
    const void *fn = (const void *)tf32_wgmma_rs<CL, TMA>;
    cudaError_t ce = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)RSMEM_BYTES);
    if (ce != cudaSuccess)
        return (int)ce;
    char config[80];
    snprintf(config, sizeof config, "256x128x32/2wg-rs+%s%s%s/%dstage",
             TMA ? "tma" : "cp.async4", CL > 1 ? "+mc2" : "",
             persistent ? "+persistent" : "", RSTAGES);
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    cfg.gridDim = dim3(rs_cluster_tiles<CL>(p.m, p.n) * CL);
    cfg.blockDim = dim3(RNT);
    cfg.dynamicSmemBytes = RSMEM_BYTES;
    cfg.stream = s;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = CL;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int resident, e;
    if (persistent) {
        if ((e = rs_resident_clusters<CL, TMA>(cfg, &resident)))
            return e;
        if ((int)cfg.gridDim.x > resident * CL)
            cfg.gridDim.x = resident * CL;
    }
    gp_record(info, fn, cfg.gridDim, cfg.blockDim, RSMEM_BYTES, config);
    ce = cudaLaunchKernelEx(&cfg, tf32_wgmma_rs<CL, TMA>, tmA, tmB, p);
    return ce != cudaSuccess ? (int)ce : (int)cudaPeekAtLastError();
}

/* C = alpha A B + beta C through tf32_wgmma_rs<CL>: TMA (clusters of CL
 * blocks, persistent or not) where the strides allow, else the cp.async
 * producer, one block per tile. */
template <int CL>
static int rs_gemm(const gemm_args *a, bool persistent, cudaStream_t s,
                   gp_launch_info *info)
{
    if (!gp_is_sm90()) /* the only code in these files is sm_90a's */
        return (int)cudaErrorNoKernelImageForDevice;
    rs_args p;
    p.A = (const float *)a->A;
    p.B = (const float *)a->B;
    p.C = (float *)a->C;
    p.lda = a->lda;
    p.ldb = a->ldb;
    p.ldc = a->ldc;
    p.m = a->m;
    p.n = a->n;
    p.k = a->k;
    p.alpha = (float)a->alpha;
    p.beta = (float)a->beta;
    p.vec_c = a->ldc % 2 == 0 && (uintptr_t)a->C % 8 == 0;
    CUtensorMap tmA, tmB;
    memset(&tmA, 0, sizeof tmA);
    memset(&tmB, 0, sizeof tmB);
    bool tma = a->lda % 4 == 0 && a->ldb % 4 == 0 && (uintptr_t)a->A % 16 == 0 &&
               (uintptr_t)a->B % 16 == 0;
    if (!tma)
        return rs_launch<1, false>(p, tmA, tmB, false, s, info);
    int e;
    if ((e = gp_tma_map_2d(&tmA, p.A, a->m, a->k, a->lda, RBK, RBM / CL)) ||
        (e = gp_tma_map_2d(&tmB, p.B, a->k, a->n, a->ldb, 32, RBK)))
        return e;
    return rs_launch<CL, true>(p, tmA, tmB, persistent, s, info);
}

#endif
