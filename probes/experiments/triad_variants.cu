/* triad_variants.cu - what else was tried to raise STREAM triad on the H200
 * beyond the probe's 96-variant sweep (src/probe/stream.c): array size,
 * array offsets (STREAM's OFFSET), timing ten launches per event pair, a
 * grid-stride loop, TMA bulk copies (cp.async.bulk) with an mbarrier
 * pipeline, L2 prefetch-size hints (.L2::128B/.L2::256B) and an evict-first
 * cache policy.  Not part of gemmprof's build; a standalone check:
 *     nvcc -O3 -std=c++17 -arch=sm_90 -o triad probes/experiments/triad_variants.cu && ./triad
 * Every variant's output a = b + 3c is checked (bad = elements != 7).
 * Results: reports/data/h200/triad-variants.txt. */
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("ERR %s line %d: %s\n", #x, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

__global__ void __launch_bounds__(1024) triad_v(double2 *__restrict__ a, const double2 *__restrict__ b,
                        const double2 *__restrict__ c, double q, size_t nv)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nv) {
        double2 x = __ldg(b + i), y = __ldg(c + i);
        x.x += q * y.x; x.y += q * y.y;
        __stcs(a + i, x);
    }
}

// grid-stride with U vectors in flight per thread
template <int U>
__global__ void __launch_bounds__(1024) triad_gs(double2 *__restrict__ a, const double2 *__restrict__ b,
                        const double2 *__restrict__ c, double q, size_t nv)
{
    size_t t = blockDim.x, stride = (size_t)gridDim.x * t * U;
    for (size_t i = (size_t)blockIdx.x * t * U + threadIdx.x; i + (U - 1) * t < nv; i += stride) {
        double2 x[U], y[U];
#pragma unroll
        for (int k = 0; k < U; ++k) { x[k] = __ldg(b + i + k * t); y[k] = __ldg(c + i + k * t); }
#pragma unroll
        for (int k = 0; k < U; ++k) { x[k].x += q * y[k].x; x[k].y += q * y[k].y; __stcs(a + i + k * t, x[k]); }
    }
}

// TMA bulk: chunk CH bytes per array per stage, S stages, persistent grid.
#define CH 8192
#define S 4
__device__ __forceinline__ uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__global__ void __launch_bounds__(128) triad_bulk(double *a, const double *b, const double *c, double q, size_t nchunks)
{
    extern __shared__ __align__(128) unsigned char sm[];
    double *sb = (double *)sm;                      // S * CH
    double *sc = (double *)(sm + S * CH);           // S * CH
    double *so = (double *)(sm + 2 * S * CH);       // 2 * CH output
    __shared__ __align__(8) uint64_t bar[S];
    const int per = CH / 8;
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar[s])));
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    size_t first = blockIdx.x, step = gridDim.x;
    auto issue = [&](size_t ch, int s) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sa(&bar[s])), "r"(2 * CH) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(sa(sb + s * per)), "l"(b + ch * per), "r"(CH), "r"(sa(&bar[s])) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(sa(sc + s * per)), "l"(c + ch * per), "r"(CH), "r"(sa(&bar[s])) : "memory");
    };
    if (threadIdx.x == 0)
        for (int s = 0; s < S; ++s) {
            size_t ch = first + (size_t)s * step;
            if (ch < nchunks) issue(ch, s);
        }
    int it = 0;
    for (size_t ch = first; ch < nchunks; ch += step, ++it) {
        int s = it % S;
        uint32_t phase = (it / S) & 1;
        uint32_t done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(sa(&bar[s])), "r"(phase) : "memory");
        int o = it & 1;
        // output buffer o went to a bulk store two iterations ago: wait until it was read
        if (threadIdx.x == 0)
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
        __syncthreads();
        for (int j = threadIdx.x * 2; j < per; j += blockDim.x * 2) {
            double2 x = *(double2 *)(sb + s * per + j), y = *(double2 *)(sc + s * per + j);
            x.x += q * y.x; x.y += q * y.y;
            *(double2 *)(so + o * per + j) = x;
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                         :: "l"(a + ch * per), "r"(sa(so + o * per)), "r"(CH) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            size_t nx = ch + (size_t)S * step;
            if (nx < nchunks) issue(nx, s);
        }
    }
    if (threadIdx.x == 0)
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}


template <int PF>
__global__ void __launch_bounds__(1024) triad_pf(double2 *__restrict__ a, const double2 *__restrict__ b,
                        const double2 *__restrict__ c, double q, size_t nv)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nv) {
        double2 x, y;
        if (PF == 256) {
            asm volatile("ld.global.nc.L2::256B.v2.f64 {%0,%1}, [%2];" : "=d"(x.x), "=d"(x.y) : "l"(b + i));
            asm volatile("ld.global.nc.L2::256B.v2.f64 {%0,%1}, [%2];" : "=d"(y.x), "=d"(y.y) : "l"(c + i));
        } else {
            asm volatile("ld.global.nc.L2::128B.v2.f64 {%0,%1}, [%2];" : "=d"(x.x), "=d"(x.y) : "l"(b + i));
            asm volatile("ld.global.nc.L2::128B.v2.f64 {%0,%1}, [%2];" : "=d"(y.x), "=d"(y.y) : "l"(c + i));
        }
        x.x += q * y.x; x.y += q * y.y;
        __stcs(a + i, x);
    }
}
__global__ void __launch_bounds__(1024) triad_ef(double2 *__restrict__ a, const double2 *__restrict__ b,
                        const double2 *__restrict__ c, double q, size_t nv)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nv) {
        double2 x, y;
        uint64_t pol;
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("ld.global.nc.L2::cache_hint.L2::256B.v2.f64 {%0,%1}, [%2], %3;" : "=d"(x.x), "=d"(x.y) : "l"(b + i), "l"(pol));
        asm volatile("ld.global.nc.L2::cache_hint.L2::256B.v2.f64 {%0,%1}, [%2], %3;" : "=d"(y.x), "=d"(y.y) : "l"(c + i), "l"(pol));
        x.x += q * y.x; x.y += q * y.y;
        asm volatile("st.global.L2::cache_hint.v2.f64 [%0], {%1,%2}, %3;" :: "l"(a + i), "d"(x.x), "d"(x.y), "l"(pol) : "memory");
    }
}

__global__ void fill(double *x, size_t n, double v) { for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) x[i] = v; }
__global__ void count_ne(const double *x, size_t n, double v, unsigned long long *cnt) {
    unsigned long long k = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) k += x[i] != v;
    atomicAdd(cnt, k);
}

static double THEO; /* GB/s: 2 x memory clock x bus width, from the device */

template <class F> static double bench(const char *name, size_t n, F launch, double *a, int reps = 20, int batch = 1)
{
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    CK(cudaMemset(a, 0, n * 8));
    launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        CK(cudaEventRecord(e0));
        for (int j = 0; j < batch; ++j) launch();
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms / batch);
    }
    std::sort(t.begin(), t.end());
    double gbs = 3.0 * n * 8 / (t[0] * 1e-3) / 1e9, med = 3.0 * n * 8 / (t[reps / 2] * 1e-3) / 1e9;
    unsigned long long *cnt; CK(cudaMalloc(&cnt, 8)); CK(cudaMemset(cnt, 0, 8));
    count_ne<<<1024, 256>>>(a, n, 7.0, cnt); unsigned long long h; CK(cudaMemcpy(&h, cnt, 8, cudaMemcpyDeviceToHost)); cudaFree(cnt);
    printf("  %-44s %8.0f GB/s best (%5.2f%%)  median %8.0f  bad=%llu\n", name, gbs, 100 * gbs / THEO, med, h);
    return gbs;
}

static void run_size(char *base, size_t bytes)
{
    size_t n = bytes / 8, nv = n / 2;
    unsigned g = (unsigned)((nv + 1023) / 1024);
    const size_t offs[] = {0, 4096, 1234432};
    char nm[96];
    for (size_t off : offs) {
        double *a = (double *)base, *b = (double *)(base + bytes + off),
               *c = (double *)(base + 2 * (bytes + off));
        fill<<<1024, 256>>>(b, n, 1);
        fill<<<1024, 256>>>(c, n, 2);
        snprintf(nm, sizeof nm, "one-shot 1024 thr, offset %zu B", off);
        bench(nm, n, [&] { triad_v<<<g, 1024>>>((double2 *)a, (double2 *)b, (double2 *)c, 3.0, nv); }, a);
        if (off)
            continue;
        snprintf(nm, sizeof nm, "one-shot, 10 launches per event pair");
        bench(nm, n, [&] { triad_v<<<g, 1024>>>((double2 *)a, (double2 *)b, (double2 *)c, 3.0, nv); }, a, 10, 10);
        bench("grid-stride 264 x 1024, x2 in flight", n, [&] { triad_gs<2><<<264, 1024>>>((double2 *)a, (double2 *)b, (double2 *)c, 3.0, nv); }, a);
        bench("ld .L2::256B prefetch hint", n, [&] { triad_pf<256><<<g, 1024>>>((double2 *)a, (double2 *)b, (double2 *)c, 3.0, nv); }, a);
        bench("ld .L2::128B prefetch hint", n, [&] { triad_pf<128><<<g, 1024>>>((double2 *)a, (double2 *)b, (double2 *)c, 3.0, nv); }, a);
        bench("evict_first policy + .L2::256B", n, [&] { triad_ef<<<g, 1024>>>((double2 *)a, (double2 *)b, (double2 *)c, 3.0, nv); }, a);
        size_t smem = 2 * S * CH + 2 * CH;
        CK(cudaFuncSetAttribute(triad_bulk, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        int nb;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, triad_bulk, 128, smem));
        snprintf(nm, sizeof nm, "TMA bulk, %d x 128 thr, 4 stages of 8 KiB", 132 * nb);
        bench(nm, n, [&] { triad_bulk<<<132 * nb, 128, smem>>>(a, b, c, 3.0, bytes / CH); }, a);
    }
}

int main()
{
    const size_t sizes[] = {(size_t)480 << 20, (size_t)2 << 30, (size_t)4 << 30};
    int khz, bits;
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0));
    CK(cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    THEO = 2.0 * khz * 1e3 * bits / 8 / 1e9;
    printf("# theoretical %.0f GB/s = 2 x %d MHz x %d bit / 8\n", THEO, khz / 1000, bits);
    char *base;
    CK(cudaMalloc(&base, 3 * sizes[2] + 2 * 1234432));
    for (size_t bytes : sizes) {
        printf("# %zu MiB per array (3 arrays), double2 per thread, best of 20 after a dropped run\n", bytes >> 20);
        run_size(base, bytes);
    }
    return 0;
}
