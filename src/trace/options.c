/* options.c - `gemmprof trace [OPTION]... [--] CMD [ARG]...`: every option
 * is checked before CMD starts, so a typo costs no run of the application. */
#include <getopt.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti/profiler.h"
#include "trace.h"

enum { OPT_REGEX = 256, OPT_SKIP, OPT_COUNT, OPT_METRICS, OPT_SUMMARY, OPT_MERGE, OPT_SAMPLE,
       OPT_PER_LAUNCH, OPT_NVTX };

/* "+": stop at the first word that is not an option (CMD's own options
 * are CMD's). */
static const char short_opts[] = "+:o:qhV";
static const struct option long_opts[] = {
    { "kernel-regex", required_argument, NULL, OPT_REGEX },
    { "launch-skip",  required_argument, NULL, OPT_SKIP },
    { "launch-count", required_argument, NULL, OPT_COUNT },
    { "sample",       required_argument, NULL, OPT_SAMPLE },
    { "nvtx-include", required_argument, NULL, OPT_NVTX },
    { "metrics",      required_argument, NULL, OPT_METRICS },
    { "per-launch",   no_argument,       NULL, OPT_PER_LAUNCH },
    { "out",          required_argument, NULL, 'o' },
    { "summary",      no_argument,       NULL, OPT_SUMMARY },
    { "merge",        required_argument, NULL, OPT_MERGE },
    { "quiet",        no_argument,       NULL, 'q' },
    { "help",         no_argument,       NULL, 'h' },
    { "version",      no_argument,       NULL, 'V' },
    { NULL, 0, NULL, 0 }
};

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

/* 0..max, read and worded as every command's integers (util.h). */
static int parse_count(const char *opt, const char *s, long max, long *out,
                       char *err, size_t errlen)
{
    unsigned long long v;
    if (gp_opt_integer(opt, s, 0, (unsigned long long)max, &v, err, errlen) < 0)
        return -1;
    *out = (long)v;
    return 0;
}

static int check_regex(const char *re, char *err, size_t errlen)
{
    regex_t r;
    int rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[200];
        regerror(rc, &r, msg, sizeof msg);
        snprintf(err, errlen, "--kernel-regex: '%s': %s", re, msg);
        return -1;
    }
    regfree(&r);
    return 0;
}

static int apply(int c, const char *arg, gp_trace_opts *o, char *err, size_t errlen)
{
    char msg[300];
    switch (c) {
    case OPT_REGEX:
        o->kernel_regex = arg;
        return check_regex(arg, err, errlen);
    case OPT_SKIP:
        return parse_count("--launch-skip", arg, LONG_MAX / 2, &o->launch_skip, err, errlen);
    case OPT_COUNT:
        return parse_count("--launch-count", arg, LONG_MAX / 2, &o->launch_count, err, errlen);
    case OPT_METRICS:
        if (gp_metric_list_parse(arg, &o->metric_list, msg, sizeof msg) < 0) {
            snprintf(err, errlen, "--metrics: %s", msg);
            return -1;
        }
        o->metrics = arg;
        return 0;
    case OPT_SAMPLE:
        o->sample = arg;
        return gp_trace_sample_parse(arg, &o->per_config, err, errlen);
    case OPT_NVTX:
        if (!*arg) {
            snprintf(err, errlen, "--nvtx-include: empty range name");
            return -1;
        }
        o->nvtx_include = arg;
        return 0;
    case 'o':
    case OPT_MERGE:
        if (gp_opt_path(c == 'o' ? "--out" : "--merge", arg, err, errlen) < 0)
            return -1;
        *(c == 'o' ? &o->out : &o->merge_dir) = arg;
        return 0;
    case OPT_SUMMARY:    o->per_launch = 0; return 0;
    case OPT_PER_LAUNCH: o->per_launch = 1; return 0;
    case 'q':         o->quiet = 1;   return 0;
    }
    snprintf(err, errlen, "internal error: option %d not handled", c);
    return -1;
}

int gp_trace_parse(int argc, char **argv, gp_trace_opts *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->launch_count = -1;
    o->metrics = "default";
    o->sample = "per-config";
    o->per_config = 1;
    if (gp_metric_list_parse(o->metrics, &o->metric_list, err, errlen) < 0)
        return -1;
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
        if (c == 'h' || c == 'V') {  /* like GNU tools: answer and stop */
            o->help = c == 'h';
            o->version = c == 'V';
            return 0;
        }
        if (c == '?' || c == ':') {
            gp_option_error(c, argv, long_opts, err, errlen);
            return -1;
        }
        if (apply(c, optarg, o, err, errlen) < 0)
            return -1;
    }
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
