/* args.c - the options of `gemmprof sweep` (see sweep.h). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "sweep.h"

enum { OPT_CONFIGS = 256, OPT_SIZES, OPT_MNK, OPT_PRESET, OPT_REPS, OPT_WARMUP,
       OPT_SEED, OPT_TUNING, OPT_DEVICE, OPT_NO_FLUSH, OPT_CACHE_CONTROL };

static const struct option long_opts[] = {
    {"kernel", required_argument, NULL, 'k'},
    {"configs", required_argument, NULL, OPT_CONFIGS},
    {"size", required_argument, NULL, 's'},
    {"sizes", required_argument, NULL, OPT_SIZES},
    {"mnk", required_argument, NULL, OPT_MNK},
    {"preset", required_argument, NULL, OPT_PRESET},
    {"reps", required_argument, NULL, OPT_REPS},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"seed", required_argument, NULL, OPT_SEED},
    {"no-flush", no_argument, NULL, OPT_NO_FLUSH},
    {"cache-control", required_argument, NULL, OPT_CACHE_CONTROL},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"out", required_argument, NULL, 'o'},
    {"tuning", required_argument, NULL, OPT_TUNING},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

void gp_sweep_usage(FILE *f)
{
    fputs(
"Usage: gemmprof sweep --kernel FAMILY SIZE-OPTION... [OPTION]...\n"
"Run every tile configuration of a templated kernel at every size, verified\n"
"against cuBLAS; print the best configuration per size and each crossover\n"
"(where the best changes); write the rows and a tuning table, which the\n"
"mixed and dgemm_mixed kernels read.\n"
"\n"
"  -k, --kernel FAMILY  blocktile_2d (fp32) or dgemm_blocktile_2d (fp64)\n"
"      --configs LIST   CONFIG[,CONFIG...] (e.g. 64x64x8/8x4) or all (default)\n"
"  -s, --size N         square N x N x N (also takes the --sizes forms)\n"
"      --sizes SPEC     square sizes A,B,C or A:B:STEP\n"
"      --mnk M,N,K      one rectangular shape (repeatable)\n"
"      --preset NAME    k-skinny: M=N in {4096,8192} x K in {32,64,128,156}\n"
"      --reps N         timed launches per config and size (default 20)\n"
"      --warmup N       untimed launches before timing (default 5)\n"
"      --seed N         seed of the random inputs (default: from the clock)\n"
"      --cache-control all|none  L2 scrubbed before each timed launch (all,\n"
"                       default) or as the last launch left it (none)\n"
"      --no-flush       the same as --cache-control none\n"
"      --device N       CUDA device to use (default 0)\n"
"  -o, --out PATH       run file FILE.csv, or a new file in DIR (default\n"
"                       results/)\n"
"      --tuning FILE    tuning table to write (default: the cache, next to\n"
"                       the ceilings: tuning-<gpu>-<family>.csv)\n"
"  -q, --quiet          print only the summary, warnings and errors\n"
"  -h, --help           show this help and exit\n"
"  -V, --version        show version and build information and exit\n"
"\n"
"Size key of the tuning table: round(sqrt(M*N)), N for a square.\n"
"\n"
"Exit status:\n"
"  0  every configuration ran and verified\n"
"  1  a configuration failed verification or errored (other rows are kept)\n"
"  2  bad options, or no usable GPU\n"
"\n"
"Examples:\n"
"  gemmprof sweep --kernel blocktile_2d --sizes 512:4096:512\n"
"  gemmprof sweep -k dgemm_blocktile_2d --configs all -s 2048 -o sweep.csv\n"
"  gemmprof sweep -k blocktile_2d --preset k-skinny --reps 10\n",
        f);
}

int gp_sweep_preset(const char *name, gp_shape *out, int max, char *err, size_t errlen)
{
    static const long mn[] = {4096, 8192}, ks[] = {32, 64, 128, 156};
    int n = 0;
    if (strcmp(name, "k-skinny") != 0) {
        snprintf(err, errlen, "unknown preset '%s' (presets: k-skinny)", name);
        return -1;
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j) {
            if (n == max) {
                snprintf(err, errlen, "too many shapes (at most %d)", GP_MAX_SHAPES);
                return -1;
            }
            out[n++] = (gp_shape){mn[i], mn[i], ks[j]};
        }
    return n;
}

static int parse_long(const char *opt, const char *s, long lo, long hi, long *out,
                      char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) {
        snprintf(err, errlen, "%s '%s' is not an integer %ld..%ld", opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

typedef int (*shape_fn)(const char *, gp_shape *, int, char *, size_t);

static int add_shapes(gp_sweep_args *a, const char *opt, shape_fn f,
                      const char *arg, char *err, size_t errlen)
{
    char why[512];
    int n = f(arg, a->shapes + a->nshapes, GP_MAX_SHAPES - a->nshapes, why, sizeof why);
    if (n < 0) {
        snprintf(err, errlen, "%s: %s", opt, why);
        return -1;
    }
    a->nshapes += n;
    return 0;
}

static int apply(gp_sweep_args *a, int c, const char *arg, const char **configs,
                 char *err, size_t errlen)
{
    long v;
    switch (c) {
    case 'k': a->family = arg; return 0;
    case OPT_CONFIGS: *configs = arg; return 0;
    case 's': return add_shapes(a, "--size", gp_parse_sizes, arg, err, errlen);
    case OPT_SIZES: return add_shapes(a, "--sizes", gp_parse_sizes, arg, err, errlen);
    case OPT_MNK: return add_shapes(a, "--mnk", gp_parse_mnk, arg, err, errlen);
    case OPT_PRESET: return add_shapes(a, "--preset", gp_sweep_preset, arg, err, errlen);
    case OPT_REPS:
        if (parse_long("--reps", arg, 1, 1000000, &v, err, errlen)) return -1;
        a->reps = (int)v;
        return 0;
    case OPT_WARMUP:
        if (parse_long("--warmup", arg, 0, 1000000, &v, err, errlen)) return -1;
        a->warmup = (int)v;
        return 0;
    case OPT_SEED:
        if (parse_long("--seed", arg, 0, 0x7fffffffffffffffL, &v, err, errlen)) return -1;
        a->seed = (unsigned long long)v;
        a->seed_given = 1;
        return 0;
    case OPT_DEVICE:
        if (parse_long("--device", arg, 0, 1023, &v, err, errlen)) return -1;
        a->device = (int)v;
        return 0;
    case OPT_NO_FLUSH: a->cache_control = "none"; return 0;
    case OPT_CACHE_CONTROL: a->cache_control = arg; return 0;
    case OPT_TUNING: a->tuning = arg; return 0;
    case 'o': a->out = arg; return 0;
    case 'q': a->quiet = 1; return 0;
    case 'h': a->help = 1; return 0;
    case 'V': a->version = 1; return 0;
    case ':':
        snprintf(err, errlen, "option '%s' needs a value", arg);
        return -1;
    default:
        snprintf(err, errlen, "unknown option '%s' (see gemmprof sweep --help)", arg);
        return -1;
    }
}

int gp_sweep_parse(int argc, char **argv, gp_sweep_args *a, char *err, size_t errlen)
{
    const char *configs = "all";
    int c;
    memset(a, 0, sizeof *a);
    a->reps = 20;
    a->warmup = 5;
    a->cache_control = "all";
    optind = 0;    /* reinitialise: tests parse more than once */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":k:s:o:qhV", long_opts, NULL)) != -1) {
        const char *arg = (c == ':' || c == '?') ? argv[optind - 1] : optarg;
        if (apply(a, c, arg, &configs, err, errlen) != 0)
            return -1;
    }
    if (a->help || a->version)
        return 0;
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (gp_cache_control_scrub(a->cache_control, &a->scrub, err, errlen) < 0)
        return -1;
    if (!a->family) {
        snprintf(err, errlen, "--kernel FAMILY is required (blocktile_2d or "
                 "dgemm_blocktile_2d; see gemmprof sweep --help)");
        return -1;
    }
    a->nconfigs = gp_sweep_select(a->family, configs, a->configs,
                                  GP_SWEEP_MAX_CONFIGS, err, errlen);
    if (a->nconfigs < 0)
        return -1;
    a->precision = (gp_precision)gp_sweep_family_precision(a->family);
    if (a->nshapes == 0) {
        snprintf(err, errlen, "no size given (--size, --sizes, --mnk or --preset)");
        return -1;
    }
    return 0;
}
