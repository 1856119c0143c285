/* sgemm_17_subgemm_tail - rung 16's idea (no idle SMs in the last wave)
 * with nothing but rung 15's kernel: every launch is wide_tile's
 * sgemm_async<..., Whole> on a sub-GEMM (a rectangle of C, a range of k),
 * so every block runs rung 15's SASS, and the pieces run side by side on
 * streams of their own.
 *
 * Why: rung 16 splits the left-over tiles inside a second instantiation of
 * the kernel, whose k loop ptxas allocates differently (233 registers
 * against 214) and runs ~10% slower; at 4096^3 (116 tiles left over on
 * 132 SMs, 3.88 waves) that cost more than the 0.11 tile time the split
 * saves, so rung 16 does not split there and stays at wide_tile's 98.2%.
 *
 * How, with S block slots (132 SMs x 1) and R = tiles mod S left over:
 *   head   the first S * floor(tiles / S) tiles in row-major tile order:
 *          whole tile rows (one launch) and the start of the next row
 *          (a second launch), full k: exactly the whole waves;
 *   tail   the other R tiles (the rest of that row, the rows below: two
 *          rectangles), each tile's k cut into one long part of ka and q
 *          short parts of kb.  The long parts (R blocks) take R SMs when
 *          the head ends and store C = alpha AB + beta C over [0, ka); the
 *          q R short parts fill the other S - R SMs, ceil(qR / (S - R))
 *          each, into workspaces W_1..W_q (alpha 1, beta 0);
 *   fixup  C += alpha (W_1 + ... + W_q) over the tail, after all of them.
 * ka is chosen so the long parts end with the short ones: with c =
 * ceil(qR / (S - R)) short parts per SM, ka / K = c / (q + c).  q (1..4)
 * is the one with the least predicted tail time, counting ~3 us per
 * short block (pipeline fill and store) and one pass over the tail's C
 * per W (kernels/subgemm_plan.c, which the CPU tests check).
 *
 * Prediction (132 SMs; T = a tile time): 4096^3 (R = 116, S - R = 16):
 * q = 1, c = 8, the tail takes 8/9 T + 8 short-block overheads + the
 * fixup, ~0.93 T instead of T: 1.6-1.8% faster than wide_tile, 99.8-100.2%
 * of cuBLAS on the H200, the same on the H100 SXM.  8192^3 (R = 68,
 * S - R = 64): q = 3 or 4, ~0.6 T instead of T (rung 16: 7/13 T but in
 * its slower kernel): 100.5-101% of cuBLAS.  Sizes with R = 0 run rung 15
 * unchanged.  Profile: rung 15's IPC and stalls in every launch; the
 * FFMAs of rung 15 plus one FFMA per tail element and W; DRAM/L2 traffic
 * + (q + 2) x the tail's C (the W written and read, the fixup's C).
 */
#include "sgemm_async.cuh"
#include "subgemm_plan.h"

namespace gp_sub {

using namespace gp_async;
using TileW = Tile<128, 256, 2, 4, 1>;
constexpr int BK = 8, STAGES = 3, GROUP = 16, MAX_Q = GP_SUB_MAX_Q;
static_assert(TileW::BM == GP_SUB_BM && TileW::BN == GP_SUB_BN && BK == GP_SUB_BK,
              "subgemm_plan.c plans for this tile");
/* the head's two rectangles and the long parts' two; the short parts' */
constexpr int NLONG = 4, NSTREAMS = NLONG + 2 * MAX_Q;

/* c + alpha s as a multiply and an add, never contracted to an FFMA: the
 * FFMA counter of a rung is its A x B multiply-adds (tests/cupti/
 * test_counters.c checks it exactly), the fixup's m n are FMULs and FADDs. */
__device__ __forceinline__ float add_scaled(float c, float alpha, float s)
{
    return __fadd_rn(c, __fmul_rn(alpha, s));
}

/* C[r][c] += alpha (W_1 + ... + W_q)[r][c] over the tail: rows [0, rows)
 * of C and W (C already offset to the tail's first row), all n columns
 * except the first tile row's first skip_cols (those are the head's).  A
 * block a row at a time; float4 where C allows (W always does: ldw and
 * wsize are multiples of 4, skip_cols one of 256). */
__global__ void fixup(int rows, int n, int skip_rows, int skip_cols, float alpha,
                      const float *__restrict__ W, size_t wsize, int q, int ldw,
                      float *__restrict__ C, int ldc, bool vec)
{
    /* the rung's feature, as every kernel of it: built empty where the
     * architecture lacks it (tests/arch.sh) */
    GP_KERNEL_NEEDS(GP_FEAT_CP_ASYNC) {
        for (int r = blockIdx.x; r < rows; r += gridDim.x) {
            const float *w = W + (size_t)r * ldw;
            float *c = C + (size_t)r * ldc;
            const int from = r < skip_rows ? skip_cols : 0;
            if (vec) {
                for (int j = from + 4 * (int)threadIdx.x; j < n; j += 4 * (int)blockDim.x) {
                    float4 s = *reinterpret_cast<const float4 *>(w + j);
                    for (int p = 1; p < q; ++p) {
                        const float4 t = *reinterpret_cast<const float4 *>(w + p * wsize + j);
                        s.x += t.x; s.y += t.y; s.z += t.z; s.w += t.w;
                    }
                    float4 v = *reinterpret_cast<float4 *>(c + j);
                    v.x = add_scaled(v.x, alpha, s.x); v.y = add_scaled(v.y, alpha, s.y);
                    v.z = add_scaled(v.z, alpha, s.z); v.w = add_scaled(v.w, alpha, s.w);
                    *reinterpret_cast<float4 *>(c + j) = v;
                }
            } else {
                for (int j = from + (int)threadIdx.x; j < n; j += (int)blockDim.x) {
                    float s = 0.f;
                    for (int p = 0; p < q; ++p)
                        s += w[p * wsize + j];
                    c[j] = add_scaled(c[j], alpha, s);
                }
            }
        }
    }
}

/* Streams and events of this device, made once (the first call, which
 * the harness does not time): creating them per call would leave the GPU
 * idle while the host did it.  The head's and the long parts' streams
 * have the greatest priority, the short parts' the least: when an SM
 * frees up, a pending block of a whole tile or a long part goes first and
 * the short parts fill in last, whatever order the launches reach the
 * GPU in (largest first is what keeps the last wave even).  Measured on
 * the H200 at 4096^3 (reports/data/h200/experiments/subgemm-tail/): this
 * order 100.28% of cuBLAS; the head first on the caller's stream with one
 * priority for all 97.8%.  The ~30 stream operations of a call make the
 * rung sensitive to a loaded host: 97.9% while another process traced
 * PyTorch on the machine's other GPU. */
struct Pool {
    cudaStream_t s[NSTREAMS];
    cudaEvent_t fork, join[NSTREAMS];
    bool ready;
};

static cudaError_t pool_for(int dev, Pool **out)
{
    static Pool pools[64];
    if (dev < 0 || dev >= 64)
        return cudaErrorInvalidDevice;
    Pool *p = &pools[dev];
    cudaError_t e = cudaSuccess;
    if (!p->ready) {
        int least = 0, greatest = 0;
        e = cudaDeviceGetStreamPriorityRange(&least, &greatest);
        if (!e)
            e = cudaEventCreateWithFlags(&p->fork, cudaEventDisableTiming);
        for (int i = 0; !e && i < NSTREAMS; ++i) {
            e = cudaStreamCreateWithPriority(&p->s[i], cudaStreamNonBlocking,
                                             i < NLONG ? greatest : least);
            if (!e)
                e = cudaEventCreateWithFlags(&p->join[i], cudaEventDisableTiming);
        }
        p->ready = !e;
    }
    *out = p;
    return e;
}

template <bool VB>
using kernel_t = void (*)(int, int, int, float, const float *, int, const float *, int, float,
                          float *, int, int, int, int, Whole);

/* One piece: rows [r0, r1) x columns [c0, c1) of C (or of W, whose rows
 * start at the tail's first row t0), over k [k0, k0 + kl). */
struct Piece {
    int r0, r1, c0, c1, k0, kl;
    float alpha, beta;
    float *out;                         /* C, or a workspace */
    int ldo, out_row0;                  /* out's leading dimension, its first row */
};

template <bool VB>
static cudaError_t run_piece(const gemm_args *a, const Piece &p, cudaStream_t st)
{
    using T = TileW;
    if (p.r1 <= p.r0 || p.c1 <= p.c0 || p.kl <= 0)
        return cudaSuccess;
    const float *A = (const float *)a->A + (size_t)p.r0 * a->lda + p.k0;
    const float *B = (const float *)a->B + (size_t)p.k0 * a->ldb + p.c0;
    float *C = p.out + (size_t)(p.r0 - p.out_row0) * p.ldo + p.c0;
    const gemm_args sub = { p.r1 - p.r0, p.c1 - p.c0, p.kl, p.alpha, p.beta, A, B, C,
                            a->lda, a->ldb, p.ldo };
    /* an offset of whole k tiles and tile columns keeps an aligned B
     * aligned; a misaligned one may become aligned, which VB = false
     * handles as well */
    int vec = gp_vec_flags(&sub);
    if (VB && !(vec & GP_VEC_B))
        return cudaErrorMisalignedAddress;
    if (!VB)
        vec &= ~GP_VEC_B;
    const int ntm = GP_NTILES(sub.m, T::BM), ntn = GP_NTILES(sub.n, T::BN);
    const size_t smem = (size_t)STAGES * Stage<T, BK>::FLOATS * sizeof(float);
    const kernel_t<VB> k = sgemm_async<T, BK, STAGES, true, GROUP, VB, Whole>;
    k<<<ntm * ntn, NT, smem, st>>>(sub.m, sub.n, sub.k, p.alpha, A, a->lda, B, a->ldb,
                                   p.beta, C, p.ldo, ntm, ntn, vec, Whole());
    return cudaPeekAtLastError();
}

template <bool VB>
static cudaError_t launch(const gemm_args *a, cudaStream_t st, gp_launch_info *info, int dev,
                          int slots)
{
    using T = TileW;
    const kernel_t<VB> whole = sgemm_async<T, BK, STAGES, true, GROUP, VB, Whole>;
    const size_t smem = (size_t)STAGES * Stage<T, BK>::FLOATS * sizeof(float);
    cudaError_t e = cudaFuncSetAttribute((const void *)whole,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    const gp_subgemm_plan pl = gp_subgemm_plan_for(a->m, a->n, a->k, slots);
    char config[64];
    gp_sgemm_async_config<T, BK, STAGES, true, GROUP>(config, sizeof config, VB, "/subgemm");
    /* the facts: the kernel every launch runs, with the tiles done over all of k */
    gp_record(info, (const void *)whole, dim3((unsigned)pl.head), dim3(NT), smem, config);
    if (e)
        return e;
    float *C = (float *)a->C;
    const float alpha = (float)a->alpha, beta = (float)a->beta;
    if (pl.q == 0)                      /* whole waves only, or nothing to gain */
        return run_piece<VB>(a, { 0, a->m, 0, a->n, 0, a->k, alpha, beta, C, a->ldc, 0 }, st);

    /* head: rows [0, t0) whole, columns [0, split) of rows [t0, t1); tail:
     * the rest (subgemm_plan.h) */
    const int t0 = pl.t0, t1 = pl.t1, split = pl.split;
    const int ldw = (a->n + 3) / 4 * 4, wrows = a->m - t0;
    const size_t wsize = (size_t)wrows * ldw;
    Pool *p = NULL;
    float *ws = NULL;
    if (!(e = pool_for(dev, &p)))
        e = cudaMallocAsync((void **)&ws, (size_t)pl.q * wsize * sizeof(float), st);
    if (!e)
        e = cudaEventRecord(p->fork, st);
    for (int i = 0; !e && i < NSTREAMS; ++i)
        e = cudaStreamWaitEvent(p->s[i], p->fork, 0);
    /* the head, the long parts (on the first SMs the head frees), then the
     * short parts; the caller's stream only forks and joins */
    const Piece pieces[NLONG] = {
        { 0, t0, 0, a->n, 0, a->k, alpha, beta, C, a->ldc, 0 },
        { t0, t1, 0, split, 0, a->k, alpha, beta, C, a->ldc, 0 },
        { t0, t1, split, a->n, 0, pl.ka, alpha, beta, C, a->ldc, 0 },
        { t1, a->m, 0, a->n, 0, pl.ka, alpha, beta, C, a->ldc, 0 },
    };
    for (int i = 0; !e && i < NLONG; ++i)
        e = run_piece<VB>(a, pieces[i], p->s[i]);
    for (int j = 0; !e && j < pl.q; ++j) {
        const int k0 = pl.ka + j * pl.kb;     /* the last ends at k: ka + q kb = k */
        float *w = ws + j * wsize;
        const Piece t1p = { t0, t1, split, a->n, k0, pl.kb, 1.f, 0.f, w, ldw, t0 };
        const Piece t2p = { t1, a->m, 0, a->n, k0, pl.kb, 1.f, 0.f, w, ldw, t0 };
        e = run_piece<VB>(a, t1p, p->s[NLONG + 2 * j]);
        if (!e)
            e = run_piece<VB>(a, t2p, p->s[NLONG + 2 * j + 1]);
    }
    for (int i = 0; !e && i < NSTREAMS; ++i) {
        e = cudaEventRecord(p->join[i], p->s[i]);
        if (!e)
            e = cudaStreamWaitEvent(st, p->join[i], 0);
    }
    if (!e) {
        const bool vec = (gp_vec_flags(a) & GP_VEC_C) && a->n % 4 == 0;
        fixup<<<min(wrows, 4 * slots), 256, 0, st>>>(wrows, a->n, t1 - t0, split, alpha, ws,
                                                     wsize, pl.q, ldw, C + (size_t)t0 * a->ldc,
                                                     a->ldc, vec);
        e = cudaPeekAtLastError();
    }
    if (ws)
        cudaFreeAsync(ws, st);          /* after the fixup, in stream order */
    return e;
}

} // namespace gp_sub

extern "C" int gp_sgemm_subgemm_tail(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (!e)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e)
        return (int)e;
    /* one block per SM (__launch_bounds__(256, 1), 211 registers) */
    return (int)(gp_vec_flags(a) & GP_VEC_B ? gp_sub::launch<true>(a, s, info, dev, sms)
                                            : gp_sub::launch<false>(a, s, info, dev, sms));
}
