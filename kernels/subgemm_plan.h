/* subgemm_plan.h - how rung 17 (sgemm_17_subgemm_tail.cu) cuts a GEMM into
 * launches of rung 15's kernel: plain arithmetic on the host, kept out of
 * the .cu so that the CPU tests check it (tests/registry/test_subgemm_plan.c).
 *
 * With S block slots (SMs x blocks per SM) and the 128x256 tiles of C in
 * row-major tile order: the head is the first S * floor(tiles / S) tiles,
 * whole tile rows [0, t0) and columns [0, split) of the tile row [t0, t1);
 * the tail is the rest, columns [split, n) of that row and rows [t1, m).
 * Each tail tile's k is cut into a long part [0, ka), stored to C with
 * alpha and beta, and q short parts of kb each, into workspaces. */
#ifndef GP_SUBGEMM_PLAN_H
#define GP_SUBGEMM_PLAN_H

#ifdef __cplusplus
extern "C" {
#endif

enum { GP_SUB_BM = 128, GP_SUB_BN = 256, GP_SUB_BK = 8, GP_SUB_MAX_Q = 4 };

typedef struct {
    int q;              /* short parts per tail tile; 0: no tail, one launch   */
    int head;           /* tiles computed over all of k: every tile when q = 0 */
    int ka, kb;         /* k of the long part, of each short part: ka + q kb = k */
    int t0, t1;         /* rows of the tile row the head ends in               */
    int split;          /* its first column that is tail                       */
    int c;              /* short parts an SM runs at most                      */
} gp_subgemm_plan;

/* The plan for an m x n x k GEMM (each >= 1) with `slots` >= 1 blocks
 * resident at once: q (1..GP_SUB_MAX_Q) with the least predicted tail
 * time, or q = 0 where no split saves time (no tile left over, or k too
 * short to cut). */
gp_subgemm_plan gp_subgemm_plan_for(int m, int n, int k, int slots);

#ifdef __cplusplus
}
#endif

#endif
