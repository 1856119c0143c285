/* sgemm_16_split_tail - rung 15 (wide_tile: 128x256x8 tile, 3-stage
 * cp.async, cross-tile fragment prefetch, group-16 order, one block per
 * SM) without its last partial wave: the whole waves run as rung 15's
 * kernel, and each tile left over is split along k into s parts, one
 * block each, with s chosen so that the parts fill whole waves.
 * Kernel: sgemm_async.cuh with W = SplitTail.
 *
 * Why: at 4096^3 the 128x256 tiles are 512 blocks on 132 SMs, 3.88 waves
 * that take 4 wave times: the last wave leaves 16 SMs idle for a whole
 * tile.  ncu showed wide_tile and cuBLAS each losing 3.3% there
 * (reports/ladder-notes.md).  Split in s = 9, the 116 tiles left over are
 * 1044 parts of 1/9 tile, 7.9 waves: 8/9 of a tile time instead of 1.
 * At 8192^3 (2048 tiles, 15.5 waves) the 68 left over go in s = 13 parts,
 * 7/13 of a tile time instead of 1.
 *
 * A split tile: each part adds its share of k into registers as rung 15
 * does, writes them to its workspace slot, and bumps the tile's counter;
 * the part that arrives last adds the other slots and stores C with alpha
 * and beta.  Nobody waits for anybody, so there is no deadlock whatever
 * else is resident (replay, MPS, NCCL's kernels).  Slots (128 KB each)
 * and counters come from cudaMallocAsync on the call's stream, as
 * tf32_wgmma's workspace does; the counters are zeroed by a memset on
 * the stream, which is timed with the rung.  Two launches: the whole
 * waves are rung 15's own kernel (its SASS, W = Whole), the parts a
 * second instantiation.
 *
 * Why not stream-K proper (Osama et al., PPoPP'23: k iterations dealt out
 * evenly, a block crossing tile boundaries): measured on the H200, its
 * loop over segments put the kernel at 255 registers with spills and
 * cost 11% in every k iteration (87.6% of cuBLAS at 4096^3 as one
 * kernel); a part here is one straight k range, rung 15's code.
 *
 * Prediction (H200 and H100 SXM, 132 SMs): 2.5-3% faster than wide_tile
 * at 4096^3 and 8192^3 (the wave saved, less ~0.3% for the slots and the
 * memset): 100.5-101.5% of cuBLAS on the H200 (wide_tile 98.4-98.9%).
 * Sizes whose tiles fill whole waves run rung 15 unchanged; small sizes
 * (fewer tiles than SMs) gain most.  Profile: the same FFMAs plus
 * (s-1) x 128 x 256 FADDs per split tile, ~8% more L2 traffic at 4096^3
 * (the slots), the same IPC and stalls as wide_tile in the parts.
 */
#include "sgemm_async.cuh"

/* named, not anonymous: the host pass (and sm_75's, where the kernel is a
 * stub) would warn that SplitTail's members are never referenced */
namespace gp_split {

using namespace gp_async;
using TileW = Tile<128, 256, 2, 4, 1>;
constexpr int BK = 8, STAGES = 3, GROUP = 16, MAX_PARTS = 16;

/* The lane's sums in a slot: float4 q of thread tid at q*NT + tid, so a
 * warp moves 512 contiguous bytes per access. */
template <class T>
__device__ __forceinline__ void slot_put(float4 *s, int tid, const float (&acc)[T::TM][T::TN])
{
#pragma unroll
    for (int i = 0; i < T::TM; ++i)
#pragma unroll
        for (int w = 0; w < T::TN / 4; ++w)
            __stcg(&s[(i * (T::TN / 4) + w) * NT + tid],
                   make_float4(acc[i][4 * w], acc[i][4 * w + 1], acc[i][4 * w + 2],
                               acc[i][4 * w + 3]));
}

/* acc = the sum of the tile's s slots.  acc was dead after slot_put, so
 * it is rebuilt a quarter at a time: per quarter, the slots in a loop, 8
 * independent 16-byte loads per slot in flight (one at a time was
 * latency-bound: ~77 us per tile at s = 9, measured as a 6% loss at
 * 4096^3 on the H200). */
template <class T>
__device__ __forceinline__ void slots_sum(const float4 *first, int s, int tid,
                                          float (&acc)[T::TM][T::TN])
{
    constexpr int SLOT = T::BM * T::BN / 4, Q = T::TM * T::TN / 4, CH = 8;
    static_assert(Q % CH == 0, "whole chunks of float4");
#pragma unroll
    for (int c = 0; c < Q; c += CH) {
        float4 v[CH];
#pragma unroll
        for (int e = 0; e < CH; ++e)
            v[e] = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll 1
        for (int o = 0; o < s; ++o) {
            const float4 *p = first + (size_t)o * SLOT + c * NT + tid;
            float4 u[CH];
#pragma unroll
            for (int e = 0; e < CH; ++e)
                u[e] = __ldcg(p + e * NT);
#pragma unroll
            for (int e = 0; e < CH; ++e) {
                v[e].x += u[e].x; v[e].y += u[e].y; v[e].z += u[e].z; v[e].w += u[e].w;
            }
        }
#pragma unroll
        for (int e = 0; e < CH; ++e) {
            const int q = c + e, i = q / (T::TN / 4), w = q % (T::TN / 4);
            acc[i][4 * w] = v[e].x;
            acc[i][4 * w + 1] = v[e].y;
            acc[i][4 * w + 2] = v[e].z;
            acc[i][4 * w + 3] = v[e].w;
        }
    }
}

/* Block q does part p = q % s of tile t0 + q / s (in tile_of order),
 * over the k tiles [p*iters/s, (p+1)*iters/s). */
struct SplitTail {
    int t0, s, iters;
    float4 *ws;                         /* one slot per part */
    int *count;                         /* parts done, per split tile */

    __device__ __forceinline__ int tile(int q) const { return t0 + q / s; }
    __device__ __forceinline__ int k0(int q, int) const { return q % s * iters / s * BK; }
    __device__ __forceinline__ int kl(int q, int k) const
    {
        return min(k, (q % s + 1) * iters / s * BK) - k0(q, k);
    }
    /* The block and thread indices are read here (volatile: not hoisted),
     * so that nothing of this epilogue is computed before the k loop and
     * kept in registers across it.  (What did cost registers, 255 and
     * spills, was adding the slots into live sums: see slots_sum.) */
    template <class T>
    __device__ __forceinline__ bool finish(float (&acc)[T::TM][T::TN]) const
    {
        __shared__ int last;            /* this part was the tile's last */
        int q, tid;
        asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(q));
        asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
        const int part = q % s;
        constexpr int SLOT = T::BM * T::BN / 4;
        slot_put<T>(ws + (size_t)q * SLOT, tid, acc);
        __threadfence();                /* the slot is seen before the count */
        __syncthreads();
        if (tid == 0)
            last = atomicAdd(&count[q / s], 1) == s - 1;
        __syncthreads();
        if (!last)
            return false;
        __threadfence();
        slots_sum<T>(ws + (size_t)(q - part) * SLOT, s, tid, acc);
        return true;
    }
};

/* Parts per left-over tile: the fewest whose waves come within 1% of the
 * best time (in tile times: ceil(rest*s / slots) / s) for s <= 16; 1 (no
 * split) unless that saves at least a quarter of a tile time.  Why the
 * quarter: the parts' kernel runs its k loop ~10% slower than rung 15's
 * (its own register allocation, 233 registers against 214) and pays for
 * the slots; measured on the H200, a split saving 0.11 of a tile (4096^3,
 * s = 9) lost 1.6% against wide_tile, one saving 0.46 (8192^3, s = 13)
 * gained 2.1%. */
int parts_for(int rest, int slots, int iters)
{
    double best = 1.0;
    for (int s = 2; s <= MAX_PARTS && s <= iters; ++s)
        best = fmin(best, (double)GP_CDIV(rest * s, slots) / s);
    if (best > 0.75)
        return 1;
    for (int s = 2; s <= MAX_PARTS && s <= iters; ++s)
        if ((double)GP_CDIV(rest * s, slots) / s <= best * 1.01)
            return s;
    return 1;
}

template <bool VB>
using whole_kernel = void (*)(int, int, int, float, const float *, int, const float *, int,
                              float, float *, int, int, int, int, Whole);
template <bool VB>
using split_kernel = void (*)(int, int, int, float, const float *, int, const float *, int,
                              float, float *, int, int, int, int, SplitTail);

/* The whole tiles by rung 15's kernel (W = Whole: its SASS), then the
 * parts by a second launch.  Not one launch of the SplitTail kernel for
 * both: measured on the H200, its k loop is ~10% slower (92.9% of cuBLAS
 * at 4096^3 as one launch). */
template <bool VB>
int launch(const gemm_args *a, cudaStream_t st, gp_launch_info *info, int vec)
{
    using T = TileW;
    const whole_kernel<VB> whole = sgemm_async<T, BK, STAGES, true, GROUP, VB, Whole>;
    const split_kernel<VB> split = sgemm_async<T, BK, STAGES, true, GROUP, VB, SplitTail>;
    const size_t smem = (size_t)STAGES * Stage<T, BK>::FLOATS * sizeof(float);
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (!e) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (!e) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, whole, NT, smem);
    if (!e) e = cudaFuncSetAttribute((const void *)whole,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (!e) e = cudaFuncSetAttribute((const void *)split,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e)
        return (int)e;
    const int ntn = GP_NTILES(a->n, T::BN), ntm = GP_NTILES(a->m, T::BM), tiles = ntm * ntn;
    const int slots = sms * (per_sm > 0 ? per_sm : 1), iters = GP_CDIV(a->k, BK);
    const int rest = tiles % slots, s = parts_for(rest, slots, iters);
    const int dp = s > 1 ? tiles - rest : tiles; /* tiles done whole */
    const unsigned nsplit = (unsigned)(tiles - dp) * (unsigned)s;
    SplitTail p = { dp, s, iters, NULL, NULL };
    if (nsplit > 0) {
        const size_t bytes = (size_t)nsplit * T::BM * T::BN * sizeof(float);
        if ((e = cudaMallocAsync((void **)&p.ws, bytes + rest * sizeof(int), st)))
            return (int)e;
        p.count = (int *)((char *)p.ws + bytes);
        e = cudaMemsetAsync(p.count, 0, rest * sizeof(int), st);
    }
    /* one config for every size (charts key series by it) */
    char config[64];
    gp_sgemm_async_config<T, BK, STAGES, true, GROUP>(config, sizeof config, VB, "/split");
    const dim3 block(NT);
    if (dp > 0)                         /* the facts: the kernel of most blocks */
        gp_record(info, (const void *)whole, dim3((unsigned)dp), block, smem, config);
    else
        gp_record(info, (const void *)split, dim3(nsplit), block, smem, config);
    if (!e && dp > 0)
        whole<<<dp, block, smem, st>>>(a->m, a->n, a->k, (float)a->alpha, (const float *)a->A,
                                       a->lda, (const float *)a->B, a->ldb, (float)a->beta,
                                       (float *)a->C, a->ldc, ntm, ntn, vec, Whole());
    if (!e && nsplit > 0)
        split<<<nsplit, block, smem, st>>>(a->m, a->n, a->k, (float)a->alpha,
                                           (const float *)a->A, a->lda, (const float *)a->B,
                                           a->ldb, (float)a->beta, (float *)a->C, a->ldc, ntm,
                                           ntn, vec, p);
    if (!e)
        e = cudaPeekAtLastError();
    if (p.ws)
        cudaFreeAsync(p.ws, st);        /* after the kernels, in stream order */
    return (int)e;
}

} // namespace gp_split

extern "C" int gp_sgemm_split_tail(const gemm_args *a, cudaStream_t s, gp_launch_info *info)
{
    const int vec = gp_vec_flags(a);
    return vec & GP_VEC_B ? gp_split::launch<true>(a, s, info, vec)
                          : gp_split::launch<false>(a, s, info, vec);
}
