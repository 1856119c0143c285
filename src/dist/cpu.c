/* cpu.c - the CPU local backends (cpu_naive, cpu_blocked, cpu_blas), so that
 * `gemmprof dist` runs, and is tested, on machines without a GPU.  Buffers
 * are host memory: no transfers. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "dist.h"
#include "registry/registry.h"

const char *const gp_dist_cpu_names = "cpu_naive, cpu_blocked, cpu_blas";

typedef enum { CPU_NAIVE, CPU_BLOCKED, CPU_CBLAS } cpu_kind;

/* cblas_sgemm / cblas_dgemm with the enums as ints (CblasRowMajor = 101,
 * CblasNoTrans = 111): no cblas.h needed to build. */
typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *,
                         int, const float *, int, float, float *, int);
typedef void (*dgemm_fn)(int, int, int, int, int, int, double, const double *,
                         int, const double *, int, double, double *, int);

typedef struct {
    cpu_kind kind;
    gp_dist_local loc;
    size_t esize;
    void *a, *b, *c, *ap[2], *bp[2];
    void *blas;                  /* dlopen handle                     */
    sgemm_fn sgemm;
    dgemm_fn dgemm;
    char what[256];              /* describe()                        */
} cpu_ctx;

/* NULL for 0 elements; *failed set when malloc refuses. */
static void *alloc_elems(size_t n, size_t esize, int *failed)
{
    void *p = n ? malloc(n * esize) : NULL;
    *failed |= n != 0 && p == NULL;
    return p;
}

/* OpenBLAS starts a thread per core in every rank: with several ranks on a
 * host they would fight over the cores.  Unless the user chose a count
 * (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS), give each rank its share.
 * Returns the count set, or 0 when left alone. */
static int share_cores(const cpu_ctx *x, void *h)
{
    void (*set_threads)(int) =
        (void (*)(int))(void (*)(void))dlsym(h, "openblas_set_num_threads");
    if (!set_threads || getenv("OPENBLAS_NUM_THREADS") || getenv("OMP_NUM_THREADS"))
        return 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int local = x->loc.local_size > 0 ? x->loc.local_size : 1;
    int n = cores > local ? (int)(cores / local) : 1;
    set_threads(n);
    return n;
}

/* The first CPU BLAS with CBLAS symbols: OpenBLAS, then the system's
 * libblas (Debian's reference BLAS carries CBLAS), then a separate cblas. */
static int open_blas(cpu_ctx *x, char *err, size_t errlen)
{
    static const char *const libs[] = { "libopenblas.so.0", "libblas.so.3",
                                        "libcblas.so.3" };
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
        if (!h)
            continue;
        x->sgemm = (sgemm_fn)(void (*)(void))dlsym(h, "cblas_sgemm");
        x->dgemm = (dgemm_fn)(void (*)(void))dlsym(h, "cblas_dgemm");
        if (x->sgemm && x->dgemm) {
            x->blas = h;
            int threads = share_cores(x, h);
            int n = snprintf(x->what, sizeof x->what, "cblas from %s", libs[i]);
            if (threads > 0 && n > 0 && (size_t)n < sizeof x->what)
                snprintf(x->what + n, sizeof x->what - (size_t)n,
                         ", %d threads per rank", threads);
            return 0;
        }
        dlclose(h);
    }
    snprintf(err, errlen, "--local cpu_blas: no CPU BLAS with cblas_dgemm found "
             "(tried libopenblas.so.0, libblas.so.3, libcblas.so.3; "
             "apt-get install libopenblas0)");
    return -1;
}

static void cpu_close(void *ctx)
{
    cpu_ctx *x = ctx;
    if (!x)
        return;
    free(x->a);
    free(x->b);
    free(x->c);
    for (int s = 0; s < 2; s++) {
        free(x->ap[s]);
        free(x->bp[s]);
    }
    if (x->blas)
        dlclose(x->blas);
    free(x);
}

static int cpu_open(void **ctx, const char *kernel, const gp_dist_local *loc,
                    char *err, size_t errlen)
{
    cpu_ctx *x = calloc(1, sizeof *x);
    *ctx = x;
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    x->loc = *loc;
    x->esize = gp_precision_bytes(loc->precision);
    x->kind = !strcmp(kernel, "cpu_naive") ? CPU_NAIVE
            : !strcmp(kernel, "cpu_blocked") ? CPU_BLOCKED : CPU_CBLAS;
    snprintf(x->what, sizeof x->what, "%s loops on the host CPU", kernel);
    if (x->kind == CPU_CBLAS && open_blas(x, err, errlen) < 0)
        return -1;
    size_t m = (size_t)loc->mloc, n = (size_t)loc->nloc, w = (size_t)loc->panel_max;
    int short_of = 0;
    x->a = alloc_elems(m * (size_t)loc->kloc_a, x->esize, &short_of);
    x->b = alloc_elems((size_t)loc->kloc_b * n, x->esize, &short_of);
    x->c = alloc_elems(m * n, x->esize, &short_of);
    for (int s = 0; s < 2; s++) {
        x->ap[s] = alloc_elems(m * w, x->esize, &short_of);
        x->bp[s] = alloc_elems(w * n, x->esize, &short_of);
    }
    if (short_of) {
        snprintf(err, errlen, "out of host memory for the local matrices "
                 "(%zux%zu local C, panels %zu wide)", m, n, w);
        return -1;
    }
    return 0;
}

static void *cpu_buf(void *ctx, gp_dist_buf which, int slot)
{
    cpu_ctx *x = ctx;
    switch (which) {
    case GP_DIST_A:      return x->a;
    case GP_DIST_B:      return x->b;
    case GP_DIST_C:      return x->c;
    case GP_DIST_APANEL: return x->ap[slot & 1];
    case GP_DIST_BPANEL: return x->bp[slot & 1];
    }
    return NULL;
}

static int cpu_zero_c(void *ctx, char *err, size_t errlen)
{
    cpu_ctx *x = ctx;
    (void)err, (void)errlen;
    if (x->c)
        memset(x->c, 0, (size_t)x->loc.mloc * (size_t)x->loc.nloc * x->esize);
    return 0;
}

/* Synchronous: the panel is ready when this returns. */
static int cpu_pack(void *ctx, gp_dist_buf which, int slot, void *dst,
                    size_t dpitch, const void *src, size_t spitch, size_t rows,
                    size_t cols, char *err, size_t errlen)
{
    cpu_ctx *x = ctx;
    (void)which, (void)slot, (void)err, (void)errlen;
    for (size_t r = 0; r < rows; r++)
        memcpy((char *)dst + r * dpitch * x->esize,
               (const char *)src + r * spitch * x->esize, cols * x->esize);
    return 0;
}

/* The textbook triple loop: one dot product per entry of C. */
#define NAIVE(T)                                                             \
    static void naive_##T(int m, int n, int kb, const T *a, int lda,        \
                          const T *b, int ldb, T *c)                         \
    {                                                                        \
        for (int i = 0; i < m; i++)                                          \
            for (int j = 0; j < n; j++) {                                    \
                T s = 0;                                                     \
                for (int p = 0; p < kb; p++)                                 \
                    s += a[(size_t)i * lda + p] * b[(size_t)p * ldb + j];    \
                c[(size_t)i * n + j] += s;                                   \
            }                                                                \
    }

/* Tiles of C and of the panel that stay in cache; the innermost loop runs
 * along rows of B and C (unit stride, vectorisable). */
enum { TILE_M = 64, TILE_K = 256, TILE_N = 512 };
#define BLOCKED(T)                                                           \
    static void blocked_##T(int m, int n, int kb, const T *restrict a,       \
                            int lda, const T *restrict b, int ldb,           \
                            T *restrict c)                                   \
    {                                                                        \
        for (int i0 = 0; i0 < m; i0 += TILE_M)                               \
            for (int p0 = 0; p0 < kb; p0 += TILE_K)                          \
                for (int j0 = 0; j0 < n; j0 += TILE_N) {                     \
                    int i1 = i0 + TILE_M < m ? i0 + TILE_M : m;              \
                    int p1 = p0 + TILE_K < kb ? p0 + TILE_K : kb;            \
                    int j1 = j0 + TILE_N < n ? j0 + TILE_N : n;              \
                    for (int i = i0; i < i1; i++)                            \
                        for (int p = p0; p < p1; p++) {                      \
                            T x = a[(size_t)i * lda + p];                    \
                            const T *brow = b + (size_t)p * ldb;             \
                            T *crow = c + (size_t)i * n;                     \
                            for (int j = j0; j < j1; j++)                    \
                                crow[j] += x * brow[j];                      \
                        }                                                    \
                }                                                            \
    }

NAIVE(float)
NAIVE(double)
BLOCKED(float)
BLOCKED(double)

enum { ROW_MAJOR = 101, NO_TRANS = 111 };

/* a and b: a panel slot or local A/B in place (backend.h); C is local C. */
static int cpu_gemm(void *ctx, int slot, const void *a, int lda, const void *b,
                    int ldb, int kb, char *err, size_t errlen)
{
    cpu_ctx *x = ctx;
    int m = x->loc.mloc, n = x->loc.nloc, dbl = x->loc.precision == GP_FP64;
    (void)slot, (void)err, (void)errlen;
    switch (x->kind) {
    case CPU_NAIVE:
        if (dbl) naive_double(m, n, kb, a, lda, b, ldb, x->c);
        else     naive_float(m, n, kb, a, lda, b, ldb, x->c);
        break;
    case CPU_BLOCKED:
        if (dbl) blocked_double(m, n, kb, a, lda, b, ldb, x->c);
        else     blocked_float(m, n, kb, a, lda, b, ldb, x->c);
        break;
    case CPU_CBLAS:
        if (dbl)
            x->dgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, m, n, kb, 1.0, a, lda, b, ldb,
                     1.0, x->c, n);
        else
            x->sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, m, n, kb, 1.0f, a, lda, b, ldb,
                     1.0f, x->c, n);
        break;
    }
    return 0;
}

static int cpu_sync(void *ctx, char *err, size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    return 0;
}

static const char *cpu_describe(void *ctx)
{
    return ((cpu_ctx *)ctx)->what;
}

static const gp_dist_backend cpu_backend = {
    .name = "cpu",
    .device_memory = 0,
    .open = cpu_open,
    .buf = cpu_buf,
    .upload = NULL,
    .download = NULL,
    .zero_c = cpu_zero_c,
    .pack = cpu_pack,
    .gemm = cpu_gemm,
    .sync = cpu_sync,
    .counters = NULL,
    .describe = cpu_describe,
    .close = cpu_close,
};

const gp_dist_backend *gp_dist_backend_find(const char *local_name)
{
    if (gp_dist_is_cpu_local(local_name))
        return &cpu_backend;
    if (gp_registry_find(local_name))
        return &gp_dist_backend_gpu;
    return NULL;
}
