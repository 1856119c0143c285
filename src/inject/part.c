/* part.c - the part file of one traced process: a run file of its own
 * (metadata, header, one row per profiled launch, per launch configuration
 * and per CUDA graph node, each flushed as it is written so a crash keeps
 * it), merged by gemmprof when CMD exits. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "state.h"

/* What ran out of memory first (a string literal), or NULL: set from any
 * thread without a lock, said in the part file by the next writer. */
static _Atomic(const char *) oom_what;
static int oom_noted;

/* The process's own command line, for the metadata. */
static int own_argv(char *buf, size_t n, char **argv, int max)
{
    FILE *f = fopen("/proc/self/cmdline", "rbe");
    size_t len = f ? fread(buf, 1, n - 1, f) : 0;
    if (f)
        fclose(f);
    buf[len] = '\0';
    int argc = 0;
    for (size_t i = 0; i < len && argc < max; i += strlen(buf + i) + 1)
        argv[argc++] = buf + i;
    return argc;
}

static void device_meta(gp_meta *m, uint32_t device)
{
    const gp_cudrv_api *drv = gp_inj.drv;
    CUdevice dev = (CUdevice)device;
    char name[256] = "";
    int v, major = -1, minor = -1;
    if (drv->cuDeviceGetName(name, sizeof name, dev) == CUDA_SUCCESS)
        gp_meta_set(m, "gpu_name", "%s", name);
    gp_meta_set(m, "gpu_ordinal", "%u", device);
    drv->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    drv->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    gp_meta_set(m, "compute_capability", "%d.%d", major, minor);
    static const struct { CUdevice_attribute a; const char *key; int div; } attrs[] = {
        { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "sm_count", 1 },
        { CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "sm_clock_max_mhz", 1000 },
        { CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, "mem_clock_max_mhz", 1000 },
        { CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, "mem_bus_width_bits", 1 },
        { CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "l2_bytes", 1 },
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        if (drv->cuDeviceGetAttribute(&v, attrs[i].a, dev) == CUDA_SUCCESS)
            gp_meta_set(m, attrs[i].key, "%d", v / attrs[i].div);
    if (drv->cuDriverGetVersion(&v) == CUDA_SUCCESS)
        gp_meta_set(m, "cuda_driver_api", "%d.%d", v / 1000, v % 1000 / 10);
}

void gp_inject_part_open(uint32_t device)
{
    if (gp_inj.part ||
        gp_trace_part_name(gp_inj.part_path, sizeof gp_inj.part_path, gp_inj.dir,
                           gp_inj.host, gp_inj.pid, "csv") != 0 ||
        !(gp_inj.part = gp_inject_fopen(gp_inj.part_path)))
        return;
    static gp_meta m;
    static char cmdline[4096];
    char *argv[64];
    int argc = own_argv(cmdline, sizeof cmdline, argv, 64);
    gp_meta_init(&m);
    gp_meta_host(&m, GP_RUN_SCHEMA, argc, argv);
    gp_meta_set(&m, "pid", "%ld", gp_inj.pid);
    if (gp_inj.rank[0])
        gp_meta_set(&m, "rank", "%s of %ld", gp_inj.rank, gp_inj.ranks);
    device_meta(&m, device);
    gp_buf names = { 0 };
    int oom = 0;
    for (int i = 0; i < gp_inj.metrics.count; i++)
        oom |= gp_buf_printf(&names, "%s%s", i ? "," : "", gp_inj.metrics.names[i]);
    if (oom)
        gp_inject_out_of_memory("the metadata's metric list");
    gp_meta_set(&m, "metrics", "%s", oom ? "?" : names.s ? names.s : "none");
    gp_buf_free(&names);
    gp_meta_set(&m, "replay", "kernel: CUPTI replays each profiled launch once per "
                "pass, saving and restoring device memory; no cache flush or clock lock");
    gp_csv_write_meta(gp_inj.part, &m);
    gp_csv_write_header(gp_inj.part);
    fflush(gp_inj.part);
}

void gp_inject_out_of_memory(const char *what)
{
    const char *none = NULL;
    atomic_compare_exchange_strong(&oom_what, &none, what);
}

/* The first shortage, once, as metadata gemmprof trace repeats. */
static void note_oom(void)
{
    const char *what = atomic_load(&oom_what);
    if (!what || oom_noted || !gp_inj.part)
        return;
    char v[300];
    snprintf(v, sizeof v, "out of memory in %s: launches after it may be missing "
             "rows or durations", what);
    oom_noted = 1;
    gp_inject_part_note("warning", v);
}

void gp_inject_part_row(const gp_row *r)
{
    if (!gp_inj.part)
        return;
    note_oom();
    gp_csv_write_row_to(gp_inj.part, r);
    fflush(gp_inj.part);
}

void gp_inject_part_flush(void)
{
    if (!gp_inj.part)
        return;
    note_oom();
    fflush(gp_inj.part);
}

void gp_inject_part_note(const char *key, const char *value)
{
    if (!gp_inj.part)
        return;
    fprintf(gp_inj.part, "# %s: ", key);
    for (const char *p = value; *p; p++)        /* one line */
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, gp_inj.part);
    fputc('\n', gp_inj.part);
    fflush(gp_inj.part);
}
