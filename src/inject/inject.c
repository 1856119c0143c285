/* inject.c - the injected library's entry point and its callbacks.
 *
 * InitializeInjection (called by the driver inside cuInit) subscribes to
 * context creation and destruction and to the kernel launch APIs.  At a
 * launch's API entry the kernel is named and the filter decides
 * (filter.c): a launch that matches is timed by the Activity API
 * (activity.c), and the first of its launch configuration writes the
 * row the others refer to; a launch chosen for counters starts the Range
 * Profiler of its context (auto range + kernel replay, replay.c), CUPTI
 * replays the kernel inside the launch call, and at the API exit the
 * counters are evaluated, the row written and flushed.  A profiled launch
 * holds a writer lock from entry to exit and every other launch a reader
 * lock, so no kernel of another thread slips into a profiled range (with
 * --metrics none nothing is profiled and no lock is taken).  Nothing is
 * printed: CMD's output is its own; what went wrong goes into the part
 * file as "# key: value" lines.  A forked child and an exiting process are
 * left alone (guard.c). */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cupti_driver_cbid.h>

#include "cupti/profiler.h"
#include "util/util.h"
#include "state.h"

/* Recursive: CUPTI may deliver Activity buffers on the thread that holds
 * it (inside a profiler call), and a CUDA graph node's row (graph.c) is
 * written from there. */
gp_inject gp_inj = { .lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP };

static pthread_rwlock_t launch_lock;
static char activity_trouble[400];      /* written once a part exists */
static char nvtx_trouble[200];

typedef struct {
    CUcontext ctx;
    gp_replay *rp;                      /* NULL: counters refused here */
} ctx_session;
static ctx_session sessions[64];
static int nsessions;

/* Host time of the profiled launches, by phase (ms, summed; lock held to
 * add), for the part file's "profiling_cost" line: what trace costs an
 * application, measured in the application. */
static struct {
    long launches;
    double enter_ms, launch_ms, exit_ms, row_ms, flush_ms;
    gp_replay_cost replay;              /* of the contexts ended so far */
} cost;

static double now_ms(void) { return 1e3 * gp_seconds(); }

/* The launch this thread is in, between its API entry and exit. */
enum { NONE, UNPROFILED, PROFILED, FIRST };     /* FIRST: unprofiled, writes the row */
typedef struct {
    int state;
    int locked;                         /* holds the launch lock          */
    uint32_t corr;
    double t_enter, t_launch;           /* profiled: entry, end of entry  */
    CUfunction f;
    gp_trace_launch l;
    gp_trace_config_key key;            /* profiled: its configuration    */
    char *name;
    gp_replay *rp;                      /* started for this launch, or NULL */
} inflight;
static __thread inflight tl;

static const CUpti_CallbackId graph_cbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

static const CUpti_CallbackId launch_cbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

/* Trouble, said once per process in the part file (lock held). */
static void note_once(int *done, const char *key, const char *prefix, const char *what)
{
    if (*done || !gp_inj.part)
        return;
    char v[600];
    snprintf(v, sizeof v, "%s%s", prefix, what);
    gp_inject_part_note(key, v);
    *done = 1;
}

static void end_sessions_at_exit(void);

/* How the tensor-path counters were taken, for the part file. */
static void note_tensor_counters(const gp_replay *rp)
{
    char v[700];
    int full = gp_replay_passes(rp, 1), gated = gp_replay_passes(rp, 0);
    if (gated > 0)
        snprintf(v, sizeof v, "auto: a configuration's first profiled launch takes %d "
                 "passes, without the tensor-path counters, which are 0 where it ran no "
                 "tensor-core math instruction (tensor_math_inst 0), else come from the "
                 "configuration's next launch, profiled for every counter (%d passes, as "
                 "is every profiled launch after it)", gated, full);
    else if (gp_inj.tensor_gate)
        snprintf(v, sizeof v, "auto, not gated here (%s): every profiled launch takes "
                 "every counter (%d passes)", gp_replay_gate_off(rp), full);
    else
        snprintf(v, sizeof v, "always: every profiled launch takes every counter "
                 "(%d passes)", full);
    gp_inject_part_note("tensor_counters", v);
}

/* The context's range profiler, enabled at its first profiled launch
 * (lock held).  NULL when counters are refused there. */
static gp_replay *session_for(CUcontext ctx)
{
    static int exit_hook;
    for (int i = 0; i < nsessions; i++)
        if (sessions[i].ctx == ctx)
            return sessions[i].rp;
    if (nsessions == (int)(sizeof sessions / sizeof sessions[0]))
        return NULL;
    char why[512];
    gp_replay *rp = gp_replay_begin(ctx, &gp_inj.metrics, gp_inj.tensor_gate, why,
                                    sizeof why);
    sessions[nsessions++] = (ctx_session){ ctx, rp };
    if (rp && !exit_hook++)             /* after libnvperf_host is loaded */
        atexit(end_sessions_at_exit);
    if (!rp) {
        note_once(&gp_inj.noted_counters, "counters", "refused: ", why);
    } else if (!gp_inj.noted_chip) {
        char v[64];
        gp_inject_part_note("chip", gp_replay_chip(rp));
        snprintf(v, sizeof v, "%d", gp_replay_passes(rp, 1));
        gp_inject_part_note("passes", v);
        note_tensor_counters(rp);
        gp_inj.noted_chip = 1;
    }
    return rp;
}

static void add_replay_cost(gp_replay_cost *sum, const gp_replay *rp)
{
    gp_replay_cost c;
    if (!rp)
        return;
    gp_replay_costs(rp, &c);
    sum->launches += c.launches;
    sum->arm_ms += c.arm_ms;
    sum->start_ms += c.start_ms;
    sum->stop_ms += c.stop_ms;
    sum->evaluate_ms += c.evaluate_ms;
    sum->gated += c.gated;
    sum->switch_ms += c.switch_ms;
}

/* drained: no launch is inside a profiled range, so the session can go;
 * else one may still use it: it is dropped, not freed (lock held). */
static void end_session(CUcontext ctx, int drained)
{
    for (int i = 0; i < nsessions; i++)
        if (sessions[i].ctx == ctx) {
            add_replay_cost(&cost.replay, sessions[i].rp);
            if (drained)
                gp_replay_end(sessions[i].rp);
            sessions[i] = sessions[--nsessions];
            return;
        }
}

/* The range profiler loads libnvperf_host at the first profiled launch,
 * after the application registered its own exit handlers, so that
 * library's static objects are destroyed before those handlers run, while
 * the application's threads may still launch; CUPTI, still profiling the
 * context, then called into them from a launch on another thread ("pure
 * virtual method called", abort: H200, tests/fixtures/trace/harm.cu
 * threads-exit, where the plain program exits 0).  Registered after that
 * load, this handler runs before those destructors: it waits for launches
 * inside a profiled range, disables every context's profiler, and nothing
 * is profiled or recorded after (at_exit then flushes what was). */
static void end_sessions_at_exit(void)
{
    if (gp_inject_forked())
        return;
    int drained = !tl.locked && pthread_rwlock_wrlock(&launch_lock) == 0;
    gp_inject_stop();
    pthread_mutex_lock(&gp_inj.lock);
    while (nsessions > 0)
        end_session(sessions[0].ctx, drained);
    pthread_mutex_unlock(&gp_inj.lock);
    if (drained)
        pthread_rwlock_unlock(&launch_lock);
}

/* A context is destroyed (at exit, by the runtime, perhaps before our
 * at_exit) while other threads may be inside launches: wait for them to
 * leave, but not for long, as one may wait in the driver for the thread
 * destroying the context.  1 if they left (the launch lock is then held). */
static int drain_launches(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    return !tl.locked && pthread_rwlock_timedwrlock(&launch_lock, &until) == 0;
}

/* The part file exists once the process has a context: that is what tells
 * gemmprof it was a CUDA program (lock held). */
static void open_part(CUcontext ctx)
{
    uint32_t dev = 0;
    if (gp_inj.part || gp_inj.api->cuptiGetDeviceId(ctx, &dev) != CUPTI_SUCCESS)
        return;
    gp_inject_part_open(dev);
    if (gp_inj.part && activity_trouble[0])
        gp_inject_part_note("timing_error", activity_trouble);
    if (gp_inj.part && nvtx_trouble[0])
        gp_inject_part_note("nvtx_error", nvtx_trouble);
}

/* A launch into a stream being captured into a graph runs later, in the
 * graph, where no launch callback sees it: not counted, not profiled. */
static int capturing(CUpti_CallbackId cbid, CUstream stream)
{
    int ptsz = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
               cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
               cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    if (!stream && ptsz)
        stream = CU_STREAM_PER_THREAD;
    return gp_inj.drv->cuStreamIsCapturing(stream, &st) == CUDA_SUCCESS &&
           st != CU_STREAM_CAPTURE_STATUS_NONE;
}

/* The launch lock, unless exit has begun meanwhile (then no launch may
 * start a profiled range: at_exit drained them).  0 if taken. */
static int take_launch_lock(int writer)
{
    if (writer)
        pthread_rwlock_wrlock(&launch_lock);
    else
        pthread_rwlock_rdlock(&launch_lock);
    if (!gp_inject_idle())
        return 0;
    pthread_rwlock_unlock(&launch_lock);
    return -1;
}

/* The launch's configuration, as the filter keys it. */
static void config_key(CUfunction f, const gp_trace_launch *l, gp_trace_config_key *k)
{
    memset(k, 0, sizeof *k);
    k->func = f;
    memcpy(k->grid, l->grid, sizeof k->grid);
    memcpy(k->block, l->block, sizeof k->block);
    memcpy(k->cluster, l->cluster, sizeof k->cluster);
    k->dyn_smem = l->dyn_smem;
}

/* An unprofiled launch: timed only.  It waits for a profiled range of
 * another thread to end (reader lock) only while counters are on. */
static void launch_unprofiled(const CUpti_CallbackData *cb, int state, CUfunction f,
                              const gp_trace_launch *l, char *name)
{
    int locked = gp_inj.metrics.count > 0;
    if (locked && take_launch_lock(0) != 0) {
        free(name);
        return;
    }
    tl = (inflight){ .state = state, .locked = locked, .corr = cb->correlationId };
    if (state == FIRST) {
        tl.f = f;
        tl.l = *l;
        tl.name = name;
    }
}

static void launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    if (tl.state || gp_inject_idle())   /* a launch inside ours (CUPTI's) */
        return;
    double t0 = now_ms();
    gp_trace_launch l;
    CUfunction f;
    CUstream stream;
    memset(&l, 0, sizeof l);
    /* no context: the driver refuses the launch, let it say so */
    if (!cb->context ||
        gp_inject_launch_params(cbid, cb->functionParams, &f, &stream, &l) != 0 ||
        capturing(cbid, stream))
        return;
    if (gp_inj.nvtx_include && !gp_inject_nvtx_inside()) {
        launch_unprofiled(cb, UNPROFILED, f, &l, NULL);     /* not traced, but runs */
        return;
    }
    gp_trace_config_key key;
    gp_trace_pick pick;
    config_key(f, &l, &key);
    pthread_mutex_lock(&gp_inj.lock);
    open_part(cb->context);
    const char *name = gp_inject_kernel_name(f, cb->symbolName);
    gp_trace_filter_pick(&gp_inj.filter, name, &key, cb->correlationId, &pick);
    int profile = pick.profiled && gp_inj.metrics.count > 0;
    char *copy = pick.timed && (profile || pick.first) ? strdup(name) : NULL;
    pthread_mutex_unlock(&gp_inj.lock);
    if (!pick.timed) {
        launch_unprofiled(cb, UNPROFILED, f, &l, NULL);
        return;
    }
    if ((profile || pick.first) && !copy) {
        gp_inject_out_of_memory("a kernel name");
        return;
    }
    gp_inject_activity_want(cb->correlationId, pick.first_corr, profile);
    if (!profile) {
        launch_unprofiled(cb, pick.first ? FIRST : UNPROFILED, f, &l, copy);
        return;
    }
    if (take_launch_lock(1) != 0) {
        free(copy);
        return;
    }
    tl = (inflight){ .state = PROFILED, .locked = 1, .corr = cb->correlationId, .t_enter = t0,
                     .f = f, .l = l, .key = key, .name = copy };
    pthread_mutex_lock(&gp_inj.lock);
    gp_replay *rp = session_for(cb->context);
    char err[512];
    if (rp && gp_replay_start(rp, pick.full, err, sizeof err) == 0)
        tl.rp = rp;
    else if (rp)
        note_once(&gp_inj.noted_counters, "counters", "refused: ", err);
    pthread_mutex_unlock(&gp_inj.lock);
    tl.t_launch = now_ms();
}

/* The row of the launch this thread is leaving: its identity and static
 * facts; counters NA unless it was profiled. */
static void launch_row(const CUpti_CallbackData *cb, gp_row *r)
{
    gp_trace_launch *l = &tl.l;
    l->name = tl.name;
    l->pid = gp_inj.pid;
    l->rank = gp_inj.rank;
    l->ranks = gp_inj.ranks;
    l->correlation_id = cb->correlationId;
    gp_inject_launch_facts(tl.f, l);
    gp_trace_launch_row(l, r);
    r->profiled = tl.state == PROFILED;
    CUresult rc = cb->functionReturnValue ? *(const CUresult *)cb->functionReturnValue
                                          : CUDA_SUCCESS;
    if (rc != CUDA_SUCCESS) {
        const char *e = NULL;
        gp_inj.drv->cuGetErrorName(rc, &e);
        snprintf(r->status, sizeof r->status, "error: launch failed: %s", e ? e : "?");
    }
}

/* Leaving a launch that was not profiled: the first of its configuration
 * writes the row the others' records refer to. */
static void leave_unprofiled(const CUpti_CallbackData *cb)
{
    inflight was = tl;
    tl = (inflight){ 0 };
    if (was.locked)
        pthread_rwlock_unlock(&launch_lock);
    if (was.state != FIRST)
        return;
    tl = was;                           /* launch_row reads it */
    tl.state = FIRST;
    gp_row r;
    launch_row(cb, &r);
    gp_row_derive(&r);
    tl = (inflight){ 0 };
    pthread_mutex_lock(&gp_inj.lock);
    gp_inject_part_row(&r);
    pthread_mutex_unlock(&gp_inj.lock);
    free(was.name);
}

static void launch_exit(const CUpti_CallbackData *cb)
{
    if (!tl.state || tl.corr != cb->correlationId)
        return;
    if (tl.state != PROFILED) {
        leave_unprofiled(cb);
        return;
    }
    double t_exit = now_ms();
    gp_row r;
    launch_row(cb, &r);
    char err[512] = "";
    int got = tl.rp ? gp_replay_stop(tl.rp, tl.name, r.metric, &r.tensor_math_inst, err,
                                     sizeof err) : 0;
    double t_row = now_ms();
    gp_row_derive(&r);
    pthread_mutex_lock(&gp_inj.lock);
    if (got < 0)
        note_once(&gp_inj.noted_error, "counter_error", "", err);
    if (got == 1)                       /* tensor-core math: the next launch */
        gp_trace_filter_want_full(&gp_inj.filter, &tl.key);
    gp_inject_part_row(&r);
    double t_flush = now_ms();
    cost.launches++;
    cost.enter_ms += tl.t_launch - tl.t_enter;
    cost.launch_ms += t_exit - tl.t_launch;
    cost.exit_ms += t_row - t_exit;
    cost.row_ms += t_flush - t_row;
    pthread_mutex_unlock(&gp_inj.lock);
    free(tl.name);
    tl = (inflight){ 0 };
    pthread_rwlock_unlock(&launch_lock);
    gp_inject_activity_flush(0);        /* the durations land on disk too */
    double t_end = now_ms();
    pthread_mutex_lock(&gp_inj.lock);
    cost.flush_ms += t_end - t_flush;
    pthread_mutex_unlock(&gp_inj.lock);
}

/* --nvtx-include: a graph launch inside the range has its kernels timed. */
static void graph_launch(const CUpti_CallbackData *cb)
{
    if (cb->callbackSite == CUPTI_API_ENTER && !gp_inject_idle() && gp_inject_nvtx_inside())
        gp_inject_activity_want_graph(cb->correlationId);
}

static void context_event(CUpti_CallbackId cbid, const CUpti_ResourceData *rd)
{
    if (gp_inject_forked())             /* its locks may be held by no one */
        return;
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
        pthread_mutex_lock(&gp_inj.lock);
        open_part(rd->context);
        pthread_mutex_unlock(&gp_inj.lock);
    } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        int drained = drain_launches();
        pthread_mutex_lock(&gp_inj.lock);
        end_session(rd->context, drained);
        pthread_mutex_unlock(&gp_inj.lock);
        if (drained)
            pthread_rwlock_unlock(&launch_lock);
        gp_inject_activity_flush(1);
    }
}

static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain domain,
                                 CUpti_CallbackId cbid, const void *data)
{
    (void)user;
    if (!data)
        return;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        context_event(cbid, data);
        return;
    }
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
        if (!gp_inject_forked())
            gp_inject_nvtx_event(cbid, data);
        return;
    }
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API)
        return;
    const CUpti_CallbackData *cb = data;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
        cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) {
        graph_launch(cb);
        return;
    }
    if (cb->callbackSite == CUPTI_API_ENTER)
        launch_enter(cbid, cb);
    else
        launch_exit(cb);
}

/* "profiling_cost": per profiled launch, where the host's time went. */
static void note_cost(void)
{
    if (!gp_inj.part || cost.launches == 0)
        return;
    gp_replay_cost all = cost.replay, *c = &all;  /* + the contexts still alive */
    for (int i = 0; i < nsessions; i++)
        add_replay_cost(&all, sessions[i].rp);
    double n = (double)cost.launches, total = cost.enter_ms + cost.launch_ms +
                                              cost.exit_ms + cost.row_ms + cost.flush_ms;
    char v[600];
    snprintf(v, sizeof v, "%ld profiled launches (%ld gated), %.1f ms in them; a launch: "
             "%.2f ms = entry %.2f (counter image reset %.2f; Start %.2f; switch to every "
             "counter %.2f), launch with its replay %.2f, exit %.2f (Stop %.2f, evaluate "
             "%.2f), row %.2f, activity flush %.2f", cost.launches, c->gated, total,
             total / n, cost.enter_ms / n, c->arm_ms / n, c->start_ms / n,
             c->switch_ms / n, cost.launch_ms / n, cost.exit_ms / n, c->stop_ms / n,
             c->evaluate_ms / n, cost.row_ms / n, cost.flush_ms / n);
    gp_inject_part_note("profiling_cost", v);
}

/* Inherited by a forked child, which must not flush CUPTI (whose thread
 * it does not have) or take locks another thread held at fork: it does
 * nothing.  In the process itself, launches on other threads drain and
 * none is profiled after, so nothing CUPTI tears down is in use; unless
 * exit was called inside a launch (a signal handler): then waiting for
 * ourselves would hang, and that launch's lock is left as it is. */
static void at_exit(void)
{
    if (gp_inject_forked())
        return;
    int locked = tl.locked;
    if (!locked)
        pthread_rwlock_wrlock(&launch_lock);
    gp_inject_stop();
    if (!locked)
        pthread_rwlock_unlock(&launch_lock);
    gp_inject_activity_flush(1);
    pthread_mutex_lock(&gp_inj.lock);
    note_cost();
    gp_inject_part_flush();
    pthread_mutex_unlock(&gp_inj.lock);
}

static const char *env(const char *name)
{
    return getenv(name);
}

/* What gemmprof asked for, from the environment it gave CMD. */
static int read_settings(char *err, size_t errlen)
{
    const char *dir = getenv(GP_TRACE_ENV_DIR);
    snprintf(gp_inj.dir, sizeof gp_inj.dir, "%s", dir);
    if (gethostname(gp_inj.host, sizeof gp_inj.host) != 0)
        strcpy(gp_inj.host, "host");
    gp_inj.host[sizeof gp_inj.host - 1] = '\0';
    gp_inj.pid = (long)getpid();
    gp_trace_rank(env, gp_inj.rank, sizeof gp_inj.rank, &gp_inj.ranks);
    const char *metrics = getenv(GP_TRACE_ENV_METRICS);
    if (gp_metric_list_parse(metrics ? metrics : "default", &gp_inj.metrics, err, errlen) != 0)
        return -1;
    const char *tensor = getenv(GP_TRACE_ENV_TENSOR);
    gp_inj.tensor_gate = !tensor || strcmp(tensor, "always") != 0;
    const char *nvtx = getenv(GP_TRACE_ENV_NVTX);
    gp_inj.nvtx_include = nvtx && *nvtx ? nvtx : NULL;
    return gp_trace_filter_init(&gp_inj.filter, getenv(GP_TRACE_ENV_REGEX),
                                getenv(GP_TRACE_ENV_SKIP), getenv(GP_TRACE_ENV_COUNT),
                                getenv(GP_TRACE_ENV_SAMPLE), err, errlen);
}

/* Without callbacks nothing can be traced: a part file that says why, so
 * gemmprof reports it instead of "not a CUDA program". */
static void cannot_trace(const char *why)
{
    if (gp_trace_part_name(gp_inj.part_path, sizeof gp_inj.part_path, gp_inj.dir,
                           gp_inj.host, gp_inj.pid, "csv") != 0 ||
        !(gp_inj.part = gp_inject_fopen(gp_inj.part_path)))
        return;
    char v[700];
    snprintf(v, sizeof v, "refused: gemmprof cannot trace this process: %s", why);
    gp_inject_part_note("schema", GP_RUN_SCHEMA);
    gp_inject_part_note("counters", v);
    gp_csv_write_header(gp_inj.part);
    fflush(gp_inj.part);
}

/* Without its fork handler the library stays idle (guard.c). */
static int guard(char *err, size_t errlen)
{
    if (gp_inject_guard_init() == 0)
        return 0;
    snprintf(err, errlen, "pthread_atfork failed: no fork handler");
    return -1;
}

static int subscribe(char *err, size_t errlen)
{
    const gp_cupti_api *api = gp_inj.api;
    CUpti_SubscriberHandle sub;
    CUptiResult r = api->cuptiSubscribe(&sub, on_callback, NULL);
    if (r != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiSubscribe", r, err, errlen);
        return -1;
    }
    r = api->cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE,
                                 CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    if (r == CUPTI_SUCCESS)
        r = api->cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE,
                                     CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    for (size_t i = 0; r == CUPTI_SUCCESS && i < sizeof launch_cbids / sizeof *launch_cbids; i++)
        r = api->cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, launch_cbids[i]);
    /* --nvtx-include: graph launches inside the range, and the ranges */
    for (size_t i = 0; r == CUPTI_SUCCESS && gp_inj.nvtx_include &&
                       i < sizeof graph_cbids / sizeof *graph_cbids; i++)
        r = api->cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, graph_cbids[i]);
    if (r != CUPTI_SUCCESS) {
        gp_cupti_error(api, "cuptiEnableCallback", r, err, errlen);
        api->cuptiUnsubscribe(sub);
        return -1;
    }
    if (gp_inj.nvtx_include) {
        gp_inject_activity_filter_graphs();
        if (gp_inject_nvtx_subscribe(sub, nvtx_trouble, sizeof nvtx_trouble) != 0)
            return 0;                   /* traced, but no launch is in a range */
    }
    return 0;
}

static void nvtx_forwarded(const char *why)
{
    if (why && !nvtx_trouble[0])
        snprintf(nvtx_trouble, sizeof nvtx_trouble, "%s: no NVTX range is seen, so no "
                 "launch is inside --nvtx-include's", why);
}

/* Once per process, from whichever entry point comes first: NVTX may
 * load the library (--nvtx-include) before the application touches CUDA.
 * Only the first call does anything; a call from inside it (cuInit,
 * reached from loading the driver) finds it under way. */
static int setup_once(void)
{
    static int state;                   /* 0 not yet, 1 under way or done, -1 failed */
    char why[600];
    const char *dir = getenv(GP_TRACE_ENV_DIR);
    if (state)
        return state > 0 ? 0 : -1;
    state = -1;
    if (!dir || !*dir)                  /* injected by something else: idle */
        return -1;
    state = 1;
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&launch_lock, &attr);
    if (read_settings(why, sizeof why) != 0 || guard(why, sizeof why) != 0 ||
        !(gp_inj.drv = gp_cudrv_load(why, sizeof why)) ||
        !(gp_inj.api = gp_cupti_load(why, sizeof why)) || subscribe(why, sizeof why) != 0) {
        cannot_trace(why);
        state = -1;
        return -1;
    }
    if (gp_inject_activity_start(activity_trouble, sizeof activity_trouble) == 0)
        activity_trouble[0] = '\0';
    atexit(at_exit);
    return 0;
}

static int setup(void)
{
    /* recursive: CUPTI may call cuInit from inside, on this thread */
    static pthread_mutex_t once = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
    pthread_mutex_lock(&once);
    int rc = setup_once();
    pthread_mutex_unlock(&once);
    return rc;
}

__attribute__((visibility("default"))) int InitializeInjection(void)
{
    setup();
    return 1;
}

typedef int (*nvtx_init_fn)(void *);

__attribute__((visibility("default"))) int InitializeInjectionNvtx2(void *getExportTable)
{
    /* NVTX calls this once; 0 tells it the injection failed (its calls
     * then do nothing, and no launch is inside the range: said in the
     * part file by gemmprof's check of the ranges seen). */
    if (setup() != 0 || !gp_inj.nvtx_include)
        return 0;
    void *h = dlopen(gp_inj.api->path, RTLD_NOW | RTLD_NOLOAD | RTLD_LOCAL);
    nvtx_init_fn init = h ? (nvtx_init_fn)dlsym(h, "InitializeInjectionNvtx2") : NULL;
    int ok = init ? init(getExportTable) : 0;
    nvtx_forwarded(ok ? NULL : init ? "libcupti's InitializeInjectionNvtx2 "
                             "failed" : "libcupti has no InitializeInjectionNvtx2");
    if (h)
        dlclose(h);
    return ok;
}

