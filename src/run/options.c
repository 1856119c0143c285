/* options.c - options of the run command: parsed and validated in full before
 * anything touches the GPU, so a typo costs no device time. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "registry/registry.h"

#define REPS_MAX 1000000L
/* --pad N: a row pitch, not a size; beyond 4096 elements a pad tests
 * nothing a smaller one does not */
#define PAD_MAX 4096L

enum {
    OPT_SIZES = 256, OPT_MNK, OPT_ALPHA, OPT_BETA, OPT_REPS, OPT_WARMUP,
    OPT_SEED, OPT_METRICS, OPT_DEVICE,
    OPT_LIST_METRICS, OPT_BUILD_FACTS, OPT_ROOFLINE, OPT_NO_FLUSH, OPT_PLUGIN, OPT_BASELINE,
    OPT_CHIP,
    OPT_CACHE_CONTROL, OPT_ENERGY, OPT_INTERLEAVE, OPT_PAD
};

static const char short_opts[] = ":k:s:o:lqhV";
static const struct option long_opts[] = {
    { "kernel",       required_argument, NULL, 'k' },
    { "size",         required_argument, NULL, 's' },
    { "sizes",        required_argument, NULL, OPT_SIZES },
    { "mnk",          required_argument, NULL, OPT_MNK },
    { "alpha",        required_argument, NULL, OPT_ALPHA },
    { "beta",         required_argument, NULL, OPT_BETA },
    { "reps",         required_argument, NULL, OPT_REPS },
    { "warmup",       required_argument, NULL, OPT_WARMUP },
    { "seed",         required_argument, NULL, OPT_SEED },
    { "pad",          required_argument, NULL, OPT_PAD },
    { "out",          required_argument, NULL, 'o' },
    { "metrics",      required_argument, NULL, OPT_METRICS },
    { "device",       required_argument, NULL, OPT_DEVICE },
    { "list",         no_argument,       NULL, 'l' },
    { "list-metrics", no_argument,       NULL, OPT_LIST_METRICS },
    { "chip",         required_argument, NULL, OPT_CHIP },
    { "build-facts",  no_argument,       NULL, OPT_BUILD_FACTS },
    { "roofline",     no_argument,       NULL, OPT_ROOFLINE },
    { "no-flush",     no_argument,       NULL, OPT_NO_FLUSH },
    { "cache-control", required_argument, NULL, OPT_CACHE_CONTROL },
    { "energy",       required_argument, NULL, OPT_ENERGY },
    { "interleave",   no_argument,       NULL, OPT_INTERLEAVE },
    { "plugin",       required_argument, NULL, OPT_PLUGIN },
    { "baseline",     required_argument, NULL, OPT_BASELINE },
    { "quiet",        no_argument,       NULL, 'q' },
    { "help",         no_argument,       NULL, 'h' },
    { "version",      no_argument,       NULL, 'V' },
    { NULL, 0, NULL, 0 }
};

/* Whole string, decimal digits only (no sign or blanks), at most max. */
static int parse_ull(const char *s, unsigned long long max, unsigned long long *out)
{
    if (!*s)
        return -1;
    unsigned long long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int parse_int_opt(const char *opt, const char *s, long lo, long hi,
                         int *out, char *err, size_t errlen)
{
    unsigned long long v;
    if (parse_ull(s, (unsigned long long)hi, &v) < 0 || (long)v < lo) {
        snprintf(err, errlen, "%s: '%s' is not an integer in %ld..%ld",
                 opt, s, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_finite(const char *opt, const char *s, double *out,
                        char *err, size_t errlen)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *s == ' ' || *s == '\t' || *end || !isfinite(v)) {
        snprintf(err, errlen, "%s: '%s' is not a finite number", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int add_kernels(gp_options *o, const char *spec, char *err, size_t errlen)
{
    const gp_kernel *sel[GP_MAX_KERNELS];
    int n = gp_registry_select(spec, sel, GP_MAX_KERNELS, err, errlen);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < o->nkernels && !seen; j++)
            seen = o->kernels[j] == sel[i];
        if (seen)
            continue;
        if (o->nkernels == GP_MAX_KERNELS) {
            snprintf(err, errlen, "too many kernels (at most %d)", GP_MAX_KERNELS);
            return -1;
        }
        o->kernels[o->nkernels++] = sel[i];
    }
    return 0;
}

/* --kernel and --plugin are kept as given: the names are resolved once
 * every plugin is loaded (load_and_resolve). */
static int keep_arg(const char *opt, const char **list, int *n, int max,
                    const char *arg, char *err, size_t errlen)
{
    if (*n == max) {
        snprintf(err, errlen, "%s: given more than %d times", opt, max);
        return -1;
    }
    list[(*n)++] = arg;
    return 0;
}

/* A dry run loads no plugin (loading runs the plugin's code), so the
 * kernel names are checked only when no plugin could add to them. */
static int load_and_resolve(gp_options *o, char *err, size_t errlen)
{
    if (gp_dry_run() && o->nplugins > 0)
        return 0;
    for (int i = 0; i < o->nplugins; i++)
        if (gp_plugin_load(o->plugins[i], err, errlen) < 0)
            return -1;
    for (int i = 0; i < o->nkernel_specs; i++)
        if (add_kernels(o, o->kernel_specs[i], err, errlen) < 0)
            return -1;
    return 0;
}

typedef int (*shape_parser)(const char *, gp_shape *, int, char *, size_t);

static int add_shapes(gp_options *o, const char *opt, shape_parser parse,
                      const char *spec, char *err, size_t errlen)
{
    gp_shape tmp[GP_MAX_SHAPES];
    char msg[256];
    int n = parse(spec, tmp, GP_MAX_SHAPES, msg, sizeof msg);
    if (n < 0) {
        snprintf(err, errlen, "%s: %s", opt, msg);
        return -1;
    }
    if (o->nshapes + n > GP_MAX_SHAPES) {
        snprintf(err, errlen, "%s: too many sizes (at most %d in all)", opt,
                 GP_MAX_SHAPES);
        return -1;
    }
    memcpy(o->shapes + o->nshapes, tmp, (size_t)n * sizeof tmp[0]);
    o->nshapes += n;
    return 0;
}

/* "default", "none", or a comma list of ncu-style names.  Whether the chip
 * knows a name is the profiler's check (gp_profiler_validate). */
static int check_metrics(const char *spec, char *err, size_t errlen)
{
    if (strcmp(spec, "default") == 0 || strcmp(spec, "none") == 0)
        return 0;
    const char *p = spec;
    for (;;) {
        size_t len = strcspn(p, ",");
        size_t ok = strspn(p, "abcdefghijklmnopqrstuvwxyz"
                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
        if (len == 0) {
            snprintf(err, errlen, "--metrics: empty metric name in '%s'", spec);
            return -1;
        }
        if (ok < len) {
            snprintf(err, errlen, "--metrics: bad metric name '%.*s' "
                     "(want default, none, or names like dram__bytes_read.sum)",
                     (int)len, p);
            return -1;
        }
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

/* Options that take an argument, or set a flag. */
static int apply_option(int c, const char *arg, gp_options *o, char *err, size_t errlen)
{
    unsigned long long seed;
    switch (c) {
    case 'k':          return keep_arg("--kernel", o->kernel_specs, &o->nkernel_specs,
                                       GP_MAX_KERNELS, arg, err, errlen);
    case OPT_PLUGIN:   return keep_arg("--plugin", o->plugins, &o->nplugins,
                                       GP_MAX_PLUGINS, arg, err, errlen);
    case 's':          return add_shapes(o, "--size", gp_parse_sizes, arg, err, errlen);
    case OPT_SIZES:    return add_shapes(o, "--sizes", gp_parse_sizes, arg, err, errlen);
    case OPT_MNK:      return add_shapes(o, "--mnk", gp_parse_mnk, arg, err, errlen);
    case OPT_ALPHA:    return parse_finite("--alpha", arg, &o->alpha, err, errlen);
    case OPT_BETA:     return parse_finite("--beta", arg, &o->beta, err, errlen);
    case OPT_REPS:     return parse_int_opt("--reps", arg, 1, REPS_MAX, &o->reps, err, errlen);
    case OPT_WARMUP:   return parse_int_opt("--warmup", arg, 0, REPS_MAX, &o->warmup, err, errlen);
    case OPT_DEVICE:   return parse_int_opt("--device", arg, 0, INT_MAX, &o->device, err, errlen);
    case OPT_PAD:      return parse_int_opt("--pad", arg, 0, PAD_MAX, &o->pad, err, errlen);
    case OPT_SEED:
        if (parse_ull(arg, ULLONG_MAX, &seed) < 0) {
            snprintf(err, errlen, "--seed: '%s' is not a non-negative integer", arg);
            return -1;
        }
        o->seed = seed;
        o->seed_given = 1;
        return 0;
    case 'o':
        if (!*arg) {
            snprintf(err, errlen, "--out: empty path");
            return -1;
        }
        o->out = arg;
        return 0;
    case OPT_CHIP:
        if (!*arg) {
            snprintf(err, errlen, "--chip: empty name (e.g. GA100; --list-metrics "
                     "without a GPU lists them)");
            return -1;
        }
        o->chip = arg;
        return 0;
    case OPT_BASELINE:
        if (!*arg) {
            snprintf(err, errlen, "--baseline: empty path");
            return -1;
        }
        o->baseline = arg;
        return 0;
    case OPT_METRICS:
        o->metrics = arg;
        return check_metrics(arg, err, errlen);
    case 'l':              o->list = 1;         return 0;
    case OPT_LIST_METRICS: o->list_metrics = 1; return 0;
    case OPT_BUILD_FACTS:  o->build_facts = 1;  return 0;
    case OPT_ROOFLINE:     o->roofline = 1;     return 0;
    case OPT_INTERLEAVE:   o->interleave = 1;   return 0;
    case OPT_NO_FLUSH:     o->cache_control = "none"; return 0;
    case OPT_ENERGY:
        if (parse_finite("--energy", arg, &o->energy_s, err, errlen) < 0)
            return -1;
        if (o->energy_s < 0 || o->energy_s > 600) {
            snprintf(err, errlen, "--energy: '%s' seconds is outside 0..600 "
                     "(0: no energy window)", arg);
            return -1;
        }
        return 0;
    case OPT_CACHE_CONTROL:
        if (strcmp(arg, "all") != 0 && strcmp(arg, "none") != 0) {
            snprintf(err, errlen, "--cache-control: '%s' is not all or none", arg);
            return -1;
        }
        o->cache_control = arg;
        return 0;
    case 'q':              o->quiet = 1;        return 0;
    }
    snprintf(err, errlen, "internal error: option %d not handled", c);
    return -1;
}

/* A command word after options ("gemmprof -q plot ...") gets a hint: the
 * words are the program's table (gp_run_commands). */
static int stray_arguments(int argc, char **argv, char *err, size_t errlen)
{
    int n = snprintf(err, errlen, "unexpected argument%s", argc - optind > 1 ? "s" : "");
    for (int i = optind; i < argc && n >= 0 && (size_t)n < errlen; i++)
        n += snprintf(err + n, errlen - (size_t)n, " '%s'", argv[i]);
    for (const gp_command_word *c = gp_run_commands(); c->word; c++)
        if (strcmp(argv[optind], c->word) == 0 && n >= 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n,
                     " (a command comes first: gemmprof %s ...)", c->word);
    return -1;
}

static void set_defaults(gp_options *o)
{
    memset(o, 0, sizeof *o);
    o->alpha = 1;
    o->beta = 0;
    o->reps = 20;
    o->warmup = 5;
    o->metrics = "default";
    o->cache_control = "all";
}

int gp_cli_parse(int argc, char **argv, gp_options *o, char *err, size_t errlen)
{
    set_defaults(o);
    optind = 0;                 /* full re-initialisation: callable again */
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
        if (apply_option(c, optarg, o, err, errlen) < 0)
            return -1;
    }
    if (optind < argc)
        return stray_arguments(argc, argv, err, errlen);
    if (gp_cache_control_scrub(o->cache_control, &o->scrub, err, errlen) < 0 ||
        load_and_resolve(o, err, errlen) < 0)
        return -1;
    if (o->chip && !o->list_metrics) {
        snprintf(err, errlen, "--chip names a chip for --list-metrics (a run "
                 "uses its GPU's own)");
        return -1;
    }
    if (o->list || o->list_metrics || o->build_facts)
        return 0;
    if (o->nkernels == 0 && !(gp_dry_run() && o->nkernel_specs > 0)) {
        snprintf(err, errlen, "no kernel given: use --kernel NAME[,NAME...] or all (see --list)");
        return -1;
    }
    if (o->nshapes == 0) {
        snprintf(err, errlen, "no size given: use --size N, --sizes A:B:STEP or --mnk M,N,K");
        return -1;
    }
    return 0;
}
