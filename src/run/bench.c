/* bench.c - the buffers a kernel runs on: A, B, C0 with random inputs,
 * the cuBLAS reference R, the magnitude M that bounds each element's error,
 * guard bands around every matrix and canary-filled padding in C; and the
 * judgement of a launch's C (runner.c launches and times). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "registry/registry.h"
#include "bench.h"

/* How many elements the CPU computes for a reference's verdict at shapes
 * too big to compute whole (GP_CPU_FULL_MACS). */
#define GP_REF_SAMPLES 4096

long gp_bench_ld(gp_precision p, long width, long pad)
{
    long v = 16 / (long)gp_precision_bytes(p);    /* elements per 16 bytes */
    if (pad <= 0)
        return width;
    return (width + pad + v - 1) / v * v;
}

static size_t mat_bytes(const gp_mat *x, size_t elt)
{
    return (size_t)x->rows * x->ld * elt;
}

size_t gp_bench_bytes_pad(gp_precision p, long m, long n, long k, long pad)
{
    size_t e = gp_precision_bytes(p);
    size_t a = (size_t)m * gp_bench_ld(p, k, pad), b = (size_t)k * gp_bench_ld(p, n, pad),
           c = (size_t)m * gp_bench_ld(p, n, pad);
    return e * (a + b + 3 * c) + 10 * GP_GUARD_BYTES;
}

size_t gp_bench_bytes(gp_precision p, long m, long n, long k)
{
    return gp_bench_bytes_pad(p, m, n, k, 0);
}

gemm_args gp_bench_args(const gp_bench *b, void *c)
{
    gemm_args a = {(int)b->m, (int)b->n, (int)b->k, b->alpha, b->beta,
                   b->A.data, b->B.data, c, (int)b->A.ld, (int)b->B.ld,
                   (int)b->C.ld};
    return a;
}

static void mat_free(gp_mat *x)
{
    if (x->base)
        cudaFree(x->base);
    x->base = NULL;
}

void gp_bench_destroy(gp_bench *b)
{
    if (!b)
        return;
    gp_mat *d[] = {&b->A, &b->B, &b->C0, &b->C, &b->R};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; ++i)
        mat_free(d[i]);
    if (b->flush)
        cudaFree(b->flush);
    free(b->host_c);
    free(b->host_r);
    free(b->host_m);
    free(b);
}

/* Guards and padding canary-filled from the start: only the bench's own
 * copies and fills ever touch the m x n (or m x k, k x n) elements. */
static int mat_alloc(gp_mat *x, long rows, long cols, long ld, size_t elt)
{
    *x = (gp_mat){NULL, NULL, rows, cols, ld};
    size_t bytes = mat_bytes(x, elt) + 2 * GP_GUARD_BYTES;
    int e = cudaMalloc(&x->base, bytes);
    if (!e)
        e = cudaMemset(x->base, GP_CANARY, bytes);
    if (!e)
        x->data = (char *)x->base + GP_GUARD_BYTES;
    return e;
}

static int alloc_all(gp_bench *b, long pad)
{
    long lda = gp_bench_ld(b->prec, b->k, pad), ldn = gp_bench_ld(b->prec, b->n, pad);
    size_t e = b->elt, cn = (size_t)b->m * b->n * e;
    int r;
    if ((r = mat_alloc(&b->A, b->m, b->k, lda, e)) || (r = mat_alloc(&b->B, b->k, b->n, ldn, e)) ||
        (r = mat_alloc(&b->C0, b->m, b->n, ldn, e)) || (r = mat_alloc(&b->C, b->m, b->n, ldn, e)) ||
        (r = mat_alloc(&b->R, b->m, b->n, ldn, e)))
        return r;
    b->host_c = malloc(mat_bytes(&b->C, e));
    b->host_r = malloc(cn);
    b->host_m = malloc(cn);
    return (b->host_c && b->host_r && b->host_m) ? 0 : (int)cudaErrorMemoryAllocation;
}

/* The m x n elements of `src` into `dst` (same layout), padding untouched. */
static int copy_elements(const gp_bench *b, gp_mat *dst, const gp_mat *src,
                         cudaStream_t s)
{
    size_t pitch = (size_t)dst->ld * b->elt;
    return cudaMemcpy2DAsync(dst->data, pitch, src->data, pitch,
                             (size_t)dst->cols * b->elt, (size_t)dst->rows,
                             cudaMemcpyDeviceToDevice, s);
}

/* A device matrix's m x n elements into a dense host array. */
static int to_host_dense(const gp_bench *b, void *host, const gp_mat *x)
{
    return cudaMemcpy2D(host, (size_t)x->cols * b->elt, x->data,
                        (size_t)x->ld * b->elt, (size_t)x->cols * b->elt,
                        (size_t)x->rows, cudaMemcpyDeviceToHost);
}

/* A, B, C0 from the seed, padding included (a kernel that reads A's or B's
 * padding as data gets random numbers, not zeros that would hide it).
 * Without padding the values are those gemmprof always drew for a seed. */
static int fill_inputs(gp_bench *b)
{
    int dbl = b->prec == GP_FP64, e;
    unsigned long long s = b->seed;
    if ((e = gp_fill_uniform(b->A.data, (size_t)b->m * b->A.ld, dbl, s * 3 + 1, 0)) ||
        (e = gp_fill_uniform(b->B.data, (size_t)b->k * b->B.ld, dbl, s * 3 + 2, 0)))
        return e;
    return gp_fill_uniform(b->C0.data, (size_t)b->m * b->C0.ld, dbl, s * 3 + 3, 0);
}

/* M = |alpha||A||B| + |beta||C0| by the reference on |A|, |B|, |C0| (in
 * place, then refilled: no memory beyond the bench's).  All terms are
 * positive, so M itself is accurate to ~k u relative, a rounding of the
 * bound and not of the verdict.  Computed in C, which every launch
 * overwrites anyway. */
static int magnitude(gp_bench *b, const gp_kernel *ref)
{
    int dbl = b->prec == GP_FP64, e;
    if ((e = gp_abs(b->A.data, (size_t)b->m * b->A.ld, dbl, 0)) ||
        (e = gp_abs(b->B.data, (size_t)b->k * b->B.ld, dbl, 0)) ||
        (e = gp_abs(b->C0.data, (size_t)b->m * b->C0.ld, dbl, 0)) ||
        (e = copy_elements(b, &b->C, &b->C0, 0)))
        return e;
    gemm_args a = gp_bench_args(b, b->C.data);
    a.alpha = b->alpha < 0 ? -b->alpha : b->alpha;
    a.beta = b->beta < 0 ? -b->beta : b->beta;
    if ((e = ref->launch(&a, 0, NULL)) || (e = cudaDeviceSynchronize()) ||
        (e = to_host_dense(b, b->host_m, &b->C)))
        return e;
    return fill_inputs(b);
}

static int fill_and_reference(gp_bench *b)
{
    const gp_kernel *ref = gp_registry_reference(b->prec);
    int e;
    if (!ref)
        return (int)cudaErrorNotSupported;
    if ((e = fill_inputs(b)) || (e = magnitude(b, ref)) ||
        (e = copy_elements(b, &b->R, &b->C0, 0)))
        return e;
    gemm_args a = gp_bench_args(b, b->R.data);
    if ((e = ref->launch(&a, 0, NULL)) || (e = cudaDeviceSynchronize()))
        return e;
    return to_host_dense(b, b->host_r, &b->R);
}

gp_bench *gp_bench_create_pad(gp_precision p, long m, long n, long k, double alpha,
                              double beta, unsigned long long seed, long pad,
                              char *err, size_t errlen)
{
    long lk = gp_bench_ld(p, k, pad), ln = gp_bench_ld(p, n, pad);
    if ((double)m * lk >= 2147483648.0 || (double)k * ln >= 2147483648.0 ||
        (double)m * ln >= 2147483648.0) {
        snprintf(err, errlen, "%ldx%ldx%ld: a matrix with 2^31 or more "
                 "elements exceeds the kernels' 32-bit indexing", m, n, k);
        return NULL;
    }
    gp_bench *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    *b = (gp_bench){.prec = p, .m = m, .n = n, .k = k, .alpha = alpha,
                    .beta = beta, .elt = gp_precision_bytes(p), .seed = seed};
    int e = alloc_all(b, pad);
    if (!e)
        e = fill_and_reference(b);
    if (e) {
        snprintf(err, errlen, "%ldx%ldx%ld %s: setting up inputs and the "
                 "cuBLAS reference failed: %s", m, n, k, gp_precision_name(p),
                 cudaGetErrorString((cudaError_t)e));
        gp_bench_destroy(b);
        return NULL;
    }
    return b;
}

gp_bench *gp_bench_create(gp_precision p, long m, long n, long k, double alpha,
                          double beta, unsigned long long seed, char *err,
                          size_t errlen)
{
    return gp_bench_create_pad(p, m, n, k, alpha, beta, seed, 0, err, errlen);
}

int gp_bench_prepare_c(gp_bench *b, cudaStream_t s)
{
    if (b->beta != 0.0)
        return copy_elements(b, &b->C, &b->C0, s);
    return gp_poison2d(b->C.data, (size_t)b->C.ld * b->elt, (size_t)b->n * b->elt,
                       (size_t)b->m, s);
}

/* The guard bands of one matrix: 0, or 1 with the status naming where the
 * first changed byte is. */
static int check_guards(const gp_bench *b, const gp_mat *x, const char *name,
                        unsigned char *host, char *st, size_t len)
{
    const char *end = x->data + mat_bytes(x, b->elt);
    if (cudaMemcpy(host, x->base, GP_GUARD_BYTES, cudaMemcpyDeviceToHost) ||
        cudaMemcpy(host + GP_GUARD_BYTES, end, GP_GUARD_BYTES, cudaMemcpyDeviceToHost)) {
        snprintf(st, len, "error: copying %s's guard bands back failed", name);
        return 1;
    }
    long before = gp_canary_find(host, GP_GUARD_BYTES);
    long after = gp_canary_find(host + GP_GUARD_BYTES, GP_GUARD_BYTES);
    if (before >= 0)
        snprintf(st, len, "verify_failed: wrote before %s: its guard band changed "
                 "%ld bytes before %s[0,0]", name, (long)GP_GUARD_BYTES - before, name);
    else if (after >= 0)
        snprintf(st, len, "verify_failed: wrote past the end of %s: its guard band "
                 "changed %ld bytes past its last element", name, after);
    return before >= 0 || after >= 0;
}

/* Guards of A, B and C, then C's padding (in host_c): 0, or 1 with the
 * status.  A kernel never has R's or C0's addresses. */
static int check_memory(const gp_bench *b, char *st, size_t len)
{
    unsigned char *host = malloc(2 * GP_GUARD_BYTES);
    const gp_mat *x[] = {&b->A, &b->B, &b->C};
    const char *name[] = {"A", "B", "C"};
    int bad = host == NULL;
    if (!host)
        snprintf(st, len, "error: out of host memory checking guard bands");
    for (int i = 0; i < 3 && !bad; ++i)
        bad = check_guards(b, x[i], name[i], host, st, len);
    free(host);
    long row, col;
    if (!bad && gp_canary_find_pad(b->host_c, b->m, b->n, b->C.ld, b->elt, &row, &col) == 0) {
        snprintf(st, len, "verify_failed: wrote C's padding: C[%ld,%ld] with n = %ld, "
                 "ldc = %ld", row, col, b->n, b->C.ld);
        bad = 1;
    }
    return bad;
}

/* A whole device matrix (rows x ld) into a new host buffer, or NULL. */
static void *to_host(const gp_bench *b, const gp_mat *x)
{
    void *h = malloc(mat_bytes(x, b->elt));
    if (h && cudaMemcpy(h, x->data, mat_bytes(x, b->elt), cudaMemcpyDeviceToHost)) {
        free(h);
        h = NULL;
    }
    return h;
}

/* The reference's own row: C (in host_c) against the CPU's long-double
 * product of the same A, B, C0, every element at small shapes, 4096 and
 * the corners at large ones.  0, or -1 if the host copies failed. */
static int cpu_verdict(const gp_bench *b, const gp_kernel *k, gp_verify_result *v)
{
    void *A = to_host(b, &b->A), *B = to_host(b, &b->B), *C0 = to_host(b, &b->C0);
    int ok = A && B && C0;
    if (ok) {
        gp_cpu_check_in in = {b->prec, k->precision, b->m, b->n, b->k, b->A.ld,
                              b->B.ld, b->C.ld, b->alpha, b->beta, A, B, C0,
                              b->host_c, GP_REF_SAMPLES, b->seed * 7 + 5};
        *v = gp_verify_cpu(&in);
    }
    free(A);
    free(B);
    free(C0);
    return ok ? 0 : -1;
}

int gp_bench_judge(gp_bench *b, const gp_kernel *k, gp_row *r)
{
    int e = cudaMemcpy(b->host_c, b->C.data, mat_bytes(&b->C, b->elt),
                       cudaMemcpyDeviceToHost);
    if (e) {
        snprintf(r->status, sizeof r->status, "error: copy back: %s",
                 cudaGetErrorString((cudaError_t)e));
        return e;
    }
    gp_verify_result v;
    if (k == gp_registry_reference(b->prec)) {
        if (cpu_verdict(b, k, &v) != 0) {
            snprintf(r->status, sizeof r->status, "error: copying the inputs "
                     "for the CPU's check of the reference failed");
            return (int)cudaErrorMemoryAllocation;
        }
    } else {
        /* the kernel's precision, not the bench's: a TF32 kernel runs on an
         * FP32 bench against the exact FP32 reference, with TF32's bounds */
        gp_verify_in in = {b->prec, k->precision, b->m, b->n, b->k, b->C.ld,
                           b->host_c, b->host_r, b->host_m};
        v = gp_verify_gemm(&in);
    }
    r->rel_err_fro = v.rel_fro;
    r->max_rel_err = v.max_rel;
    r->tolerance = v.tolerance;
    r->verified = v.verified;
    gp_verify_status(r->status, sizeof r->status, &v, r->verified, b->beta,
                     (size_t)b->m * b->n);
    size_t len = strlen(r->status);
    if (!r->verified && k == gp_registry_reference(b->prec))
        snprintf(r->status + len, sizeof r->status - len, " (against the CPU's "
                 "product, %ld elements)", v.checked);
    if (check_memory(b, r->status, sizeof r->status))
        r->verified = 0;
    return 0;
}
