/* merge.c - the part files of a trace into one run file: every process's
 * rows, each joined with its launch's Activity API durations (by CUPTI
 * correlation id), derived, and folded with --summary.  Runs on the CPU
 * only, so the tests feed it hand-written parts. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

typedef struct { long corr; double ms; } duration;

typedef struct {
    duration *d;
    size_t n, cap;
} durations;

static int by_corr(const void *a, const void *b)
{
    long x = ((const duration *)a)->corr, y = ((const duration *)b)->corr;
    return (x > y) - (x < y);
}

/* "<corr> <start_ns> <end_ns>" lines; a line cut off by a crash (or
 * anything else malformed) is skipped. */
static void read_times(const char *path, durations *t)
{
    FILE *f = fopen(path, "r");
    t->n = 0;
    if (!f)
        return;
    char line[128];
    while (fgets(line, sizeof line, f)) {
        long corr;
        unsigned long long start, end;
        char tail;
        if (sscanf(line, "%ld %llu %llu%c", &corr, &start, &end, &tail) != 4 ||
            tail != '\n' || end < start)
            continue;
        if (t->n == t->cap) {
            size_t cap = t->cap ? 2 * t->cap : 256;
            duration *grown = realloc(t->d, cap * sizeof *grown);
            if (!grown)
                break;
            t->d = grown;
            t->cap = cap;
        }
        t->d[t->n++] = (duration){ corr, (double)(end - start) * 1e-6 };
    }
    fclose(f);
    qsort(t->d, t->n, sizeof *t->d, by_corr);
}

/* The launch's records: more than one if CUPTI reports each replay pass
 * (the rows then say how many in reps).  A record of zero length is no
 * duration: CUPTI 13.0 gave every profiled (kernel-replayed) launch one,
 * start == end, on the H100.  Such a row takes its time from the profiler's
 * own gpu__time_duration.sum (within 0.2% of ncu's on the fixture there),
 * reps NA; *from_counter says so. */
static void join_times(gp_row *r, const durations *t, int *from_counter)
{
    duration key = { r->correlation_id, 0 };
    duration *hit = r->correlation_id < 0 || t->n == 0 ? NULL :   /* no .times: d NULL */
                    bsearch(&key, t->d, t->n, sizeof *t->d, by_corr);
    size_t n = 0;
    double v[64];
    if (hit) {
        while (hit > t->d && hit[-1].corr == key.corr)
            hit--;
        for (; hit < t->d + t->n && hit->corr == key.corr && n < 64; hit++)
            if (hit->ms > 0)
                v[n++] = hit->ms;
    }
    *from_counter = 0;
    if (n == 0) {
        double ns = r->metric[GP_M_GPU_TIME];
        if (ns > 0) {
            r->time_ms = r->time_min_ms = r->time_max_ms = r->time_total_ms = ns * 1e-6;
            *from_counter = 1;
        }
        return;
    }
    r->time_ms = gp_median_inplace(v, n);     /* sorts v */
    r->time_min_ms = v[0];
    r->time_max_ms = v[n - 1];
    r->reps = (long)n;
    r->time_total_ms = r->time_ms;
}

static int is_part(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".csv") == 0 && name[0] != '.';
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_parts(const char *dir, gp_strlist *parts, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (is_part(e->d_name))
            gp_strlist_add(parts, e->d_name);
    closedir(d);
    if (parts->n > 1)
        qsort(parts->v, (size_t)parts->n, sizeof *parts->v, by_name);
    return 0;
}

typedef struct {
    gp_row *rows;
    int n, cap;
    gp_meta first;              /* the first part's metadata: GPU, metrics */
    gp_buf processes;
    gp_buf costs;               /* each process's "profiling_cost"         */
    gp_buf warnings;            /* each process's "warning" (out of memory) */
} merged;

static int append_rows(merged *m, const gp_run_file *f, const durations *t,
                       gp_trace_merge_result *res)
{
    if (m->n + f->nrows > m->cap) {
        int cap = (m->n + f->nrows) * 2 + 16;
        gp_row *grown = realloc(m->rows, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        m->rows = grown;
        m->cap = cap;
    }
    for (int i = 0; i < f->nrows; i++) {
        gp_row *r = &m->rows[m->n++];
        *r = f->rows[i];
        int from_counter;
        join_times(r, t, &from_counter);
        res->counter_timed += from_counter;
        gp_row_derive(r);
    }
    return 0;
}

/* Counters refused or failing in a process: said once, for the first. */
static void note_part(const gp_meta *meta, const char *part, gp_trace_merge_result *res)
{
    const char *c = gp_meta_get(meta, "counters");
    if (c && strncmp(c, "refused: ", 9) == 0 && !res->refused[0])
        gp_fmt(res->refused, sizeof res->refused, "%s", c + 9);
    const char *e = gp_meta_get(meta, "counter_error");
    if (e && !res->warning[0])
        gp_fmt(res->warning, sizeof res->warning, "counters failed in %s: %s", part, e);
    const char *w = gp_meta_get(meta, "warning");
    if (w && !res->warning[0])
        gp_fmt(res->warning, sizeof res->warning, "%s: %s", part, w);
}

static int read_part(const char *dir, const char *name, merged *m, durations *t,
                     gp_trace_merge_result *res, char *err, size_t errlen)
{
    char path[4096], msg[600];
    gp_fmt(path, sizeof path, "%s/%s", dir, name);
    gp_run_file f;
    if (gp_csv_read_salvage(path, &f, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "%s", msg);
        return -1;
    }
    if (msg[0] && !res->warning[0])        /* a process died mid-row */
        gp_fmt(res->warning, sizeof res->warning, "%s", msg);
    size_t len = strlen(path);
    snprintf(path + len - 4, sizeof path - len + 4, ".times");
    read_times(path, t);
    if (res->parts == 0)
        m->first = f.meta;
    note_part(&f.meta, name, res);
    const char *pid = gp_meta_get(&f.meta, "pid");
    const char *proc = gp_meta_get(&f.meta, "command");   /* the process's */
    gp_buf_printf(&m->processes, "%s%s %s", m->processes.s ? "; " : "",
                  pid ? pid : "?", proc ? proc : "?");
    const char *cost = gp_meta_get(&f.meta, "profiling_cost");
    if (cost)
        gp_buf_printf(&m->costs, "%s%s: %s", m->costs.s ? "; " : "", pid ? pid : "?", cost);
    const char *warning = gp_meta_get(&f.meta, "warning");
    if (warning)
        gp_buf_printf(&m->warnings, "%s%s: %s", m->warnings.s ? "; " : "", pid ? pid : "?",
                      warning);
    int rc = append_rows(m, &f, t, res);
    gp_run_file_free(&f);
    res->parts++;
    if (rc)
        snprintf(err, errlen, "out of memory merging %s", name);
    return rc;
}

/* The part's facts of the GPU and the profiler, and the trace's own. */
static void merged_meta(const merged *m, const gp_trace_merge_opts *o,
                        const gp_trace_merge_result *res, gp_meta *meta)
{
    static const char *const keep[] = {
        "gpu_name", "compute_capability", "sm_count", "sm_clock_max_mhz",
        "mem_clock_max_mhz", "mem_bus_width_bits", "l2_bytes", "gpu_memory_bytes",
        "cuda_driver_api", "chip", "metrics", "passes", "replay",
    };
    gp_meta_init(meta);
    gp_meta_host(meta, GP_RUN_SCHEMA, o->argc, o->argv);
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        const char *v = gp_meta_get(&m->first, keep[i]);
        if (v)
            gp_meta_set(meta, keep[i], "%s", v);
    }
    gp_meta_set(meta, "processes", "%d: %s", res->parts,
                m->processes.s ? m->processes.s : "");
    if (m->costs.s)
        gp_meta_set(meta, "profiling_cost", "%s", m->costs.s);
    if (m->warnings.s)
        gp_meta_set(meta, "warning", "%s", m->warnings.s);
    if (o->o) {
        char count[32] = "all";
        if (o->o->launch_count >= 0)
            snprintf(count, sizeof count, "%ld", o->o->launch_count);
        gp_meta_set(meta, "trace_filter", "kernel regex %s, launch skip %ld, launch "
                    "count %s (matching launches, in each process)",
                    o->o->kernel_regex ? o->o->kernel_regex : "(any)",
                    o->o->launch_skip, count);
    }
    gp_meta_set(meta, "rows", "%s", o->summary ? "one per process, kernel and launch "
                "configuration (--summary): medians over its launches" :
                "one per profiled launch");
    gp_meta_set(meta, "timing", "CUPTI Activity API (concurrent kernel records): GPU "
                "start to end of each launch, in the same run; time_ms is the median "
                "of a row's records; a profiled launch whose records have zero length "
                "(CUPTI 13.0 on the H100: every kernel-replayed launch) takes the "
                "profiler's gpu__time_duration.sum, reps NA: %d of the rows",
                res->counter_timed);
    gp_meta_set(meta, "counters", "%s", res->refused[0] ? res->refused : "ok");
}

static int write_out(const char *out, const gp_meta *meta, const gp_row *rows, int n,
                     char *err, size_t errlen)
{
    gp_csv_writer *w = gp_csv_open(out, meta, err, errlen);
    if (!w)
        return -1;
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad |= gp_csv_write_row(w, &rows[i]) != 0;
    if (gp_csv_close(w) != 0 || bad) {
        snprintf(err, errlen, "%s: write failed", out);
        return -1;
    }
    return 0;
}

int gp_trace_merge(const char *dir, const gp_trace_merge_opts *o, const char *out,
                   gp_trace_merge_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    gp_strlist parts = { 0 };
    merged m = { 0 };
    durations t = { 0 };
    gp_meta_init(&m.first);
    int rc = list_parts(dir, &parts, err, errlen);
    for (int i = 0; rc == 0 && i < parts.n; i++)
        rc = read_part(dir, parts.v[i], &m, &t, res, err, errlen);
    if (rc == 0 && res->parts > 0) {
        if (o->summary)
            m.n = gp_trace_fold(m.rows, m.n);
        static gp_meta meta;
        merged_meta(&m, o, res, &meta);
        rc = write_out(out, &meta, m.rows, m.n, err, errlen);
        res->rows = m.n;
        for (int i = 0; i < m.n; i++)
            res->timed += !isnan(m.rows[i].time_ms);
    }
    gp_strlist_free(&parts);
    gp_buf_free(&m.processes);
    gp_buf_free(&m.costs);
    gp_buf_free(&m.warnings);
    free(m.rows);
    free(t.d);
    return rc;
}
