/* dfma_issue.cu - where rung 08 (dgemm_warptiling) loses its DFMA issue
 * rate, one ingredient at a time.  Each variant runs the rung's own inner
 * loop pieces (dw::frags, dw::outer from kernels/dgemm_dfma_warptile.cuh)
 * on a fixed grid with no global traffic in the loop, and reports FP64
 * TFLOP/s and % of the FMA probe's shape measured in the same run:
 *   chains      probe shape: 8 chains x = fma(x, a, b), a and b constant
 *               (fully reused operands), 2048 threads/SM
 *   chains_2w   the same at 2 warps per scheduler (the rung's occupancy)
 *   chains3     as chains, but x = fma(y, z, x) with three distinct
 *               registers per DFMA (nothing for the operand reuse cache)
 *   outer_regs  8x8 outer product from fragments held in registers
 *               (two alternating sets), 2 or 1 blocks of 128 per SM
 *   outer_lds   + fragments loaded by LDS.128 from shared, double-buffered,
 *               as the rung does (no barrier)
 *   outer_bar   + one __syncthreads per 16 k steps, as the rung
 *   ... snake   the same with odd rows of the outer product walked right
 *               to left (rung 12, dgemm_dfma_reuse)
 * The rung itself (+ cp.async copies, edges, epilogue) is timed by gemmprof.
 * Not part of gemmprof's build; a standalone check:
 *   nvcc -O3 -std=c++17 -arch=sm_90 -Isrc -Ikernels -o dfma \
 *        probes/experiments/dfma_issue.cu && ./dfma
 * Every variant's output is checked against the same arithmetic done in
 * FP64 on the host for one thread (bad = mismatches). */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include "dgemm_dfma_warptile.cuh"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("ERR %s line %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

using dw::AS;
using dw::BN;
constexpr int KT = 16;                /* k steps per "tile" (rung: BK 16) */

__global__ void __launch_bounds__(256) chains(double *out, int iters, double a, double b)
{
    double x[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) x[c] = c;
#pragma unroll 4
    for (int i = 0; i < iters; ++i)
#pragma unroll
        for (int c = 0; c < 8; ++c) x[c] = fma(x[c], a, b);
    double s = 0;
#pragma unroll
    for (int c = 0; c < 8; ++c) s += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* as chains, but each DFMA reads three different registers (no operand
 * the reuse cache can serve): x[c] = fma(y[c], z[c], x[c]) */
__global__ void __launch_bounds__(256) chains3(double *out, int iters, double a, double b)
{
    double x[8], y[8], z[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) { x[c] = c; y[c] = a + c * 1e-3; z[c] = b * (c + 1); }
#pragma unroll 4
    for (int i = 0; i < iters; ++i)
#pragma unroll
        for (int c = 0; c < 8; ++c) x[c] = fma(y[c], z[c], x[c]);
    double s = 0;
#pragma unroll
    for (int c = 0; c < 8; ++c) s += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__device__ __forceinline__ void sum_out(double *out, const double (&acc)[8][8])
{
    double s = 0;
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) s += acc[i][j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* fragments from a small global table, kept in registers */
template <int MINB, bool SNAKE>
__global__ void __launch_bounds__(128, MINB) outer_regs(double *out, const double2 *frag, int tiles)
{
    double2 a[2][4], b[2][4];
#pragma unroll
    for (int s = 0; s < 2; ++s)
#pragma unroll
        for (int i = 0; i < 4; ++i) { a[s][i] = frag[8 * s + i]; b[s][i] = frag[8 * s + 4 + i]; }
    double acc[8][8] = {};
    for (int t = 0; t < tiles; ++t)
#pragma unroll
        for (int kk = 0; kk < KT; ++kk) {
            /* "new" fragments each k step, with no instruction: the
             * compiler may not keep anything derived from the old ones */
#pragma unroll
            for (int i = 0; i < 4; ++i)
                asm volatile("" : "+d"(a[kk & 1][i].x), "+d"(a[kk & 1][i].y),
                                  "+d"(b[kk & 1][i].x), "+d"(b[kk & 1][i].y));
            dw::outer<SNAKE>(acc, a[kk & 1], b[kk & 1]);
        }
    sum_out(out, acc);
}

/* the rung's fragment path: As[k][m] (stride AS), Bs[k][n], the lane's
 * offsets as in dgemm_dfma_warptile, k+1 loaded while k's DFMAs issue */
template <bool BAR, bool SNAKE>
__global__ void __launch_bounds__(128, 2) outer_lds(double *out, const double *src, int tiles)
{
    __shared__ __align__(16) double As[KT * AS];
    __shared__ __align__(16) double Bs[KT * BN];
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    for (int i = tid; i < KT * AS; i += 128) As[i] = src[i % 64];
    for (int i = tid; i < KT * BN; i += 128) Bs[i] = src[i % 64];
    __syncthreads();
    int lr = ((lane >> 1) & 1) | ((lane >> 3) & 2);
    int lc = (lane & 1) | ((lane >> 1) & 6);
    int aoff = (warp >> 1) * 32 + 2 * lr, boff = (warp & 1) * 64 + 2 * lc;
    double acc[8][8] = {};
    for (int t = 0; t < tiles; ++t) {
        if (BAR) __syncthreads();
        else asm volatile("" ::: "memory");   /* reload: no hoisting */
        double2 a[2][4], b[2][4];
        dw::frags<dw::Cfg<KT, 3>>(As, Bs, 0, aoff, boff, a[0], b[0]);
#pragma unroll
        for (int kk = 0; kk < KT; ++kk) {
            if (kk + 1 < KT)
                dw::frags<dw::Cfg<KT, 3>>(As, Bs, kk + 1, aoff, boff, a[(kk + 1) & 1], b[(kk + 1) & 1]);
            dw::outer<SNAKE>(acc, a[kk & 1], b[kk & 1]);
        }
    }
    sum_out(out, acc);
}

static double best_ms(void (*go)(void *), void *ctx, int reps)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    go(ctx); CK(cudaDeviceSynchronize());   /* warm-up */
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        CK(cudaEventRecord(e0)); go(ctx); CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        best = std::min(best, (double)ms);
    }
    CK(cudaGetLastError());
    return best;
}

/* kinds: 0 chains, 5 chains3 (8 FMA chains per thread); 1-4 outer product
 * (regs 2 or 1 blocks/SM, lds, lds+bar); 10 + k: kind k in snake order,
 * which reorders independent accumulators only, so k's sums still hold */
static bool is_chains(int kind) { return kind == 0 || kind == 5; }
static int unsnaked(int kind) { return kind > 10 ? kind - 10 : kind; }

struct Ctx { int kind, blocks, threads, iters; double *out; const double2 *frag; const double *src; };

static void go(void *p)
{
    Ctx *c = (Ctx *)p;
    switch (c->kind) {
    case 0: chains<<<c->blocks, c->threads>>>(c->out, c->iters, 1.0000001, 1e-9); break;
    case 5: chains3<<<c->blocks, c->threads>>>(c->out, c->iters, 1.0000001, 1e-9); break;
    case 1: outer_regs<2, false><<<c->blocks, 128>>>(c->out, c->frag, c->iters); break;
    case 2: outer_regs<1, false><<<c->blocks, 128>>>(c->out, c->frag, c->iters); break;
    case 3: outer_lds<false, false><<<c->blocks, 128>>>(c->out, c->src, c->iters); break;
    case 4: outer_lds<true, false><<<c->blocks, 128>>>(c->out, c->src, c->iters); break;
    case 11: outer_regs<2, true><<<c->blocks, 128>>>(c->out, c->frag, c->iters); break;
    case 13: outer_lds<false, true><<<c->blocks, 128>>>(c->out, c->src, c->iters); break;
    case 14: outer_lds<true, true><<<c->blocks, 128>>>(c->out, c->src, c->iters); break;
    }
}

/* one thread's expected output, same operation order per accumulator */
static double expect(int kind_, int iters, const double *fr, const double *src, int tid)
{
    int kind = unsnaked(kind_);
    if (is_chains(kind)) {
        double s = 0;
        for (int c = 0; c < 8; ++c) {
            double x = c, y = 1.0000001 + c * 1e-3, z = 1e-9 * (c + 1);
            for (int i = 0; i < iters; ++i)
                x = kind == 0 ? fma(x, 1.0000001, 1e-9) : fma(y, z, x);
            s += x;
        }
        return s;
    }
    double acc[8][8] = {};
    double a[2][8], b[2][8];
    int lane = tid & 31, warp = tid >> 5;
    int lr = ((lane >> 1) & 1) | ((lane >> 3) & 2), lc = (lane & 1) | ((lane >> 1) & 6);
    int aoff = (warp >> 1) * 32 + 2 * lr, boff = (warp & 1) * 64 + 2 * lc;
    for (int s = 0; s < 2; ++s)
        for (int i = 0; i < 8; ++i) {
            if (kind <= 2) { a[s][i] = fr[16 * s + i]; b[s][i] = fr[16 * s + 8 + i]; }
        }
    for (int t = 0; t < iters; ++t)
        for (int kk = 0; kk < KT; ++kk) {
            double av[8], bv[8];
            for (int i = 0; i < 8; ++i) {
                if (kind <= 2) { av[i] = a[kk & 1][i]; bv[i] = b[kk & 1][i]; }
                else {
                    av[i] = src[(kk * AS + aoff + 8 * (i >> 1) + (i & 1)) % 64];
                    bv[i] = src[(kk * BN + boff + 16 * (i >> 1) + (i & 1)) % 64];
                }
            }
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j) acc[i][j] = fma(av[i], bv[j], acc[i][j]);
        }
    double s = 0;
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) s += acc[i][j];
    return s;
}

int main()
{
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    int sms = p.multiProcessorCount, clk = 0;
    CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    printf("# device: %s, %d SMs, max clock %d MHz\n", p.name, sms, clk / 1000);
    printf("# FLOP = 2 per DFMA lane; %% chains = of the chains variant in this run (the probe's shape)\n");
    double *out, *src; double2 *frag;
    size_t maxthreads = (size_t)sms * 2048;
    CK(cudaMalloc(&out, maxthreads * sizeof(double)));
    /* small exact values: every sum is exact in FP64 */
    std::vector<double> h(64);
    for (int i = 0; i < 64; ++i) h[i] = (double)((i * 37) % 11 - 5) / 64.0;
    CK(cudaMalloc(&src, 64 * sizeof(double)));
    CK(cudaMemcpy(src, h.data(), 64 * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&frag, 16 * sizeof(double2)));
    /* frag table: set s, a at [16s..16s+7], b at [16s+8..16s+15] as doubles */
    std::vector<double> fr(32);
    for (int i = 0; i < 32; ++i) fr[i] = h[(i * 5) % 64];
    CK(cudaMemcpy(frag, fr.data(), 32 * sizeof(double), cudaMemcpyHostToDevice));

    struct V { const char *name; int kind, blocks_per_sm, threads, iters; };
    const V vs[] = {
        {"chains (2048 thr/SM)", 0, 8, 256, 8192},
        {"chains_2w (256 thr/SM)", 0, 1, 256, 8192 * 8},
        {"chains3 (2048 thr/SM)", 5, 8, 256, 8192},
        {"chains3_2w (256 thr/SM)", 5, 1, 256, 8192 * 8},
        {"outer_regs 2x128/SM", 1, 2, 128, 2048},
        {"outer_regs 1x128/SM", 2, 1, 128, 4096},
        {"outer_lds 2x128/SM", 3, 2, 128, 2048},
        {"outer_lds+bar 2x128/SM", 4, 2, 128, 2048},
        {"outer_regs snake", 11, 2, 128, 2048},
        {"outer_lds snake", 13, 2, 128, 2048},
        {"outer_lds+bar snake", 14, 2, 128, 2048},
    };
    double base = 0;
    printf("%-26s %6s %10s %9s %9s %5s\n", "variant", "w/sch", "ms", "TFLOP/s", "%chains", "bad");
    for (const V &v : vs) {
        Ctx c = {v.kind, sms * v.blocks_per_sm, v.threads, v.iters, out, frag, src};
        size_t nthr = (size_t)c.blocks * v.threads;
        CK(cudaMemset(out, 0xff, nthr * sizeof(double)));   /* NaN poison */
        double ms = best_ms(go, &c, 10);
        double fma_per_thr = is_chains(v.kind) ? 8.0 * v.iters : 64.0 * KT * v.iters;
        double tf = 2.0 * fma_per_thr * nthr / (ms * 1e-3) / 1e12;
        if (v.kind == 0 && base == 0) base = tf;
        std::vector<double> o(nthr);
        CK(cudaMemcpy(o.data(), out, nthr * sizeof(double), cudaMemcpyDeviceToHost));
        long bad = 0;
        std::vector<double> e(v.threads);   /* depends on tid % threads only */
        for (int t = 0; t < v.threads; ++t)
            e[t] = (is_chains(v.kind) && t > 0) ? e[0] : expect(v.kind, v.iters, fr.data(), h.data(), t);
        for (size_t t = 0; t < nthr; ++t) {
            double x = e[t % v.threads];
            if (!(std::fabs(o[t] - x) <= 1e-9 * std::max(1.0, std::fabs(x)))) ++bad;
        }
        printf("%-26s %6d %10.4f %9.2f %9.1f %5ld\n", v.name, v.blocks_per_sm * v.threads / 128,
               ms, tf, 100.0 * tf / base, bad);
    }
    return 0;
}
