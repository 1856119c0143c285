/* command.c - `gemmprof probe`: options, then measure, write and show the
 * ceilings file (the measuring is stages.c and its stages). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "probe.h"
#include "util/util.h"

typedef struct {
    gp_probe_opts po;
    const char *out;
    double max_age_s;     /* < 0: not given */
    int reprobe, device, help, version;
} probe_args;

static void usage(FILE *f)
{
    fputs("Usage: gemmprof probe [OPTION]...\n"
          "Measure the machine's ceilings (STREAM bandwidth, FMA peaks, L2 and\n"
          "shared-memory bandwidth) next to the theoretical ones, and write\n"
          "them to a ceilings file (default: the per-GPU cache file).\n"
          "\n"
          "  -b, --probe-bytes N   bytes per STREAM array (K/M/G suffixes);\n"
          "                        default 8x the L2 size, at least 2 GiB\n"
          "  -r, --reps N          timed runs per kernel after one dropped run\n"
          "                        (default 20; the best is the ceiling)\n"
          "  -o, --out FILE        write here instead of the cache file\n"
          "      --max-age SECONDS probe only if FILE is missing, for another\n"
          "                        GPU, or older than this\n"
          "      --reprobe         probe even when --max-age finds FILE fresh\n"
          "  -d, --device N        CUDA device (default 0)\n"
          "  -h, --help            show this help and exit\n"
          "  -V, --version         show version and build information and exit\n"
          "\n"
          "Cache: $GEMMPROF_CACHE, else $XDG_CACHE_HOME/gemmprof, else\n"
          "~/.cache/gemmprof; file ceilings-<gpu-name>.csv.\n"
          "\n"
          "Exit status:\n"
          "  0  the ceilings were measured and written (or --max-age found\n"
          "     them fresh)\n"
          "  2  bad options, no usable GPU, or the file could not be written\n"
          "\n"
          "Examples:\n"
          "  gemmprof probe\n"
          "  gemmprof probe --max-age 86400\n"
          "  gemmprof probe -b 512M -o ceilings.csv\n", f);
}

int gp_parse_bytes(const char *s, size_t *out)
{
    unsigned long long v;
    size_t digits = s ? strspn(s, "0123456789") : 0;
    if (gp_parse_decimal(s, digits, ULLONG_MAX, &v) < 0)
        return -1;
    const char *end = s + digits;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    }
    if (shift)
        ++end;
    if (*end && strcasecmp(end, "iB") && strcasecmp(end, "B"))
        return -1;
    if (v > (SIZE_MAX >> shift))
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

static int call_bytes(void *p, const char *arg, char *err, size_t errlen)
{
    probe_args *a = p;
    if (gp_parse_bytes(arg, &a->po.bytes_per_array) != 0 ||
        a->po.bytes_per_array < 4096) {
        gp_fmt(err, errlen, "--probe-bytes: '%s' is not a size of at least 4096 "
               "bytes (e.g. 512M, 2G)", arg);
        return -1;
    }
    return 0;
}

static int call_max_age(void *p, const char *arg, char *err, size_t errlen)
{
    probe_args *a = p;
    char *end;
    errno = 0;
    a->max_age_s = strtod(arg, &end);
    if (end == arg || *end || errno || !(a->max_age_s >= 0)) {
        gp_fmt(err, errlen, "--max-age: '%s' is not a number of seconds >= 0", arg);
        return -1;
    }
    return 0;
}

/* --reps here counts full STREAM and FMA passes over GiB-sized arrays, not
 * launches of one GEMM: its own limit, the shared wording. */
#define PROBE_REPS_MAX 10000

static const gp_opt table[] = {
    { "probe-bytes", 'b', GP_OPT_CALL, 0, 0, 0, 0, 0, 0, call_bytes },
    { "reps", 'r', GP_OPT_INT, GP_OPT_FIELD(probe_args, po.reps, int), 0, 1,
      PROBE_REPS_MAX, 0, 0, 0 },
    GP_OPTS_OUT(probe_args, out),
    { "max-age", 0, GP_OPT_CALL, 0, 0, 0, 0, 0, 0, call_max_age },
    { "reprobe", 0, GP_OPT_FLAG, GP_OPT_FIELD(probe_args, reprobe, int), 0, 0, 0,
      0, 0, 0 },
    GP_OPTS_DEVICE(probe_args, device, 'd'),
    GP_OPTS_HELP(probe_args, help, version),
    GP_OPTS_END
};

static int parse_args(int argc, char **argv, probe_args *a, char *err, size_t errlen)
{
    if (gp_opts_parse(table, argc, argv, a, err, errlen) < 0)
        return -1;
    if (!a->help && !a->version && optind < argc) {
        gp_fmt(err, errlen, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    return 0;
}

static void print_num(FILE *f, double v, const char *fmt)
{
    if (isfinite(v))
        fprintf(f, fmt, v);
    else
        fprintf(f, "%12s", "NA");
}

static void print_table(FILE *f, const gp_ceilings *c)
{
    fprintf(f, "%-20s %-8s %12s %12s %8s\n", "ceiling", "unit", "measured",
            "theoretical", "pct");
    for (int i = 0; i < c->n; ++i) {
        const gp_ceiling *r = &c->c[i];
        fprintf(f, "%-20s %-8s ", r->name, r->unit);
        print_num(f, r->measured, "%12.1f");
        fputc(' ', f);
        print_num(f, r->theoretical, "%12.1f");
        if (isfinite(r->pct_of_theoretical))
            fprintf(f, " %7.1f%%\n", r->pct_of_theoretical);
        else
            fprintf(f, " %8s\n", "NA");
    }
}

/* A measured ceiling above its theoretical one means a wrong clock or
 * lane count: worth a warning, not a failure. */
static void warn_above(const gp_ceilings *c)
{
    for (int i = 0; i < c->n; ++i)
        if (c->c[i].pct_of_theoretical > 102.0)
            gp_warn("%s measured %.1f%% of its theoretical ceiling: the clock "
                    "or lane count behind it is wrong", c->c[i].name,
                    c->c[i].pct_of_theoretical);
}

static int probe_and_show(const gp_gpu *g, probe_args *a, const char *path,
                          int argc, char **argv)
{
    char err[512];
    gp_ceilings *c = malloc(sizeof *c);
    if (!c) {
        gp_error("probe: out of memory");
        return 2;
    }
    printf("probing %s (%d SMs, compute capability %d.%d)\n", g->name,
           g->sm_count, g->cc_major, g->cc_minor);
    a->po.log = stdout;
    int rc = gp_probe_to_file(g, &a->po, path, argc, argv, c, err, sizeof err);
    if (rc == 0) {
        print_table(stdout, c);
        printf("wrote %s\n", path);
        warn_above(c);
    } else {
        gp_error("%s", err);
    }
    free(c);
    return rc == 0 ? 0 : 2;
}

int gp_cmd_probe(int argc, char **argv)
{
    probe_args a = {.po = {.reps = GP_PROBE_DEFAULT_REPS}, .max_age_s = -1};
    char err[512];
    if (parse_args(argc, argv, &a, err, sizeof err) != 0) {
        gp_error("probe: %s", err);
        return 2;
    }
    int rc = gp_opts_answer(a.help, a.version, usage, "probe", argc, argv, a.out ?
                            "measure the ceilings into --out" :
                            "measure the ceilings into the cache file");
    if (rc >= 0)
        return rc;
    gp_gpu g;
    char why[512], path[4096];
    if (gp_gpu_open(a.device, &g, why, sizeof why) != 0) {
        gp_error("%s", why);
        return 2;
    }
    if (a.out)
        snprintf(path, sizeof path, "%s", a.out);
    else if (gp_ceilings_cache_path(g.name, path, sizeof path, why, sizeof why)) {
        gp_error("%s", why);
        return 2;
    }
    if (a.max_age_s >= 0 && !a.reprobe &&
        gp_ceilings_fresh(path, g.name, a.max_age_s, time(NULL), why,
                          sizeof why)) {
        printf("%s is fresh (at most %.0f s old): not probing (--reprobe to "
               "probe anyway)\n", path, a.max_age_s);
        return 0;
    }
    return probe_and_show(&g, &a, path, argc, argv);
}
