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

/* --pad N: a row pitch, not a size; beyond 4096 elements a pad tests
 * nothing a smaller one does not */
#define PAD_MAX 4096

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

static int call_kernel(void *p, const char *arg, char *err, size_t errlen)
{
    gp_options *o = p;
    return keep_arg("--kernel", o->kernel_specs, &o->nkernel_specs, GP_MAX_KERNELS,
                    arg, err, errlen);
}

static int call_plugin(void *p, const char *arg, char *err, size_t errlen)
{
    gp_options *o = p;
    return keep_arg("--plugin", o->plugins, &o->nplugins, GP_MAX_PLUGINS, arg,
                    err, errlen);
}

static int call_alpha(void *p, const char *arg, char *err, size_t errlen)
{
    return parse_finite("--alpha", arg, &((gp_options *)p)->alpha, err, errlen);
}

static int call_beta(void *p, const char *arg, char *err, size_t errlen)
{
    return parse_finite("--beta", arg, &((gp_options *)p)->beta, err, errlen);
}

static int call_energy(void *p, const char *arg, char *err, size_t errlen)
{
    gp_options *o = p;
    if (parse_finite("--energy", arg, &o->energy_s, err, errlen) < 0)
        return -1;
    if (o->energy_s < 0 || o->energy_s > 600) {
        snprintf(err, errlen, "--energy: '%s' seconds is outside 0..600 "
                 "(0: no energy window)", arg);
        return -1;
    }
    return 0;
}

static int call_chip(void *p, const char *arg, char *err, size_t errlen)
{
    if (!*arg) {
        snprintf(err, errlen, "--chip: empty name (e.g. GA100; --list-metrics "
                 "without a GPU lists them)");
        return -1;
    }
    ((gp_options *)p)->chip = arg;
    return 0;
}

#define F(f, type) GP_OPT_FIELD(gp_options, f, type)
#define CALL(name, letter, fn) { name, letter, GP_OPT_CALL, 0, 0, 0, 0, 0, 0, fn }
#define FLAG(name, letter, f) { name, letter, GP_OPT_FLAG, F(f, int), 0, 0, 0, 0, 0, 0 }

static const gp_opt table[] = {
    CALL("kernel", 'k', call_kernel),
    GP_OPTS_SIZES(gp_options, shapes, nshapes),
    CALL("alpha", 0, call_alpha),
    CALL("beta", 0, call_beta),
    GP_OPTS_REPS(gp_options, reps),
    GP_OPTS_WARMUP(gp_options, warmup),
    GP_OPTS_SEED(gp_options, seed, seed_given),
    { "pad", 0, GP_OPT_INT, F(pad, int), 0, 0, PAD_MAX, 0, 0, 0 },
    GP_OPTS_OUT(gp_options, out),
    { "metrics", 0, GP_OPT_TEXT, F(metrics, const char *), 0, 0, 0, 0,
      gp_metric_spec_check, 0 },
    GP_OPTS_DEVICE(gp_options, device, 0),
    FLAG("list", 'l', list),
    FLAG("list-metrics", 0, list_metrics),
    CALL("chip", 0, call_chip),
    FLAG("build-facts", 0, build_facts),
    FLAG("roofline", 0, roofline),
    GP_OPTS_CACHE_CONTROL(gp_options, cache_control),
    CALL("energy", 0, call_energy),
    FLAG("interleave", 0, interleave),
    CALL("plugin", 0, call_plugin),
    { "baseline", 0, GP_OPT_PATH, F(baseline, const char *), 0, 0, 0, 0, 0, 0 },
    GP_OPTS_QUIET(gp_options, quiet),
    GP_OPTS_HELP(gp_options, help, version),
    GP_OPTS_END
};

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
    if (gp_opts_parse(table, argc, argv, o, err, errlen) < 0)
        return -1;
    if (o->help || o->version)
        return 0;
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
