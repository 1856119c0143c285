/* stream.cu - STREAM kernels after BabelStream: copy, scale, add, triad and
 * a read-only sum, for float and double.  Grid-stride loops over 16-byte
 * vectors (cudaMalloc aligns to 256 bytes), then a scalar tail, so any n
 * works and the bulk of the traffic is LDG.128/STG.128. */
#include <cuda_runtime.h>
#include "probe_kernels.h"

template <typename T> struct alignas(16) V16 {
    enum { N = 16 / sizeof(T) };
    T e[N];
};

template <typename T>
__device__ __forceinline__ V16<T> ld16(const T *p, size_t i)
{
    return reinterpret_cast<const V16<T> *>(p)[i];
}

template <typename T>
__device__ __forceinline__ void st16(T *p, size_t i, const V16<T> &v)
{
    reinterpret_cast<V16<T> *>(p)[i] = v;
}

/* One functor per operation.  load() reads 16 bytes of each input array,
 * store() computes and writes 16 bytes of the output; one() is a single
 * element of the tail.  Split so the kernel can issue the loads of two
 * vectors before either store: without restrict the compiler may not move
 * a load above a store, and one 16-byte load per thread in flight is too
 * few bytes in flight to cover HBM latency. */
template <typename T> struct Copy {
    const T *a; T *c;
    struct In { V16<T> x; };
    __device__ In load(size_t i) const { return In{ld16(a, i)}; }
    __device__ void store(size_t i, const In &v) const { st16(c, i, v.x); }
    __device__ void one(size_t i) const { c[i] = a[i]; }
};

template <typename T> struct Scale {
    T *b; const T *c; T q;
    struct In { V16<T> x; };
    __device__ In load(size_t i) const { return In{ld16(c, i)}; }
    __device__ void store(size_t i, In v) const
    {
#pragma unroll
        for (int k = 0; k < V16<T>::N; ++k)
            v.x.e[k] *= q;
        st16(b, i, v.x);
    }
    __device__ void one(size_t i) const { b[i] = q * c[i]; }
};

template <typename T> struct Add {
    const T *a, *b; T *c;
    struct In { V16<T> x, y; };
    __device__ In load(size_t i) const { return In{ld16(a, i), ld16(b, i)}; }
    __device__ void store(size_t i, In v) const
    {
#pragma unroll
        for (int k = 0; k < V16<T>::N; ++k)
            v.x.e[k] += v.y.e[k];
        st16(c, i, v.x);
    }
    __device__ void one(size_t i) const { c[i] = a[i] + b[i]; }
};

template <typename T> struct Triad {
    T *a; const T *b, *c; T q;
    struct In { V16<T> x, y; };
    __device__ In load(size_t i) const { return In{ld16(b, i), ld16(c, i)}; }
    __device__ void store(size_t i, In v) const
    {
#pragma unroll
        for (int k = 0; k < V16<T>::N; ++k)
            v.x.e[k] += q * v.y.e[k];
        st16(a, i, v.x);
    }
    __device__ void one(size_t i) const { a[i] = b[i] + q * c[i]; }
};

template <typename T, class F>
__global__ void __launch_bounds__(GP_PROBE_THREADS) stream_kernel(F f, size_t n)
{
    const size_t nv = n / V16<T>::N;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; i + stride < nv; i += 2 * stride) {
        typename F::In u = f.load(i), w = f.load(i + stride);
        f.store(i, u);
        f.store(i + stride, w);
    }
    if (i < nv)
        f.store(i, f.load(i));
    for (i = nv * V16<T>::N + blockIdx.x * (size_t)blockDim.x + threadIdx.x;
         i < n; i += stride)
        f.one(i);
}

/* Block sum of one value per thread; thread 0 gets the total. */
template <typename T> __device__ T block_sum(T v)
{
    __shared__ T warp_sums[GP_PROBE_THREADS / 32];
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

template <typename T>
__global__ void __launch_bounds__(GP_PROBE_THREADS)
read_kernel(const T *__restrict__ a, size_t n, T *partials)
{
    const size_t nv = n / V16<T>::N;
    const size_t i0 = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    T s = 0;
#pragma unroll 4
    for (size_t i = i0; i < nv; i += stride) {
        V16<T> v = ld16(a, i);
#pragma unroll
        for (int k = 0; k < V16<T>::N; ++k)
            s += v.e[k];
    }
    for (size_t i = nv * V16<T>::N + i0; i < n; i += stride)
        s += a[i];
    s = block_sum(s);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = s;
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

/* The kernel instance for (op, T) as an untyped pointer, for occupancy. */
template <typename T> static const void *stream_func(int op)
{
    switch (op) {
    case GP_STREAM_COPY:  return (const void *)stream_kernel<T, Copy<T>>;
    case GP_STREAM_SCALE: return (const void *)stream_kernel<T, Scale<T>>;
    case GP_STREAM_ADD:   return (const void *)stream_kernel<T, Add<T>>;
    case GP_STREAM_TRIAD: return (const void *)stream_kernel<T, Triad<T>>;
    case GP_STREAM_READ:  return (const void *)read_kernel<T>;
    default:              return nullptr;
    }
}

extern "C" int gp_stream_blocks_per_sm(int op, int fp64)
{
    const void *f = fp64 ? stream_func<double>(op) : stream_func<float>(op);
    int nb = 0;
    if (!f || cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                  &nb, f, GP_PROBE_THREADS, 0) != cudaSuccess)
        return 0;
    return nb;
}

template <typename T>
static void launch(int op, T *a, T *b, T *c, T q, size_t n, T *partials,
                   int blocks, cudaStream_t s)
{
    const int t = GP_PROBE_THREADS;
    switch (op) {
    case GP_STREAM_COPY:
        stream_kernel<T><<<blocks, t, 0, s>>>(Copy<T>{a, c}, n);
        break;
    case GP_STREAM_SCALE:
        stream_kernel<T><<<blocks, t, 0, s>>>(Scale<T>{b, c, q}, n);
        break;
    case GP_STREAM_ADD:
        stream_kernel<T><<<blocks, t, 0, s>>>(Add<T>{a, b, c}, n);
        break;
    case GP_STREAM_TRIAD:
        stream_kernel<T><<<blocks, t, 0, s>>>(Triad<T>{a, b, c, q}, n);
        break;
    case GP_STREAM_READ:
        read_kernel<T><<<blocks, t, 0, s>>>(a, n, partials);
        break;
    }
}

extern "C" int gp_stream_launch(int op, int fp64, void *a, void *b, void *c,
                                double q, size_t n, void *partials,
                                int blocks, cudaStream_t s)
{
    if (op < 0 || op >= GP_STREAM_NOPS || blocks < 1)
        return (int)cudaErrorInvalidValue;
    if (fp64)
        launch<double>(op, (double *)a, (double *)b, (double *)c, q, n,
                       (double *)partials, blocks, s);
    else
        launch<float>(op, (float *)a, (float *)b, (float *)c, (float)q, n,
                      (float *)partials, blocks, s);
    return (int)cudaGetLastError();
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
