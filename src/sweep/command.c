/* command.c - `gemmprof sweep`: for each shape one bench, the cuBLAS
 * reference, then every selected tile config through the runner (verified
 * like any kernel; rows say kernel=FAMILY, config=CONFIG), each row written
 * as measured; then the best config per shape, the crossovers, and the
 * tuning table. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime_api.h>
#include "sweep.h"
#include "util/util.h"
#include "data/data.h"
#include "gpu/gpu.h"
#include "registry/registry.h"
#include "run/run.h"

typedef struct {
    const gp_sweep_args *a;
    gp_csv_writer *csv;
    gp_row *rows;             /* every config row, for the summary */
    int nrows, failures;
    unsigned long long seed;
} sweep_state;

/* The run table's columns, with the config instead of the precision
 * (one family, one precision per sweep). */
static void print_header(const gp_gpu *g, const gp_sweep_args *a)
{
    printf("%s, %s (%s)\n", g->name, a->family, gp_precision_name(a->precision));
    printf("%-18s %-20s %10s %10s %8s %s\n", "config", "shape", "time_ms",
           "GFLOP/s", "%cuBLAS", "status");
}

static void emit(sweep_state *s, const gp_row *r)
{
    char shape[64];
    snprintf(shape, sizeof shape, "%ldx%ldx%ld", r->m, r->n, r->k);
    if (!s->a->quiet)
        printf("%-18s %-20s %10.4f %10.1f %8.1f %s\n",
               r->config[0] && strcmp(r->kernel, s->a->family) == 0 ? r->config
                                                                   : r->kernel,
               shape, r->time_ms, r->gflops, r->pct_cublas, r->status);
    if (gp_csv_write_row(s->csv, r) != 0)
        gp_warn("writing a row failed: %s", strerror(errno));
}

static gp_bench *make_bench(const sweep_state *s, const gp_shape *sh)
{
    char err[512];
    gp_bench *b = gp_bench_create(s->a->precision, sh->m, sh->n, sh->k, 1.0, 0.0,
                                  s->seed, err, sizeof err);
    if (!b)
        gp_error("%s", err);
    return b;
}

/* One shape: reference first (its GFLOP/s is every row's 100%). */
static void run_shape(sweep_state *s, const gp_shape *sh)
{
    const gp_sweep_args *a = s->a;
    gp_run_opts ro = {.reps = a->reps, .warmup = a->warmup, .scrub = a->scrub};
    gp_bench *b = make_bench(s, sh);
    gp_row r;
    double ref_gflops = NAN;
    if (!b) {
        s->failures++;
        return;
    }
    const gp_kernel *ref = gp_registry_reference(a->precision);
    if (ref) {
        int rc = gp_bench_run(b, ref, &ro, &r);
        ref_gflops = rc == 0 ? r.gflops : NAN;
        r.pct_cublas = rc == 0 ? 100.0 : NAN;
        emit(s, &r);
    }
    for (int i = 0; i < a->nconfigs; ++i) {
        const gp_sweep_config *c = a->configs[i];
        gp_kernel k = {c->family, c->precision, "tile config sweep", c->launch};
        int rc = gp_bench_run(b, &k, &ro, &r);
        if (rc < 0)
            (void)cudaGetLastError();   /* not the next launcher's error */
        r.pct_cublas = 100.0 * r.gflops / ref_gflops;
        snprintf(r.config, sizeof r.config, "%s", c->name);
        s->failures += rc != 0;
        emit(s, &r);
        s->rows[s->nrows++] = r;
        if (rc < 0 && cudaDeviceSynchronize() != cudaSuccess) {
            gp_warn("%s %s left the GPU context unusable; device reset",
                    c->family, c->name);
            gp_bench_destroy(b);
            cudaDeviceReset();
            gp_cublas_forget();
            if (!(b = make_bench(s, sh)))
                return;
        }
    }
    gp_bench_destroy(b);
}

static void print_summary(const sweep_state *s)
{
    int n = s->nrows;
    gp_sweep_best *b = malloc((size_t)(n ? n : 1) * sizeof *b);
    int *x = malloc((size_t)(n ? n : 1) * sizeof *x);
    if (!b || !x) {
        free(b);
        free(x);
        return;
    }
    int nb = gp_sweep_bests(s->rows, n, s->a->family, b, n);
    int nx = gp_sweep_crossovers(b, nb, x, n);
    printf("\nbest %s config per shape (size key round(sqrt(M*N))):\n", s->a->family);
    for (int i = 0; i < nb; ++i)
        printf("  %6ld  %ldx%ldx%ld  %-16s %10.1f GFLOP/s\n", b[i].key, b[i].m,
               b[i].n, b[i].k, b[i].config, b[i].gflops);
    if (!nx)
        printf("no crossover: one config is best at every shape\n");
    for (int i = 0; i < nx; ++i) {
        const gp_sweep_best *p = &b[x[i] - 1], *q = &b[x[i]];
        printf("crossover: %s at %ldx%ldx%ld -> %s at %ldx%ldx%ld\n", p->config,
               p->m, p->n, p->k, q->config, q->m, q->n, q->k);
    }
    free(b);
    free(x);
}

static int write_tuning(const sweep_state *s, const gp_gpu *g, const char *run,
                        const char *path, int argc, char **argv)
{
    static gp_tuning t;
    char err[1024];
    gp_meta_init(&t.meta);
    gp_meta_host(&t.meta, GP_TUNING_SCHEMA, argc, argv);
    gp_gpu_meta(g, &t.meta);
    gp_meta_set(&t.meta, "source", "%s", run);
    gp_meta_set(&t.meta, "size_key", "round(sqrt(m*n)); ranges inclusive; "
                "boundary between measured keys a<b at floor(sqrt(a*b))");
    if (gp_tuning_build(s->rows, s->nrows, s->a->family,
                        gp_precision_name(s->a->precision), &t) == 0) {
        gp_warn("no config verified: no tuning table written");
        return -1;
    }
    if (gp_tuning_write(path, &t, err, sizeof err) != 0) {
        gp_error("%s", err);
        return -1;
    }
    printf("wrote %s\n", path);
    return 0;
}

/* Refuse, before allocating anything, a shape that cannot fit. */
static int check_fits(const gp_sweep_args *a)
{
    size_t fr = gp_gpu_free_mem();
    for (int i = 0; i < a->nshapes; ++i) {
        const gp_shape *sh = &a->shapes[i];
        size_t need = gp_bench_bytes(a->precision, sh->m, sh->n, sh->k);
        if (need > fr / 10 * 9) {
            gp_error("size %ldx%ldx%ld (%s) needs %.2f GiB of GPU memory, %.2f GiB "
                     "free", sh->m, sh->n, sh->k, gp_precision_name(a->precision),
                     need / 1073741824.0, fr / 1073741824.0);
            return -1;
        }
    }
    return 0;
}

/* Paths, device, metadata, file: 0, or -1 after saying why. */
static int open_run(sweep_state *s, gp_gpu *g, char *path, size_t pathlen,
                    char *tpath, size_t tlen, int argc, char **argv)
{
    static gp_meta meta;
    char err[1024];
    const gp_sweep_args *a = s->a;
    if (gp_run_out_path(a->out, path, pathlen, err, sizeof err) != 0 ||
        gp_gpu_open(a->device, g, err, sizeof err) != 0 ||
        (a->tuning ? snprintf(tpath, tlen, "%s", a->tuning) < 0
                   : gp_tuning_cache_path(g->name, a->family, tpath, tlen, err,
                                          sizeof err) != 0)) {
        gp_error("%s", err);
        return -1;
    }
    if (check_fits(a) != 0)
        return -1;
    gp_run_meta_base(&meta, g, argc, argv, s->seed, a->reps, a->warmup,
                     a->cache_control, &a->scrub);
    gp_meta_set(&meta, "metrics", "none");
    gp_meta_set(&meta, "sweep", "%s over %d config(s); tuning table %s", a->family,
                a->nconfigs, tpath);
    if (!(s->csv = gp_csv_open(path, &meta, err, sizeof err))) {
        gp_error("%s", err);
        return -1;
    }
    return 0;
}

int gp_cmd_sweep(int argc, char **argv)
{
    static gp_sweep_args a;
    char err[1024], path[4096], tpath[4096];
    gp_gpu g;
    if (gp_sweep_parse(argc, argv, &a, err, sizeof err) != 0) {
        gp_error("sweep: %s", err);
        return 2;
    }
    if (!a.help && !a.version)      /* (only then is the family known) */
        snprintf(err, sizeof err, "run %d configuration(s) of %s at %d size(s)",
                 a.nconfigs, a.family, a.nshapes);
    int answered = gp_opts_answer(a.help, a.version, gp_sweep_usage, "sweep", argc,
                                  argv, err);
    if (answered >= 0)
        return answered;
    sweep_state s = {.a = &a};
    s.seed = a.seed_given ? a.seed : (unsigned long long)time(NULL);
    s.rows = malloc((size_t)a.nshapes * (size_t)a.nconfigs * sizeof *s.rows);
    if (!s.rows) {
        gp_error("sweep: out of memory");
        return 2;
    }
    if (open_run(&s, &g, path, sizeof path, tpath, sizeof tpath, argc, argv) != 0) {
        free(s.rows);
        return 2;
    }
    if (!a.quiet)
        print_header(&g, &a);
    for (int i = 0; i < a.nshapes; ++i)
        run_shape(&s, &a.shapes[i]);
    int rc = gp_csv_close(s.csv);
    if (rc != 0)
        gp_error("%s: write failed: %s", path, strerror(errno));
    else
        printf("wrote %s\n", path);
    print_summary(&s);
    if (write_tuning(&s, &g, path, tpath, argc, argv) != 0)
        rc = -1;
    free(s.rows);
    if (s.failures)
        fprintf(stderr, "gemmprof: %d row(s) failed verification or errored\n",
                s.failures);
    return rc != 0 ? 2 : s.failures ? 1 : 0;
}
