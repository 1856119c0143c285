/* cp_async.cuh - asynchronous global->shared copies (cp.async, sm_80+)
 * with zero fill, for every pipelined rung whatever its element type (T:
 * float or double; typed rather than void * so that the code generated for
 * each rung stays what it was when measured), the width is in the name.  src_bytes < width
 * reads only the first src_bytes and zero-fills the rest (0: a zero, the
 * source never read), which is how the rungs handle matrix edges. */
#ifndef GEMMPROF_CP_ASYNC_CUH
#define GEMMPROF_CP_ASYNC_CUH

/* 16 bytes, both addresses 16-byte aligned.  .cg: the tile goes to shared
 * memory, so skip L1. */
template <typename T>
__device__ __forceinline__ void gp_cp_async16(T *smem, const T *gmem,
                                              int src_bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                 :: "r"(s), "l"(gmem), "r"(src_bytes) : "memory");
}

/* 16 bytes known to lie inside the matrix: no source size operand. */
template <typename T>
__device__ __forceinline__ void gp_cp_async16_full(T *smem, const T *gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n"
                 :: "r"(s), "l"(gmem) : "memory");
}

/* 8 bytes (.ca: the only form below 16 bytes). */
template <typename T>
__device__ __forceinline__ void gp_cp_async8(T *smem, const T *gmem,
                                             int src_bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n"
                 :: "r"(s), "l"(gmem), "r"(src_bytes) : "memory");
}

/* 4 bytes. */
template <typename T>
__device__ __forceinline__ void gp_cp_async4(T *smem, const T *gmem,
                                             int src_bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
                 :: "r"(s), "l"(gmem), "r"(src_bytes) : "memory");
}

__device__ __forceinline__ void gp_cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

/* Wait until at most N of this thread's committed groups are in flight. */
template <int N>
__device__ __forceinline__ void gp_cp_async_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory");
}

#endif
