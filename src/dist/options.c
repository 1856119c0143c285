/* options.c - `gemmprof dist` options: every check here is local (argv,
 * the rank count, the kernel table), so all ranks reach the same verdict. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "dist.h"
#include "registry/registry.h"

#define DIM_MAX (1L << 20)
#define GRID_MAX (1L << 16)

static const char *const cpu_locals[] = { "cpu_naive", "cpu_blocked", "cpu_blas" };
static const char *const comms[] = { "auto", "mpi", "staged", "cuda-aware", "nccl" };

void gp_dist_usage(FILE *f)
{
    fputs(
"Usage: mpirun -np P gemmprof dist --mnk M,N,K|--size N --local KERNEL\n"
"         [OPTION]...\n"
"C = A*B distributed over a PRxPC process grid (default: the most square for\n"
"P): SUMMA on a ScaLAPACK block-cyclic layout, C in BRxBC blocks, the K\n"
"dimension in BK blocks.  A panel of W columns of A (rows of B) is broadcast\n"
"along process rows (columns) while the previous one is multiplied.  One row\n"
"per rank and a summary row (rank 'all') go to the run file.\n"
"\n"
"      --mnk M,N,K        the shape of C (MxN) and of the K dimension\n"
"      --size N           square N x N x N\n"
"      --local KERNEL     cpu_naive, cpu_blocked, cpu_blas (CPU), or any kernel\n"
"                         of `gemmprof --list` (one GPU per rank, by rank\n"
"                         within the host)\n"
"      --grid PRxPC       the process grid (PR*PC = P)\n"
"      --block BRxBC      C's blocks (default 128x128)\n"
"      --kblock BK        K's blocks (default BC)\n"
"      --panel W|auto     panel width, a multiple of BK; auto (the default\n"
"                         for GPU kernels) times the local gemm at each width\n"
"                         and takes the narrowest within 3% of the unsplit\n"
"                         local gemm's rate; CPU kernels: the first multiple\n"
"                         >= 256\n"
"      --precision P      fp32, fp64 or tf32 (default: the kernel's own; CPU\n"
"                         kernels: fp64)\n"
"      --comm T           panel transport: mpi (host buffers, CPU kernels);\n"
"                         staged, cuda-aware, nccl (device buffers, GPU\n"
"                         kernels); auto (default) picks mpi for CPU kernels,\n"
"                         the best one built for GPU kernels\n"
"      --reps N           timed repetitions (default 5; median)\n"
"      --warmup N         untimed repetitions first (default 1)\n"
"      --seed N           seed of the random inputs (default 1)\n"
"      --check-budget N   multiply-adds per rank for the FP64 check of local C;\n"
"                         above it a random sample of rows x columns is\n"
"                         checked (default 2^27)\n"
"  -o, --out PATH         write the rows to FILE.csv, or to a new file in DIR\n"
"                         (default results/)\n"
"  -q, --quiet            print only warnings and errors\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show version and build information and exit\n"
"\n"
"Exit status:\n"
"  0  every rank ran and its local C verified\n"
"  1  a rank's C failed the check (the rows are kept)\n"
"  2  bad options, or a rank could not set up (no GPU, no transport)\n"
"\n"
"Examples:\n"
"  mpirun -np 4 gemmprof dist --size 4096 --local cpu_blas\n"
"  mpirun -np 2 gemmprof dist --mnk 8192,8192,8192 --local cublas --comm nccl\n"
"  mpirun -np 4 gemmprof dist --size 2048 --local cpu_blocked --grid 1x4\n", f);
}

int gp_dist_dry_run(const gp_dist_options *o, int nranks, int argc, char **argv)
{
    char what[256];
    snprintf(what, sizeof what, "multiply %ldx%ldx%ld with %s on %d rank(s), "
             "grid %dx%d, comm %s", o->m, o->n, o->k, o->local, nranks, o->pr,
             o->pc, o->comm);
    return gp_dry_run_report("dist", argc, argv, what);
}

int gp_dist_is_cpu_local(const char *name)
{
    for (size_t i = 0; i < sizeof cpu_locals / sizeof cpu_locals[0]; i++)
        if (strcmp(name, cpu_locals[i]) == 0)
            return 1;
    return 0;
}

/* Decimal digits only, 1..max. */
static int parse_pos(const char *s, long max, long *out)
{
    unsigned long long v;
    if (gp_parse_decimal(s, strlen(s), (unsigned long long)max, &v) < 0 || v < 1)
        return -1;
    *out = (long)v;
    return 0;
}

int gp_dist_parse_pair(const char *s, long max, long *a, long *b)
{
    const char *x = strchr(s, 'x');
    char first[32];
    if (!x || (size_t)(x - s) >= sizeof first)
        return -1;
    memcpy(first, s, (size_t)(x - s));
    first[x - s] = '\0';
    return parse_pos(first, max, a) == 0 && parse_pos(x + 1, max, b) == 0 ? 0 : -1;
}

void gp_dist_default_grid(int n, int *pr, int *pc)
{
    *pr = 1;
    for (int d = 1; (long)d * d <= n; d++)
        if (n % d == 0)
            *pr = d;
    *pc = n / *pr;
}

static int one_of(const char *s, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, set[i]) == 0)
            return 1;
    return 0;
}

/* What the checks after parsing need besides the options themselves. */
typedef struct {
    const char *grid, *block, *precision;
    int kblock_given, panel_given, seed_given;
} raw_opts;

typedef struct {
    gp_dist_options o;
    raw_opts raw;
} dist_parse;

static int bad(char *err, size_t errlen, const char *opt, const char *v,
               const char *want)
{
    snprintf(err, errlen, "--%s: '%s' is not %s", opt, v, want);
    return -1;
}

static int parse_shape(int mnk, const char *v, gp_dist_options *o,
                       char *err, size_t errlen)
{
    gp_shape sh[2];
    char why[256];
    int n = mnk ? gp_parse_mnk(v, sh, 2, why, sizeof why)
                : gp_parse_sizes(v, sh, 2, why, sizeof why);
    if (n != 1) {
        snprintf(err, errlen, "--%s: %s", mnk ? "mnk" : "size",
                 n < 0 ? why : "one size only (each mpirun is one point)");
        return -1;
    }
    o->m = sh[0].m, o->n = sh[0].n, o->k = sh[0].k;
    return 0;
}

static int call_mnk(void *p, const char *v, char *err, size_t errlen)
{
    return parse_shape(1, v, &((dist_parse *)p)->o, err, errlen);
}

static int call_size(void *p, const char *v, char *err, size_t errlen)
{
    return parse_shape(0, v, &((dist_parse *)p)->o, err, errlen);
}

static int call_panel(void *p, const char *v, char *err, size_t errlen)
{
    dist_parse *d = p;
    d->raw.panel_given = 1;
    d->o.panel_auto = strcmp(v, "auto") == 0;
    if (!d->o.panel_auto && parse_pos(v, DIM_MAX, &d->o.panel) < 0)
        return bad(err, errlen, "panel", v, "auto or an integer in 1..1048576");
    return 0;
}

#define F(f, type) GP_OPT_FIELD(dist_parse, f, type)
#define TEXT(name, f) { name, 0, GP_OPT_TEXT, F(f, const char *), 0, 0, 0, 0, 0, 0 }
#define CALL(name, fn) { name, 0, GP_OPT_CALL, 0, 0, 0, 0, 0, 0, fn }

static const gp_opt table[] = {
    TEXT("grid", raw.grid),
    TEXT("block", raw.block),
    { "kblock", 0, GP_OPT_LONG, F(o.bk, long), GP_OPT_ALSO(dist_parse, raw.kblock_given),
      1, DIM_MAX, 0, 0, 0 },
    CALL("mnk", call_mnk),
    CALL("size", call_size),
    TEXT("local", o.local),
    TEXT("precision", raw.precision),
    CALL("panel", call_panel),
    TEXT("comm", o.comm),
    GP_OPTS_REPS(dist_parse, o.reps),
    GP_OPTS_WARMUP(dist_parse, o.warmup),
    GP_OPTS_SEED(dist_parse, o.seed, raw.seed_given),
    { "check-budget", 0, GP_OPT_LONG, F(o.check_budget, long), 0, 1, 0, 0, 0, 0 },
    GP_OPTS_OUT(dist_parse, o.out),
    GP_OPTS_QUIET(dist_parse, o.quiet),
    GP_OPTS_HELP(dist_parse, o.help, o.version),
    GP_OPTS_END
};

static int check_grid(const char *grid, int nranks, gp_dist_options *o,
                      char *err, size_t errlen)
{
    long pr, pc;
    if (!grid) {
        gp_dist_default_grid(nranks, &o->pr, &o->pc);
        return 0;
    }
    if (gp_dist_parse_pair(grid, GRID_MAX, &pr, &pc) < 0)
        return bad(err, errlen, "grid", grid, "PRxPC with integers >= 1 (e.g. 2x2)");
    if (pr * pc != nranks) {
        snprintf(err, errlen, "--grid %s is %ld processes but %d were started "
                 "(mpirun -np %ld, or a grid with PRxPC = %d)",
                 grid, pr * pc, nranks, pr * pc, nranks);
        return -1;
    }
    o->pr = (int)pr, o->pc = (int)pc;
    return 0;
}

static int check_blocks(const raw_opts *raw, gp_dist_options *o,
                        char *err, size_t errlen)
{
    if (raw->block && gp_dist_parse_pair(raw->block, DIM_MAX, &o->br, &o->bc) < 0)
        return bad(err, errlen, "block", raw->block,
                   "BRxBC with integers in 1..1048576 (e.g. 64x64)");
    if (!raw->kblock_given)
        o->bk = o->bc;
    if (!raw->panel_given)
        o->panel_auto = !o->cpu_local;
    if (o->panel_auto && o->cpu_local) {
        snprintf(err, errlen, "--panel auto times GPU gemms; give --panel W "
                 "for the CPU kernel %s", o->local);
        return -1;
    }
    if (o->panel_auto || !raw->panel_given) {
        /* auto: the widest it may choose, which sizes the panel buffers;
         * one rank broadcasts nothing, so its one panel is the whole K */
        long want = !o->panel_auto ? GP_DIST_PANEL_MIN
                    : o->pr * o->pc == 1 ? o->k : GP_DIST_PANEL_AUTO_MAX;
        o->panel = (want + o->bk - 1) / o->bk * o->bk;
    } else if (o->panel % o->bk) {
        snprintf(err, errlen, "--panel %ld is not a multiple of the K block %ld "
                 "(a panel groups whole K blocks)", o->panel, o->bk);
        return -1;
    }
    return 0;
}

static int parse_precision(const char *s, gp_precision *p)
{
    static const struct { const char *name; gp_precision p; } t[] = {
        { "fp32", GP_FP32 }, { "fp64", GP_FP64 }, { "tf32", GP_TF32 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(s, t[i].name) == 0) {
            *p = t[i].p;
            return 0;
        }
    return -1;
}

/* CPU kernels do FP32 and FP64; a GPU kernel does its registered precision. */
static int check_local(const char *prec, gp_dist_options *o, char *err, size_t errlen)
{
    gp_precision want = GP_FP64;
    if (!o->local) {
        snprintf(err, errlen, "no local kernel given (--local cpu_naive|"
                 "cpu_blocked|cpu_blas or a kernel of gemmprof --list)");
        return -1;
    }
    if (prec && parse_precision(prec, &want) < 0)
        return bad(err, errlen, "precision", prec, "fp32, fp64 or tf32");
    o->cpu_local = gp_dist_is_cpu_local(o->local);
    const gp_kernel *k = o->cpu_local ? NULL : gp_registry_find(o->local);
    if (!o->cpu_local && !k) {
        snprintf(err, errlen, "unknown local kernel '%s' (cpu_naive, cpu_blocked, cpu_blas, "
                 "or a kernel of gemmprof --list)", o->local);
        return -1;
    }
    if (o->cpu_local && want == GP_TF32) {
        snprintf(err, errlen, "--precision tf32 needs a TF32 GPU kernel; "
                 "CPU kernels do fp32 and fp64");
        return -1;
    }
    if (k && prec && want != k->precision) {
        snprintf(err, errlen, "--local %s is %s, not %s (leave --precision out)",
                 k->name, gp_precision_name(k->precision), prec);
        return -1;
    }
    o->precision = k ? k->precision : want;
    return 0;
}

static int check_comm(gp_dist_options *o, char *err, size_t errlen)
{
    if (!one_of(o->comm, comms, sizeof comms / sizeof comms[0]))
        return bad(err, errlen, "comm", o->comm,
                   "auto, mpi, staged, cuda-aware or nccl");
    if (o->cpu_local && strcmp(o->comm, "auto") != 0 && strcmp(o->comm, "mpi") != 0) {
        snprintf(err, errlen, "--comm %s moves GPU buffers but --local %s is a "
                 "CPU kernel (use --comm mpi or auto)", o->comm, o->local);
        return -1;
    }
    return 0;
}

static void set_defaults(gp_dist_options *o)
{
    memset(o, 0, sizeof *o);
    o->br = o->bc = GP_DIST_BLOCK_DEFAULT;
    o->comm = "auto";
    o->reps = 5;
    o->warmup = 1;
    o->seed = 1;
    o->check_budget = 1L << 27;
}

int gp_dist_parse(int argc, char **argv, int nranks, gp_dist_options *o,
                  char *err, size_t errlen)
{
    dist_parse p = { 0 };
    set_defaults(&p.o);
    int rc = gp_opts_parse(table, argc, argv, &p, err, errlen);
    *o = p.o;
    if (rc < 0)
        return -1;
    if (o->help || o->version)
        return 0;
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (o->m == 0) {
        snprintf(err, errlen, "no size given (--mnk M,N,K or --size N)");
        return -1;
    }
    if (check_grid(p.raw.grid, nranks, o, err, errlen) < 0 ||
        check_local(p.raw.precision, o, err, errlen) < 0 ||   /* sets cpu_local */
        check_blocks(&p.raw, o, err, errlen) < 0 ||
        check_comm(o, err, errlen) < 0)
        return -1;
    return 0;
}
