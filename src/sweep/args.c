/* args.c - the options of `gemmprof sweep` (see sweep.h). */
#include <getopt.h>
#include <string.h>
#include "sweep.h"

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

/* --configs is resolved once the family is known; the struct has no
 * place for its text, so it waits beside it. */
typedef struct {
    gp_sweep_args a;
    const char *configs;
} sweep_parse;

static int call_preset(void *p, const char *arg, char *err, size_t errlen)
{
    gp_sweep_args *a = &((sweep_parse *)p)->a;
    char why[512];
    int n = gp_sweep_preset(arg, a->shapes + a->nshapes, GP_MAX_SHAPES - a->nshapes,
                            why, sizeof why);
    if (n < 0) {
        snprintf(err, errlen, "--preset: %s", why);
        return -1;
    }
    a->nshapes += n;
    return 0;
}

#define F(f, type) GP_OPT_FIELD(sweep_parse, f, type)

static const gp_opt table[] = {
    { "kernel", 'k', GP_OPT_TEXT, F(a.family, const char *), 0, 0, 0, 0, 0, 0 },
    { "configs", 0, GP_OPT_TEXT, F(configs, const char *), 0, 0, 0, 0, 0, 0 },
    GP_OPTS_SIZES(sweep_parse, a.shapes, a.nshapes),
    { "preset", 0, GP_OPT_CALL, 0, 0, 0, 0, 0, 0, call_preset },
    GP_OPTS_REPS(sweep_parse, a.reps),
    GP_OPTS_WARMUP(sweep_parse, a.warmup),
    GP_OPTS_SEED(sweep_parse, a.seed, a.seed_given),
    GP_OPTS_CACHE_CONTROL(sweep_parse, a.cache_control),
    GP_OPTS_DEVICE(sweep_parse, a.device, 0),
    GP_OPTS_OUT(sweep_parse, a.out),
    { "tuning", 0, GP_OPT_PATH, F(a.tuning, const char *), 0, 0, 0, 0, 0, 0 },
    GP_OPTS_QUIET(sweep_parse, a.quiet),
    GP_OPTS_HELP(sweep_parse, a.help, a.version),
    GP_OPTS_END
};

int gp_sweep_parse(int argc, char **argv, gp_sweep_args *out, char *err, size_t errlen)
{
    static sweep_parse p;       /* large: shapes and configs */
    memset(&p, 0, sizeof p);
    gp_sweep_args *a = &p.a;
    a->reps = 20;
    a->warmup = 5;
    a->cache_control = "all";
    p.configs = "all";
    int rc = gp_opts_parse(table, argc, argv, &p, err, errlen);
    *out = p.a;
    if (rc < 0)
        return -1;
    a = out;
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
    a->nconfigs = gp_sweep_select(a->family, p.configs, a->configs,
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
