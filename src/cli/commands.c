/* commands.c - the table of commands and `gemmprof help [COMMAND]`, which
 * answers exactly as `gemmprof COMMAND --help` does (it is that call). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "diff/diff.h"
#include "dist/dist.h"
#include "plot/plot.h"
#include "probe/probe.h"
#include "report/report.h"
#include "sweep/sweep.h"
#include "trace/trace.h"
#include "util/util.h"

static int cmd_help(int argc, char **argv);

/* Summaries fit --help's 79 columns after column 11. */
const gp_command gp_commands[] = {
    { { "run", "run, verify, time and profile GEMM kernels (the default "
        "command)" }, gp_cmd_run },
    { { "probe", "measure this GPU's ceilings (bandwidth, FLOP/s)" }, gp_cmd_probe },
    { { "sweep", "every tile configuration of a kernel across sizes; tuning "
        "table" }, gp_cmd_sweep },
    { { "plot", "draw gnuplot charts from run files" }, gp_cmd_plot },
    { { "report", "write a report (PDF, tables, charts) from run files" },
      gp_cmd_report },
    { { "diff", "what got slower between two run files, and why" }, gp_cmd_diff },
    { { "trace", "profile the kernel launches of any CUDA program" }, gp_cmd_trace },
    { { "dist", "distributed SUMMA GEMM under mpirun (make MPI=1)" }, gp_cmd_dist },
    { { "help", "show the help of a command (gemmprof help plot)" }, cmd_help },
    { { NULL, NULL }, NULL },
};

const gp_command_word *gp_command_words(void)
{
    enum { N = sizeof gp_commands / sizeof gp_commands[0] };
    static gp_command_word words[N];
    for (size_t i = 0; i < N; ++i)
        words[i] = gp_commands[i].w;
    return words;
}

const gp_command *gp_command_find(const char *word)
{
    for (const gp_command *c = gp_commands; c->w.word; ++c)
        if (strcmp(c->w.word, word) == 0)
            return c;
    return NULL;
}

void gp_command_list(char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (const gp_command *c = gp_commands; c->w.word && n < len; ++c)
        n += (size_t)snprintf(out + n, len - n, "%s%s",
                              c == gp_commands ? "" : ", ", c->w.word);
}

static void help_usage(FILE *f)
{
    fputs(
"Usage: gemmprof help [COMMAND]\n"
"Show the help of COMMAND, the same text as gemmprof COMMAND --help;\n"
"without COMMAND, the help of gemmprof itself (its run command and the list\n"
"of commands).\n"
"\n"
"  -h, --help           show this help and exit\n"
"  -V, --version        show version and build information and exit\n"
"\n"
"Exit status:\n"
"  0  the help was shown\n"
"  2  COMMAND is not a command of gemmprof\n"
"\n"
"Examples:\n"
"  gemmprof help plot\n"
"  gemmprof help\n", f);
}

static int cmd_help(int argc, char **argv)
{
    if (argc > 2) {
        gp_error("help: one COMMAND at most (see gemmprof help --help)");
        return 2;
    }
    const char *word = argc == 2 ? argv[1] : "run";
    if (strcmp(word, "--version") == 0 || strcmp(word, "-V") == 0)
        return gp_print_version(stdout);
    if (strcmp(word, "help") == 0 || strcmp(word, "--help") == 0 ||
        strcmp(word, "-h") == 0) {
        help_usage(stdout);
        return 0;
    }
    const gp_command *c = gp_command_find(word);
    if (!c) {
        char list[256];
        gp_command_list(list, sizeof list);
        gp_error("help: unknown command '%s' (commands: %s)", word, list);
        return 2;
    }
    if (gp_dry_run())
        return gp_dry_run_report("help", argc, argv, "show the help of this command");
    char *args[] = { (char *)c->w.word, "--help", NULL };
    return c->fn(2, args);
}
