/* merge.c - the part files of a trace into one run file: every
 * process's rows (its profiled launches, the first launch of each launch
 * configuration, each CUDA graph node) and the Activity API records of
 * all its timed launches (inject/inject.h gives the times file's lines),
 * joined by CUPTI correlation id or graph node into launches, then folded
 * per configuration or written one per launch.  Runs on the CPU only, so
 * the tests feed it hand-written parts. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* One line of a times file. */
typedef struct {
    int graph;                  /* a kernel of a CUDA graph               */
    long corr, first;           /* first: the row the launch refers to    */
    int profiled;
    long graph_id, node_id;
    double start_ns, ms;        /* ms 0: a zero-length record             */
} record;

typedef struct {
    record *r;
    size_t n, cap;
} records;

static int push(records *t, const record *r)
{
    if (gp_reserve(&t->r, &t->cap, t->n + 1, sizeof *t->r, 256))
        return -1;
    t->r[t->n++] = *r;
    return 0;
}

/* A line cut off by a crash (or anything else malformed) is skipped. */
static int parse_line(const char *line, record *r)
{
    unsigned long long start, end, node;
    long corr, first, graph;
    int profiled, len = 0;
    memset(r, 0, sizeof *r);
    if (sscanf(line, "g %ld %llu %llu %ld %llu\n%n", &corr, &start, &end, &graph, &node,
               &len) == 5 && len > 0 && line[len - 1] == '\n') {
        r->graph = 1;
        r->graph_id = graph;
        r->node_id = (long)node;
        r->first = corr;
    } else if (sscanf(line, "%ld %llu %llu %ld %d\n%n", &corr, &start, &end, &first,
                      &profiled, &len) == 5 && len > 0 && line[len - 1] == '\n') {
        r->first = first;
        r->profiled = profiled != 0;
    } else if (len = 0, sscanf(line, "%ld %llu %llu\n%n", &corr, &start, &end, &len) == 3 &&
               len > 0 && line[len - 1] == '\n') {
        r->first = corr;                /* older parts: profiled, own row */
        r->profiled = 1;
    } else {
        return -1;
    }
    if (end < start)
        return -1;
    r->corr = corr;
    r->start_ns = (double)start;
    r->ms = (double)(end - start) * 1e-6;
    return 0;
}

static void read_times(const char *path, records *t)
{
    FILE *f = fopen(path, "r");
    t->n = 0;
    if (!f)
        return;
    char line[256];
    record r;
    while (fgets(line, sizeof line, f))
        if (parse_line(line, &r) == 0 && push(t, &r) != 0)
            break;
    fclose(f);
}

static int by_launch(const void *a, const void *b)
{
    const record *x = a, *y = b;
    if (x->corr != y->corr)
        return (x->corr > y->corr) - (x->corr < y->corr);
    if (x->graph != y->graph)
        return x->graph - y->graph;
    if (x->graph && x->node_id != y->node_id)
        return (x->node_id > y->node_id) - (x->node_id < y->node_id);
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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
    gp_trace_launch_time *t;    /* every launch, part by part, in order   */
    size_t nt, tcap;
    long orphans;               /* records naming no row (a crash)        */
    gp_meta first;              /* the first part's metadata: GPU, metrics */
    gp_buf processes;
    gp_buf costs;               /* each process's "profiling_cost"         */
    gp_buf warnings;            /* each process's "warning" (out of memory) */
} merged;

static int append_rows(merged *m, const gp_run_file *f)
{
    if (m->n + f->nrows > m->cap) {
        int cap = (m->n + f->nrows) * 2 + 16;
        gp_row *grown = realloc(m->rows, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        m->rows = grown;
        m->cap = cap;
    }
    for (int i = 0; i < f->nrows; i++)
        m->rows[m->n++] = f->rows[i];
    return 0;
}

static int add_launch(merged *m, const gp_trace_launch_time *l)
{
    if (gp_reserve(&m->t, &m->tcap, m->nt + 1, sizeof *m->t, 1024))
        return -1;
    m->t[m->nt++] = *l;
    return 0;
}

/* A part's rows by correlation id (stream launches) and its graph nodes'
 * rows, to find the row a record refers to without a scan per record. */
typedef struct { long corr; int row; } by_corr_entry;
typedef struct {
    by_corr_entry *stream;      /* sorted by corr */
    size_t nstream;
    int *graph;                 /* rows with graph ids */
    size_t ngraph;
} row_index;

static int by_corr(const void *a, const void *b)
{
    long x = ((const by_corr_entry *)a)->corr, y = ((const by_corr_entry *)b)->corr;
    return (x > y) - (x < y);
}

static int index_rows(const merged *m, int from, row_index *ix)
{
    size_t n = (size_t)(m->n - from);
    memset(ix, 0, sizeof *ix);
    ix->stream = malloc((n + 1) * sizeof *ix->stream);
    ix->graph = malloc((n + 1) * sizeof *ix->graph);
    if (!ix->stream || !ix->graph)
        return -1;
    for (int i = from; i < m->n; i++) {
        if (m->rows[i].graph_id >= 0)
            ix->graph[ix->ngraph++] = i;
        else
            ix->stream[ix->nstream++] = (by_corr_entry){ m->rows[i].correlation_id, i };
    }
    qsort(ix->stream, ix->nstream, sizeof *ix->stream, by_corr);
    return 0;
}

/* The row a record refers to: a stream launch's own (own) or its
 * configuration's first, a graph node's; -1 if none (the process died
 * before writing it).  Of two rows with one id (cannot happen in a part
 * the library wrote), the first. */
static int row_of(const merged *m, const row_index *ix, const record *r, int own)
{
    if (r->graph) {
        for (size_t i = 0; i < ix->ngraph; i++) {
            const gp_row *row = &m->rows[ix->graph[i]];
            if (row->graph_id == r->graph_id && row->graph_node_id == r->node_id)
                return ix->graph[i];
        }
        return -1;
    }
    by_corr_entry key = { own ? r->corr : r->first, 0 };
    by_corr_entry *hit = ix->nstream ? bsearch(&key, ix->stream, ix->nstream, sizeof key,
                                               by_corr) : NULL;
    if (!hit)
        return -1;
    while (hit > ix->stream && hit[-1].corr == key.corr)
        hit--;
    return hit->row;
}

/* The launch of records v[0..k) (one launch: a profiled one may have a
 * record per replay pass; zero-length ones are no duration). */
static gp_trace_launch_time launch_of(const record *v, size_t k, int row, double *scratch)
{
    gp_trace_launch_time l = { .row = row, .corr = v[0].corr, .start_ns = v[0].start_ns,
                               .ms = NAN, .min_ms = NAN, .max_ms = NAN,
                               .profiled = v[0].profiled };
    size_t n = 0;
    for (size_t i = 0; i < k; i++)
        if (v[i].ms > 0)
            scratch[n++] = v[i].ms;
    if (n > 0) {
        qsort(scratch, n, sizeof *scratch, by_double);
        l.min_ms = scratch[0];
        l.max_ms = scratch[n - 1];
        l.ms = gp_median_inplace(scratch, n);
    }
    l.reps = (long)n;
    return l;
}

/* The part's launches from its records (rows m->rows[from..]); a row no
 * record names is a launch without a duration. */
static int join_launches(merged *m, int from, records *t)
{
    if (t->n > 1)                       /* no records: t->r may be NULL */
        qsort(t->r, t->n, sizeof *t->r, by_launch);
    char *covered = calloc((size_t)(m->n - from) + 1, 1);
    double *scratch = malloc((t->n + 1) * sizeof *scratch);
    row_index ix = { 0 };
    int rc = covered && scratch && index_rows(m, from, &ix) == 0 ? 0 : -1;
    for (size_t i = 0, k; rc == 0 && i < t->n; i += k) {
        const record *r = &t->r[i];
        for (k = 1; !r->graph && i + k < t->n && !t->r[i + k].graph &&
                    t->r[i + k].corr == r->corr; k++)
            ;
        int own = row_of(m, &ix, r, 1), row = own >= 0 ? own : row_of(m, &ix, r, 0);
        if (row < 0) {
            m->orphans += (long)k;
            continue;
        }
        if (own >= 0 || r->graph)
            covered[row - from] = 1;
        gp_trace_launch_time l = launch_of(r, k, row, scratch);
        rc = add_launch(m, &l);
    }
    for (int i = from; rc == 0 && i < m->n; i++)
        if (!covered[i - from]) {
            const gp_row *row = &m->rows[i];
            gp_trace_launch_time l = { .row = i, .corr = row->correlation_id,
                                       .start_ns = NAN, .ms = NAN, .min_ms = NAN,
                                       .max_ms = NAN, .profiled = row->profiled != 0 };
            rc = add_launch(m, &l);
        }
    free(covered);
    free(scratch);
    free(ix.stream);
    free(ix.graph);
    return rc;
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
    const char *n = gp_meta_get(meta, "nvtx_error");
    if (n && !res->warning[0])
        gp_fmt(res->warning, sizeof res->warning, "--nvtx-include in %s: %s", part, n);
}

static int read_part(const char *dir, const char *name, merged *m, records *t,
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
    int from = m->n;
    int rc = append_rows(m, &f);
    if (rc == 0)
        rc = join_launches(m, from, t);
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
        "cuda_driver_api", "chip", "metrics", "passes", "tensor_counters", "replay",
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
        char count[32] = "all", sample[40] = "all";
        if (o->o->launch_count >= 0)
            snprintf(count, sizeof count, "%ld", o->o->launch_count);
        if (o->o->per_config > 0)
            snprintf(sample, sizeof sample, "per-config:%ld", o->o->per_config);
        gp_meta_set(meta, "trace_filter", "kernel regex %s, nvtx include %s, sample %s, "
                    "launch skip %ld, launch count %s (matching launches, in each process)",
                    o->o->kernel_regex ? o->o->kernel_regex : "(any)",
                    o->o->nvtx_include ? o->o->nvtx_include : "(any)", sample,
                    o->o->launch_skip, count);
    }
    gp_meta_set(meta, "rows", "%s", o->per_launch ? "one per launch (--per-launch)" :
                "one per process, kernel and launch configuration (grid, block, dynamic "
                "shared memory, cluster; a CUDA graph's kernels: per graph node)");
    gp_meta_set(meta, "launches", "%ld (%ld from CUDA graphs)", res->launches,
                res->graph_launches);
    gp_meta_set(meta, "timing", "CUPTI Activity API (concurrent kernel records): GPU "
                "start to end of every traced launch, in the same run, unreplayed; a "
                "configuration's time_ms is the median over its unprofiled launches, "
                "time_total_ms their sum, reps their count; a row with no unprofiled "
                "launch takes its profiled launches' records (time_source "
                "profiled-activity), or where those have zero length (CUPTI 13.0 on the "
                "H100: every kernel-replayed launch) the profiler's gpu__time_duration.sum "
                "(time_source gpu__time_duration, reps NA): %d of the rows",
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

/* --per-launch: each launch's row, written as it is made. */
static int write_launches(const char *out, const gp_meta *meta, const merged *m,
                          gp_trace_merge_result *res, char *err, size_t errlen)
{
    gp_csv_writer *w = gp_csv_open(out, meta, err, errlen);
    if (!w)
        return -1;
    int bad = 0;
    static gp_row r;
    for (size_t i = 0; i < m->nt; i++) {
        gp_trace_launch_of(m->rows, &m->t[i], &r);
        bad |= gp_csv_write_row(w, &r) != 0;
        res->timed += !isnan(r.time_ms);
        res->counter_timed += strcmp(r.time_source, "gpu__time_duration") == 0;
    }
    if (gp_csv_close(w) != 0 || bad) {
        snprintf(err, errlen, "%s: write failed", out);
        return -1;
    }
    res->rows = (int)m->nt;
    return 0;
}

int gp_trace_merge(const char *dir, const gp_trace_merge_opts *o, const char *out,
                   gp_trace_merge_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    gp_strlist parts = { 0 };
    merged m = { 0 };
    records t = { 0 };
    gp_meta_init(&m.first);
    int rc = list_parts(dir, &parts, err, errlen);
    for (int i = 0; rc == 0 && i < parts.n; i++)
        rc = read_part(dir, parts.v[i], &m, &t, res, err, errlen);
    if (rc == 0 && res->parts > 0) {
        res->launches = (long)m.nt;
        for (size_t i = 0; i < m.nt; i++)
            res->graph_launches += m.rows[m.t[i].row].graph_id >= 0;
        if (m.orphans > 0 && !res->warning[0])
            gp_fmt(res->warning, sizeof res->warning, "%ld Activity records name no row "
                   "(a process ended before writing it): left out", m.orphans);
        static gp_meta meta;
        if (o->per_launch) {
            /* the metadata's count of gpu__time_duration rows comes after
             * the rows: counted first */
            static gp_row r;
            for (size_t i = 0; i < m.nt; i++) {
                gp_trace_launch_of(m.rows, &m.t[i], &r);
                res->counter_timed += strcmp(r.time_source, "gpu__time_duration") == 0;
            }
            merged_meta(&m, o, res, &meta);
            res->counter_timed = 0;
            rc = write_launches(out, &meta, &m, res, err, errlen);
        } else {
            m.n = gp_trace_fold(m.rows, m.n, m.t, m.nt);
            for (int i = 0; i < m.n; i++) {
                res->tensor_missing += gp_row_tensor_missing(&m.rows[i]);
                res->timed += !isnan(m.rows[i].time_ms);
                res->counter_timed += strcmp(m.rows[i].time_source, "gpu__time_duration") == 0;
            }
            merged_meta(&m, o, res, &meta);
            rc = write_out(out, &meta, m.rows, m.n, err, errlen);
            res->rows = m.n;
        }
    }
    gp_strlist_free(&parts);
    gp_buf_free(&m.processes);
    gp_buf_free(&m.costs);
    gp_buf_free(&m.warnings);
    free(m.rows);
    free(m.t);
    free(t.r);
    return rc;
}
