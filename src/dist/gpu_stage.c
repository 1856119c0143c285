/* gpu_stage.c - host<->device copies of the local matrices through
 * two pinned buffers: the host copies one chunk while the DMA engine moves
 * the other, so a pageable host array still moves at (nearly) pinned speed
 * without pinning the caller's memory. */
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

#define STAGE_CHUNK ((size_t)16 << 20)

int gp_gpu_stage_open(gp_gpu_rank *g, char *err, size_t errlen)
{
    g->stage_bytes = STAGE_CHUNK;
    for (int s = 0; s < 2; s++) {
        int e = cudaHostAlloc(&g->stage[s], g->stage_bytes, cudaHostAllocDefault);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&g->stage_done[s], cudaEventDisableTiming);
        if (gp_gpu_fail(e, "pinned staging buffers", err, errlen) < 0)
            return -1;
    }
    return 0;
}

void gp_gpu_stage_close(gp_gpu_rank *g)
{
    for (int s = 0; s < 2; s++) {
        if (g->stage[s])
            cudaFreeHost(g->stage[s]);
        if (g->stage_done[s])
            cudaEventDestroy(g->stage_done[s]);
        g->stage[s] = NULL;
        g->stage_done[s] = NULL;
    }
}

/* Chunk i uses buffer i % 2; before refilling a buffer, wait for the DMA
 * that last read it. */
int gp_gpu_stage_up(gp_gpu_rank *g, void *dev, const void *host, size_t bytes,
                    char *err, size_t errlen)
{
    int e = cudaSuccess;
    for (size_t off = 0, i = 0; off < bytes && e == cudaSuccess; off += g->stage_bytes, i++) {
        int s = (int)(i & 1);
        size_t n = bytes - off < g->stage_bytes ? bytes - off : g->stage_bytes;
        if (i >= 2 && (e = cudaEventSynchronize(g->stage_done[s])) != cudaSuccess)
            break;
        memcpy(g->stage[s], (const char *)host + off, n);
        e = cudaMemcpyAsync((char *)dev + off, g->stage[s], n,
                            cudaMemcpyHostToDevice, g->copy);
        if (e == cudaSuccess)
            e = cudaEventRecord(g->stage_done[s], g->copy);
    }
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(g->copy);
    return gp_gpu_fail(e, "upload to the device", err, errlen);
}

static int down_chunk(gp_gpu_rank *g, const void *dev, size_t off, size_t bytes,
                      size_t i)
{
    int s = (int)(i & 1);
    size_t n = bytes - off < g->stage_bytes ? bytes - off : g->stage_bytes;
    int e = cudaMemcpyAsync(g->stage[s], (const char *)dev + off, n,
                            cudaMemcpyDeviceToHost, g->copy);
    if (e == cudaSuccess)
        e = cudaEventRecord(g->stage_done[s], g->copy);
    return e;
}

/* The DMA of chunk i+1 is queued before chunk i is copied out. */
int gp_gpu_stage_down(gp_gpu_rank *g, void *host, const void *dev, size_t bytes,
                      char *err, size_t errlen)
{
    int e = bytes ? down_chunk(g, dev, 0, bytes, 0) : cudaSuccess;
    for (size_t off = 0, i = 0; off < bytes && e == cudaSuccess; off += g->stage_bytes, i++) {
        int s = (int)(i & 1);
        size_t n = bytes - off < g->stage_bytes ? bytes - off : g->stage_bytes;
        if (off + n < bytes && (e = down_chunk(g, dev, off + n, bytes, i + 1)) != cudaSuccess)
            break;
        if ((e = cudaEventSynchronize(g->stage_done[s])) != cudaSuccess)
            break;
        memcpy((char *)host + off, g->stage[s], n);
    }
    return gp_gpu_fail(e, "download from the device", err, errlen);
}
