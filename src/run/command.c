/* command.c - `gemmprof --kernel K --size N ...`: validate everything, then
 * for each shape and precision build one bench, run the reference and every
 * selected kernel through the runner, and write each row the moment it is
 * measured (a crash later loses nothing already measured).  With --energy,
 * a shape's rows wait until all its kernels are timed, then get their
 * windows (held.c says why); the crash guard writes the held ones. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime_api.h>
#include "run.h"
#include "util/util.h"
#include "data/data.h"
#include "gpu/gpu.h"
#include "diff/diff.h"
#include "plot/plot.h"
#include "probe/probe.h"
#include "registry/registry.h"
#include "cupti/profiler.h"
#include "reference.h"
#include "table.h"

typedef struct {
    const gp_options *o;
    gp_csv_writer *csv;
    gp_metric_list metrics;
    gp_profiler *prof;
    int want_counters;
    int failures, done, total;
    unsigned long long seed;
    gp_nvml *nvml;               /* SM clock per row; NULL without NVML */
    double probe_clock_mhz;      /* clock the ceilings were measured at */
    int clock_warned;
    const char *path;            /* the run file, for the crash guard   */
    int cc;                      /* the GPU's compute capability        */
    char chip[64];               /* CUPTI's name of the GPU's chip      */
    char metrics_missing[512];   /* default metrics the chip lacks      */
    int name_width;              /* the table's kernel column           */
    gp_held held;                /* --energy: this shape's rows so far  */
} run_state;

static void progress(run_state *s, const gp_kernel *k, const gp_shape *sh)
{
    if (s->o->quiet || !isatty(2))
        return;
    fprintf(stderr, "\r\033[K[%d/%d] %s %ldx%ldx%ld", s->done + 1, s->total,
            k->name, sh->m, sh->n, sh->k);
    fflush(stderr);
}

static void progress_clear(const run_state *s)
{
    if (!s->o->quiet && isatty(2))
        fprintf(stderr, "\r\033[K");
}

/* A sticky CUDA error (illegal address, ...) survives a synchronize. */
static int context_lost(void)
{
    return cudaDeviceSynchronize() != cudaSuccess;
}

static void begin_profiler(run_state *s)
{
    if (!s->want_counters)
        return;
    char why[512];
    s->prof = gp_profiler_begin(&s->metrics, why, sizeof why);
    if (!s->prof) {
        gp_warn("hardware counters unavailable, rows carry NA counters: %s", why);
        s->want_counters = 0;
    }
}

static gp_bench *make_bench(run_state *s, gp_precision p, const gp_shape *sh,
                            char *err, size_t errlen)
{
    gp_bench *b = gp_bench_create_pad(p, sh->m, sh->n, sh->k, s->o->alpha,
                                      s->o->beta, s->seed, s->o->pad, err, errlen);
    if (!b)
        gp_error("%s", err);
    return b;
}

static int selected(const gp_options *o, const gp_kernel *k)
{
    for (int i = 0; i < o->nkernels; ++i)
        if (o->kernels[i] == k)
            return 1;
    return 0;
}

/* Rows measured at a clock far from the probe's are not comparable with
 * the ceilings: say so once. */
static void check_clock(run_state *s, gp_row *r)
{
    if (!s->nvml)
        return;
    int mhz = gp_nvml_clock_mhz(s->nvml, 0);
    r->sm_clock_mhz = mhz > 0 ? mhz : NAN;
    if (mhz > 0 && s->probe_clock_mhz > 0 && !s->clock_warned &&
        fabs(mhz - s->probe_clock_mhz) > 0.05 * s->probe_clock_mhz) {
        gp_warn("SM clock %d MHz during %s differs by more than 5%% from the "
                "%.0f MHz the ceilings were probed at", mhz, r->kernel,
                s->probe_clock_mhz);
        s->clock_warned = 1;
    }
}

/* --energy needs the board's energy counter: without it, one warning and
 * the rows go without (the run itself is still worth having). */
static void check_energy(gp_options *o, gp_nvml *nv, gp_meta *meta)
{
    unsigned long long mj;
    if (o->energy_s <= 0)
        return;
    if (gp_nvml_energy_mj(nv, &mj) != 0) {
        gp_warn("--energy: no energy counter here (NVML's "
                "nvmlDeviceGetTotalEnergyConsumption, Volta and later); "
                "the rows go without sustained_ms, power_w and energy_j");
        o->energy_s = 0;
        return;
    }
    gp_meta_set(meta, "energy", "%g s back to back per kernel and size, after "
                "every kernel of the size was timed (a quarter more first, "
                "unmeasured); power from the steps of NVML's energy counter "
                "inside the window", o->energy_s);
}

static void write_row(void *ctx, const gp_row *r)
{
    run_state *s = ctx;
    progress_clear(s);
    if (!s->o->quiet)
        gp_table_row(stdout, r, s->name_width);
    if (gp_csv_write_row(s->csv, r) != 0)
        gp_warn("writing a row failed: %s", strerror(errno));
}

/* The clock is read as the row is made, right after its timed reps. */
static void emit(run_state *s, const gp_kernel *k, gp_row *r, int selected)
{
    check_clock(s, r);
    if (!selected)
        return;
    if (s->o->energy_s > 0 && gp_held_add(&s->held, k, r) == 0)
        return;
    write_row(s, r);
}

/* --energy: each held row that was timed gets its window now. */
typedef struct {
    run_state *s;
    gp_bench *b;
    const gp_run_opts *ro;
} energy_pass;

static void energy_window(void *ctx, gp_held *h, int i)
{
    energy_pass *ep = ctx;
    const gp_kernel *k = h->kernels[i];
    gp_row *r = &h->rows[i];
    if (gp_plugin_origin(k)) {
        gp_plugin_guard_arm(ep->s->path, k, r->m, r->n, r->k, r->alpha, r->beta);
        gp_plugin_guard_keep(NULL, 0, h->rows + i + 1, h->n - i - 1);
    }
    gp_bench_energy(ep->b, k, ep->ro, r);
    gp_plugin_guard_disarm();
}

static void write_held(void *ctx, const gp_row *r)
{
    write_row(((energy_pass *)ctx)->s, r);
}

/* Write the shape's held rows, with their windows if there is a bench. */
static void flush_held(run_state *s, gp_bench *b, const gp_run_opts *ro)
{
    energy_pass ep = {s, b, ro};
    gp_held_flush(&s->held, b ? energy_window : NULL, write_held, &ep);
}

/* After a sticky error: everything that lived in the context goes, the
 * device is reset and made current again.  0, or -1 with `err`. */
static int reset_device(run_state *s, gp_bench *b, char *err, size_t errlen)
{
    gp_profiler_end(s->prof);   /* before its context goes */
    s->prof = NULL;
    gp_bench_destroy(b);
    gp_cublas_forget();
    cudaDeviceReset();
    cudaGetLastError();
    cudaError_t e = cudaSetDevice(s->o->device);
    if (e == cudaSuccess)
        e = cudaFree(0);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "device reset failed: %s", cudaGetErrorString(e));
        return -1;
    }
    begin_profiler(s);
    return 0;
}

/* 1 if `k` can run on this GPU with this build; else 0 with its row
 * status ("skipped: needs sm_90a (wgmma)") in `status`. */
static int runnable(const run_state *s, const gp_kernel *k, char *status, size_t n)
{
    return gp_registry_can_run(k, s->cc, gp_this_build(), status, n, NULL, 0);
}

/* The row of a kernel this GPU or build cannot run: every measurement NA,
 * not a failure (--kernel all selected it; a kernel named explicitly was
 * refused before anything ran). */
static void emit_skipped(run_state *s, const gp_kernel *k, const gp_shape *sh,
                         const char *status)
{
    gp_row r;
    gp_row_identify(&r, k, sh->m, sh->n, sh->k, s->o->alpha, s->o->beta);
    snprintf(r.status, sizeof r.status, "%s", status);
    emit(s, k, &r, 1);
}

/* Kernels that cannot run at this shape still get their row. */
static void emit_not_run(run_state *s, const gp_kernel *k, const gp_shape *sh,
                         int from, const char *why)
{
    for (int i = from; i < s->o->nkernels; ++i) {
        const gp_kernel *q = s->o->kernels[i];
        char status[96];
        if ((q->precision == GP_FP64) != (k->precision == GP_FP64) ||
            (from > 0 && q == gp_registry_reference(q->precision)))
            continue;   /* other precision, or a reference that already ran */
        if (!runnable(s, q, status, sizeof status)) {
            emit_skipped(s, q, sh, status);
            continue;
        }
        gp_row r;
        gp_row_identify(&r, q, sh->m, sh->n, sh->k, s->o->alpha, s->o->beta);
        snprintf(r.status, sizeof r.status, "error: not run: %s", why);
        s->failures++;
        emit(s, q, &r, 1);
    }
}

/* A reference runs before the kernels it ranks, selected or not, timed like
 * the rest (its row is written only if selected).  Its GFLOP/s, or NaN. */
static double run_reference(run_state *s, gp_bench *b, const gp_kernel *ref,
                            const gp_run_opts *ro, const gp_shape *sh)
{
    gp_row r;
    if (selected(s->o, ref))
        progress(s, ref, sh), s->done++;
    int rc = gp_bench_run(b, ref, ro, &r);
    r.pct_cublas = rc == 0 ? 100.0 : NAN;
    s->failures += rc != 0 && selected(s->o, ref);
    emit(s, ref, &r, selected(s->o, ref));
    return rc == 0 ? r.gflops : NAN;
}

/* A TF32 kernel will run, so the TF32 reference must (if it can). */
static int wants_tf32(const run_state *s)
{
    const gp_kernel *tref = gp_registry_reference(GP_TF32);
    if (!tref || !runnable(s, tref, NULL, 0))
        return 0;
    for (int i = 0; i < s->o->nkernels; ++i)
        if (s->o->kernels[i]->precision == GP_TF32 &&
            runnable(s, s->o->kernels[i], NULL, 0))
            return 1;
    return 0;
}

/* Run every selected kernel of precision p at one shape; TF32 kernels share
 * the FP32 bench (verified against exact FP32) but are ranked against the
 * TF32 reference, so each row carries its % of the cuBLAS of its precision. */
static void run_precision(run_state *s, gp_precision p, const gp_shape *sh)
{
    const gp_kernel *ref = gp_registry_reference(p);
    const gp_kernel *tref = p == GP_FP32 && wants_tf32(s)
                                ? gp_registry_reference(GP_TF32) : NULL;
    char err[512];
    gp_bench *b = make_bench(s, p, sh, err, sizeof err);
    gp_run_opts ro = {s->o->reps, s->o->warmup, s->o->scrub, s->prof,
                      s->o->energy_s, s->nvml, NULL};
    gp_row r;
    double ref_gflops = NAN, tref_gflops = NAN;
    const gp_kernel *any = p == GP_FP64 ? ref : gp_registry_reference(GP_FP32);
    if (!b) {
        if (any)
            emit_not_run(s, any, sh, 0, err);
        flush_held(s, NULL, &ro);
        return;
    }
    if (ref)
        ref_gflops = run_reference(s, b, ref, &ro, sh);
    if (tref)
        tref_gflops = run_reference(s, b, tref, &ro, sh);
    for (int i = 0; i < s->o->nkernels; ++i) {
        const gp_kernel *k = s->o->kernels[i];
        char status[96];
        if (k == ref || k == tref || (k->precision == GP_FP64) != (p == GP_FP64))
            continue;
        progress(s, k, sh);
        s->done++;
        if (!runnable(s, k, status, sizeof status)) {
            emit_skipped(s, k, sh, status);
            continue;
        }
        if (gp_plugin_origin(k)) {   /* code gemmprof has never seen */
            gp_plugin_guard_arm(s->path, k, sh->m, sh->n, sh->k,
                                s->o->alpha, s->o->beta);
            gp_plugin_guard_keep(s->held.rows, s->held.n, NULL, 0);
        }
        /* --interleave pairs a kernel with its reference if that ran */
        int tf32 = k->precision == GP_TF32;
        double kref_gflops = tf32 ? tref_gflops : ref_gflops;
        ro.pair = s->o->interleave && isfinite(kref_gflops) ? (tf32 ? tref : ref) : NULL;
        int rc = gp_bench_run(b, k, &ro, &r);
        gp_plugin_guard_disarm();
        /* a refused launch stays the runtime's "last error": the next
         * launcher's cudaPeekAtLastError() would report it as its own */
        if (rc < 0)
            (void)cudaGetLastError();
        if (!isfinite(r.ref_time_ms))     /* else the runner's, from the pairs */
            r.pct_cublas = 100.0 * r.gflops / kref_gflops;
        s->failures += rc != 0;
        emit(s, k, &r, 1);
        if (rc < 0 && context_lost()) {
            gp_warn("%s left the GPU context unusable; device reset, "
                    "continuing with the next kernel", k->name);
            if (reset_device(s, b, err, sizeof err) != 0 ||
                !(b = make_bench(s, p, sh, err, sizeof err))) {
                emit_not_run(s, k, sh, i + 1, err);
                flush_held(s, NULL, &ro);
                return;
            }
            ro.prof = s->prof;
        }
    }
    flush_held(s, b, &ro);
    gp_bench_destroy(b);
}

static int wants(const gp_options *o, int fp64)
{
    for (int i = 0; i < o->nkernels; ++i)
        if ((o->kernels[i]->precision == GP_FP64) == fp64)
            return 1;
    return 0;
}

/* Refuse, before allocating anything, a shape that cannot fit. */
static int check_fits(const gp_options *o)
{
    size_t fr = gp_gpu_free_mem();
    for (int i = 0; i < o->nshapes; ++i) {
        const gp_shape *sh = &o->shapes[i];
        for (int fp64 = 0; fp64 <= 1; ++fp64) {
            if (!wants(o, fp64))
                continue;
            gp_precision p = fp64 ? GP_FP64 : GP_FP32;
            size_t need = gp_bench_bytes_pad(p, sh->m, sh->n, sh->k, o->pad);
            if (need > fr / 10 * 9) {
                gp_error("size %ldx%ldx%ld (%s) needs %.2f GiB of GPU memory, "
                         "%.2f GiB free", sh->m, sh->n, sh->k, gp_precision_name(p),
                         need / 1073741824.0, fr / 1073741824.0);
                return -1;
            }
        }
    }
    return 0;
}

/* Before anything runs: the build has code for this GPU, and every kernel
 * named explicitly (not through "all") can run on it.  One line, naming
 * every such kernel and why; kernels that "all" brought in get a skipped
 * row instead. */
static int check_runnable(const gp_options *o, int cc)
{
    char err[1024], status[96], why[160];
    if (gp_build_check_device(gp_this_build(), cc, err, sizeof err) != 0) {
        gp_error("%s", err);
        return -1;
    }
    gp_buf msg = {0};
    for (int i = 0; i < o->nkernels; ++i) {
        const gp_kernel *k = o->kernels[i];
        int named = 0;
        for (int j = 0; j < o->nkernel_specs && !named; ++j)
            named = gp_registry_named(o->kernel_specs[j], k->name);
        if (named && !gp_registry_can_run(k, cc, gp_this_build(), status,
                                          sizeof status, why, sizeof why))
            gp_buf_printf(&msg, "%s%s %s (%s)", msg.len ? "; " : "", k->name,
                          status + strlen("skipped: "), why);
    }
    if (msg.len)
        gp_error("cannot run here: %s", msg.s);
    int rc = msg.len ? -1 : 0;
    gp_buf_free(&msg);
    return rc;
}

static void run_meta(gp_meta *m, const run_state *s, const gp_gpu *g,
                     int argc, char **argv)
{
    gp_run_meta_base(m, g, argc, argv, s->seed, s->o->reps, s->o->warmup,
                     s->o->cache_control, &s->o->scrub);
    gp_meta_set(m, "metrics", "%s", s->want_counters ? s->o->metrics : "none");
    if (s->chip[0])
        gp_meta_set(m, "cupti_chip", "%s", s->chip);
    if (s->metrics_missing[0])
        gp_meta_set(m, "metrics_not_on_chip", "%s", s->metrics_missing);
    if (s->o->pad > 0)     /* the rows' m, n, k say nothing of the pitch */
        gp_meta_set(m, "pad", "%d: lda, ldb, ldc padded by at least %d elements, "
                    "rows 16-byte aligned", s->o->pad, s->o->pad);
    char plugins[1024];
    gp_plugin_describe(plugins, sizeof plugins);
    if (*plugins)
        gp_meta_set(m, "plugins", "%s", plugins);
}

static int prepare_metrics(run_state *s)
{
    char err[2048];
    s->want_counters = strcmp(s->o->metrics, "none") != 0;
    if (!s->want_counters)
        return 0;
    if (gp_metric_list_parse(s->o->metrics, &s->metrics, err, sizeof err) != 0 ||
        gp_profiler_validate(&s->metrics, NULL, err, sizeof err) < 0 ||
        gp_metric_list_recordable(&s->metrics, err, sizeof err) != 0) {
        gp_error("--metrics: %s", err);
        return -1;
    }
    return 0;
}

/* The metric list fitted to the chip of the GPU in hand, before anything
 * runs: a metric named explicitly that this chip lacks is bad input; a
 * default one becomes an NA column, said once.  Without the chip (CUPTI
 * cannot tell), the profiler session says why counters are NA. */
static int fit_metrics(run_state *s)
{
    char err[1024];
    if (!s->want_counters ||
        gp_profiler_device_chip(s->o->device, s->chip, sizeof s->chip, err,
                                sizeof err) != 0)
        return 0;
    int rc = gp_profiler_fit(&s->metrics, s->chip, s->metrics_missing,
                             sizeof s->metrics_missing, err, sizeof err);
    if (rc < 0) {
        gp_error("--metrics: %s", err);
        return -1;
    }
    if (s->metrics_missing[0])
        gp_warn("%s has no %s: %s NA (names differ by chip: see --list-metrics)",
                s->chip, s->metrics_missing,
                strchr(s->metrics_missing, ',') ? "those columns are" : "that column is");
    if (s->metrics.count == 0)
        s->want_counters = 0;
    return 0;
}

/* --list-metrics: of --chip, else of the GPU in hand; with neither, the
 * chips CUPTI knows, so the user can name one. */
static int list_metrics(const gp_options *o)
{
    char err[1024], chip[64], why[512];
    if (o->chip)
        snprintf(chip, sizeof chip, "%s", o->chip);
    else if (gp_profiler_device_chip(o->device, chip, sizeof chip, why, sizeof why) != 0) {
        const char *const *names;
        gp_buf all = {0};
        int n = gp_profiler_chips(&names, err, sizeof err);
        for (int i = 0; i < n; i++)
            gp_buf_printf(&all, " %s", names[i]);
        gp_error("--list-metrics: no GPU chip to list (%s): name one with --chip "
                 "NAME%s%s", why, n > 0 ? "; CUPTI knows" : "", n > 0 ? all.s : "");
        gp_buf_free(&all);
        return 2;
    }
    int rc = gp_profiler_list_metrics(chip, stdout, err, sizeof err);
    if (rc != 0) {
        gp_error("--list-metrics: %s", err);
        return 2;
    }
    return 0;
}

static int info_only(const gp_options *o)
{
    if (o->help) {
        gp_cli_usage(stdout);
        return 0;
    }
    if (o->version)
        return gp_print_version(stdout);
    if (o->list) {
        gp_gpu g;
        char why[256];
        int cc = gp_gpu_open(o->device, &g, why, sizeof why) == 0
                     ? GP_CC(g.cc_major, g.cc_minor) : 0;
        gp_registry_print(stdout, cc, gp_this_build(), stderr);
        return 0;
    }
    if (o->build_facts) {
        gp_ptxas_print(stdout);
        return 0;
    }
    return list_metrics(o);
}

#define GP_CEILINGS_MAX_AGE_S (7 * 24 * 3600.0)

/* --roofline needs ceilings: a fresh cached probe of this GPU, or a new
 * probe now.  Without --roofline a cached file, if any, still gives the
 * probe clock for the drift warning.  Returns 0 with `ceil` set. */
static int setup_ceilings(run_state *s, const gp_gpu *g, char *ceil, size_t n)
{
    char err[512];
    *ceil = 0;
    if (s->o->roofline) {
        if (gp_probe_ensure(s->o->device, GP_CEILINGS_MAX_AGE_S, 0, ceil, n,
                            err, sizeof err) != 0) {
            gp_warn("--roofline: no ceilings, no roofline: %s", err);
            *ceil = 0;
            return -1;
        }
    } else if (gp_ceilings_cache_path(g->name, ceil, n, err, sizeof err) != 0 ||
               access(ceil, R_OK) != 0) {
        *ceil = 0;
        return -1;
    }
    static gp_ceilings c;
    if (gp_ceilings_read(ceil, &c, err, sizeof err) != 0) {
        gp_warn("%s", err);
        *ceil = 0;
        return -1;
    }
    const char *mhz = gp_meta_get(&c.meta, "probe_sm_clock_mhz");
    s->probe_clock_mhz = mhz ? atof(mhz) : 0;
    return 0;
}

static void render_roofline(const char *data, const char *ceil)
{
    char dir[4096], written[4096], err[1024];
    snprintf(dir, sizeof dir, "%.*s-plots", (int)(strlen(data) > 4 &&
             !strcmp(data + strlen(data) - 4, ".csv") ? strlen(data) - 4 :
             strlen(data)), data);
    int rc = gp_plot_roofline(data, ceil, dir, "pdf", written, sizeof written,
                              err, sizeof err);
    if (rc != 0) {
        gp_warn("--roofline: %s", err);
        return;
    }
    for (char *save, *p = strtok_r(written, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
        printf("wrote %s\n", p);        /* one roofline per family */
}

/* --baseline FILE, before any GPU work: a run file, and not the one this
 * run is about to overwrite. */
static int check_baseline(const char *base, const char *out)
{
    char err[1024];
    struct stat a, b;
    if (gp_diff_check_file(base, err, sizeof err) != 0) {
        gp_error("--baseline: %s", err);
        return -1;
    }
    if (stat(base, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino) {
        gp_error("--baseline: %s is also the output file; write the run elsewhere "
                 "(--out)", base);
        return -1;
    }
    return 0;
}

/* --baseline: the new file against it, as `gemmprof diff` prints it; the
 * worse of the run's and the diff's exit codes. */
static int baseline_diff(const gp_options *o, const char *path, int rc)
{
    if (!o->baseline)
        return rc;
    gp_diff_opts d = { .threshold_pct = GP_DIFF_THRESHOLD_DEFAULT };
    putchar('\n');
    fflush(stdout);
    int drc = gp_diff_files(o->baseline, path, &d, GP_DIFF_TEXT, stdout);
    return drc > rc ? drc : rc;
}

/* --dry-run: what the validated options would do. */
static int dry_run(const gp_options *o, int argc, char **argv)
{
    char what[160];
    if (o->list || o->list_metrics || o->build_facts)
        snprintf(what, sizeof what, "list %s", o->list ? "the kernels" :
                 o->build_facts ? "the build's facts" : "the counters");
    else if (o->nplugins)
        snprintf(what, sizeof what, "load %d plugin(s), then run the kernels "
                 "named at %d size(s)", o->nplugins, o->nshapes);
    else
        snprintf(what, sizeof what, "run %d kernel(s) at %d size(s)",
                 o->nkernels, o->nshapes);
    return gp_dry_run_report(argc > 0 && strcmp(argv[0], "run") == 0 ? "run" : "",
                             argc, argv, what);
}

int gp_cmd_run(int argc, char **argv)
{
    gp_options o;
    char err[1024], path[4096];
    if (gp_cli_parse(argc, argv, &o, err, sizeof err) != 0) {
        gp_error("%s", err);
        return 2;
    }
    int info = o.list || o.list_metrics || o.build_facts;
    if (o.help || o.version || (info && !gp_dry_run()))
        return info_only(&o);
    run_state s = {.o = &o, .path = path};
    s.seed = o.seed_given ? o.seed : (unsigned long long)time(NULL);
    if (!info && prepare_metrics(&s) != 0)
        return 2;
    if (gp_dry_run())       /* the metric names checked too, as far as CUPTI can offline */
        return dry_run(&o, argc, argv);
    if (gp_run_out_path(o.out, path, sizeof path, err, sizeof err) != 0) {
        gp_error("%s", err);
        return 2;
    }
    if (o.baseline && check_baseline(o.baseline, path) != 0)
        return 2;
    gp_gpu g;
    if (gp_gpu_open(o.device, &g, err, sizeof err) != 0) {
        gp_error("%s; without one, the compiler's static facts: --build-facts", err);
        if (o.roofline) {
            char dir[4096];
            snprintf(dir, sizeof dir, "%s", path);
            char *slash = strrchr(dir, '/');
            gp_run_reference_roofline(slash ? (*slash = 0, dir) : ".");
        }
        return 2;
    }
    s.cc = GP_CC(g.cc_major, g.cc_minor);
    if (check_runnable(&o, s.cc) != 0 || check_fits(&o) != 0 || fit_metrics(&s) != 0)
        return 2;
    char ceil[4096];
    int have_ceil = setup_ceilings(&s, &g, ceil, sizeof ceil) == 0;
    static gp_meta meta;
    run_meta(&meta, &s, &g, argc, argv);
    if (have_ceil)
        gp_meta_set(&meta, "ceilings", "%s (probed at %.0f MHz)", ceil,
                    s.probe_clock_mhz);
    s.nvml = gp_nvml_open(o.device);
    check_energy(&o, s.nvml, &meta);
    if (o.interleave)
        gp_meta_set(&meta, "interleave", "each kernel's timed launches alternate "
                    "with its reference's (reference, kernel, reference, ...); "
                    "pct_cublas = 100 x the median over those pairs of the "
                    "reference launch's time / the kernel launch's after it; "
                    "ref_time_ms = the reference's median over them");
    if (!(s.csv = gp_csv_open(path, &meta, err, sizeof err))) {
        gp_error("%s", err);
        return 2;
    }
    begin_profiler(&s);
    s.total = o.nshapes * o.nkernels;
    s.name_width = gp_table_name_width(o.kernels, o.nkernels);
    if (!o.quiet)
        gp_table_header(stdout, &g, s.name_width);
    for (int i = 0; i < o.nshapes; ++i)
        for (int fp64 = 0; fp64 <= 1; ++fp64)
            if (wants(&o, fp64))
                run_precision(&s, fp64 ? GP_FP64 : GP_FP32, &o.shapes[i]);
    progress_clear(&s);
    if (s.prof) {
        fprintf(stderr, "gemmprof: counters: %.1f s collecting, %d pass(es) "
                "per kernel (%s)\n", gp_profiler_seconds(s.prof),
                gp_profiler_passes(s.prof), o.metrics);
        gp_profiler_end(s.prof);
    }
    if (gp_csv_close(s.csv) != 0) {
        gp_error("%s: write failed: %s", path, strerror(errno));
        return 2;
    }
    gp_nvml_close(s.nvml);
    gp_held_free(&s.held);
    printf("wrote %s\n", path);
    if (o.roofline && have_ceil)
        render_roofline(path, ceil);
    if (s.failures)
        fprintf(stderr, "gemmprof: %d row(s) failed verification or errored\n",
                s.failures);
    return baseline_diff(&o, path, s.failures ? 1 : 0);
}
