/* stream.cu - STREAM kernels after BabelStream: copy, scale, add, triad and
 * a read-only sum, for float and double, in the variants probe_kernels.h
 * describes (vectors per thread, block size, grid shape, cache hint), so
 * the probe can find the one that reaches the machine's real bandwidth.
 * Bulk traffic is 16-byte vectors (cudaMalloc aligns to 256 bytes), then a
 * scalar tail, so any n works. */
#include <cuda_runtime.h>
#include "probes.h"

template <typename T> union V16 {
    enum { N = 16 / sizeof(T) };
    int4 raw;
    T e[N];
};

template <int H, typename T>
__device__ __forceinline__ V16<T> ld16(const T *p, size_t i)
{
    const int4 *q = reinterpret_cast<const int4 *>(p) + i;
    V16<T> v;
    if (H == GP_HINT_CS)
        v.raw = __ldcs(q);
    else if (H == GP_HINT_NC || H == GP_HINT_NC_CS)
        v.raw = __ldg(q);
    else
        v.raw = *q;
    return v;
}

template <int H, typename T>
__device__ __forceinline__ void st16(T *p, size_t i, const V16<T> &v)
{
    int4 *q = reinterpret_cast<int4 *>(p) + i;
    if (H == GP_HINT_CS || H == GP_HINT_NC_CS)
        __stcs(q, v.raw);
    else
        *q = v.raw;
}

/* Every kernel takes the same arguments, so one function pointer type
 * launches them all. */
template <typename T> struct Arrays {
    T *a, *b, *c, *partials;
    T q;
};

/* One struct per operation: load() reads 16 bytes of each input array,
 * store() computes and writes 16 bytes of the output, one() is an element
 * of the scalar tail.  Split so the kernel can issue all its loads before
 * any store: the compiler may not move a load above a store to an array
 * it cannot prove distinct. */
template <typename T, int OP, int H> struct Op;

template <typename T, int H> struct Op<T, GP_STREAM_COPY, H> {
    struct In { V16<T> x; };
    static __device__ In load(const Arrays<T> &s, size_t i)
    {
        return In{ld16<H>(s.a, i)};
    }
    static __device__ void store(const Arrays<T> &s, size_t i, const In &v)
    {
        st16<H>(s.c, i, v.x);
    }
    static __device__ void one(const Arrays<T> &s, size_t i) { s.c[i] = s.a[i]; }
};

template <typename T, int H> struct Op<T, GP_STREAM_SCALE, H> {
    struct In { V16<T> x; };
    static __device__ In load(const Arrays<T> &s, size_t i)
    {
        return In{ld16<H>(s.c, i)};
    }
    static __device__ void store(const Arrays<T> &s, size_t i, In v)
    {
#pragma unroll
        for (int k = 0; k < V16<T>::N; ++k)
            v.x.e[k] *= s.q;
        st16<H>(s.b, i, v.x);
    }
    static __device__ void one(const Arrays<T> &s, size_t i)
    {
        s.b[i] = s.q * s.c[i];
    }
};

template <typename T, int H> struct Op<T, GP_STREAM_ADD, H> {
    struct In { V16<T> x, y; };
    static __device__ In load(const Arrays<T> &s, size_t i)
    {
        return In{ld16<H>(s.a, i), ld16<H>(s.b, i)};
    }
    static __device__ void store(const Arrays<T> &s, size_t i, In v)
    {
#pragma unroll
        for (int k = 0; k < V16<T>::N; ++k)
            v.x.e[k] += v.y.e[k];
        st16<H>(s.c, i, v.x);
    }
    static __device__ void one(const Arrays<T> &s, size_t i)
    {
        s.c[i] = s.a[i] + s.b[i];
    }
};

template <typename T, int H> struct Op<T, GP_STREAM_TRIAD, H> {
    struct In { V16<T> x, y; };
    static __device__ In load(const Arrays<T> &s, size_t i)
    {
        return In{ld16<H>(s.b, i), ld16<H>(s.c, i)};
    }
    static __device__ void store(const Arrays<T> &s, size_t i, In v)
    {
#pragma unroll
        for (int k = 0; k < V16<T>::N; ++k)
            v.x.e[k] += s.q * v.y.e[k];
        st16<H>(s.a, i, v.x);
    }
    static __device__ void one(const Arrays<T> &s, size_t i)
    {
        s.a[i] = s.b[i] + s.q * s.c[i];
    }
};

/* Block b's iteration covers threads x U consecutive vectors, thread t
 * taking t, t + threads, ...: each load instruction of a warp is 512
 * contiguous bytes, and a thread has U (x inputs) loads in flight.  The
 * chunk the array ends in is partial: its threads take what is left. */
template <typename T, int OP, int U, int H>
__global__ void stream_kernel(Arrays<T> s, size_t n)
{
    typedef Op<T, OP, H> F;
    const size_t nv = n / V16<T>::N, t = blockDim.x;
    const size_t stride = (size_t)gridDim.x * t * U;
    size_t i = blockIdx.x * t * U + threadIdx.x;
    for (; i + (U - 1) * t < nv; i += stride) {
        typename F::In v[U];
#pragma unroll
        for (int k = 0; k < U; ++k)
            v[k] = F::load(s, i + k * t);
#pragma unroll
        for (int k = 0; k < U; ++k)
            F::store(s, i + k * t, v[k]);
    }
    for (; i < nv; i += t)
        F::store(s, i, F::load(s, i));
    for (i = nv * V16<T>::N + blockIdx.x * t + threadIdx.x; i < n;
         i += (size_t)gridDim.x * t)
        F::one(s, i);
}

/* Block sum of one value per thread (blockDim a multiple of 32); thread 0
 * gets the total. */
template <typename T> __device__ T block_sum(T v)
{
    __shared__ T warp_sums[32];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0)
        warp_sums[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : (T)0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
    }
    return v;
}

/* The same walk as stream_kernel, summing a; the store hint is moot. */
template <typename T, int U, int H>
__global__ void read_kernel(Arrays<T> s, size_t n)
{
    const size_t nv = n / V16<T>::N, t = blockDim.x;
    const size_t stride = (size_t)gridDim.x * t * U;
    size_t i = blockIdx.x * t * U + threadIdx.x;
    T sum = 0;
    for (; i + (U - 1) * t < nv; i += stride) {
        V16<T> v[U];
#pragma unroll
        for (int k = 0; k < U; ++k)
            v[k] = ld16<H>(s.a, i + k * t);
#pragma unroll
        for (int k = 0; k < U; ++k)
#pragma unroll
            for (int e = 0; e < V16<T>::N; ++e)
                sum += v[k].e[e];
    }
    for (; i < nv; i += t) {
        V16<T> v = ld16<H>(s.a, i);
#pragma unroll
        for (int e = 0; e < V16<T>::N; ++e)
            sum += v.e[e];
    }
    for (i = nv * V16<T>::N + blockIdx.x * t + threadIdx.x; i < n;
         i += (size_t)gridDim.x * t)
        sum += s.a[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        s.partials[blockIdx.x] = sum;
}

template <typename T> using Kern = void (*)(Arrays<T>, size_t);

template <typename T, int U, int H> static Kern<T> pick_op(int op)
{
    switch (op) {
    case GP_STREAM_COPY:  return stream_kernel<T, GP_STREAM_COPY, U, H>;
    case GP_STREAM_SCALE: return stream_kernel<T, GP_STREAM_SCALE, U, H>;
    case GP_STREAM_ADD:   return stream_kernel<T, GP_STREAM_ADD, U, H>;
    case GP_STREAM_TRIAD: return stream_kernel<T, GP_STREAM_TRIAD, U, H>;
    case GP_STREAM_READ:  return read_kernel<T, U, H>;
    default:              return nullptr;
    }
}

template <typename T, int U> static Kern<T> pick_hint(int op, int hint)
{
    switch (hint) {
    case GP_HINT_PLAIN: return pick_op<T, U, GP_HINT_PLAIN>(op);
    case GP_HINT_CS:    return pick_op<T, U, GP_HINT_CS>(op);
    case GP_HINT_NC:    return pick_op<T, U, GP_HINT_NC>(op);
    case GP_HINT_NC_CS: return pick_op<T, U, GP_HINT_NC_CS>(op);
    default:            return nullptr;
    }
}

/* The kernel instance for (op, variant), nullptr for one we don't have. */
template <typename T> static Kern<T> pick(int op, const gp_stream_variant *v)
{
    if (!v || v->threads < 32 || v->threads > 1024 || v->threads % 32)
        return nullptr;
    switch (v->unroll) {
    case 1: return pick_hint<T, 1>(op, v->hint);
    case 2: return pick_hint<T, 2>(op, v->hint);
    case 4: return pick_hint<T, 4>(op, v->hint);
    case 8: return pick_hint<T, 8>(op, v->hint);
    default: return nullptr;
    }
}

static const int sweep_unroll[] = {1, 2, 4, 8};
static const int sweep_threads[] = {256, 512, 1024};
enum { N_UNROLL = 4, N_THREADS = 3, N_GRIDS = 2 };

extern "C" int gp_stream_variant_count(void)
{
    return N_UNROLL * N_THREADS * N_GRIDS * GP_HINT_N;
}

extern "C" gp_stream_variant gp_stream_variant_at(int i)
{
    gp_stream_variant v;
    v.hint = i % GP_HINT_N;
    i /= GP_HINT_N;
    v.one_shot = i % N_GRIDS;
    i /= N_GRIDS;
    v.threads = sweep_threads[i % N_THREADS];
    v.unroll = sweep_unroll[i / N_THREADS % N_UNROLL];
    return v;
}

extern "C" int gp_stream_blocks_per_sm(int op, int fp64,
                                       const gp_stream_variant *v)
{
    const void *f = fp64 ? (const void *)pick<double>(op, v)
                         : (const void *)pick<float>(op, v);
    int nb = 0;
    if (!f || cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                  &nb, f, v->threads, 0) != cudaSuccess) {
        cudaGetLastError();     /* launchers report the last error: clear */
        return 0;
    }
    return nb;
}

extern "C" int gp_stream_grid(int op, int fp64, const gp_stream_variant *v,
                              size_t n, int sm_count)
{
    int nb = gp_stream_blocks_per_sm(op, fp64, v);
    if (nb < 1 || sm_count < 1)
        return 0;
    if (!v->one_shot)
        return nb * sm_count;
    size_t chunk = (size_t)v->threads * v->unroll;
    size_t b = (n / (fp64 ? 2 : 4) + chunk - 1) / chunk;
    return b < 1 ? 1 : b > 0x7fffffff ? 0 : (int)b;
}

template <typename T>
static int launch(int op, const gp_stream_variant *v, Arrays<T> a, size_t n,
                  int blocks, cudaStream_t s)
{
    Kern<T> k = pick<T>(op, v);
    if (!k)
        return (int)cudaErrorInvalidValue;
    k<<<blocks, v->threads, 0, s>>>(a, n);
    return (int)cudaGetLastError();
}

extern "C" int gp_stream_launch(int op, int fp64, const gp_stream_variant *v,
                                void *a, void *b, void *c, double q, size_t n,
                                void *partials, int blocks, cudaStream_t s)
{
    if (blocks < 1)
        return (int)cudaErrorInvalidValue;
    if (fp64)
        return launch<double>(op, v, Arrays<double>{(double *)a, (double *)b,
                              (double *)c, (double *)partials, q}, n, blocks, s);
    return launch<float>(op, v, Arrays<float>{(float *)a, (float *)b,
                         (float *)c, (float *)partials, (float)q}, n, blocks, s);
}

template <typename T>
__global__ void fill_kernel(T *x, size_t n, T v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = v;
}

template <typename T>
__global__ void count_ne_kernel(const T *x, size_t n, T v,
                                unsigned long long *count)
{
    unsigned long long bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        bad += !(x[i] == v);    /* NaN counts as a mismatch */
    if (bad)
        atomicAdd(count, bad);
}

static int grid_for(size_t n)
{
    size_t b = (n + GP_PROBE_THREADS - 1) / GP_PROBE_THREADS;
    return b < 1 ? 1 : b > 65535 ? 65535 : (int)b;
}

extern "C" int gp_stream_fill(int fp64, void *x, size_t n, double v,
                              cudaStream_t s)
{
    if (fp64)
        fill_kernel<<<grid_for(n), GP_PROBE_THREADS, 0, s>>>((double *)x, n, v);
    else
        fill_kernel<<<grid_for(n), GP_PROBE_THREADS, 0, s>>>((float *)x, n,
                                                             (float)v);
    return (int)cudaGetLastError();
}

extern "C" int gp_stream_count_ne(int fp64, const void *x, size_t n, double v,
                                  unsigned long long *count, int blocks,
                                  cudaStream_t s)
{
    if (blocks < 1)
        return (int)cudaErrorInvalidValue;
    if (fp64)
        count_ne_kernel<<<blocks, GP_PROBE_THREADS, 0, s>>>(
            (const double *)x, n, v, count);
    else
        count_ne_kernel<<<blocks, GP_PROBE_THREADS, 0, s>>>(
            (const float *)x, n, (float)v, count);
    return (int)cudaGetLastError();
}
