/* sm90_ptx.cuh - the Hopper-only inline PTX the TMA/wgmma TF32 rung needs:
 * mbarriers, TMA tile loads (cp.async.bulk.tensor), the wgmma shared-memory
 * descriptor, wgmma fence/commit/wait, setmaxnreg, the wgmma shape the
 * TF32 rungs use (A from shared memory or from registers), and what a
 * cluster of CTAs needs (rank, barrier, remote arrive, TMA multicast).  Include
 * only from *_sm90a.cu files (built for sm_90a alone).
 * Section names are those of the PTX ISA (9.x, "Parallel Synchronization
 * and Communication Instructions: mbarrier", "Data Movement: cp.async.bulk
 * .tensor", "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"). */
#ifndef GEMMPROF_SM90_PTX_CUH
#define GEMMPROF_SM90_PTX_CUH

#include <stdint.h>
#include <cuda.h>   /* CUtensorMap (types only: no -lcuda) */

__device__ __forceinline__ uint32_t gp_smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* ---- mbarrier (PTX ISA "mbarrier") ---- */

__device__ __forceinline__ void gp_mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n"
                 :: "r"(gp_smem_u32(bar)), "r"(count) : "memory");
}

/* Make initialised barriers visible to the async proxy (TMA's complete_tx)
 * before any thread uses them; a __syncthreads() follows. */
__device__ __forceinline__ void gp_mbar_init_fence(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* Arrive and add `bytes` to the transaction count the phase waits for. */
__device__ __forceinline__ void gp_mbar_arrive_tx(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 :: "r"(gp_smem_u32(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void gp_mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n"
                 :: "r"(gp_smem_u32(bar)) : "memory");
}

/* Block until the phase of parity `parity` has completed.  Built with
 * -DGP_MBAR_HINT (in the environment's NVCCFLAGS: make's command line would
 * replace the -gencode options too), each retry passes try_wait a suspend
 * hint of 10 ms, so a waiting warp sleeps until the phase completes
 * (NANOSLEEP.SYNCS in SASS, as cuBLAS's TF32 kernel waits) instead of
 * polling: an experiment on energy, reports/ladder-notes.md. */
__device__ __forceinline__ void gp_mbar_wait(uint64_t *bar, unsigned parity)
{
    uint32_t done;
    do {
        asm volatile("{\n .reg .pred p;\n"
#ifdef GP_MBAR_HINT
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n"
#else
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
#endif
                     " selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(gp_smem_u32(bar)), "r"(parity), "n"(10000000) : "memory");
    } while (!done);
}

/* ---- TMA (PTX ISA "cp.async.bulk.tensor") ---- */

__device__ __forceinline__ void gp_tma_prefetch(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];\n" :: "l"(map) : "memory");
}

/* Load the box at (c0 = inner, c1) of `map` into smem; out-of-bounds
 * elements are written as zeros and still count toward complete_tx. */
__device__ __forceinline__ void gp_tma_load_2d(void *smem, const CUtensorMap *map,
                                               uint64_t *bar, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n"
                 :: "r"(gp_smem_u32(smem)), "l"(map), "r"(c0), "r"(c1),
                    "r"(gp_smem_u32(bar))
                 : "memory");
}

/* ---- registers (PTX ISA "setmaxnreg") ---- */

template <int N>
__device__ __forceinline__ void gp_setmaxnreg_dec(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" :: "n"(N));
}

template <int N>
__device__ __forceinline__ void gp_setmaxnreg_inc(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" :: "n"(N));
}

/* ---- wgmma (PTX ISA "Asynchronous Warpgroup Level Matrix ...") ----
 *
 * Shared memory matrix descriptor ("Matrix Descriptor Format"): bits 0-13
 * start address >> 4, 16-29 leading-dimension byte offset >> 4, 32-45
 * stride-dimension byte offset >> 4, 49-51 base offset, 62-63 swizzle
 * (1 = 128B).  For a K-major operand in the 128B-swizzle canonical layout
 * ("Shared Memory Matrix Layout": 8 rows of 128 bytes form one swizzle atom,
 * 16-byte chunk c of row r stored at chunk c ^ (r % 8), exactly what TMA's
 * CU_TENSOR_MAP_SWIZZLE_128B writes for a 128-byte-wide box):
 *  - SBO = 1024: from one 8-row group of M/N to the next;
 *  - LBO unused (the instruction's K, 8 tf32 = 32 bytes, stays inside one
 *    128-byte row), conventionally 16;
 *  - the k-th 8-deep slice starts 32k bytes into the row: start + 32k,
 *    base offset 0 as long as the tile is 1024-byte aligned (the swizzle
 *    is a function of the address bits, so TMA and wgmma agree). */
__device__ __forceinline__ uint64_t gp_wgmma_desc_sw128(uint32_t saddr)
{
    return (uint64_t)((saddr & 0x3FFFF) >> 4) | (uint64_t)(16 >> 4) << 16 |
           (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
}

/* Order this thread's register writes (accumulators) before the next
 * wgmma reads them; required before the first wgmma of a batch. */
__device__ __forceinline__ void gp_wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void gp_wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/* Wait until at most N committed wgmma groups are pending. */
template <int N>
__device__ __forceinline__ void gp_wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory");
}

/* Tell the compiler the accumulators may change here (wgmma writes them
 * asynchronously): no read or write of d moves across this point. */
__device__ __forceinline__ void gp_fence_regs(float (&d)[128])
{
#pragma unroll
    for (int i = 0; i < 128; ++i)
        asm volatile("" : "+f"(d[i]) :: "memory");
}

/* The 128 accumulator registers of an m64n256 FP32 wgmma: the operand list
 * in the instruction text (%0..%127) and the matching "+f" constraints, so
 * each wgmma wrapper below names only its own inputs (%128 on). */
#define GP_WGMMA_D128_TEXT \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define GP_WGMMA_D128_OUT \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
    "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
    "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
    "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
    "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
    "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
    "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
    "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
    "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
    "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
    "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
    "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
    "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
    "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

/* d += A(64x8, K-major smem) * B(8x256, K-major smem), TF32 in, FP32
 * accumulate.  TF32 has no transpose immediates (only f16/bf16 do): both
 * operands must be K-major.  d layout ("Register Fragments", m64nNk8 D):
 * d[4j + 2h + e] = D[16 * warp + lane / 4 + 8h][8j + 2 * (lane % 4) + e]. */
__device__ __forceinline__ void gp_wgmma_m64n256k8_tf32(float (&d)[128],
                                                        uint64_t da, uint64_t db)
{
    asm volatile(
        "{\n .reg .pred p;\n setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
        GP_WGMMA_D128_TEXT
        "}, %128, %129, p, 1, 1;\n}\n"
        :
          GP_WGMMA_D128_OUT
        : "l"(da), "l"(db), "n"(1));
}

/* d += A(64x8, registers) * B(8x256, K-major smem), TF32 in, FP32
 * accumulate: the register-sourced form.  A's fragment ("Register
 * Fragments", m64nNk8 A for 32-bit types, the same as mma.m16n8k8's):
 * a[0] = A[16 * warp + g][t], a[1] = A[16 * warp + g + 8][t],
 * a[2] = A[16 * warp + g][t + 4], a[3] = A[16 * warp + g + 8][t + 4],
 * g = lane / 4, t = lane % 4; the registers hold TF32 bit patterns (cvt.rna,
 * or raw FP32 bits, which the tensor core truncates) and must not change
 * until the wgmma that reads them has retired. */
__device__ __forceinline__ void gp_wgmma_m64n256k8_tf32_rs(float (&d)[128],
                                                           const uint32_t (&a)[4],
                                                           uint64_t db)
{
    asm volatile(
        "{\n .reg .pred p;\n setp.ne.b32 p, %133, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
        GP_WGMMA_D128_TEXT
        "}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
        :
          GP_WGMMA_D128_OUT
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "n"(1));
}

/* Make this thread's view of shared memory written through the generic
 * proxy (ordinary stores, cp.async) visible to its later async-proxy
 * accesses (wgmma operand reads): PTX ISA "Memory Consistency Model",
 * proxies. */
__device__ __forceinline__ void gp_fence_proxy_async(void)
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* ---- clusters (PTX ISA "barrier.cluster", "mapa", TMA ".multicast") ---- */

__device__ __forceinline__ unsigned gp_cluster_ctarank(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

/* Every thread of every CTA of the cluster: release what this thread did
 * to shared memory (barrier inits, arrivals), acquire the others'. */
__device__ __forceinline__ void gp_cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

/* Arrive on the mbarrier at the same offset as `bar` in CTA `cta` of the
 * cluster (this CTA too).  Default semantics (release, CTA scope): what it
 * orders is this thread's shared-memory reads before the other CTA's
 * producer overwrites them. */
__device__ __forceinline__ void gp_mbar_arrive_cluster(uint64_t *bar, unsigned cta)
{
    asm volatile("{\n .reg .b32 ra;\n"
                 " mapa.shared::cluster.u32 ra, %0, %1;\n"
                 " mbarrier.arrive.shared::cluster.b64 _, [ra];\n}\n"
                 :: "r"(gp_smem_u32(bar)), "r"(cta) : "memory");
}

/* gp_tma_load_2d into the same offset of every CTA in `mask`, completing
 * on the mbarrier at `bar`'s offset in each. */
__device__ __forceinline__ void gp_tma_load_2d_multicast(void *smem,
                                                         const CUtensorMap *map,
                                                         uint64_t *bar, int c0,
                                                         int c1, uint16_t mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n"
                 :: "r"(gp_smem_u32(smem)), "l"(map), "r"(c0), "r"(c1),
                    "r"(gp_smem_u32(bar)), "h"(mask)
                 : "memory");
}

#endif
