/* usage.c - `gemmprof --help`: every option of the run command, the
 * commands (from the program's table, handed down: gp_run_set_commands),
 * and what the exit status means. */
#include <stdio.h>

#include "run.h"

static const gp_command_word *commands;

void gp_run_set_commands(const gp_command_word *words)
{
    commands = words;
}

const gp_command_word *gp_run_commands(void)
{
    static const gp_command_word none[] = { { NULL, NULL } };
    return commands ? commands : none;
}

static void print_commands(FILE *f)
{
    fputs("Commands (gemmprof help COMMAND, or COMMAND --help, for each):\n", f);
    for (const gp_command_word *c = gp_run_commands(); c->word; ++c)
        fprintf(f, "  %-8s %s\n", c->word, c->summary);
}

void gp_cli_usage(FILE *f)
{
    fputs(
"Usage: gemmprof [--dry-run] [run] --kernel LIST SIZE-OPTION... [OPTION]...\n"
"  or:  gemmprof [--dry-run] COMMAND [ARG]...\n"
"Run GEMM kernels C = alpha*A*B + beta*C on the GPU: verify each against\n"
"cuBLAS, time it, read its hardware counters, and write one CSV row per\n"
"kernel and size.\n"
"\n"
"Kernels:\n"
"  -k, --kernel LIST    kernels to run: NAME[,NAME...] or all (repeatable);\n"
"                       with all, a kernel this GPU or build cannot run gets\n"
"                       a row 'skipped: needs sm_XY (feature)'; named, it is\n"
"                       an error (exit 2) before anything runs\n"
"  -l, --list           list the kernels (name, precision, what each needs,\n"
"                       whether it can run on this GPU with this build, idea)\n"
"      --plugin FILE    also load the kernels of FILE, a shared object built\n"
"                       with gemmprof-build (repeatable; see --list)\n"
"\n"
"Sizes (at least one; repeatable; sizes are integers 1..1048576):\n"
"  -s, --size N         square N x N x N (also takes the --sizes forms)\n"
"      --sizes SPEC     square sizes A,B,C or A:B:STEP (A, A+STEP, ... <= B)\n"
"      --mnk M,N,K      one rectangular shape: C is MxN, A is MxK, B is KxN\n"
"\n"
"Measurement:\n"
"      --alpha X        scale of A*B (default 1)\n"
"      --beta X         scale of the old C (default 0: C is write-only)\n"
"      --reps N         timed launches per kernel and size (default 20,\n"
"                       at most 1000000)\n"
"      --warmup N       untimed launches before timing (default 5)\n"
"      --seed N         seed of the random inputs (default: from the clock;\n"
"                       the seed used is recorded in the output)\n"
"      --pad N          pad every leading dimension by at least N elements\n"
"                       (lda > k, ldb > n, ldc > n, rows 16-byte aligned;\n"
"                       default 0: lda = k, ldb = ldc = n); the padding of C\n"
"                       must come back untouched (at most 4096)\n"
"      --cache-control all|none  L2 before each timed launch and counter\n"
"                       pass, as ncu's option: all (default) scrubbed, so\n"
"                       DRAM bytes are the kernel's own; none: as the last\n"
"                       launch left it (recorded in the run file)\n"
"      --no-flush       the same as --cache-control none\n"
"      --energy S       after timing, run each kernel back to back for S\n"
"                       seconds (a quarter more first, unmeasured) and read\n"
"                       the board's energy counter (NVML): columns\n"
"                       sustained_ms, power_w and energy_j (J per launch);\n"
"                       the counter steps about every 100 ms, so S >= 1\n"
"      --interleave     time each kernel's reps alternating, launch by\n"
"                       launch, with its reference's (the cuBLAS of its\n"
"                       precision), so both see the same clock and power\n"
"                       state; pct_cublas is then the median over the pairs\n"
"                       of reference time / kernel time (the reference's\n"
"                       median: column ref_time_ms)\n"
"      --metrics SPEC   hardware counters: default (see --list-metrics), none,\n"
"                       or NAME[,NAME...] of the default ones, spelled as ncu\n"
"                       spells them (the run file has a column for each)\n"
"      --list-metrics   list every counter this GPU's chip offers and exit;\n"
"                       with --chip NAME (e.g. GA100, AD102), that chip's,\n"
"                       no GPU needed (without either: the chips CUPTI knows)\n"
"      --build-facts    registers, stack and spill bytes of every kernel in\n"
"                       this build, from the compiler (no GPU needed), as CSV\n"
"      --device N       CUDA device to use (default 0)\n"
"\n"
"Output:\n"
"  -o, --out PATH       write the rows to FILE.csv, or to a new file in DIR\n"
"      --roofline       also show where each kernel sits on the roofline\n"
"      --baseline FILE  then compare the new rows with run file FILE, as\n"
"                       gemmprof diff does (a regression exits 1)\n"
"  -q, --quiet          print only warnings and errors\n"
"  -h, --help           show this help and exit\n"
"  -V, --version        show version and build information and exit\n"
"\n"
"Global option (before COMMAND; every command takes it):\n"
"      --dry-run        parse and validate the options, print what would\n"
"                       run, and exit 0 (2 on a bad option); nothing runs\n"
"\n", f);
    print_commands(f);
    fputs(
"\n"
"Exit status:\n"
"  0  everything ran and verified\n"
"  1  a kernel failed verification or errored (other rows are kept), or\n"
"     --baseline found a regression\n"
"  2  bad input, or no usable GPU (no NVIDIA driver, no device)\n"
"\n"
"Examples:\n"
"  gemmprof --kernel all --sizes 256:4096:256 -o sweep.csv\n"
"  gemmprof -k naive,cublas -s 1024 --metrics none\n"
"  gemmprof -k cublas --mnk 4096,128,4096 --reps 50\n"
"  gemmprof --plugin ./libmine.so -k mine,cublas -s 2048 --roofline\n",
        f);
}
