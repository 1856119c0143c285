/* scrub.h - the state of L2 before a measured launch (a timed rep, a
 * counter pass): ncu's --cache-control all|none, and the ways gemmprof can
 * stand in for "all".  ncu flushes (writes back and invalidates) every
 * cache before each replay pass; CUPTI 13.0 has no such call, so gemmprof
 * scrubs L2 itself.  Which scrub matches ncu best is measured, not assumed
 * (scripts/cache-control-study.sh); GP_CACHE_CONTROL_ALL names the winner.
 *
 * A scrub spec is KIND[:xF][:pN][:once]:
 *   none        nothing: L2 keeps what the last launch left (--cache-control none)
 *   read        read a buffer of F x L2 (default F = 2) N times (default 1):
 *               every other line is evicted, dirty ones written back now,
 *               and L2 is left full of clean lines
 *   write       write the buffer: L2 is left full of dirty lines that the
 *               measured launch pays to write back (a bracket, not a candidate)
 *   write-read  a write pass, then the read pass(es)
 *   flush       the read pass(es), then every line of the buffer discarded
 *               (PTX discard.global.L2, sm_80+): L2 is left written back and
 *               empty, as ncu's flush-and-invalidate leaves it
 *   :pN         N read passes: the second re-references the buffer, which a
 *               scan-resistant replacement policy may need before it evicts
 *               lines the previous kernel reused
 *   :once       counters: before the first replay pass only (default: before
 *               each pass, as ncu does); timed reps are always scrubbed each
 * Pure C (scrub.c); the device side is devutil.cu. */
#ifndef GP_SCRUB_H
#define GP_SCRUB_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GP_SCRUB_NONE, GP_SCRUB_READ, GP_SCRUB_WRITE, GP_SCRUB_WRITE_READ, GP_SCRUB_FLUSH
} gp_scrub_kind;

typedef struct {
    gp_scrub_kind kind;
    int factor;              /* buffer bytes = factor x L2, 1..16          */
    int passes;              /* read passes, 1..4                          */
    int once;                /* counters: scrub before the first pass only */
} gp_scrub;

/* What --cache-control all stands for.  The one line to change when the
 * study (docs/metrics.md, "Agreement with ncu") finds a better match. */
#define GP_CACHE_CONTROL_ALL "read"

/* Environment variable that replaces GP_CACHE_CONTROL_ALL for experiments
 * (scripts/cache-control-study.sh); the run file records the scrub used. */
#define GP_SCRUB_ENV "GEMMPROF_SCRUB"

/* Parse a spec (above).  0, or -1 with a one-line message. */
int gp_scrub_parse(const char *spec, gp_scrub *out, char *err, size_t errlen);
/* The spec back in canonical form ("read:x2:p1"). */
void gp_scrub_spec(const gp_scrub *s, char *out, size_t len);
/* One line for the run file's "# l2_flush:" ("read pass over 2x L2 before
 * each rep and before counters"; "off" for none). */
void gp_scrub_describe(const gp_scrub *s, char *out, size_t len);

/* --cache-control all|none as a scrub: none, or GP_CACHE_CONTROL_ALL unless
 * $GEMMPROF_SCRUB names another.  0, or -1 with a one-line message (an
 * unknown value, a bad $GEMMPROF_SCRUB). */
int gp_cache_control_scrub(const char *cache_control, gp_scrub *out,
                           char *err, size_t errlen);

/* Bytes of buffer scrub `s` needs on a GPU with `l2_bytes` of L2 (0 for
 * none). */
size_t gp_scrub_bytes(const gp_scrub *s, size_t l2_bytes);
/* Device side (devutil.cu): run scrub `s` on stream `st` (asynchronous)
 * over `buf` of `bytes` (from cudaMalloc, >= gp_scrub_bytes).  0 or a
 * CUDA error. */
int gp_scrub_run(const gp_scrub *s, void *buf, size_t bytes, cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif
