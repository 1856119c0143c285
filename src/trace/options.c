/* options.c - `gemmprof trace [OPTION]... [--] CMD [ARG]...`: every option
 * is checked before CMD starts, so a typo costs no run of the application. */
#include <getopt.h> /* optind: where the options ended */
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti/profiler.h"
#include "trace.h"

void gp_trace_usage(FILE *f)
{
    fputs(
"Usage: gemmprof trace [OPTION]... [--] CMD [ARG]...\n"
"Run CMD, any CUDA application, and measure its kernel launches in the\n"
"process itself: every launch is timed by the CUPTI Activity API,\n"
"unreplayed; the first launch of each launch configuration is profiled\n"
"for hardware counters (Range Profiler, kernel replay).  One row per\n"
"kernel and launch configuration (launches, total, median, min and max\n"
"time of the unprofiled launches, and the counters) in a run file that\n"
"gemmprof plot, report and diff read like any other.  Kernels launched\n"
"from CUDA graphs are timed too (their counters NA).  CMD's stdin, stdout\n"
"and stderr are its own; child processes are traced too.\n"
"\n"
"Which launches (ncu's meaning: skip and count apply to matching launches,\n"
"counted in each process):\n"
"      --kernel-regex RE   only kernels whose demangled name matches RE\n"
"                          (POSIX extended, anywhere in the name; like ncu\n"
"                          --kernel-name-base demangled -k regex:RE)\n"
"      --nvtx-include RANGE  only launches made inside an NVTX push/pop\n"
"                          range named RANGE (nested ranges count), on the\n"
"                          launching thread\n"
"      --sample SPEC       which timed launches are profiled for counters:\n"
"                          per-config[:N] (default; N = 1): the first N of\n"
"                          each kernel, grid, block, dynamic shared memory\n"
"                          and cluster (like ncu --filter-mode\n"
"                          per-launch-config); all: every launch\n"
"      --launch-skip N     skip the first N matching launches before\n"
"                          profiling (per configuration with per-config)\n"
"      --launch-count N    profile at most N launches (default all)\n"
"\n"
"What each row holds:\n"
"      --metrics SPEC      hardware counters: default (gemmprof --list-metrics\n"
"                          names them), none (durations and launch facts only,\n"
"                          no replay), or NAME[,NAME...] of the default ones\n"
"                          as ncu spells them (the run file's columns)\n"
"      --tensor-counters WHEN  the tensor-path counters (sm__ops_path_tensor_*):\n"
"                          auto (default): a configuration's first profiled\n"
"                          launch counts tensor-core math instructions\n"
"                          instead (column tensor_math_inst; 2 passes fewer\n"
"                          on GH100): none, and they are 0; some, and its\n"
"                          next launch takes every counter (NA if there is\n"
"                          none); always: every profiled launch, as ncu\n"
"      --per-launch        one row per launch instead of per configuration\n"
"                          (counters NA on the launches not profiled)\n"
"      --summary           one row per configuration (the default; kept for\n"
"                          older scripts)\n"
"\n"
"Output:\n"
"  -o, --out PATH          write the rows to FILE.csv, or to a new file in DIR\n"
"                          (default results/)\n"
"      --merge DIR         only merge the part files left in DIR (by a trace\n"
"                          that did not finish) into --out\n"
"  -q, --quiet             print only warnings and errors\n"
"  -h, --help              show this help and exit\n"
"  -V, --version           show version and build information and exit\n"
"\n"
"A configuration's time is never taken from a replayed launch when it has\n"
"an unprofiled one; the column time_source says where it comes from.\n"
"\n"
"Environment: GEMMPROF_INJECT_LIB names the injected library (default\n"
"BINDIR/../" GP_TRACE_LIB_SUBDIR "/" GP_TRACE_LIB_NAME ").\n"
"\n"
"Exit status:\n"
"  N  CMD's own (128+N when a signal N killed it; every row measured\n"
"     before is kept)\n"
"  2  bad options, a CMD that cannot be run, or a CMD that exits 0\n"
"     without any process creating a CUDA context (not a CUDA program)\n"
"\n"
"Examples:\n"
"  gemmprof trace -- ./my_solver input.dat\n"
"  gemmprof trace --nvtx-include train_step -- python3 train.py\n"
"  gemmprof trace --kernel-regex gemm --sample all --per-launch -- ./app\n"
"  gemmprof trace -o app.csv -- mpirun -np 2 ./app\n",
        f);
}

static int check_regex(const char *re, char *err, size_t errlen)
{
    regex_t r;
    int rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[200];
        regerror(rc, &r, msg, sizeof msg);
        snprintf(err, errlen, "'%s': %s", re, msg);
        return -1;
    }
    regfree(&r);
    return 0;
}

static int not_empty(const char *arg, char *err, size_t errlen)
{
    if (*arg)
        return 0;
    snprintf(err, errlen, "empty range name");
    return -1;
}

/* The options whose value is more than a field: parsed once, here. */
static int set_metrics(void *p, const char *arg, char *err, size_t errlen)
{
    gp_trace_opts *o = p;
    char msg[300];
    if (gp_metric_list_parse(arg, &o->metric_list, msg, sizeof msg) < 0) {
        snprintf(err, errlen, "--metrics: %s", msg);
        return -1;
    }
    o->metrics = arg;
    return 0;
}

static int set_sample(void *p, const char *arg, char *err, size_t errlen)
{
    gp_trace_opts *o = p;
    o->sample = arg;
    return gp_trace_sample_parse(arg, &o->per_config, err, errlen);
}

static int set_tensor_counters(void *p, const char *arg, char *err, size_t errlen)
{
    if (strcmp(arg, "auto") != 0 && strcmp(arg, "always") != 0) {
        snprintf(err, errlen, "--tensor-counters: '%s' is not auto or always", arg);
        return -1;
    }
    ((gp_trace_opts *)p)->tensor_counters = arg;
    return 0;
}

static int set_summary(void *p, const char *arg, char *err, size_t errlen)
{
    (void)arg, (void)err, (void)errlen;
    ((gp_trace_opts *)p)->per_launch = 0;
    return 0;
}

#define T gp_trace_opts
static const gp_opt table[] = {
    { "kernel-regex", 0, GP_OPT_TEXT, GP_OPT_FIELD(T, kernel_regex, const char *), 0, 0, 0, 0,
      check_regex, 0 },
    { "launch-skip", 0, GP_OPT_LONG, GP_OPT_FIELD(T, launch_skip, long), 0, 0, LONG_MAX / 2, 0,
      0, 0 },
    { "launch-count", 0, GP_OPT_LONG, GP_OPT_FIELD(T, launch_count, long), 0, 0, LONG_MAX / 2,
      0, 0, 0 },
    { "sample", 0, GP_OPT_CALL, 0, 0, 0, 0, 0, 0, set_sample },
    { "nvtx-include", 0, GP_OPT_TEXT, GP_OPT_FIELD(T, nvtx_include, const char *), 0, 0, 0, 0,
      not_empty, 0 },
    { "metrics", 0, GP_OPT_CALL, 0, 0, 0, 0, 0, 0, set_metrics },
    { "tensor-counters", 0, GP_OPT_CALL, 0, 0, 0, 0, 0, 0, set_tensor_counters },
    { "per-launch", 0, GP_OPT_FLAG, GP_OPT_FIELD(T, per_launch, int), 0, 0, 0, 0, 0, 0 },
    { "summary", 0, GP_OPT_ACTION, 0, 0, 0, 0, 0, 0, set_summary },
    GP_OPTS_OUT(T, out),
    { "merge", 0, GP_OPT_PATH, GP_OPT_FIELD(T, merge_dir, const char *), 0, 0, 0, 0, 0, 0 },
    GP_OPTS_QUIET(T, quiet),
    GP_OPTS_HELP(T, help, version),
    GP_OPTS_END
};
#undef T

int gp_trace_parse(int argc, char **argv, gp_trace_opts *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->launch_count = -1;
    o->metrics = "default";
    o->tensor_counters = "auto";
    o->sample = "per-config";
    o->per_config = 1;
    if (gp_metric_list_parse(o->metrics, &o->metric_list, err, errlen) < 0)
        return -1;
    /* options end at the first word that is not one: CMD's are CMD's */
    if (gp_opts_parse_command(table, argc, argv, o, err, errlen) < 0)
        return -1;
    if (o->help || o->version)
        return 0;
    /* getopt leaves a "--" that ended the options behind it. */
    o->cmd = argv + optind;
    o->ncmd = argc - optind;
    if (o->merge_dir) {
        if (o->ncmd > 0) {
            snprintf(err, errlen, "--merge takes no command (got '%s')", o->cmd[0]);
            return -1;
        }
        return 0;
    }
    if (o->ncmd == 0) {
        snprintf(err, errlen, "no command given: gemmprof trace [OPTION]... -- CMD [ARG]...");
        return -1;
    }
    if (!o->cmd[0][0]) {
        snprintf(err, errlen, "empty command name");
        return -1;
    }
    return 0;
}
