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

enum {
    OPT_GRID = 256, OPT_BLOCK, OPT_KBLOCK, OPT_MNK, OPT_SIZE, OPT_LOCAL,
    OPT_PRECISION, OPT_PANEL, OPT_COMM, OPT_REPS, OPT_WARMUP, OPT_SEED,
    OPT_CHECK_BUDGET
};

static const struct option long_opts[] = {
    { "grid",         required_argument, NULL, OPT_GRID },
    { "block",        required_argument, NULL, OPT_BLOCK },
    { "kblock",       required_argument, NULL, OPT_KBLOCK },
    { "mnk",          required_argument, NULL, OPT_MNK },
    { "size",         required_argument, NULL, OPT_SIZE },
    { "local",        required_argument, NULL, OPT_LOCAL },
    { "precision",    required_argument, NULL, OPT_PRECISION },
    { "panel",        required_argument, NULL, OPT_PANEL },
    { "comm",         required_argument, NULL, OPT_COMM },
    { "reps",         required_argument, NULL, OPT_REPS },
    { "warmup",       required_argument, NULL, OPT_WARMUP },
    { "seed",         required_argument, NULL, OPT_SEED },
    { "check-budget", required_argument, NULL, OPT_CHECK_BUDGET },
    { "out",          required_argument, NULL, 'o' },
    { "quiet",        no_argument,       NULL, 'q' },
    { "help",         no_argument,       NULL, 'h' },
    { "version",      no_argument,       NULL, 'V' },
    { NULL, 0, NULL, 0 }
};

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
    long v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (max - (*s - '0')) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return v >= 1 ? 0 : -1;
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

/* The state parse_one needs besides the options themselves. */
typedef struct {
    const char *grid, *block, *precision;
    int kblock_given, panel_given;
} raw_opts;

static int bad(char *err, size_t errlen, const char *opt, const char *v,
               const char *want)
{
    snprintf(err, errlen, "--%s: '%s' is not %s", opt, v, want);
    return -1;
}

static int parse_shape(int c, const char *v, gp_dist_options *o,
                       char *err, size_t errlen)
{
    gp_shape sh[2];
    char why[256];
    int n = c == OPT_MNK ? gp_parse_mnk(v, sh, 2, why, sizeof why)
                         : gp_parse_sizes(v, sh, 2, why, sizeof why);
    if (n != 1) {
        snprintf(err, errlen, "--%s: %s", c == OPT_MNK ? "mnk" : "size",
                 n < 0 ? why : "one size only (each mpirun is one point)");
        return -1;
    }
    o->m = sh[0].m, o->n = sh[0].n, o->k = sh[0].k;
    return 0;
}

static int parse_one(int c, const char *v, gp_dist_options *o, raw_opts *raw,
                     char *err, size_t errlen)
{
    long x;
    switch (c) {
    case OPT_GRID:      raw->grid = v; return 0;
    case OPT_BLOCK:     raw->block = v; return 0;
    case OPT_PRECISION: raw->precision = v; return 0;
    case OPT_LOCAL:     o->local = v; return 0;
    case OPT_COMM:      o->comm = v; return 0;
    case 'o':           o->out = v; return 0;
    case 'q':           o->quiet = 1; return 0;
    case OPT_MNK:
    case OPT_SIZE:      return parse_shape(c, v, o, err, errlen);
    case OPT_KBLOCK:
        raw->kblock_given = 1;
        if (parse_pos(v, DIM_MAX, &o->bk) < 0)
            return bad(err, errlen, "kblock", v, "an integer in 1..1048576");
        return 0;
    case OPT_PANEL:
        raw->panel_given = 1;
        o->panel_auto = strcmp(v, "auto") == 0;
        if (!o->panel_auto && parse_pos(v, DIM_MAX, &o->panel) < 0)
            return bad(err, errlen, "panel", v, "auto or an integer in 1..1048576");
        return 0;
    case OPT_REPS:
        if (parse_pos(v, 1000000, &x) < 0)
            return bad(err, errlen, "reps", v, "an integer in 1..1000000");
        o->reps = (int)x;
        return 0;
    case OPT_WARMUP:
        if (strcmp(v, "0") != 0 && parse_pos(v, 1000000, &x) < 0)
            return bad(err, errlen, "warmup", v, "an integer in 0..1000000");
        o->warmup = strcmp(v, "0") == 0 ? 0 : (int)x;
        return 0;
    case OPT_SEED:
        if (parse_pos(v, 0x7fffffffffffffffL, &x) < 0)
            return bad(err, errlen, "seed", v, "a positive integer");
        o->seed = (unsigned long long)x;
        return 0;
    case OPT_CHECK_BUDGET:
        if (parse_pos(v, 0x7fffffffffffffffL, &x) < 0)
            return bad(err, errlen, "check-budget", v, "a positive integer");
        o->check_budget = x;
        return 0;
    }
    return -1;
}

static void option_error(int c, char **argv, char *err, size_t errlen)
{
    const char *arg = argv[optind - 1];
    if (c == ':')
        snprintf(err, errlen, "option '%s' needs an argument", arg);
    else
        snprintf(err, errlen, "unknown option '%s' (see gemmprof dist --help)", arg);
}

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
    raw_opts raw = { 0 };
    set_defaults(o);
    optind = 0;                 /* full re-initialisation: callable again */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:qhV", long_opts, NULL)) != -1) {
        if (c == 'h' || c == 'V') {  /* like GNU tools: answer and stop */
            o->help = c == 'h';
            o->version = c == 'V';
            return 0;
        }
        if (c == '?' || c == ':') {
            option_error(c, argv, err, errlen);
            return -1;
        }
        if (parse_one(c, optarg, o, &raw, err, errlen) < 0)
            return -1;
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (o->m == 0) {
        snprintf(err, errlen, "no size given (--mnk M,N,K or --size N)");
        return -1;
    }
    if (check_grid(raw.grid, nranks, o, err, errlen) < 0 ||
        check_local(raw.precision, o, err, errlen) < 0 ||   /* sets cpu_local */
        check_blocks(&raw, o, err, errlen) < 0 ||
        check_comm(o, err, errlen) < 0)
        return -1;
    return 0;
}
